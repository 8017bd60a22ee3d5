//! Paylocity: the company's public job board page, whose script embeds the whole listing
//! (`window.pageData = {"Jobs": […], "ModuleTitle": …}`).
//!
//! - Listing: `GET https://recruiting.paylocity.com/Recruiting/Jobs/All/{guid}`: one page, the
//!   whole board (JobId, JobTitle, LocationName, JobLocation's address, PublishedDate,
//!   IsRemote, HiringDepartment). A page without `window.pageData` or its `Jobs` fails the
//!   board (fails closed); a 404 is [`IngestError::BoardGone`]. A full-listing provider.
//! - Detail (hydrating): `GET https://recruiting.paylocity.com/Recruiting/Jobs/Details/{id}`:
//!   the `<div>` after the "Description" header, else the page's schema.org `JobPosting`.
//!
//! Board: the company GUID. Recognised (mode `path`, after `Recruiting/Jobs/All` or `…/List`)
//! from `recruiting.paylocity.com/Recruiting/Jobs/All/{guid}`; a job's `Details/{id}` URL names
//! no company and is not recognised.
//!
//! Proven on a recorded response: the board page of North Carolina Advanced Energy Corporation
//! (careerkit `paylocity.html`); the detail pages are derived in the tests.

use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use serde_json::Value;

use super::common::{
    assigned_json, build_url, country, find_ci, hydrate, id_text, invalid_board, join_non_empty,
    next_div, no_region,
};
use super::ldjson;
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::sanitize::decode_maybe_encoded_html;
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("paylocity.listing", parse_listing), ("paylocity.detail", parse_detail)],
    ..Platform::of::<Paylocity>("paylocity", |base| Arc::new(Paylocity(base)))
};

const HOST: &str = "recruiting.paylocity.com";

pub(crate) struct Paylocity(Base);

