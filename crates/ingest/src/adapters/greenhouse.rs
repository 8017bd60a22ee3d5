//! Greenhouse: one request, `GET boards-api.greenhouse.io/v1/boards/{b}/jobs?content=true`.
//! `content` is entity-encoded HTML, unescaped before sanitising. Employment type comes from
//! the "Employment Type" metadata field. The board's "about" text (`GET …/v1/boards/{b}`) is
//! read into `company_description`; its failure never fails the board.
//!
//! Board URLs: `job-boards.greenhouse.io/{b}` (or `boards.`), the embed form
//! `…/embed/job_board?for={b}`, and the API URL.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use super::common::{build_url, employment_type, id_text, path_segment};
use super::{Base, Platform};
use crate::IngestError;
use crate::error_chain;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, path_board};
use crate::sanitize::{decode_encoded_html, sanitize_maybe_encoded_html};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("greenhouse.listing", parse_listing)],
    ..Platform::of::<Greenhouse>("greenhouse", |base| Arc::new(Greenhouse(base)))
};

pub(crate) struct Greenhouse(Base);

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

/// The listing document decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(board) = serde_json::from_slice::<Board>(bytes) {
        board.jobs.into_iter().filter_map(posting).for_each(drop);
    }
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
                tracing::debug!(
                    board = b,
                    error = %error_chain(&e),
                    "greenhouse board about unreadable",
                );
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

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = match (url.host(), url.segments()) {
            ("boards-api.greenhouse.io", ["v1", "boards", b, ..]) => path_board(b)?,
            ("boards.greenhouse.io" | "job-boards.greenhouse.io", ["embed", ..]) => {
                path_board(&url.query("for")?)?
            }
            ("boards.greenhouse.io" | "job-boards.greenhouse.io", [first, ..]) => {
                path_board(first)?
            }
            _ => return None,
        };
        let canonical = format!("https://job-boards.greenhouse.io/{board}");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let url = build_url(
            "boards-api.greenhouse.io",
            &["v1", "boards", b, "jobs"],
            &[("content", "true")],
        )?;
        let page: Board = self.0.listing(&url, b).await?;
        Ok(BoardListing {
            postings: page.jobs.into_iter().filter_map(posting).collect(),
            company_description: self.about(b).await,
            ..BoardListing::default()
        })
    }
}
