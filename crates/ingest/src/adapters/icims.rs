//! iCIMS: the portal's sitemap, then each job page's schema.org `JobPosting`.
//!
//! - Listing: `GET https://{host}/sitemap.xml` and one level of sub-sitemaps (a
//!   `<sitemapindex>`), keeping the `<loc>`s on the portal host whose path has
//!   `/jobs/{numeric id}`. Any sub-sitemap failure (or one on another host) fails the board.
//! - Our fallback where an `*.icims.com` portal has no sitemap (404) or its sitemap names no
//!   job (an empty sitemap alone never proves an empty board): the portal's iframe
//!   search pages `GET https://{host}/jobs/search?pr={n}&in_iframe=1`, walked until a page
//!   adds no new job (a failed page or the page cap fails the board); each job card gives the
//!   id, URL, title (`<h3>`) and "Job Locations" text.
//! - Detail: `GET {job url}?in_iframe=1` (a vanity host's jobs are at
//!   `/careers-home/jobs/{id}`), read from its ld+json `JobPosting`; iCIMS "UNAVAILABLE"
//!   address placeholders are blank. Hydrating.
//!
//! A full-listing provider. Board: the portal slug (`acme` for `careers-acme.icims.com`), or
//! a whole host (another `*-acme.icims.com` portal, or a vanity careers host). Identity fold:
//! `careers-acme.icims.com` ≡ `acme`. Recognition (mode `icims`): `careers-{slug}.icims.com`
//! gives the slug; another `{portal}-{company}.icims.com` host gives the host. Vanity hosts
//! are not recognisable without a request.
//!
//! Proven on a recorded response: careerkit `icims.html` (Wipfli's iframe search page), as
//! the search-page listing. The sitemap path and the job pages are exercised on documents
//! derived from it (its job URLs; a schema.org `JobPosting` page).

use std::collections::HashSet;
use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use url::Url;

use super::common::{build_url, hydrate, invalid_board, is_dns_label, is_host_name, no_region};
use super::htmlpage::{anchors, chunks, element, no_job_posting, page_posting, text};
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[
        ("icims.detail", parse_detail),
        ("icims.search", parse_search),
        ("icims.sitemap", parse_sitemap),
    ],
    fold: fold_board,
    ..Platform::of::<Icims>("icims", |base| Arc::new(Icims(base)))
};

/// Safety cap on search pages; reaching it fails the board.
const MAX_PAGES: usize = 500;
/// Most sub-sitemaps read from one index; more fails the board.
const MAX_SUB_SITEMAPS: usize = 100;

pub(crate) struct Icims(Base);

/// `careers-acme.icims.com` ≡ `acme`.
fn fold_board(board: &str) -> Option<String> {
    let slug = board.strip_prefix("careers-")?.strip_suffix(".icims.com")?;
    is_dns_label(slug).then(|| slug.to_owned())
}

/// The portal host of a board: a slug names `careers-{slug}.icims.com`; a host is kept.
fn portal_host(board: &str) -> Result<String, IngestError> {
    let board = board.trim().to_ascii_lowercase();
    if board.contains('.') {
        if is_host_name(&board) {
            return Ok(board);
        }
    } else if is_dns_label(&board) {
        return Ok(format!("careers-{board}.icims.com"));
    }
    Err(invalid_board("icims", &board, "must be a portal slug or a careers host"))
}

#[derive(Deserialize, Default)]
struct Sitemap {
    #[serde(rename = "url", default)]
    urls: Vec<Loc>,
    #[serde(rename = "sitemap", default)]
    sitemaps: Vec<Loc>,
}

#[derive(Deserialize)]
struct Loc {
    loc: String,
}

/// A listed job: its public URL (no query) and what its card says.
#[derive(Debug, Clone)]
struct Listed {
    url: Url,
    title: Option<String>,
    location: Option<String>,
}

