//! Pinpoint: one request, `GET {b}.pinpointhq.com/postings.json` (our choice: the reference
//! leaves the endpoint unspecified). Description is `description` plus the responsibilities,
//! skills and benefits sections under their headers; salary from `compensation_*` only when
//! `compensation_visible` is not false.
//!
//! Board URLs: `{b}.pinpointhq.com`; the board is one DNS label.

use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;

use super::common::{
    build_url, employment_type, host_label, host_label_board, id_text, salary, workplace_mode,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    tenant_hosts: &[".pinpointhq.com"],
    ..Platform::of::<Pinpoint>("pinpoint", |base| Arc::new(Pinpoint(base)))
};

pub(crate) struct Pinpoint(Base);

#[derive(Deserialize)]
struct Postings {
    data: Vec<Posting>,
}

#[derive(Deserialize)]
struct Posting {
    id: serde_json::Value,
    title: String,
    url: Option<String>,
    path: Option<String>,
    description: Option<String>,
    key_responsibilities_header: Option<String>,
    key_responsibilities: Option<String>,
    skills_knowledge_expertise_header: Option<String>,
    skills_knowledge_expertise: Option<String>,
    benefits_header: Option<String>,
    benefits: Option<String>,
    workplace_type: Option<String>,
    employment_type: Option<String>,
    compensation_minimum: Option<f64>,
    compensation_maximum: Option<f64>,
    compensation_currency: Option<String>,
    compensation_frequency: Option<String>,
    compensation_visible: Option<bool>,
    published_at: Option<String>,
    job: Option<JobRef>,
    department: Option<Named>,
    location: Option<Named>,
}

#[derive(Deserialize)]
struct JobRef {
    department: Option<Named>,
}

#[derive(Deserialize)]
struct Named {
    name: Option<String>,
}

fn section(html: &mut String, header: Option<&str>, default: &str, body: Option<&str>) {
    let body = body.unwrap_or_default();
    if body.trim().is_empty() {
        return;
    }
    let header = header.map(str::trim).filter(|h| !h.is_empty()).unwrap_or(default);
    html.push_str(&format!("<h3>{}</h3>{body}", html_escape::encode_text(header)));
}

fn posting(board: &str, p: Posting) -> Option<RawPosting> {
    let native_id = id_text(&p.id)?;
    let mut html = p.description.clone().unwrap_or_default();
    section(
        &mut html,
        p.key_responsibilities_header.as_deref(),
        "Key responsibilities",
        p.key_responsibilities.as_deref(),
    );
    section(
        &mut html,
        p.skills_knowledge_expertise_header.as_deref(),
        "Skills, knowledge and expertise",
        p.skills_knowledge_expertise.as_deref(),
    );
    section(&mut html, p.benefits_header.as_deref(), "Benefits", p.benefits.as_deref());
    let url = p.url.filter(|u| !u.trim().is_empty()).unwrap_or_else(|| {
        format!("https://{board}.pinpointhq.com{}", p.path.as_deref().unwrap_or_default())
    });
    let salary = if p.compensation_visible == Some(false) {
        None
    } else {
        salary(
            p.compensation_minimum,
            p.compensation_maximum,
            p.compensation_currency.as_deref(),
            p.compensation_frequency.as_deref(),
        )
    };
    let department = p.job.and_then(|j| j.department).or(p.department).and_then(|d| d.name);
    let work_mode = p.workplace_type.as_deref().and_then(workplace_mode);
    let mut out = RawPosting {
        native_id,
        url,
        title: p.title.trim().to_owned(),
        location: p.location.and_then(|l| l.name).unwrap_or_default().trim().to_owned(),
        description_html: html,
        posted_at: p.published_at.map(RawDate::Text),
        remote: work_mode.map(|m| m == freehire_domain::WorkMode::Remote),
        work_mode,
        employment_type: p.employment_type.as_deref().and_then(employment_type),
        salary,
        departments: department.into_iter().collect(),
        ..RawPosting::default()
    };
    out.canonicalize();
    Some(out)
}

#[async_trait::async_trait]
impl Source for Pinpoint {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: false }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        host_label_board(key)
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = url.tenant(".pinpointhq.com")?;
        let canonical = format!("https://{board}.pinpointhq.com");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let b = host_label(self.0.provider.as_str(), &board.key.board)?;
        let url = build_url(&format!("{b}.pinpointhq.com"), &["postings.json"], &[])?;
        let page: Postings = self.0.listing(&url, b).await?;
        Ok(BoardListing {
            postings: page.data.into_iter().filter_map(|p| posting(b, p)).collect(),
            ..BoardListing::default()
        })
    }
}
