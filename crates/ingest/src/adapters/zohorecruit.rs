//! Zoho Recruit: the board is the career site's whole host, `<t>.zohorecruit.com` (or `.eu`,
//! `.in`; reference §13.2, which leaves the endpoint unspecified).
//!
//! Our choice of endpoint: the public career page `GET https://{host}/jobs/Careers`, which
//! server-renders the open postings as an entity-encoded JSON array in
//! `<input type="hidden" id="jobs" value="[…]">`: id, Posting_Title (or Job_Opening_Name),
//! City, State, Country, Remote_Job, Job_Type, Date_Opened, Job_Description (HTML). The
//! posting URL is `https://{host}/jobs/Careers/{id}`.
//!
//! Completeness: the page is read as one listing unless it holds exactly [`PAGE_CAP`] postings
//! (a cap observed on some boards); then `?page=2`, `?page=3`… are read while each adds new
//! postings. A full page followed by one adding nothing (a board of exactly 50, or a capped
//! one) cannot prove the listing complete: its postings are written as a
//! [`BoardListing::partial`] listing, which closes nothing. A failed page or the page cap fails
//! the board ([`IngestError::Incomplete`]). A 404
//! on the career page is [`IngestError::BoardGone`]; a page without the `jobs` input fails
//! the board. Not a full-listing provider.
//!
//! Board URLs (recognition mode `host`): any URL on `<t>.zohorecruit.com|eu|in` (`/jobs/Careers`, a posting page); the
//! board is the host.
//!
//! Unproven: built from public descriptions of the page (see
//! `tests/fixtures/zohorecruit/ATTRIBUTION.md`), not from a recorded page.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use super::common::{
    build_url, country, employment_type, id_text, invalid_board, join_non_empty, no_region,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, tenant_label};
use crate::source::{BoardTarget, Capabilities, Source};
use freehire_domain::{BoardKey, WorkMode};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("zohorecruit.listing", parse_listing)],
    ..Platform::of::<ZohoRecruit>("zohorecruit", |base| Arc::new(ZohoRecruit(base)))
};

/// The career-site host suffixes.
const SUFFIXES: &[&str] = &[".zohorecruit.com", ".zohorecruit.eu", ".zohorecruit.in"];
/// The number of postings a career page was seen to stop at.
const PAGE_CAP: usize = 50;
/// Safety cap on pages; reaching it fails the board.
const MAX_PAGES: usize = 100;

pub(crate) struct ZohoRecruit(Base);

/// The host's tenant when it is a career-site host.
fn tenant_of(host: &str) -> Option<String> {
    SUFFIXES.iter().find_map(|s| tenant_label(host.strip_suffix(s)?))
}

#[derive(Deserialize)]
struct Job {
    id: Value,
    #[serde(rename = "Posting_Title")]
    posting_title: Option<String>,
    #[serde(rename = "Job_Opening_Name")]
    job_opening_name: Option<String>,
    #[serde(rename = "City")]
    city: Option<String>,
    #[serde(rename = "State")]
    state: Option<String>,
    #[serde(rename = "Country")]
    country: Option<String>,
    #[serde(rename = "Remote_Job")]
    remote_job: Option<Value>,
    #[serde(rename = "Job_Type")]
    job_type: Option<String>,
    #[serde(rename = "Date_Opened")]
    date_opened: Option<String>,
    #[serde(rename = "Job_Description")]
    job_description: Option<String>,
}

/// The value of the first `<input … id="jobs" …>` (or `name="jobs"`) on the page, entity
/// decoded. Attribute values may be double-, single- or unquoted.
fn jobs_input(page: &str) -> Option<String> {
    let lower = page.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find("<input") {
        let start = from + found + "<input".len();
        let (attrs, end) = attributes(&page[start..]);
        from = start + end;
        let is_jobs = attrs.iter().any(|(k, v)| {
            (k.eq_ignore_ascii_case("id") || k.eq_ignore_ascii_case("name")) && v == "jobs"
        });
        if is_jobs {
            let value = attrs.into_iter().find(|(k, _)| k.eq_ignore_ascii_case("value"))?.1;
            return Some(html_escape::decode_html_entities(&value).into_owned());
        }
    }
    None
}

