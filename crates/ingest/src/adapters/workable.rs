//! Workable: one request, `GET apply.workable.com/api/v1/widget/accounts/{b}?details=true`.
//! The widget repeats a job once per location: rows are merged by `shortcode`, unioning
//! locations and countries.
//!
//! Board URLs: `apply.workable.com/{b}`, `{b}.workable.com` and the API URLs; the site's own
//! first segments ([`RESERVED`]) are never a board.

use std::sync::Arc;

use serde::Deserialize;

use super::common::{
    add_location, build_url, country, employment_type, join_non_empty, path_segment,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, path_board};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform =
    Platform::of::<Workable>("workable", |base| Arc::new(Workable(base)));

/// First path segments of `apply.workable.com` that are the site's own, never an account:
/// no URL form may name them as a board (its canonical URL would not be a board's).
const RESERVED: &[&str] = &["j", "api", "careers"];

pub(crate) struct Workable(Base);

#[derive(Deserialize)]
struct Account {
    name: Option<String>,
    #[serde(default)]
    jobs: Vec<Job>,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
struct Job {
    title: String,
    shortcode: String,
    #[serde(default)]
    url: String,
    description: Option<String>,
    published_on: Option<String>,
    created_at: Option<String>,
    city: Option<String>,
    state: Option<String>,
    country: Option<String>,
    telecommuting: Option<bool>,
    #[serde(alias = "type")]
    employment_type: Option<String>,
    department: Option<String>,
    #[serde(default)]
    locations: Vec<Loc>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Loc {
    country: Option<String>,
    country_code: Option<String>,
    city: Option<String>,
    region: Option<String>,
}

fn s(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or_default()
}

fn merge(into: &mut RawPosting, job: &Job) {
    if job.locations.is_empty() {
        add_location(
            &mut into.location,
            &join_non_empty([s(&job.city), s(&job.state), s(&job.country)], ", "),
        );
        into.countries.extend(job.country.as_deref().and_then(country));
    }
    for l in &job.locations {
        add_location(
            &mut into.location,
            &join_non_empty([s(&l.city), s(&l.region), s(&l.country)], ", "),
        );
        into.countries.extend(l.country_code.as_deref().or(l.country.as_deref()).and_then(country));
    }
}

#[async_trait::async_trait]
impl Source for Workable {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: false }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = if url.host() == "apply.workable.com" {
            match url.segments() {
                ["api", "v1", "widget", "accounts", b, ..] | ["api", "v3", "accounts", b, ..] => {
                    path_board(b)?
                }
                [first, ..] => path_board(first)?,
                [] => return None,
            }
        } else {
            url.tenant(".workable.com")?
        };
        if RESERVED.contains(&board.as_str()) {
            return None;
        }
        let canonical = format!("https://apply.workable.com/{board}");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let url = build_url(
            "apply.workable.com",
            &["api", "v1", "widget", "accounts", b],
            &[("details", "true")],
        )?;
        let account: Account = self.0.listing(&url, b).await?;
        let company = account.name.filter(|n| !n.trim().is_empty());
        let mut postings: Vec<RawPosting> = Vec::new();
        for job in account.jobs {
            if let Some(p) = postings.iter_mut().find(|p| p.native_id == job.shortcode) {
                merge(p, &job);
                continue;
            }
            let mut p = RawPosting {
                native_id: job.shortcode.clone(),
                url: job.url.clone(),
                title: job.title.trim().to_owned(),
                company: company.clone(),
                description_html: job.description.clone().unwrap_or_default(),
                posted_at: job.published_on.clone().or(job.created_at.clone()).map(RawDate::Text),
                remote: job.telecommuting,
                work_mode: (job.telecommuting == Some(true))
                    .then_some(freehire_domain::WorkMode::Remote),
                employment_type: job.employment_type.as_deref().and_then(employment_type),
                departments: job.department.clone().into_iter().collect(),
                ..RawPosting::default()
            };
            merge(&mut p, &job);
            postings.push(p);
        }
        postings.iter_mut().for_each(RawPosting::canonicalize);
        Ok(BoardListing { postings, ..BoardListing::default() })
    }
}