#[derive(Deserialize)]
struct PageData {
    #[serde(rename = "Jobs")]
    jobs: Option<Vec<Job>>,
    #[serde(rename = "ModuleTitle")]
    module_title: Option<String>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Job {
    job_id: Value,
    job_title: Option<String>,
    location_name: Option<String>,
    published_date: Option<String>,
    description: Option<String>,
    hiring_department: Option<String>,
    job_location: Option<JobLocation>,
    is_remote: Option<bool>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct JobLocation {
    city: Option<String>,
    state: Option<String>,
    country: Option<String>,
}

/// A company GUID: 8-4-4-4-12 hexadecimal digits.
fn is_guid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The board page's jobs and company name, or why it is not a board page.
fn read_page(html: &str) -> Result<(Vec<Job>, Option<String>), String> {
    let data = assigned_json(html, "window.pageData").ok_or("no window.pageData in the page")?;
    let data: PageData = serde_json::from_value(data).map_err(|e| e.to_string())?;
    let jobs = data.jobs.ok_or("no Jobs in window.pageData")?;
    Ok((jobs, data.module_title.filter(|t| !t.trim().is_empty())))
}

/// A detail page's description: the `<div>` after the element whose whole text is
/// "Description", else the `JobPosting`'s description.
fn read_detail(html: &str) -> Option<String> {
    let mut from = 0;
    let from_header = loop {
        let Some(at) = find_ci(html, "description", from) else { break None };
        from = at + "description".len();
        let before = html[..at].trim_end();
        let after = html[from..].trim_start();
        if before.ends_with('>') && after.starts_with("</") {
            break next_div(html, from).map(str::trim).filter(|d| !d.is_empty());
        }
    };
    from_header.map(str::to_owned).or_else(|| {
        let jp = ldjson::job_posting(html)?;
        let d = jp.get("description")?.as_str()?;
        Some(decode_maybe_encoded_html(d)).filter(|d| !d.trim().is_empty())
    })
}

fn posting(job: &Job, company: Option<&str>, description: Option<String>) -> Option<RawPosting> {
    let native_id = id_text(&job.job_id)?;
    let address = job.job_location.as_ref().map_or_else(String::new, |l| {
        join_non_empty(
            [&l.city, &l.state, &l.country].into_iter().flatten().map(String::as_str),
            ", ",
        )
    });
    let location = if address.is_empty() {
        job.location_name.as_deref().unwrap_or_default().trim().to_owned()
    } else {
        address
    };
    let cc = job.job_location.as_ref().and_then(|l| l.country.as_deref()).and_then(country);
    let mut p = RawPosting {
        url: format!("https://{HOST}/Recruiting/Jobs/Details/{native_id}"),
        native_id,
        title: job.job_title.as_deref().unwrap_or_default().trim().to_owned(),
        company: company.map(str::to_owned),
        location,
        description_html: description.or_else(|| job.description.clone()).unwrap_or_default(),
        posted_at: job.published_date.clone().map(RawDate::Text),
        remote: job.is_remote,
        work_mode: (job.is_remote == Some(true)).then_some(freehire_domain::WorkMode::Remote),
        countries: cc.into_iter().collect(),
        departments: job.hiring_department.iter().map(|d| d.trim().to_owned()).collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

/// A board page read and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok((jobs, company)) = read_page(&String::from_utf8_lossy(bytes)) {
        jobs.iter().filter_map(|j| posting(j, company.as_deref(), None)).for_each(drop);
    }
}

/// A detail page read as `fetch` reads it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    drop(read_detail(&String::from_utf8_lossy(bytes)));
}

impl Paylocity {
    async fn detail(
        &self,
        id: String,
        job: Job,
        company: Option<&str>,
    ) -> Result<RawPosting, IngestError> {
        let url = build_url(HOST, &["Recruiting", "Jobs", "Details", &id], &[])?;
        let fetched = self.0.http.get(&url, "text/html").await?;
        let description = read_detail(&String::from_utf8_lossy(&fetched.body));
        posting(&job, company, description).ok_or_else(|| IngestError::Decode {
            url: url.to_string(),
            format: "HTML",
            source: "the job has no id".into(),
        })
    }
}

#[async_trait::async_trait]
impl Source for Paylocity {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        if is_guid(&key.board) {
            Ok(())
        } else {
            Err(invalid_board("paylocity", &key.board, "must be the company GUID"))
        }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        if url.host() != HOST {
            return None;
        }
        let [recruiting, jobs, all, guid, ..] = url.segments() else { return None };
        let listing = recruiting.eq_ignore_ascii_case("recruiting")
            && jobs.eq_ignore_ascii_case("jobs")
            && (all.eq_ignore_ascii_case("all") || all.eq_ignore_ascii_case("list"));
        if !listing || !is_guid(guid) {
            return None;
        }
        let guid = guid.to_ascii_lowercase();
        let canonical = format!("https://{HOST}/Recruiting/Jobs/All/{guid}");
        Some(BoardMatch::new(guid, canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let guid = board.key.board.trim();
        if !is_guid(guid) {
            return Err(invalid_board("paylocity", guid, "must be the company GUID"));
        }
        let url = build_url(HOST, &["Recruiting", "Jobs", "All", guid], &[])?;
        let fetched =
            self.0.http.get(&url, "text/html").await.map_err(|e| e.board_gone_on_404(guid))?;
        let (jobs, company) =
            read_page(&String::from_utf8_lossy(&fetched.body)).map_err(|why| {
                IngestError::Decode {
                    url: fetched.url.to_string(),
                    format: "HTML",
                    source: why.into(),
                }
            })?;
        let listed = jobs.into_iter().filter_map(|j| Some((id_text(&j.job_id)?, j))).collect();
        let concurrency = self.0.config.detail_concurrency;
        let company = company.as_deref();
        Ok(hydrate(listed, seen, concurrency, |id, job| self.detail(id, job, company)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guids_pages_and_descriptions() {
        assert!(is_guid("211e692d-c45a-4e3a-ae01-3e497af97929"));
        for bad in ["211e692d", "211e692d-c45a-4e3a-ae01-3e497af9792g", "../x", ""] {
            assert!(!is_guid(bad), "{bad}");
        }
        assert!(read_page("<html></html>").is_err());
        assert!(read_page("<script>window.pageData = {\"Locations\": []};</script>").is_err());
        let page = "<h2 class=\"x\"> Description </h2>\n<div class=\"d\"><p>a</p><div>b</div></div><div>c</div>";
        assert_eq!(read_detail(page).as_deref(), Some("<p>a</p><div>b</div>"));
        assert_eq!(read_detail("<p>Description of the firm</p>"), None);
        assert_eq!(read_detail("<h2>Description</h2><div><p>cut"), None);
    }
}
