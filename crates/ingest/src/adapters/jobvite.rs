//! Jobvite: the company's public jobs page, then each job page's schema.org `JobPosting`.
//!
//! - Listing: HTML `GET https://jobs.jobvite.com/{b}/jobs`, one page (reference §13.2): the
//!   rows' `/{b}/job/{code}` links, their text as the title and the row's
//!   `jv-job-list-location` cell as the location.
//! - Detail: `GET https://jobs.jobvite.com/{b}/job/{code}`, its ld+json `JobPosting` (title,
//!   description, datePosted, employmentType, jobLocation, baseSalary); without one, the
//!   row's title and location stand. Hydrating.
//!
//! A full-listing provider: the listing is one page, so a failed listing fails the board and
//! a 404 is a gone board. Board: the company slug, one path segment. Recognition (mode
//! `path`): `jobs.jobvite.com/{b}[/…]`.
//!
//! Proven on a recorded response: careerkit `jobvite.html` (Feeding America's public jobs
//! list). The job pages in the tests are derived (a schema.org `JobPosting` block).

use std::collections::HashSet;
use std::sync::Arc;

use url::Url;

use super::common::{build_url, hydrate, path_segment};
use super::htmlpage::{anchors, chunks, class_text, no_job_posting, page_posting};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, path_board};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("jobvite.detail", parse_detail), ("jobvite.listing", parse_listing)],
    ..Platform::of::<Jobvite>("jobvite", |base| Arc::new(Jobvite(base)))
};

const HOST: &str = "jobs.jobvite.com";
/// First path segments of the jobs site that are its own, never a company.
const RESERVED: &[&str] = &["api", "static", "assets", "__assets", "css", "js", "images"];

pub(crate) struct Jobvite(Base);

/// A listed job: its row's title and location.
#[derive(Debug, Clone, Default)]
struct Row {
    title: Option<String>,
    location: Option<String>,
}

/// The job code of a `/{b}/job/{code}` link of this board.
fn job_code(board: &str, base: &Url, href: &str) -> Option<String> {
    let url = base.join(href.trim()).ok()?;
    if url.host_str() != Some(HOST) {
        return None;
    }
    match url.path_segments()?.collect::<Vec<_>>()[..] {
        [b, "job", code, ..] if b.eq_ignore_ascii_case(board) => path_board(code),
        _ => None,
    }
}

/// The jobs of a listing page, by code, in page order: each table row's job link, title and
/// location cell; a page without rows gives its job links.
fn listing(board: &str, base: &Url, page: &str) -> Vec<(String, Row)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let rows = chunks(page, "<tr");
    let blocks: Vec<&str> = if rows.is_empty() { vec![page] } else { rows };
    for block in blocks {
        for a in anchors(block) {
            let Some(code) = job_code(board, base, &a.href) else { continue };
            if !seen.insert(code.clone()) {
                continue;
            }
            let title = Some(a.text).filter(|t| !t.is_empty());
            let location = class_text(block, "jv-job-list-location");
            out.push((code, Row { title, location }));
        }
    }
    out
}

fn job_url(board: &str, code: &str) -> Result<Url, IngestError> {
    build_url(HOST, &[board, "job", code], &[])
}

fn fuzz_base() -> Option<Url> {
    Url::parse("https://jobs.jobvite.com/acme/jobs").ok()
}

/// A listing page parsed as `fetch` parses it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    let Some(base) = fuzz_base() else { return };
    drop(listing("acme", &base, &String::from_utf8_lossy(bytes)));
}

/// A job page mapped as `fetch` maps it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    let page = String::from_utf8_lossy(bytes);
    drop(page_posting(&page, "x".into(), String::new(), Some("t"), None));
}

impl Jobvite {
    async fn detail(&self, board: &str, code: String, row: Row) -> Result<RawPosting, IngestError> {
        let url = job_url(board, &code)?;
        let fetched = self.0.http.get(&url, "text/html").await?;
        let page = String::from_utf8_lossy(&fetched.body);
        let (title, location) = (row.title.as_deref(), row.location.as_deref());
        page_posting(&page, code, url.to_string(), title, location)
            .ok_or_else(|| no_job_posting(&url))
    }
}

#[async_trait::async_trait]
impl Source for Jobvite {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        if url.host() != HOST {
            return None;
        }
        let first = url.segments().first()?;
        if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(first)) {
            return None;
        }
        let board = path_board(first)?;
        let canonical = format!("https://{HOST}/{board}/jobs");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let url = build_url(HOST, &[b, "jobs"], &[])?;
        let fetched =
            self.0.http.get(&url, "text/html").await.map_err(|e| e.board_gone_on_404(b))?;
        let page = String::from_utf8_lossy(&fetched.body);
        let listed = listing(b, &url, &page);
        // Every Jobvite careers page, with or without openings, is rendered in its `jv-`
        // classes.
        super::htmlpage::empty_listing_is_the_platforms(&url, &page, listed.len(), "jv-")?;
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |code, row| self.detail(b, code, row)).await)
    }
}
