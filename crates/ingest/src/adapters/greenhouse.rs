//! Greenhouse: one request, `GET boards-api.greenhouse.io/v1/boards/{b}/jobs?content=true`.
//! `content` is entity-encoded HTML, unescaped before sanitising. Employment type comes from
//! the "Employment Type" metadata field. The board's "about" text (`GET …/v1/boards/{b}`) is
//! read into `company_description`; its failure never fails the board.

use serde::Deserialize;
use serde_json::Value;

use super::Base;
use super::common::{build_url, employment_type};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting};
use crate::sanitize::{decode_encoded_html, sanitize_maybe_encoded_html};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) struct Greenhouse(pub(crate) Base);

#[derive(Deserialize)]
struct Board {
    jobs: Vec<Job>,
}

#[derive(Deserialize)]
struct Job {
    id: Value,
    title: String,
    #[serde(default)]
    absolute_url: String,
    updated_at: Option<String>,
    first_published: Option<String>,
    content: Option<String>,
    location: Option<Named>,
    #[serde(default)]
    metadata: Option<Vec<Meta>>,
    company_name: Option<String>,
    #[serde(default)]
    departments: Vec<Named>,
}

#[derive(Deserialize)]
struct About {
    content: Option<String>,
}

#[derive(Deserialize)]
struct Named {
    name: Option<String>,
}

#[derive(Deserialize)]
struct Meta {
    name: String,
    value: Value,
}

/// A JSON id that may be a number or a string.
pub(crate) fn id_text(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        _ => None,
    }
}

fn posting(job: Job) -> Option<RawPosting> {
    let native_id = id_text(&job.id)?;
    let employment = job
        .metadata
        .iter()
        .flatten()
        .find(|m| m.name.eq_ignore_ascii_case("Employment Type"))
        .and_then(|m| m.value.as_str())
        .and_then(employment_type);
    let mut p = RawPosting {
        native_id,
        url: job.absolute_url,
        title: job.title.trim().to_owned(),
        company: job.company_name.map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()),
        location: job.location.and_then(|l| l.name).unwrap_or_default().trim().to_owned(),
        description_html: job.content.as_deref().map(decode_encoded_html).unwrap_or_default(),
        posted_at: job.first_published.or(job.updated_at).map(RawDate::Text),
        employment_type: employment,
        departments: job.departments.into_iter().filter_map(|d| d.name).collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

impl Greenhouse {
    /// The board's "about" text (`GET /v1/boards/{b}`); a failure only loses the text.
    async fn about(&self, b: &str) -> Option<String> {
        let url = build_url("boards-api.greenhouse.io", &["v1", "boards", b], &[]).ok()?;
        match self.0.http.get_json::<About>(&url).await {
            Ok(about) => {
                about.content.as_deref().map(sanitize_maybe_encoded_html).filter(|c| !c.is_empty())
            }
            Err(e) => {
                tracing::debug!(board = b, error = %e, "greenhouse board about unreadable");
                None
            }
        }
    }
}

#[async_trait::async_trait]
impl Source for Greenhouse {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: false }
    }

    async fn fetch(&self, board: &BoardTarget) -> Result<BoardListing, IngestError> {
        let b = board.key.board.as_str();
        let url = build_url(
            "boards-api.greenhouse.io",
            &["v1", "boards", b, "jobs"],
            &[("content", "true")],
        )?;
        let page: Board = self.0.http.get_json(&url).await.map_err(|e| e.board_gone_on_404(b))?;
        Ok(BoardListing {
            postings: page.jobs.into_iter().filter_map(posting).collect(),
            company_description: self.about(b).await,
            ..BoardListing::default()
        })
    }
}
