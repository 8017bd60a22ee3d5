//! Dayforce (Ceridian): the candidate portal's own search API on `jobs.dayforcehcm.com`.
//!
//! - Bootstrap: `GET https://jobs.dayforcehcm.com/api/auth/csrf` answers `{"csrfToken": …}`
//!   and sets the matching cookie (the portal's anonymous double-submit CSRF token).
//! - Listing: `POST https://jobs.dayforcehcm.com/api/geo/{tenant}/jobposting/search` with the
//!   token in `X-CSRF-TOKEN`, the cookies sent back, and `{clientNamespace, jobBoardCode,
//!   cultureCode, distanceUnit: 0, paginationStart}`; it answers `{"jobPostings": [{jobPostingId,
//!   jobTitle, jobDescription, hasVirtualLocation, postingLocations: [{formattedAddress,
//!   cityName, stateCode, isoCountryCode}], postingStartTimestampUTC}], "maxCount", "offset",
//!   "count"}`, 25 a page. Pages until `maxCount` or a page adding nothing; any page failure
//!   or the page cap fails the board; a 404 on the first page is `BoardGone`. The listing
//!   carries the full description: no detail request. Not a full-listing provider (the
//!   reference leaves Dayforce out of `fullBoardListing`).
//!
//! Board: `tenant/site` (recognition mode `pathlocalepair`), from
//! `jobs.dayforcehcm.com/{culture}/{tenant}/{site}[/jobs/{id}]`. A board may carry its culture
//! (`fr-CA/tenant/site`, used as `cultureCode`; `en-US` otherwise); the identity fold drops
//! it, so `en-US/acme/CANDIDATEPORTAL` ≡ `acme/CANDIDATEPORTAL`.
//!
//! Unproven: no recorded real response was found under a compatible licence; the fixture is
//! constructed from the reference and public descriptions of the endpoint's fields.

use std::sync::Arc;

use freehire_domain::{BoardKey, WorkMode};
use serde::Deserialize;
use serde_json::{Value, json};

use super::common::{add_location, build_url, country, id_text, invalid_board};
use super::common::{join_non_empty, no_region};
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::http::Fetcher;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, is_locale};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("dayforce.listing", parse_listing)],
    fold: fold_culture,
    ..Platform::of::<Dayforce>("dayforce", |base| Arc::new(Dayforce(base)))
};

const HOST: &str = "jobs.dayforcehcm.com";
const DEFAULT_CULTURE: &str = "en-US";
/// Safety cap on pages (of 25); reaching it fails the board.
const MAX_PAGES: usize = 400;

pub(crate) struct Dayforce(Base);

