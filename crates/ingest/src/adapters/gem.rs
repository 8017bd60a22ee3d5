//! Gem: its public job board's GraphQL endpoint, `POST jobs.gem.com/api/public/graphql`.
//!
//! Listing: operation `JobBoardList` with `{boardId: b}`: `oatsExternalJobPostings.jobPostings[]`
//! (extId, title, `locations[]` name/city/isoCountry/isRemote, `job` locationType,
//! employmentType, department.name) and `jobBoardExternal(vanityUrlPath: b)`, which is `null`
//! for a board that does not exist (the posting list alone answers an empty list for it):
//! that is [`IngestError::BoardGone`]. One request, no pagination.
//! Detail (hydrating): operation `ExternalJobPostingQuery` with `{boardId, extId}`:
//! `oatsExternalJobPosting.descriptionHtml` and `firstPublishedTsSec` (seconds since the epoch).
//! The posting URL is `https://jobs.gem.com/{b}/{extId}`.
//!
//! Board URLs (recognition mode `path`): `jobs.gem.com/{b}` and any page under it
//! (`jobs.gem.com/{b}/{extId}`); the board is the vanity path segment. Not a full-listing
//! provider (reference §3.1); its unseen sweep's window is 24 h (`sweep_grace`).
//!
//! Unproven: built from public descriptions of the endpoint (see
//! `tests/fixtures/gem/ATTRIBUTION.md`), not from a recorded answer.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;

use super::common::{
    add_location, build_url, country, employment_type, hydrate, mode_from_flags, path_segment,
    workplace_mode,
};
use super::graphql::{self, Envelope};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, path_board};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("gem.listing", parse_listing), ("gem.detail", parse_detail)],
    sweep_grace: Some(std::time::Duration::from_secs(24 * 60 * 60)),
    ..Platform::of::<Gem>("gem", |base| Arc::new(Gem(base)))
};

const HOST: &str = "jobs.gem.com";
/// First path segments of `jobs.gem.com` that are the site's own, never a board.
const RESERVED: &[&str] = &["api", "static", "assets", "_next", "favicon.ico", "robots.txt"];

const LIST_QUERY: &str = "query JobBoardList($boardId: String!) { \
oatsExternalJobPostings(boardId: $boardId) { jobPostings { id extId title \
locations { id name city isoCountry isRemote extId } \
job { id department { id name extId } locationType employmentType } } } \
jobBoardExternal(vanityUrlPath: $boardId) { id teamDisplayName } }";

const DETAIL_QUERY: &str = "query ExternalJobPostingQuery($boardId: String!, $extId: String!) { \
oatsExternalJobPosting(boardId: $boardId, extId: $extId) { id extId title descriptionHtml \
firstPublishedTsSec } }";