/// A job link on the portal host: `(id, URL without query)`, for a path with
/// `/jobs/{numeric id}`.
fn job_link(host: &str, base: &Url, raw: &str) -> Option<(String, Url)> {
    let mut url = base.join(raw.trim()).ok()?;
    if !matches!(url.scheme(), "https" | "http") || url.host_str() != Some(host) {
        return None;
    }
    let segments: Vec<&str> = url.path_segments()?.collect();
    let id = segments
        .windows(2)
        .find(|w| w[0] == "jobs" && !w[1].is_empty() && w[1].bytes().all(|b| b.is_ascii_digit()))
        .map(|w| w[1].to_owned())?;
    url.set_query(None);
    url.set_fragment(None);
    Some((id, url))
}

/// The job cards of a search page (`iCIMS_JobCardItem`: an anchor, an `<h3>` title, a
/// "Job Locations" field); a page without cards gives its job-link anchors.
fn search_cards(host: &str, base: &Url, page: &str) -> Vec<(String, Listed)> {
    let cards = chunks(page, "iCIMS_JobCardItem");
    if cards.is_empty() {
        return anchors(page)
            .into_iter()
            .filter_map(|a| {
                let (id, url) = job_link(host, base, &a.href)?;
                let title = Some(a.text).filter(|t| !t.is_empty());
                Some((id, Listed { url, title, location: None }))
            })
            .collect();
    }
    cards
        .into_iter()
        .filter_map(|card| {
            let a = anchors(card).into_iter().find(|a| job_link(host, base, &a.href).is_some())?;
            let (id, url) = job_link(host, base, &a.href)?;
            let title = element(&a.inner, "h3", 0).map(|(h, _)| text(h)).unwrap_or(a.text);
            let location = card
                .find("Job Locations")
                .and_then(|at| element(card, "span", at))
                .map(|(s, _)| text(s))
                .filter(|l| !l.is_empty());
            Some((id, Listed { url, title: Some(title).filter(|t| !t.is_empty()), location }))
        })
        .collect()
}

/// A job page mapped to a posting: its JobPosting, else the card's title and location.
fn detail_posting(id: String, listed: &Listed, page: &str) -> Option<RawPosting> {
    let (title, location) = (listed.title.as_deref(), listed.location.as_deref());
    page_posting(page, id, listed.url.to_string(), title, location)
}

fn fuzz_base() -> Option<Url> {
    Url::parse("https://careers-x.icims.com/").ok()
}

/// A search page parsed as `fetch` parses it (a fuzz entry point).
fn parse_search(bytes: &[u8]) {
    let Some(base) = fuzz_base() else { return };
    drop(search_cards("careers-x.icims.com", &base, &String::from_utf8_lossy(bytes)));
}

/// A sitemap decoded and filtered as `fetch` does (a fuzz entry point).
fn parse_sitemap(bytes: &[u8]) {
    let Some(base) = fuzz_base() else { return };
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    if let Ok(doc) = quick_xml::de::from_str::<Sitemap>(text) {
        for loc in doc.urls.iter().chain(&doc.sitemaps) {
            drop(job_link("careers-x.icims.com", &base, &loc.loc));
        }
    }
}

/// A job page mapped as `fetch` maps it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    let Some(url) = fuzz_base() else { return };
    let listed = Listed { url, title: Some("t".into()), location: None };
    drop(detail_posting("1".into(), &listed, &String::from_utf8_lossy(bytes)));
}

impl Icims {
    /// The jobs of the portal's sitemap (one level of sub-sitemaps), or `None` when an
    /// `*.icims.com` portal has none (404).
    async fn list_sitemap(
        &self,
        host: &str,
        board: &str,
    ) -> Result<Option<Vec<(String, Listed)>>, IngestError> {
        let url = build_url(host, &["sitemap.xml"], &[])?;
        let doc: Sitemap = match self.0.http.get_xml(&url).await {
            Ok(doc) => doc,
            Err(e) if e.is_not_found() && host.ends_with(".icims.com") => return Ok(None),
            Err(e) => return Err(e.board_gone_on_404(board)),
        };
        if doc.sitemaps.len() > MAX_SUB_SITEMAPS {
            return Err(IngestError::Incomplete {
                board: board.to_owned(),
                reason: format!("more than {MAX_SUB_SITEMAPS} sub-sitemaps"),
            });
        }
        let mut locs = doc.urls;
        for sub in doc.sitemaps {
            let sub_url = url.join(sub.loc.trim()).ok().filter(|u| u.host_str() == Some(host));
            let Some(sub_url) = sub_url else {
                return Err(IngestError::Incomplete {
                    board: board.to_owned(),
                    reason: format!("sub-sitemap {:?} is not on {host}", sub.loc),
                });
            };
            let sub: Sitemap = self.0.http.get_xml(&sub_url).await?;
            locs.extend(sub.urls);
        }
        let mut seen = HashSet::new();
        Ok(Some(
            locs.into_iter()
                .filter_map(|l| job_link(host, &url, &l.loc))
                .filter(|(id, _)| seen.insert(id.clone()))
                .map(|(id, url)| (id, Listed { url, title: None, location: None }))
                .collect(),
        ))
    }