/// The attributes of a tag whose name has been read, up to its unquoted `>`, and how many
/// bytes that took.
fn attributes(tag: &str) -> (Vec<(String, String)>, usize) {
    let bytes = tag.as_bytes();
    let mut attrs = Vec::new();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < bytes.len() && (bytes[*i].is_ascii_whitespace() || bytes[*i] == b'/') {
            *i += 1;
        }
    };
    loop {
        skip_ws(&mut i);
        if i >= bytes.len() {
            return (attrs, i);
        }
        if bytes[i] == b'>' {
            return (attrs, i + 1);
        }
        let name_start = i;
        while i < bytes.len()
            && !bytes[i].is_ascii_whitespace()
            && !matches!(bytes[i], b'=' | b'>' | b'/')
        {
            i += 1;
        }
        let name = tag[name_start..i].to_owned();
        skip_ws(&mut i);
        let mut value = String::new();
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < bytes.len() && matches!(bytes[i], b'"' | b'\'') {
                let quote = bytes[i];
                let v_start = i + 1;
                let v_end = tag[v_start..]
                    .bytes()
                    .position(|b| b == quote)
                    .map_or(tag.len(), |p| v_start + p);
                value = tag[v_start..v_end].to_owned();
                i = (v_end + 1).min(tag.len());
            } else {
                let v_start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' {
                    i += 1;
                }
                value = tag[v_start..i].to_owned();
            }
        }
        // An empty name is a stray `=`, whose value was read and is dropped.
        if !name.is_empty() {
            attrs.push((name, value));
        }
    }
}

/// The postings a career page lists, or why it lists none we can read.
fn read_page(page: &str) -> Result<Vec<Job>, String> {
    let raw = jobs_input(page).ok_or("no jobs input on the career page")?;
    if raw.trim().is_empty() {
        return Ok(Vec::new());
    }
    serde_json::from_str(&raw).map_err(|e| format!("the jobs input: {e}"))
}

fn truthy(v: Option<&Value>) -> Option<bool> {
    match v? {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => Some(true),
            "false" | "no" | "0" => Some(false),
            _ => None,
        },
        Value::Number(n) => n.as_i64().map(|n| n != 0),
        _ => None,
    }
}

fn posting(host: &str, job: Job) -> Option<RawPosting> {
    let id = id_text(&job.id)?;
    let title = job
        .posting_title
        .into_iter()
        .chain(job.job_opening_name)
        .map(|t| t.trim().to_owned())
        .find(|t| !t.is_empty())?;
    let remote = truthy(job.remote_job.as_ref());
    let mut p = RawPosting {
        url: format!("https://{host}/jobs/Careers/{id}"),
        native_id: id,
        title,
        location: join_non_empty(
            [&job.city, &job.state, &job.country].into_iter().flatten().map(String::as_str),
            ", ",
        ),
        description_html: job.job_description.unwrap_or_default(),
        posted_at: job
            .date_opened
            .map(|d| d.trim().to_owned())
            .filter(|d| !d.is_empty())
            .map(RawDate::Text),
        remote,
        work_mode: (remote == Some(true)).then_some(WorkMode::Remote),
        employment_type: job.job_type.as_deref().and_then(employment_type),
        countries: job.country.as_deref().and_then(country).into_iter().collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

/// A career page read and mapped as `fetch` reads it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(jobs) = read_page(&String::from_utf8_lossy(bytes)) {
        jobs.into_iter().filter_map(|j| posting("acme.zohorecruit.com", j)).for_each(drop);
    }
}