pub(crate) struct Gem(Base);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListData {
    oats_external_job_postings: Option<Postings>,
    job_board_external: Option<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Postings {
    #[serde(default)]
    job_postings: Vec<Brief>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Brief {
    ext_id: Option<String>,
    title: Option<String>,
    #[serde(default)]
    locations: Vec<Location>,
    job: Option<Job>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Location {
    name: Option<String>,
    city: Option<String>,
    iso_country: Option<String>,
    is_remote: Option<bool>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Job {
    department: Option<Department>,
    location_type: Option<String>,
    employment_type: Option<String>,
}

#[derive(Deserialize, Clone)]
struct Department {
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DetailData {
    oats_external_job_posting: Option<Detail>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Detail {
    description_html: Option<String>,
    first_published_ts_sec: Option<i64>,
}

/// The listed postings with an id and a title, keyed by their external id.
fn listed(postings: Postings) -> Vec<(String, Brief)> {
    let mut ids = std::collections::HashSet::new();
    postings
        .job_postings
        .into_iter()
        .filter(|b| b.title.as_deref().is_some_and(|t| !t.trim().is_empty()))
        .filter_map(|b| {
            let id = b.ext_id.as_deref().map(str::trim).filter(|id| !id.is_empty())?.to_owned();
            Some((id, b))
        })
        .filter(|(id, _)| ids.insert(id.clone()))
        .collect()
}

fn posting(board: &str, ext_id: String, brief: Brief, detail: Option<Detail>) -> RawPosting {
    let mut location = String::new();
    for l in &brief.locations {
        let name = l.name.as_deref().or(l.city.as_deref()).unwrap_or_default();
        add_location(&mut location, name);
    }
    let any_remote = brief.locations.iter().any(|l| l.is_remote == Some(true));
    let job = brief.job.as_ref();
    let work_mode = job
        .and_then(|j| j.location_type.as_deref())
        .and_then(workplace_mode)
        .or_else(|| mode_from_flags(Some(any_remote), None));
    let (description, published) = match detail {
        Some(d) => (d.description_html.unwrap_or_default(), d.first_published_ts_sec),
        None => (String::new(), None),
    };
    let mut p = RawPosting {
        url: format!("https://{HOST}/{board}/{ext_id}"),
        native_id: ext_id,
        title: brief.title.as_deref().unwrap_or_default().trim().to_owned(),
        location,
        description_html: description,
        posted_at: published
            .filter(|s| *s > 0)
            .and_then(|s| s.checked_mul(1000))
            .map(RawDate::UnixMillis),
        remote: any_remote.then_some(true),
        work_mode,
        employment_type: job.and_then(|j| j.employment_type.as_deref()).and_then(employment_type),
        countries: brief
            .locations
            .iter()
            .filter_map(|l| l.iso_country.as_deref().and_then(country))
            .collect(),
        departments: job
            .and_then(|j| j.department.as_ref())
            .and_then(|d| d.name.as_deref())
            .map(|d| d.trim().to_owned())
            .into_iter()
            .collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

/// The listing answer decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(env) = serde_json::from_slice::<Envelope<ListData>>(bytes)
        && let Some(Some(postings)) = env.data_opt().map(|d| d.oats_external_job_postings)
    {
        listed(postings).into_iter().map(|(id, b)| posting("b", id, b, None)).for_each(drop);
    }
}

/// The detail answer decoded (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    if let Ok(env) = serde_json::from_slice::<Envelope<DetailData>>(bytes)
        && let Some(data) = env.data_opt()
    {
        drop(data.oats_external_job_posting);
    }
}

impl Gem {
    async fn list(&self, b: &str) -> Result<Vec<(String, Brief)>, IngestError> {
        let url = build_url(HOST, &["api", "public", "graphql"], &[])?;
        let data: ListData =
            graphql::query(&self.0.http, &url, "JobBoardList", LIST_QUERY, json!({"boardId": b}))
                .await?;
        if data.job_board_external.as_ref().is_none_or(serde_json::Value::is_null) {
            return Err(IngestError::BoardGone {
                board: b.to_owned(),
                reason: "Gem has no job board at that path (jobBoardExternal is null)".to_owned(),
            });
        }
        let postings = data.oats_external_job_postings.ok_or_else(|| IngestError::Decode {
            url: url.to_string(),
            format: "JSON",
            source: "oatsExternalJobPostings is null".into(),
        })?;
        Ok(listed(postings))
    }

    async fn detail(
        &self,
        b: &str,
        ext_id: String,
        brief: Brief,
    ) -> Result<RawPosting, IngestError> {
        let url = build_url(HOST, &["api", "public", "graphql"], &[])?;
        let data: DetailData = graphql::query(
            &self.0.http,
            &url,
            "ExternalJobPostingQuery",
            DETAIL_QUERY,
            json!({"boardId": b, "extId": ext_id}),
        )
        .await?;
        let detail = data.oats_external_job_posting.ok_or_else(|| IngestError::Decode {
            url: url.to_string(),
            format: "JSON",
            source: "oatsExternalJobPosting is null".into(),
        })?;
        Ok(posting(b, ext_id, brief, Some(detail)))
    }
}

#[async_trait::async_trait]
impl Source for Gem {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: true }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = match (url.host(), url.segments()) {
            (HOST, [first, ..]) if !RESERVED.contains(first) => path_board(first)?,
            _ => return None,
        };
        let canonical = format!("https://{HOST}/{board}");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let listed = self.list(b).await?;
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |id, brief| self.detail(b, id, brief)).await)
    }
}
