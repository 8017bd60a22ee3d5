//! Ashby through its job board's own GraphQL endpoint, for boards whose posting API is
//! disabled (reference §13.2, the `ashbygraphql` variant of `ashby`).
//!
//! Listing: `POST jobs.ashbyhq.com/api/non-user-graphql?op=ApiJobBoardWithTeams`, operation
//! `ApiJobBoardWithTeams` with `{organizationHostedJobsPageName: b}`: `jobBoard.teams[]` (id,
//! name) and `jobBoard.jobPostings[]` (id, title, teamId, locationName, workplaceType,
//! employmentType, secondaryLocations[].locationName). One request, no pagination; a `null`
//! `jobBoard` is an unknown board ([`IngestError::BoardGone`]).
//! Detail (hydrating): `POST …?op=ApiJobPosting`, operation `ApiJobPosting` with
//! `{organizationHostedJobsPageName, jobPostingId}`: `jobPosting.descriptionHtml`,
//! `departmentName`. A failed detail lists the posting as unreadable.
//!
//! `compensationTierSummary` is free text ("$255K – $405K • Offers Equity"): it is not read
//! (no structured salary here; the posting API's tiers are the `ashby` adapter's). The
//! posting URL is `https://jobs.ashbyhq.com/{b}/{id}`.
//!
//! Board URLs: none of its own (no recognition mode). `jobs.ashbyhq.com/{b}` is recognised as `ashby` (the posting
//! API); a board is put on this provider by hand when its posting API is disabled. Not a
//! full-listing provider (the reference names only `ashby` so).
//!
//! Unproven: the request and answer shapes are taken from a public description of the
//! endpoint (see `tests/fixtures/ashbygraphql/ATTRIBUTION.md`), not from a recorded answer.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::json;

use super::common::{
    add_location, build_url, employment_type, hydrate, path_segment, workplace_mode,
};
use super::graphql::{self, Envelope};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawPosting, SeenSet};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("ashbygraphql.listing", parse_listing), ("ashbygraphql.detail", parse_detail)],
    ..Platform::of::<AshbyGraphql>("ashbygraphql", |base| Arc::new(AshbyGraphql(base)))
};

const HOST: &str = "jobs.ashbyhq.com";

const LIST_QUERY: &str = "query ApiJobBoardWithTeams($organizationHostedJobsPageName: String!) \
{ jobBoard: jobBoardWithTeams(organizationHostedJobsPageName: $organizationHostedJobsPageName) \
{ teams { id name parentTeamId } jobPostings { id title teamId locationId locationName \
workplaceType employmentType secondaryLocations { locationId locationName } } } }";

const DETAIL_QUERY: &str = "query ApiJobPosting($organizationHostedJobsPageName: String!, \
$jobPostingId: String!) { jobPosting(organizationHostedJobsPageName: \
$organizationHostedJobsPageName, jobPostingId: $jobPostingId) { id title departmentName \
locationName workplaceType employmentType descriptionHtml isListed teamNames \
secondaryLocationNames } }";

pub(crate) struct AshbyGraphql(Base);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListData {
    #[serde(alias = "jobBoardWithTeams")]
    job_board: Option<Board>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Board {
    #[serde(default)]
    teams: Vec<Team>,
    #[serde(default)]
    job_postings: Vec<Brief>,
}

#[derive(Deserialize)]
struct Team {
    id: String,
    name: Option<String>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Brief {
    id: String,
    title: String,
    team_id: Option<String>,
    location_name: Option<String>,
    workplace_type: Option<String>,
    employment_type: Option<String>,
    #[serde(default)]
    secondary_locations: Vec<Secondary>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Secondary {
    location_name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DetailData {
    job_posting: Option<Detail>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Detail {
    department_name: Option<String>,
    description_html: Option<String>,
}

/// A listed posting with its team's name, before its detail.
#[derive(Clone)]
struct Listed {
    brief: Brief,
    team: Option<String>,
}

fn listed(board: Board) -> Vec<Listed> {
    let teams: HashMap<String, String> =
        board.teams.into_iter().filter_map(|t| Some((t.id, t.name?))).collect();
    board
        .job_postings
        .into_iter()
        .map(|brief| {
            let team = brief.team_id.as_ref().and_then(|id| teams.get(id)).cloned();
            Listed { brief, team }
        })
        .collect()
}

fn posting(board: &str, item: Listed, detail: Option<Detail>) -> RawPosting {
    let Listed { brief, team } = item;
    let mut location = String::new();
    add_location(&mut location, brief.location_name.as_deref().unwrap_or_default());
    for s in &brief.secondary_locations {
        add_location(&mut location, s.location_name.as_deref().unwrap_or_default());
    }
    let work_mode = brief.workplace_type.as_deref().and_then(workplace_mode);
    let (department, description) = match detail {
        Some(d) => (d.department_name, d.description_html.unwrap_or_default()),
        None => (None, String::new()),
    };
    let mut p = RawPosting {
        url: format!("https://{HOST}/{board}/{}", brief.id),
        native_id: brief.id,
        title: brief.title.trim().to_owned(),
        location,
        description_html: description,
        remote: work_mode.map(|m| m == freehire_domain::WorkMode::Remote),
        work_mode,
        employment_type: brief.employment_type.as_deref().and_then(employment_type),
        departments: department.into_iter().chain(team).map(|d| d.trim().to_owned()).collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

/// The listing answer decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(env) = serde_json::from_slice::<Envelope<ListData>>(bytes)
        && let Some(Some(board)) = env.data_opt().map(|d| d.job_board)
    {
        listed(board).into_iter().map(|l| posting("b", l, None)).for_each(drop);
    }
}

/// The detail answer decoded and mapped (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    if let Ok(env) = serde_json::from_slice::<Envelope<DetailData>>(bytes)
        && let Some(data) = env.data_opt()
    {
        drop(data.job_posting);
    }
}

impl AshbyGraphql {
    fn endpoint(op: &str) -> Result<url::Url, IngestError> {
        build_url(HOST, &["api", "non-user-graphql"], &[("op", op)])
    }

    async fn list(&self, b: &str) -> Result<Vec<Listed>, IngestError> {
        let url = Self::endpoint("ApiJobBoardWithTeams")?;
        let data: ListData = graphql::query(
            &self.0.http,
            &url,
            "ApiJobBoardWithTeams",
            LIST_QUERY,
            json!({"organizationHostedJobsPageName": b}),
        )
        .await?;
        let board = data.job_board.ok_or_else(|| IngestError::BoardGone {
            board: b.to_owned(),
            reason: "Ashby has no job board by that name (jobBoard is null)".to_owned(),
        })?;
        Ok(listed(board))
    }

    async fn detail(&self, b: &str, item: Listed) -> Result<RawPosting, IngestError> {
        let url = Self::endpoint("ApiJobPosting")?;
        let data: DetailData = graphql::query(
            &self.0.http,
            &url,
            "ApiJobPosting",
            DETAIL_QUERY,
            json!({"organizationHostedJobsPageName": b, "jobPostingId": item.brief.id}),
        )
        .await?;
        let detail = data.job_posting.ok_or_else(|| IngestError::Decode {
            url: url.to_string(),
            format: "JSON",
            source: "jobPosting is null".into(),
        })?;
        Ok(posting(b, item, Some(detail)))
    }
}

#[async_trait::async_trait]
impl Source for AshbyGraphql {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: true }
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let listed = self.list(b).await?.into_iter().map(|l| (l.brief.id.clone(), l)).collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |_, item| self.detail(b, item)).await)
    }
}