#[async_trait::async_trait]
impl Source for ZohoRecruit {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: false }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        if tenant_of(&key.board.to_ascii_lowercase()).is_some() {
            Ok(())
        } else {
            Err(invalid_board(
                key.provider.as_str(),
                &key.board,
                "must be a career-site host <tenant>.zohorecruit.com (or .eu, .in)",
            ))
        }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let host = url.host();
        tenant_of(host)?;
        Some(BoardMatch::new(host, format!("https://{host}/jobs/Careers")))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        Self::validate_board(&board.key)?;
        let host = board.key.board.to_ascii_lowercase();
        let mut postings = Vec::new();
        let mut ids = HashSet::new();
        for page_no in 1..=MAX_PAGES {
            let page_param = page_no.to_string();
            let query: &[(&str, &str)] =
                if page_no == 1 { &[] } else { &[("page", page_param.as_str())] };
            let url = build_url(&host, &["jobs", "Careers"], query)?;
            let page = self
                .0
                .http
                .get(&url, "text/html,application/xhtml+xml")
                .await
                .map_err(|e| if page_no == 1 { e.board_gone_on_404(&host) } else { e })?;
            let jobs = read_page(&String::from_utf8_lossy(&page.body)).map_err(|why| {
                IngestError::Decode {
                    url: page.url.to_string(),
                    format: "HTML",
                    source: why.into(),
                }
            })?;
            let rows = jobs.len();
            let before = postings.len();
            for p in jobs.into_iter().filter_map(|j| posting(&host, j)) {
                if ids.insert(p.native_id.clone()) {
                    postings.push(p);
                }
            }
            if rows != PAGE_CAP {
                return Ok(BoardListing { postings, ..BoardListing::default() });
            }
            if postings.len() == before {
                // A board of exactly a page (or a capped one: the two look alike) is read,
                // but proves nothing gone.
                return Ok(BoardListing {
                    postings,
                    partial: Some(format!(
                        "page {page_no} added nothing after a full page of {PAGE_CAP}: the \
                         listing may be capped"
                    )),
                    ..BoardListing::default()
                });
            }
        }
        Err(IngestError::Incomplete {
            board: host,
            reason: format!("more than {MAX_PAGES} pages of {PAGE_CAP}"),
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_jobs_input_in_any_attribute_order_and_quoting() {
        let a = r#"<input type="hidden" id="jobs" value="[{&quot;id&quot;:&quot;1&quot;}]">"#;
        assert_eq!(jobs_input(a).unwrap(), r#"[{"id":"1"}]"#);
        let b = "<INPUT value='[{&quot;a&quot;:&quot;x &gt; y&quot;}]' name=jobs>";
        assert_eq!(jobs_input(b).unwrap(), r#"[{"a":"x > y"}]"#);
        let c = r#"<input id="moduleMeta" value="[]"><input id="jobs" value="[]">"#;
        assert_eq!(jobs_input(c).unwrap(), "[]");
        assert!(jobs_input("<input id=\"other\" value=\"x\">").is_none());
        assert!(jobs_input("<input id=\"jobs\" value=\"unterminated").is_some());
        assert!(read_page("<html></html>").is_err());
        // Odd markup never panics.
        for odd in
            ["<input", "<input =é id=jobs value=é>", "<input id='jobs' value=\"é", "<inputé=é>"]
        {
            drop(jobs_input(odd));
        }
        assert_eq!(jobs_input("<input =x id=jobs value=é>").as_deref(), Some("é"));
    }

    #[test]
    fn tenant_hosts() {
        assert_eq!(tenant_of("acme.zohorecruit.com").as_deref(), Some("acme"));
        assert_eq!(tenant_of("acme.zohorecruit.eu").as_deref(), Some("acme"));
        assert_eq!(tenant_of("www.zohorecruit.com"), None);
        assert_eq!(tenant_of("a.b.zohorecruit.com"), None);
        assert_eq!(tenant_of("zohorecruit.com"), None);
        assert_eq!(tenant_of("acme.zohorecruit.com.evil.example"), None);
    }
}
