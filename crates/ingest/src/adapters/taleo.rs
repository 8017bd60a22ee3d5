//! Oracle Taleo Enterprise career sections: the faceted-search page's JSON endpoint.
//!
//! - Bootstrap: `GET https://{tenant}.taleo.net/careersection/{cs}/jobsearch.ftl?lang=en`,
//!   the career section's page: it names the section's portal number (`portal=101430233` or
//!   `portalNo: '101430233'`) and sets the session cookie. A 404 is `BoardGone`.
//! - Listing: `POST https://{tenant}.taleo.net/careersection/rest/jobboard/searchjobs?lang=en
//!   &portal={portal}` with the cookie sent back, a `tz` header (the endpoint answers 500
//!   without one) and an empty-selection search body with `pageNo`; it answers
//!   `{"requisitionList": [{jobId, contestNo, column: [...], linkedColumn, locationsColumns}],
//!   "pagingData": {currentPageNo, pageSize, totalCount}, "careerSectionUnAvailable"}`, 25 a
//!   page. `column` is configured per section: `linkedColumn` is the title's index,
//!   `locationsColumns` the indexes of JSON-encoded location lists, the last column the posting
//!   date. Pages until `totalCount`; any page failure, a page without `totalCount`, a page
//!   adding nothing before the total or the page cap fails the board;
//!   `careerSectionUnAvailable` is `BoardGone`. A full-listing provider.
//! - Detail: the job page `…/careersection/{cs}/jobdetail.ftl?job={contestNo}&lang=en` (no
//!   JSON-LD): the description is the escaped HTML after `!*!` in the hidden `initialHistory`
//!   input's `!|!`-delimited value. Hydrating; a page without it keeps the listing's fields.
//!
//! Board: `{tenant}.taleo.net/{cs}` (host and career section code), recognised from the
//! section's `jobsearch.ftl`, `jobdetail.ftl` and other `…/careersection/{cs}/…` pages. Taleo
//! Business Edition (`*.tbe.taleo.net`) is another product and is not recognised.
//!
//! Unproven: no recorded real response was found under a compatible licence; the fixture is
//! constructed from the reference and public descriptions of the endpoint.

use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use serde_json::{Value, json};

use super::common::{
    add_location, build_url, hydrate, id_text, invalid_board, is_dns_label, no_region,
};
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::http::Fetcher;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, tenant_label};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[
        ("taleo.listing", parse_listing),
        ("taleo.section", parse_section),
        ("taleo.job", parse_job),
    ],
    ..Platform::of::<Taleo>("taleo", |base| Arc::new(Taleo(base)))
};

const DOMAIN: &str = ".taleo.net";
/// Safety cap on pages (of 25); reaching it fails the board.
const MAX_PAGES: usize = 800;

pub(crate) struct Taleo(Base);

/// A parsed board: the tenant host and the career section code.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Board {
    host: String,
    section: String,
}

/// A career section code: letters, digits, `_` and `-` (`2`, `ex`, `cb_external`).
fn is_section(s: &str) -> bool {
    (1..=64).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        && !s.eq_ignore_ascii_case("rest")
}

/// `{tenant}.taleo.net`, one tenant label, not Business Edition.
fn tenant_host(host: &str) -> Option<&str> {
    let tenant = host.strip_suffix(DOMAIN)?;
    (is_dns_label(tenant) && !tenant.contains('.')).then_some(tenant)
}

impl Board {
    fn parse(board: &str) -> Result<Self, IngestError> {
        let bad = |why: &str| invalid_board("taleo", board, why);
        let Some((host, section)) = board.trim().trim_end_matches('/').split_once('/') else {
            return Err(bad("must be {tenant}.taleo.net/{career section}"));
        };
        let host = host.to_ascii_lowercase();
        if tenant_host(&host).is_none() {
            return Err(bad("host must be {tenant}.taleo.net"));
        }
        if !is_section(section) {
            return Err(bad("the career section must be letters, digits, '_' or '-'"));
        }
        Ok(Self { host, section: section.to_owned() })
    }

