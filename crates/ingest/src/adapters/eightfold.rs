//! Eightfold: the career site's public search API.
//!
//! - Listing: `GET https://{host}/api/pcsx/search?domain={d}&query=&start=N&num=10
//!   &sort_by=relevance` (`data.positions`, `data.count`); when the site has no PCSX search
//!   (404 on its first page) the older `GET https://{host}/api/apply/v2/jobs?domain={d}
//!   &start=N&num=10` (`positions`, `count`) instead. Paged by `start` until `count`, a page
//!   adding nothing, or (no count) a short page. A full-listing provider: any later page
//!   failing or the page cap fails the board (fails closed); a 404 on both first pages is
//!   [`IngestError::BoardGone`].
//! - Detail: `GET https://{host}/api/apply/v2/jobs/{id}?domain={d}` (`job_description`,
//!   `canonicalPositionUrl`), for ids not yet seen (hydrating), two at a time (the reference's
//!   two workers). 403/429 are retried with the exponential backoff.
//!
//! Board: `host/domain` (`albemarle.eightfold.ai/albemarle.com`,
//! `apply.careers.microsoft.com/microsoft.com`). Recognised (mode `host` plus the `domain`
//! query) from any `{tenant}.eightfold.ai` URL that names its `domain` (`/careers?domain=…`,
//! `/careers/job/{id}?domain=…`, the API URLs); custom career hosts are not recognised, and a
//! URL without `domain` is never guessed.
//!
//! Deliberately absent: the reference's streaming persistence and egress proxy (this crate has
//! neither). Proven on a recorded response: the apply/v2 listing of
//! `albemarle.eightfold.ai` (careerkit `eightfold.json`); the PCSX page and the detail
//! document are derived from it in the tests.

use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use serde_json::Value;

use super::common::{
    add_location, build_url, hydrate, id_text, invalid_board, is_host_name, no_region,
    workplace_mode,
};
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::http::ProviderPolicy;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, tenant_label};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    policy: ProviderPolicy { pace_per_second: None, host_pace: None, rate_limit_backoff: true },
    parsers: &[("eightfold.listing", parse_listing), ("eightfold.detail", parse_detail)],
    ..Platform::of::<Eightfold>("eightfold", |base| Arc::new(Eightfold(base)))
};

const PAGE_SIZE: usize = 10;
/// Safety cap on pages; reaching it fails the board.
const MAX_PAGES: usize = 2000;
/// Concurrent detail requests (the reference's two workers).
const DETAIL_WORKERS: usize = 2;

pub(crate) struct Eightfold(Base);

/// A board: the career host and the company domain it lists.
struct Site {
    host: String,
    domain: String,
}

impl Site {
    fn parse(board: &str) -> Result<Self, IngestError> {
        let lower = board.trim().trim_end_matches('/').to_ascii_lowercase();
        match lower.split_once('/') {
            Some((host, domain)) if is_host_name(host) && is_host_name(domain) => {
                Ok(Self { host: host.to_owned(), domain: domain.to_owned() })
            }
            _ => Err(invalid_board(
                "eightfold",
                board,
                "must be host/domain (albemarle.eightfold.ai/albemarle.com)",
            )),
        }
    }
}

/// Which listing API a walk reads.
#[derive(Clone, Copy)]
enum Api {
    Pcsx,
    ApplyV2,
}

/// A listing page of either API: PCSX nests it under `data`.
#[derive(Deserialize, Default)]
struct Page {
    data: Option<Box<Page>>,
    #[serde(default)]
    positions: Vec<Position>,
    count: Option<usize>,
}

impl Page {
    fn parts(self) -> (Vec<Position>, Option<usize>) {
        match self.data {
            Some(inner) => (inner.positions, inner.count),
            None => (self.positions, self.count),
        }
    }
}

#[derive(Deserialize, Clone, Default)]
#[serde(rename_all = "camelCase")]
struct Position {
    id: Value,
    name: Option<String>,
    canonical_position_url: Option<String>,
    position_url: Option<String>,
    location: Option<String>,
    #[serde(default)]
    locations: Vec<String>,
    #[serde(default)]
    standardized_locations: Vec<String>,
    #[serde(rename = "job_description")]
    job_description: Option<String>,
    #[serde(rename = "t_create")]
    t_create: Option<i64>,
    posted_ts: Option<i64>,
    department: Option<String>,
    #[serde(alias = "work_location_option")]
    work_location_option: Option<String>,
}

/// Seconds since the epoch as our millisecond date; zero or negative is no date.
fn epoch_seconds(s: Option<i64>) -> Option<RawDate> {
    s.filter(|s| *s > 0).and_then(|s| s.checked_mul(1000)).map(RawDate::UnixMillis)
}

