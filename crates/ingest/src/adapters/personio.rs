//! Personio: one XML document, `GET {b}.jobs.personio.com/xml`. Language fallback: when the
//! document has no positions, or positions without a description, `/xml?language=en` is read
//! and fills them in (a failing fallback keeps what the first document said); a position still
//! without a description gets it from its page's ld+json (`/job/{id}`, at most
//! `detail_concurrency` at a time; a failing page leaves it empty). Repeated positions are
//! merged by id. `<workzag-jobs/>` is an empty board.
//!
//! Board URLs: `{b}.jobs.personio.com` (or `.de`); the board is one DNS label.

use futures::StreamExt;
use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;

use super::common::{
    add_location, build_url, experience_years_min, host_label, host_label_board, seniority,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::error_chain;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::sanitize::decode_maybe_encoded_html;
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    tenant_hosts: &[".jobs.personio.com", ".jobs.personio.de"],
    ..Platform::of::<Personio>("personio", |base| Arc::new(Personio(base)))
};

pub(crate) struct Personio(Base);

#[derive(Deserialize, Default)]
struct Doc {
    #[serde(rename = "position", default)]
    positions: Vec<Position>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Position {
    id: String,
    subcompany: Option<String>,
    office: Option<String>,
    additional_offices: Option<Offices>,
    department: Option<String>,
    name: String,
    job_descriptions: Option<Descriptions>,
    employment_type: Option<String>,
    seniority: Option<String>,
    schedule: Option<String>,
    years_of_experience: Option<String>,
    created_at: Option<String>,
}

#[derive(Deserialize)]
struct Offices {
    #[serde(rename = "office", default)]
    offices: Vec<String>,
}

#[derive(Deserialize)]
struct Descriptions {
    #[serde(rename = "jobDescription", default)]
    items: Vec<Description>,
}

#[derive(Deserialize)]
struct Description {
    name: Option<String>,
    value: Option<String>,
}

fn description_html(p: &Position) -> String {
    let mut html = String::new();
    for d in p.job_descriptions.iter().flat_map(|d| &d.items) {
        let value = d.value.as_deref().unwrap_or_default();
        if value.trim().is_empty() {
            continue;
        }
        if let Some(name) = d.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            html.push_str(&format!("<h3>{}</h3>", html_escape::encode_text(name)));
        }
        html.push_str(value);
    }
    html
}

/// Employment type from `employmentType` (intern, freelance) or else `schedule`.
fn employment(p: &Position) -> Option<freehire_domain::EmploymentType> {
    use freehire_domain::EmploymentType as E;
    match p.employment_type.as_deref().map(str::trim) {
        Some("intern") => return Some(E::Internship),
        Some("freelance") => return Some(E::Contract),
        _ => {}
    }
    match p.schedule.as_deref().map(str::trim) {
        Some("full-time") => Some(E::FullTime),
        Some("part-time") => Some(E::PartTime),
        _ => None,
    }
}

fn posting(board: &str, p: &Position) -> RawPosting {
    let mut location = String::new();
    add_location(&mut location, p.office.as_deref().unwrap_or_default());
    for o in p.additional_offices.iter().flat_map(|a| &a.offices) {
        add_location(&mut location, o);
    }
    let mut out = RawPosting {
        native_id: p.id.trim().to_owned(),
        url: format!("https://{board}.jobs.personio.com/job/{}", p.id.trim()),
        title: p.name.trim().to_owned(),
        company: p.subcompany.clone().filter(|s| !s.trim().is_empty()),
        location,
        description_html: description_html(p),
        posted_at: p.created_at.clone().map(RawDate::Text),
        employment_type: employment(p),
        seniority: p.seniority.as_deref().and_then(seniority),
        experience_years_min: p.years_of_experience.as_deref().and_then(experience_years_min),
        departments: p.department.clone().into_iter().collect(),
        ..RawPosting::default()
    };
    out.canonicalize();
    out
}

fn postings(board: &str, doc: &Doc) -> Vec<RawPosting> {
    let mut out: Vec<RawPosting> = Vec::new();
    for p in &doc.positions {
        if !out.iter().any(|o| o.native_id == p.id.trim()) {
            out.push(posting(board, p));
        }
    }
    out
}

impl Personio {
    /// The description from the posting page's ld+json, or empty.
    async fn page_description(&self, host: &str, id: &str) -> String {
        let page = match build_url(host, &["job", id], &[]) {
            Ok(url) => self.0.http.get(&url, "text/html").await,
            Err(e) => Err(e),
        };
        let text = match page {
            Ok(p) => String::from_utf8_lossy(&p.body).into_owned(),
            Err(e) => {
                tracing::debug!(host, id, error = %error_chain(&e), "personio job page unreadable");
                return String::new();
            }
        };
        let html = super::ldjson::job_posting(&text)
            .and_then(|jp| jp.get("description").and_then(|d| d.as_str()).map(str::to_owned))
            .unwrap_or_default();
        decode_maybe_encoded_html(&html)
    }
}

#[async_trait::async_trait]
impl Source for Personio {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: false }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        host_label_board(key)
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = url.tenant(".jobs.personio.com").or_else(|| url.tenant(".jobs.personio.de"))?;
        let canonical = format!("https://{board}.jobs.personio.com");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let b = host_label(self.0.provider.as_str(), &board.key.board)?;
        let host = format!("{b}.jobs.personio.com");
        let url = build_url(&host, &["xml"], &[])?;
        let doc: Doc = self.0.http.get_xml(&url).await.map_err(|e| e.board_gone_on_404(b))?;
        let mut out = postings(b, &doc);
        if out.is_empty() || out.iter().any(|p| p.description_html.is_empty()) {
            let en_url = build_url(&host, &["xml"], &[("language", "en")])?;
            match self.0.http.get_xml::<Doc>(&en_url).await {
                Ok(en) => {
                    let en = postings(b, &en);
                    if out.is_empty() {
                        out = en;
                    } else {
                        for p in out.iter_mut().filter(|p| p.description_html.is_empty()) {
                            if let Some(e) = en.iter().find(|e| e.native_id == p.native_id) {
                                p.description_html = e.description_html.clone();
                            }
                        }
                    }
                }
                Err(e) => {
                    tracing::debug!(
                        board = b,
                        error = %error_chain(&e),
                        "personio language fallback failed",
                    )
                }
            }
        }
        let missing: Vec<usize> =
            (0..out.len()).filter(|i| out[*i].description_html.is_empty()).collect();
        let pages = futures::stream::iter(missing.into_iter().map(|i| {
            let id = out[i].native_id.clone();
            let host = host.as_str();
            async move { (i, self.page_description(host, &id).await) }
        }))
        .buffered(self.0.config.detail_concurrency.max(1))
        .collect::<Vec<_>>()
        .await;
        for (i, html) in pages {
            out[i].description_html = html;
        }
        Ok(BoardListing { postings: out, ..BoardListing::default() })
    }
}