    fn posting_url(&self, job_id: &str) -> String {
        format!(
            "https://{}/careersection/{}/jobdetail.ftl?job={job_id}&lang=en",
            self.host, self.section
        )
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    requisition_list: Option<Vec<Requisition>>,
    paging_data: Option<Paging>,
    #[serde(default)]
    career_section_un_available: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Paging {
    total_count: Option<usize>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Requisition {
    #[serde(default)]
    job_id: Value,
    #[serde(default)]
    contest_no: Value,
    #[serde(default)]
    column: Vec<Value>,
    linked_column: Option<usize>,
    #[serde(default)]
    locations_columns: Vec<usize>,
}

/// A column's text (`column` holds strings, sometimes null).
fn column(req: &Requisition, i: usize) -> Option<&str> {
    req.column.get(i).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

fn posting(board: &Board, req: &Requisition) -> Option<RawPosting> {
    let native_id = id_text(&req.job_id)?;
    let title_at = req.linked_column.unwrap_or(0);
    let mut location = String::new();
    for &i in &req.locations_columns {
        let Some(raw) = column(req, i) else { continue };
        // A JSON-encoded list of places (`["United States-Texas-Dallas"]`), else plain text.
        match serde_json::from_str::<Vec<String>>(raw) {
            Ok(places) => places.iter().for_each(|p| add_location(&mut location, p)),
            Err(_) => add_location(&mut location, raw),
        }
    }
    let last = req.column.len().checked_sub(1);
    let date_at = last.filter(|l| *l != title_at && !req.locations_columns.contains(l));
    // The job page is addressed by the public job number (`contestNo`).
    let page_id = id_text(&req.contest_no).unwrap_or_else(|| native_id.clone());
    let mut p = RawPosting {
        url: board.posting_url(&page_id),
        native_id,
        title: column(req, title_at).unwrap_or_default().to_owned(),
        location,
        posted_at: date_at.and_then(|i| column(req, i)).map(|d| RawDate::Text(d.to_owned())),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

/// The career section page's portal number: a `portal=101430233` URL parameter or the page
/// configuration's `portalNo: '101430233'`.
fn portal(page: &str) -> Option<String> {
    for (marker, gap) in [("portal=", 0), ("portalNo", 4)] {
        let mut from = 0;
        while let Some(found) = page[from..].find(marker) {
            let start = from + found + marker.len();
            from = start;
            // `portalNo: '…'` / `"portalNo":"…"`: skip up to `gap` quote, colon or space bytes.
            let skip = page[start..]
                .bytes()
                .take(gap)
                .take_while(|b| matches!(b, b':' | b'=' | b'\'' | b'"' | b' '))
                .count();
            let digits: String =
                page[start + skip..].chars().take_while(char::is_ascii_digit).collect();
            if !digits.is_empty() && digits.len() <= 20 {
                return Some(digits);
            }
        }
    }
    None
}

/// Percent-decoding as JavaScript's `unescape` reads it (`%XX` and `%uXXXX`; `+` stays).
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut bytes: Vec<u8> = Vec::new();
    // Escaped bytes are UTF-8 when they decode as such, else Latin-1 (as `escape` writes).
    let flush = |bytes: &mut Vec<u8>, out: &mut String| {
        match std::str::from_utf8(bytes) {
            Ok(text) => out.push_str(text),
            Err(_) => out.extend(bytes.iter().map(|b| char::from(*b))),
        }
        bytes.clear();
    };
    let mut rest = raw;
    while let Some(c) = rest.chars().next() {
        if c == '%' {
            if let Some(hex) = rest.get(2..6).filter(|_| rest[1..].starts_with('u'))
                && let Ok(code) = u32::from_str_radix(hex, 16)
            {
                flush(&mut bytes, &mut out);
                out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                rest = &rest[6..];
                continue;
            }
            if let Some(hex) = rest.get(1..3)
                && let Ok(b) = u8::from_str_radix(hex, 16)
            {
                bytes.push(b);
                rest = &rest[3..];
                continue;
            }
        }
        flush(&mut bytes, &mut out);
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    flush(&mut bytes, &mut out);
    out
}

/// The description on a job page: the hidden `initialHistory` input's value holds the
/// page state, `!|!`-delimited, with the escaped description HTML after the `!*!` marker.
fn detail_description(page: &str) -> Option<String> {
    let at = page.find("id=\"initialHistory\"").or_else(|| page.find("name=\"initialHistory\""))?;
    let tag_start = page[..at].rfind('<')?;
    let tag_end = at + page[at..].find('>')?;
    let tag = &page[tag_start..tag_end];
    let value_at = tag.find("value=\"")? + "value=\"".len();
    let value = &tag[value_at..value_at + tag[value_at..].find('"')?];
    let value = html_escape::decode_html_entities(value);
    let desc = value.split_once("!*!")?.1;
    let desc = desc.split("!|!").next().unwrap_or_default();
    let html = unescape(desc);
    let html = html.trim();
    (!html.is_empty()).then(|| html.to_owned())
}

fn sample_board() -> Board {
    Board { host: "acme.taleo.net".into(), section: "2".into() }
}

/// A listing page decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(page) = serde_json::from_slice::<Page>(bytes) {
        let board = sample_board();
        page.requisition_list.iter().flatten().filter_map(|r| posting(&board, r)).for_each(drop);
    }
}

/// The career section page read as `fetch` reads it (a fuzz entry point).
fn parse_section(bytes: &[u8]) {
    drop(portal(&String::from_utf8_lossy(bytes)));
}

/// A job page read as `fetch` reads it (a fuzz entry point).
fn parse_job(bytes: &[u8]) {
    drop(detail_description(&String::from_utf8_lossy(bytes)));
}

/// The search body: every job, newest first, page `page_no`.
fn search_body(page_no: usize) -> Value {
    json!({
        "fieldData": {"fields": {}, "valid": true},
        "filterSelectionParam": {"searchFilterSelections": []},
        "sortingSelection": {"sortBySelectionParam": "3", "ascendingSortingOrder": "false"},
        "advancedSearchFiltersSelectionParam": {"searchFilterSelections": []},
        "pageNo": page_no,
    })
}

impl Taleo {
    /// The posting with its description from the job page (none when the page does not
    /// carry it where we read it: the listing's fields still stand).
    async fn detail(&self, mut p: RawPosting) -> Result<RawPosting, IngestError> {
        let url =
            url::Url::parse(&p.url).map_err(|e| invalid_board("taleo", &p.url, &e.to_string()))?;
        let fetched = self.0.http.get(&url, "text/html").await?;
        p.description_html =
            detail_description(&String::from_utf8_lossy(&fetched.body)).unwrap_or_default();
        Ok(p)
    }

    /// The section's portal number and its session cookies.
    async fn section(&self, board: &Board, key: &str) -> Result<(String, String), IngestError> {
        let url = build_url(
            &board.host,
            &["careersection", &board.section, "jobsearch.ftl"],
            &[("lang", "en")],
        )?;
        let fetched =
            self.0.http.get(&url, "text/html").await.map_err(|e| e.board_gone_on_404(key))?;
        let page = String::from_utf8_lossy(&fetched.body);
        let portal = portal(&page).ok_or_else(|| IngestError::Decode {
            url: url.to_string(),
            format: "HTML",
            source: "no portal number on the career section page".into(),
        })?;
        Ok((portal, fetched.set_cookies.join("; ")))
    }

    async fn list(&self, board: &Board, key: &str) -> Result<Vec<RawPosting>, IngestError> {
        let (portal, cookies) = self.section(board, key).await?;
        let url = build_url(
            &board.host,
            &["careersection", "rest", "jobboard", "searchjobs"],
            &[("lang", "en"), ("portal", &portal)],
        )?;
        let mut headers = vec![("tz", "GMT+00:00"), ("x-requested-with", "XMLHttpRequest")];
        if !cookies.is_empty() {
            headers.push(("cookie", cookies.as_str()));
        }
        let mut walk = Walk::new(key);
        for page_no in 1..=MAX_PAGES {
            let fetched =
                self.0.http.post_json_with_headers(&url, &search_body(page_no), &headers).await?;
            let page: Page = Fetcher::decode_json(&fetched)?;
            if page.career_section_un_available {
                return Err(IngestError::BoardGone {
                    board: key.to_owned(),
                    reason: "Taleo says the career section is unavailable".into(),
                });
            }
            let Some(reqs) = page.requisition_list else {
                return Err(IngestError::Decode {
                    url: url.to_string(),
                    format: "JSON",
                    source: "no requisitionList (wrong portal number?)".into(),
                });
            };
            let total = page.paging_data.and_then(|p| p.total_count).ok_or_else(|| {
                IngestError::Incomplete {
                    board: key.to_owned(),
                    reason: format!("no pagingData.totalCount on page {page_no}"),
                }
            })?;
            let rows = reqs.iter().map(|req| posting(board, req).map(|p| (p.native_id.clone(), p)));
            if walk.take(rows, PageEnd::total(Some(total)))? == Step::Done {
                return Ok(walk.into_items());
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, "pages"))
    }
}

#[async_trait::async_trait]
impl Source for Taleo {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        Board::parse(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let host = url.host();
        tenant_label(tenant_host(host)?)?;
        let ["careersection", section, ..] = url.segments() else { return None };
        if !is_section(section) {
            return None;
        }
        Some(BoardMatch::new(
            format!("{host}/{section}"),
            format!("https://{host}/careersection/{section}/jobsearch.ftl"),
        ))
    }

    async fn fetch(
        &self,
        target: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let key = target.key.board.as_str();
        let board = Board::parse(key)?;
        let listed =
            self.list(&board, key).await?.into_iter().map(|p| (p.native_id.clone(), p)).collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |_, p| self.detail(p)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_portal_and_columns() {
        assert!(Board::parse("acme.taleo.net/2").is_ok());
        for bad in [
            "acme.taleo.net",
            "acme.tbe.taleo.net/2",
            "evil.com/2",
            "acme.taleo.net/rest",
            "acme.taleo.net/a/b",
        ] {
            assert!(Board::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(portal("x?lang=en&portal=101430233\">").as_deref(), Some("101430233"));
        assert_eq!(portal("portal=&portal=7").as_deref(), Some("7"));
        assert_eq!(portal("none"), None);
        let req: Requisition = serde_json::from_value(json!({
            "jobId": "264858", "contestNo": "2602892",
            "column": ["Junior Sales Rep", "[\"TX-Richmond\",\"TX-Houston\"]", "Jun 17, 2026"],
            "linkedColumn": 0, "locationsColumns": [1]
        }))
        .unwrap();
        let p = posting(&sample_board(), &req).unwrap();
        assert_eq!(p.title, "Junior Sales Rep");
        assert_eq!(p.location, "TX-Richmond; TX-Houston");
        assert_eq!(p.posted_at, Some(RawDate::Text("Jun 17, 2026".into())));
        assert_eq!(
            p.url,
            "https://acme.taleo.net/careersection/2/jobdetail.ftl?job=2602892&lang=en"
        );
        assert_eq!(
            portal("var config = { portalNo: '460210089', x: 1 }").as_deref(),
            Some("460210089")
        );
        assert_eq!(unescape("%3Cp%3EC++%20caf%E9%u00e9%zz%3C/p%3E"), "<p>C++ caféé%zz</p>");
        let page = r#"<input type="hidden" name="initialHistory" id="initialHistory" value="a!|!descRequisition!|!!*!%3Cp%3EHi%20%26amp%3B%3C%2Fp%3E!|!false!|!true" />"#;
        assert_eq!(detail_description(page).as_deref(), Some("<p>Hi &amp;</p>"));
        assert_eq!(detail_description("<input id=\"initialHistory\" value=\"x!|!y\">"), None);
    }
}
