//! Phenom: the career site's search-results page, whose script embeds the platform's
//! "refineSearch" answer (`phApp.ddo = {"eagerLoadRefineSearch": {status, hits, totalHits,
//! data: {jobs: […]}}}`).
//!
//! - Listing: `GET https://{host}/{country}/{lang}/search-results?from=N&s=1`, paged by `from`
//!   until `totalHits` or a page adding nothing (at most 1000 pages; reaching the cap, a page
//!   failing or a page without the embedded answer fails the board: fails closed). A 404 on
//!   the first page is [`IngestError::BoardGone`].
//! - Detail (hydrating): the job page `GET https://{host}/{country}/{lang}/job/{jobId}`: the
//!   description of its schema.org `JobPosting`, else of its embedded `jobDetail`, else the
//!   listing's teaser. Not a full-listing provider (reference §3.1).
//! - Paced across the provider (2 requests/s, our choice: the reference paces Phenom without
//!   naming a rate).
//!
//! Board: the career host with its locale path, `careers.phenom.com/global/en`. Recognised
//! (mode `pathlocale`) from `careers.phenom.com` and `{tenant}.phenompeople.com` URLs under a
//! `/{country}/{lang}/` prefix (`…/search-results`, `…/job/{id}/{slug}`); Phenom's customers'
//! own career hosts are not recognised.
//!
//! Proven on a recorded response: the search-results page of `careers.phenom.com/global/en`
//! (careerkit `phenom.html`); the second page and the job pages are derived from it in the
//! tests.

use std::num::NonZeroU32;
use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use serde_json::Value;

use super::common::{
    assigned_json, build_url, country, employment_type, hydrate, invalid_board, is_host_name,
    no_region,
};
use super::ldjson;
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::http::ProviderPolicy;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, tenant_label};
use crate::sanitize::decode_maybe_encoded_html;
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    policy: ProviderPolicy {
        pace_per_second: NonZeroU32::new(2),
        host_pace: None,
        rate_limit_backoff: false,
    },
    parsers: &[("phenom.listing", parse_listing), ("phenom.detail", parse_detail)],
    ..Platform::of::<Phenom>("phenom", |base| Arc::new(Phenom(base)))
};

/// Safety cap on pages; reaching it fails the board.
const MAX_PAGES: usize = 1000;
/// The script variable holding the page's data.
const DDO: &str = "phApp.ddo";

pub(crate) struct Phenom(Base);

/// A board: the career host and its locale path (`global`, `en`).
struct Site {
    host: String,
    country: String,
    lang: String,
}

/// A locale path segment: 1 to 16 letters, digits, `-` or `_`.
fn is_locale_part(seg: &str) -> bool {
    (1..=16).contains(&seg.len())
        && seg.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
}

impl Site {
    fn parse(board: &str) -> Result<Self, IngestError> {
        let lower = board.trim().trim_end_matches('/').to_ascii_lowercase();
        let parts: Vec<&str> = lower.split('/').collect();
        match parts.as_slice() {
            [host, country, lang]
                if is_host_name(host) && is_locale_part(country) && is_locale_part(lang) =>
            {
                Ok(Self {
                    host: (*host).to_owned(),
                    country: (*country).to_owned(),
                    lang: (*lang).to_owned(),
                })
            }
            _ => Err(invalid_board(
                "phenom",
                board,
                "must be the career host and its locale path (careers.phenom.com/global/en)",
            )),
        }
    }