/// A tenant namespace or a job board code: letters, digits, `-` and `_` (no dots, so never a
/// host).
fn is_code(s: &str) -> bool {
    (1..=100).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A parsed board: `[culture/]tenant/site`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Board {
    culture: String,
    tenant: String,
    site: String,
}

impl Board {
    fn parse(board: &str) -> Result<Self, IngestError> {
        let bad = |why: &str| invalid_board("dayforce", board, why);
        let parts: Vec<&str> = board.trim().trim_end_matches('/').split('/').collect();
        let (culture, tenant, site) = match parts.as_slice() {
            [culture, tenant, site] if is_locale(culture) => (*culture, *tenant, *site),
            [tenant, site] => (DEFAULT_CULTURE, *tenant, *site),
            _ => return Err(bad("must be tenant/site (or culture/tenant/site)")),
        };
        if !is_code(tenant) || !is_code(site) {
            return Err(bad("tenant and site must each be letters, digits, '-' or '_'"));
        }
        Ok(Self { culture: culture.replace('_', "-"), tenant: tenant.into(), site: site.into() })
    }

    fn posting_url(&self, id: &str) -> String {
        format!("https://{HOST}/{}/{}/{}/jobs/{id}", self.culture, self.tenant, self.site)
    }
}

/// The identity fold: a board's culture segment is not part of it.
fn fold_culture(board: &str) -> Option<String> {
    let b = Board::parse(board).ok()?;
    Some(format!("{}/{}", b.tenant, b.site).to_ascii_lowercase())
}

#[derive(Deserialize)]
struct Csrf {
    #[serde(rename = "csrfToken")]
    csrf_token: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    #[serde(default)]
    job_postings: Vec<Posting>,
    max_count: Option<usize>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Posting {
    #[serde(default)]
    job_posting_id: Value,
    job_title: Option<String>,
    job_description: Option<String>,
    has_virtual_location: Option<bool>,
    #[serde(default)]
    posting_locations: Vec<PostingLocation>,
    #[serde(rename = "postingStartTimestampUTC")]
    posting_start_timestamp_utc: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PostingLocation {
    formatted_address: Option<String>,
    city_name: Option<String>,
    state_code: Option<String>,
    iso_country_code: Option<String>,
}

fn posting(board: &Board, item: Posting) -> Option<RawPosting> {
    let native_id = id_text(&item.job_posting_id)?;
    let mut location = String::new();
    for l in &item.posting_locations {
        let text =
            l.formatted_address.clone().filter(|a| !a.trim().is_empty()).unwrap_or_else(|| {
                join_non_empty(
                    [&l.city_name, &l.state_code, &l.iso_country_code]
                        .into_iter()
                        .flatten()
                        .map(String::as_str),
                    ", ",
                )
            });
        add_location(&mut location, &text);
    }
    let mut p = RawPosting {
        url: board.posting_url(&native_id),
        native_id,
        title: item.job_title.unwrap_or_default().trim().to_owned(),
        location,
        description_html: item.job_description.unwrap_or_default(),
        posted_at: item.posting_start_timestamp_utc.map(RawDate::Text),
        remote: item.has_virtual_location,
        work_mode: item.has_virtual_location.filter(|v| *v).map(|_| WorkMode::Remote),
        countries: item
            .posting_locations
            .iter()
            .filter_map(|l| l.iso_country_code.as_deref().and_then(country))
            .collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

/// A listing page decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(page) = serde_json::from_slice::<Page>(bytes) {
        let board = Board { culture: DEFAULT_CULTURE.into(), tenant: "t".into(), site: "s".into() };
        page.job_postings.into_iter().filter_map(|p| posting(&board, p)).for_each(drop);
    }
}

/// The `Cookie` header value sending back what a response set (`a=1; b=2`).
fn cookie_header(set_cookies: &[String]) -> String {
    set_cookies.join("; ")
}

impl Dayforce {
    /// The anonymous CSRF token and the cookies that go with it.
    async fn session(&self, http: &Fetcher) -> Result<(String, String), IngestError> {
        let url = build_url(HOST, &["api", "auth", "csrf"], &[])?;
        let fetched = http.get(&url, "application/json").await?;
        let csrf: Csrf = Fetcher::decode_json(&fetched)?;
        Ok((csrf.csrf_token, cookie_header(&fetched.set_cookies)))
    }

    async fn list(&self, board: &Board, key: &str) -> Result<Vec<RawPosting>, IngestError> {
        let http = &self.0.http;
        let (token, cookies) = self.session(http).await?;
        let mut headers = vec![("x-csrf-token", token.as_str())];
        if !cookies.is_empty() {
            headers.push(("cookie", cookies.as_str()));
        }
        let url = build_url(HOST, &["api", "geo", &board.tenant, "jobposting", "search"], &[])?;
        let mut walk = Walk::new(key);
        let mut start = 0;
        for page_no in 0..MAX_PAGES {
            let body = json!({
                "clientNamespace": board.tenant,
                "jobBoardCode": board.site,
                "cultureCode": board.culture,
                "distanceUnit": 0,
                "paginationStart": start,
            });
            let fetched = http.post_json_with_headers(&url, &body, &headers).await;
            let fetched = if page_no == 0 {
                fetched.map_err(|e| e.board_gone_on_404(key))?
            } else {
                fetched?
            };
            let page: Page = Fetcher::decode_json(&fetched)?;
            start += page.job_postings.len();
            let items = page
                .job_postings
                .into_iter()
                .map(|item| posting(board, item).map(|p| (p.native_id.clone(), p)));
            if walk.take(items, PageEnd::total(page.max_count))? == Step::Done {
                return Ok(walk.into_items());
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, "pages"))
    }
}

#[async_trait::async_trait]
impl Source for Dayforce {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: false }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        Board::parse(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        if url.host() != HOST {
            return None;
        }
        let [culture, tenant, site, ..] = url.segments() else { return None };
        if !is_locale(culture) || !is_code(tenant) || !is_code(site) {
            return None;
        }
        Some(BoardMatch::new(
            format!("{tenant}/{site}"),
            format!("https://{HOST}/{culture}/{tenant}/{site}"),
        ))
    }

    async fn fetch(&self, target: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let key = target.key.board.as_str();
        let board = Board::parse(key)?;
        Ok(BoardListing { postings: self.list(&board, key).await?, ..BoardListing::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_and_fold() {
        let b = Board::parse("fr-CA/acme/CANDIDATEPORTAL").unwrap();
        assert_eq!((b.culture.as_str(), b.tenant.as_str()), ("fr-CA", "acme"));
        assert_eq!(Board::parse("acme/CANDIDATEPORTAL").unwrap().culture, "en-US");
        for bad in ["acme", "a/b/c", "acme/../x", "x/y/z/w"] {
            assert!(Board::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            fold_culture("en-us/acme/candidateportal").as_deref(),
            Some("acme/candidateportal")
        );
        assert_eq!(fold_culture("acme/candidateportal").as_deref(), Some("acme/candidateportal"));
    }
}