    /// The jobs of the portal's iframe search pages, until a page adds nothing new.
    async fn list_search(
        &self,
        host: &str,
        board: &str,
    ) -> Result<Vec<(String, Listed)>, IngestError> {
        let mut walk = Walk::new(board);
        for page_no in 0..MAX_PAGES {
            let pr = page_no.to_string();
            let url = build_url(host, &["jobs", "search"], &[("pr", &pr), ("in_iframe", "1")])?;
            let fetched = self.0.http.get(&url, "text/html").await;
            let fetched = if page_no == 0 {
                fetched.map_err(|e| e.board_gone_on_404(board))?
            } else {
                fetched?
            };
            let page = String::from_utf8_lossy(&fetched.body);
            // The search pages state no total: a page adding nothing new is the end.
            let cards = search_cards(host, &url, &page);
            let rows = cards.into_iter().map(|(id, listed)| Some((id.clone(), (id, listed))));
            if walk.take(rows, PageEnd::total(None))? == Step::Done {
                return Ok(walk.into_items());
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, "search pages"))
    }

    async fn detail(&self, id: String, listed: Listed) -> Result<RawPosting, IngestError> {
        let mut url = listed.url.clone();
        url.set_query(Some("in_iframe=1"));
        let fetched = self.0.http.get(&url, "text/html").await?;
        let page = String::from_utf8_lossy(&fetched.body);
        detail_posting(id, &listed, &page).ok_or_else(|| no_job_posting(&url))
    }
}

#[async_trait::async_trait]
impl Source for Icims {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        portal_host(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let host = url.host();
        let label = host.strip_suffix(".icims.com")?;
        let (portal, company) = label.split_once('-')?;
        if portal.is_empty() || !is_dns_label(label) || !is_dns_label(company) {
            return None;
        }
        let board = if portal == "careers" { company.to_owned() } else { host.to_owned() };
        Some(BoardMatch::new(board, format!("https://{host}/jobs")))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let host = portal_host(&board.key.board)?;
        // A portal without a sitemap, or whose sitemap names no job, is read from its search
        // pages: an empty sitemap alone never proves an empty board.
        let listed = match self.list_sitemap(&host, &board.key.board).await? {
            Some(listed) if !listed.is_empty() || !host.ends_with(".icims.com") => listed,
            _ => self.list_search(&host, &board.key.board).await?,
        };
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |id, listed| self.detail(id, listed)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_and_links() {
        assert_eq!(portal_host("acme").unwrap(), "careers-acme.icims.com");
        assert_eq!(portal_host("Jobs-Acme.icims.com").unwrap(), "jobs-acme.icims.com");
        for bad in ["", "a/b", "127.0.0.1", "a..b", "-a"] {
            assert!(portal_host(bad).is_err(), "{bad}");
        }
        assert_eq!(fold_board("careers-acme.icims.com").as_deref(), Some("acme"));
        assert_eq!(fold_board("jobs-acme.icims.com"), None);
        let base = Url::parse("https://careers-acme.icims.com/jobs/search?pr=0").unwrap();
        let (id, url) =
            job_link("careers-acme.icims.com", &base, "/jobs/12/x/job?in_iframe=1").unwrap();
        assert_eq!(
            (id.as_str(), url.as_str()),
            ("12", "https://careers-acme.icims.com/jobs/12/x/job")
        );
        assert!(
            job_link("careers-acme.icims.com", &base, "https://evil.com/jobs/12/job").is_none()
        );
        assert!(job_link("careers-acme.icims.com", &base, "/jobs/search?pr=1").is_none());
    }
}