    fn url(&self, tail: &[&str], query: &[(&str, &str)]) -> Result<url::Url, IngestError> {
        let mut segments = vec![self.country.as_str(), self.lang.as_str()];
        segments.extend_from_slice(tail);
        build_url(&self.host, &segments, query)
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Ddo {
    eager_load_refine_search: Option<Search>,
    job_detail: Option<JobDetail>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Search {
    status: Option<u16>,
    total_hits: Option<usize>,
    data: Option<SearchData>,
}

#[derive(Deserialize)]
struct SearchData {
    #[serde(default)]
    jobs: Vec<Job>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Job {
    job_id: Option<Value>,
    req_id: Option<Value>,
    title: Option<String>,
    location: Option<String>,
    city: Option<String>,
    state: Option<String>,
    country: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    posted_date: Option<String>,
    department: Option<String>,
    description_teaser: Option<String>,
}

#[derive(Deserialize)]
struct JobDetail {
    data: Option<JobDetailData>,
}

#[derive(Deserialize)]
struct JobDetailData {
    job: Option<DetailJob>,
}

#[derive(Deserialize)]
struct DetailJob {
    description: Option<String>,
}

impl Job {
    fn id(&self) -> Option<String> {
        self.job_id.as_ref().or(self.req_id.as_ref()).and_then(super::common::id_text)
    }
}

/// One search-results page: its jobs and the total, or why it is not one.
fn read_page(html: &str) -> Result<(Vec<Job>, Option<usize>), String> {
    let ddo = assigned_json(html, DDO).ok_or("no phApp.ddo in the page")?;
    let ddo: Ddo = serde_json::from_value(ddo).map_err(|e| e.to_string())?;
    let search = ddo.eager_load_refine_search.ok_or("no eagerLoadRefineSearch in phApp.ddo")?;
    if let Some(status) = search.status.filter(|s| *s != 200) {
        return Err(format!("eagerLoadRefineSearch status {status}"));
    }
    Ok((search.data.map(|d| d.jobs).unwrap_or_default(), search.total_hits))
}

/// A job page's description: its `JobPosting`, else its embedded `jobDetail`.
fn read_detail(html: &str) -> Option<String> {
    let from_ld = ldjson::job_posting(html).and_then(|jp| {
        jp.get("description").and_then(Value::as_str).map(decode_maybe_encoded_html)
    });
    from_ld.filter(|d| !d.trim().is_empty()).or_else(|| {
        let ddo: Ddo = serde_json::from_value(assigned_json(html, DDO)?).ok()?;
        ddo.job_detail?.data?.job?.description.filter(|d| !d.trim().is_empty())
    })
}

fn posting(site: &Site, job: &Job, description: Option<String>) -> Option<RawPosting> {
    let native_id = job.id()?;
    let location = job.location.clone().filter(|l| !l.trim().is_empty()).unwrap_or_else(|| {
        super::common::join_non_empty(
            [&job.city, &job.state, &job.country].into_iter().flatten().map(String::as_str),
            ", ",
        )
    });
    let teaser = || {
        job.description_teaser
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| format!("<p>{}</p>", html_escape::encode_text(t)))
    };
    let url = format!("https://{}/{}/{}/job/{native_id}", site.host, site.country, site.lang);
    let mut p = RawPosting {
        native_id,
        url,
        title: job.title.as_deref().unwrap_or_default().trim().to_owned(),
        location: location.trim().to_owned(),
        description_html: description.or_else(teaser).unwrap_or_default(),
        posted_at: job.posted_date.clone().map(RawDate::Text),
        employment_type: job.kind.as_deref().and_then(employment_type),
        countries: job.country.as_deref().and_then(country).into_iter().collect(),
        departments: job.department.iter().map(|d| d.trim().to_owned()).collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

fn test_site() -> Site {
    Site { host: "x.phenompeople.com".into(), country: "us".into(), lang: "en".into() }
}

/// A search-results page read and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok((jobs, _)) = read_page(&String::from_utf8_lossy(bytes)) {
        let site = test_site();
        jobs.iter().filter_map(|j| posting(&site, j, None)).for_each(drop);
    }
}

/// A job page read as `fetch` reads it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    drop(read_detail(&String::from_utf8_lossy(bytes)));
}

impl Phenom {
    async fn list(&self, site: &Site, board: &str) -> Result<Vec<Job>, IngestError> {
        let mut walk = Walk::new(board);
        let mut offset = 0;
        for page_no in 0..MAX_PAGES {
            let from = offset.to_string();
            let url = site.url(&["search-results"], &[("from", from.as_str()), ("s", "1")])?;
            let fetched = match self.0.http.get(&url, "text/html").await {
                Ok(f) => f,
                Err(e) if page_no == 0 => return Err(e.board_gone_on_404(board)),
                Err(e) => return Err(e),
            };
            let (page, total) =
                read_page(&String::from_utf8_lossy(&fetched.body)).map_err(|why| {
                    IngestError::Decode {
                        url: fetched.url.to_string(),
                        format: "HTML",
                        source: why.into(),
                    }
                })?;
            offset += page.len();
            let rows = page.into_iter().map(|job| job.id().map(|id| (id, job)));
            if walk.take(rows, PageEnd::total(total))? == Step::Done {
                return Ok(walk.into_items());
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, "search-results pages"))
    }

    async fn detail(&self, site: &Site, id: String, job: Job) -> Result<RawPosting, IngestError> {
        let url = site.url(&["job", &id], &[])?;
        let fetched = self.0.http.get(&url, "text/html").await?;
        let description = read_detail(&String::from_utf8_lossy(&fetched.body));
        posting(site, &job, description).ok_or_else(|| IngestError::Decode {
            url: url.to_string(),
            format: "HTML",
            source: "the job has no id".into(),
        })
    }
}

#[async_trait::async_trait]
impl Source for Phenom {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        Site::parse(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let host = url.host();
        let ours = host == "careers.phenom.com"
            || host.strip_suffix(".phenompeople.com").and_then(tenant_label).is_some();
        if !ours {
            return None;
        }
        let [country, lang, ..] = url.segments() else { return None };
        let (country, lang) = (country.to_ascii_lowercase(), lang.to_ascii_lowercase());
        let is_lang = |l: &str| {
            let b = l.as_bytes();
            (b.len() == 2 && b.iter().all(u8::is_ascii_alphabetic))
                || crate::recognize::is_locale(l)
        };
        if !is_locale_part(&country) || !is_lang(&lang) {
            return None;
        }
        Some(BoardMatch::new(
            format!("{host}/{country}/{lang}"),
            format!("https://{host}/{country}/{lang}/search-results"),
        ))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let site = Site::parse(&board.key.board)?;
        let jobs = self.list(&site, &board.key.board).await?;
        let listed = jobs.into_iter().filter_map(|j| Some((j.id()?, j))).collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |id, job| self.detail(&site, id, job)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_and_pages() {
        let s = Site::parse("Careers.Phenom.com/global/en/").unwrap();
        assert_eq!(
            (s.host.as_str(), s.country.as_str(), s.lang.as_str()),
            ("careers.phenom.com", "global", "en")
        );
        for bad in
            ["careers.phenom.com", "careers.phenom.com/global", "127.0.0.1/us/en", "a.com/u s/en"]
        {
            assert!(Site::parse(bad).is_err(), "{bad}");
        }
        assert!(read_page("<html></html>").is_err());
        assert!(
            read_page(
                "<script>phApp.ddo = {\"eagerLoadRefineSearch\": {\"status\": 500}};</script>"
            )
            .is_err()
        );
    }
}