/// The posting from its listed position and, when read, its detail document.
fn posting(host: &str, listed: &Position, detail: Option<&Position>) -> Option<RawPosting> {
    let native_id = id_text(&listed.id)?;
    let mut location = String::new();
    let places = if listed.locations.is_empty() {
        &listed.standardized_locations
    } else {
        &listed.locations
    };
    for l in places {
        add_location(&mut location, l);
    }
    if location.is_empty() {
        add_location(&mut location, listed.location.as_deref().unwrap_or_default());
    }
    let absolute = |u: &str| -> Option<String> {
        let u = u.trim();
        if u.is_empty() {
            None
        } else if u.starts_with('/') {
            Some(format!("https://{host}{u}"))
        } else {
            Some(u.to_owned())
        }
    };
    let url = detail
        .and_then(|d| d.canonical_position_url.as_deref())
        .and_then(absolute)
        .or_else(|| listed.canonical_position_url.as_deref().and_then(absolute))
        .or_else(|| listed.position_url.as_deref().and_then(absolute))
        .unwrap_or_else(|| format!("https://{host}/careers/job/{native_id}"));
    let description = detail
        .and_then(|d| d.job_description.clone())
        .or_else(|| listed.job_description.clone())
        .unwrap_or_default();
    let work_mode = listed.work_location_option.as_deref().and_then(workplace_mode);
    let mut p = RawPosting {
        native_id,
        url,
        title: listed.name.as_deref().unwrap_or_default().trim().to_owned(),
        location,
        description_html: description,
        posted_at: epoch_seconds(listed.t_create.or(listed.posted_ts)),
        remote: work_mode.map(|m| m == freehire_domain::WorkMode::Remote),
        work_mode,
        departments: listed.department.iter().map(|d| d.trim().to_owned()).collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

/// A listing page decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(page) = serde_json::from_slice::<Page>(bytes) {
        let (positions, _) = page.parts();
        positions.iter().filter_map(|p| posting("x.eightfold.ai", p, None)).for_each(drop);
    }
}

/// A detail document decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    if let Ok(d) = serde_json::from_slice::<Position>(bytes) {
        drop(posting("x.eightfold.ai", &Position::default(), Some(&d)));
    }
}

impl Eightfold {
    fn page_url(site: &Site, api: Api, start: usize) -> Result<url::Url, IngestError> {
        let start = start.to_string();
        let num = PAGE_SIZE.to_string();
        match api {
            Api::Pcsx => build_url(
                &site.host,
                &["api", "pcsx", "search"],
                &[
                    ("domain", site.domain.as_str()),
                    ("query", ""),
                    ("start", start.as_str()),
                    ("num", num.as_str()),
                    ("sort_by", "relevance"),
                ],
            ),
            Api::ApplyV2 => build_url(
                &site.host,
                &["api", "apply", "v2", "jobs"],
                &[
                    ("domain", site.domain.as_str()),
                    ("start", start.as_str()),
                    ("num", num.as_str()),
                ],
            ),
        }
    }

    /// Walks one API's listing; `Ok(None)` when its first page is 404 (no such API or board).
    async fn walk(
        &self,
        site: &Site,
        board: &str,
        api: Api,
    ) -> Result<Option<Vec<Position>>, IngestError> {
        let mut walk = Walk::new(board);
        let mut start = 0;
        for page_no in 0..MAX_PAGES {
            let url = Self::page_url(site, api, start)?;
            let page: Page = match self.0.http.get_json(&url).await {
                Ok(page) => page,
                Err(e) if page_no == 0 && e.is_not_found() => return Ok(None),
                Err(e) => return Err(e),
            };
            let (positions, count) = page.parts();
            start += positions.len();
            let rows = positions.into_iter().map(|p| id_text(&p.id).map(|id| (id, p)));
            if walk.take(rows, PageEnd::sized(PAGE_SIZE, count))? == Step::Done {
                return Ok(Some(walk.into_items()));
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, &format!("pages of {PAGE_SIZE}")))
    }

    async fn detail(
        &self,
        site: &Site,
        id: String,
        listed: Position,
    ) -> Result<RawPosting, IngestError> {
        let url = build_url(
            &site.host,
            &["api", "apply", "v2", "jobs", &id],
            &[("domain", site.domain.as_str())],
        )?;
        let doc: Position = self.0.http.get_json(&url).await?;
        posting(&site.host, &listed, Some(&doc)).ok_or_else(|| IngestError::Decode {
            url: url.to_string(),
            format: "JSON",
            source: "the position has no id".into(),
        })
    }
}

#[async_trait::async_trait]
impl Source for Eightfold {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        Site::parse(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let host = url.host();
        tenant_label(host.strip_suffix(".eightfold.ai")?)?;
        let domain = url.query("domain")?.trim().to_ascii_lowercase();
        if !is_host_name(&domain) {
            return None;
        }
        let canonical = format!("https://{host}/careers?domain={domain}");
        Some(BoardMatch::new(format!("{host}/{domain}"), canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = board.key.board.as_str();
        let site = Site::parse(b)?;
        let items = match self.walk(&site, b, Api::Pcsx).await? {
            Some(items) => items,
            None => {
                self.walk(&site, b, Api::ApplyV2).await?.ok_or_else(|| IngestError::BoardGone {
                    board: b.to_owned(),
                    reason: "HTTP 404 on both the PCSX search and the apply/v2 listing".into(),
                })?
            }
        };
        let listed = items.into_iter().filter_map(|p| Some((id_text(&p.id)?, p))).collect();
        let concurrency = self.0.config.detail_concurrency.min(DETAIL_WORKERS);
        Ok(hydrate(listed, seen, concurrency, |id, p| self.detail(&site, id, p)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_host_and_domain() {
        let s = Site::parse("Albemarle.eightfold.ai/albemarle.com/").unwrap();
        assert_eq!(
            (s.host.as_str(), s.domain.as_str()),
            ("albemarle.eightfold.ai", "albemarle.com")
        );
        for bad in
            ["albemarle.eightfold.ai", "a/b", "127.0.0.1/x.com", "x.ai/a.com/b", "x.ai/a b.com"]
        {
            assert!(Site::parse(bad).is_err(), "{bad}");
        }
    }
}
