//! The catalogue's public lookups (keyless; [`Client::public`] is enough): the posting at an
//! address (`GET /jobs/find`), a job's copies (`GET /jobs/{slug}/copies`), city names
//! (`GET /geo/cities`), completions (`GET /suggest`), and the operators' figures
//! (`GET /status`, `GET /stats/catalog`).

use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::client::segment;
use crate::wire::Envelope;
use crate::{Client, ClientError};

/// A job as the lookups answer it (the fields a person reads; the rest of the API's job is
/// ignored).
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct JobSummary {
    /// Its public slug.
    pub public_slug: String,
    /// Its title.
    pub title: String,
    /// The company.
    pub company: String,
    /// Where it is, as posted.
    pub location: String,
    /// The posting on its ATS.
    pub url: String,
    /// When it closed; `None` while open.
    pub closed_at: Option<String>,
}

/// A canonical city name and its country.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct City {
    /// The name, as the `city` filter takes it.
    pub value: String,
    /// ISO 3166-1 alpha-2, lowercase.
    pub country: String,
}

/// One part of a completion.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SuggestPart {
    /// `title`, `role`, `skill`, `category` or `company`.
    pub kind: String,
    /// The filter value, for a skill, category or company.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// What it reads.
    pub text: String,
}

/// One completion and the open jobs it finds.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Suggestion {
    /// The phrase.
    pub text: String,
    /// What it is made of.
    pub parts: Vec<SuggestPart>,
    /// Open jobs.
    pub jobs: u64,
}

/// `text` percent-encoded as a query value.
fn query_value(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

impl Client {
    /// `GET /jobs/find?url=`: the posting stored at `url` (however it was pasted).
    pub async fn find_job(&self, url: &str) -> Result<JobSummary, ClientError> {
        let path = format!("jobs/find?url={}", query_value(url));
        let found: Envelope<JobSummary> = self.call(Method::GET, &path, None::<&()>).await?;
        Ok(found.data)
    }

    /// `GET /jobs/{slug}/copies`: the same role's other open postings.
    pub async fn job_copies(&self, slug: &str) -> Result<Vec<JobSummary>, ClientError> {
        let path = format!("jobs/{}/copies", segment(slug));
        let found: Envelope<Vec<JobSummary>> = self.call(Method::GET, &path, None::<&()>).await?;
        Ok(found.data)
    }

    /// `GET /geo/cities?q=&country=&limit=`: city names completing `q`.
    pub async fn cities(
        &self,
        q: &str,
        country: Option<&str>,
        limit: Option<u32>,
    ) -> Result<Vec<City>, ClientError> {
        let mut path = format!("geo/cities?q={}", query_value(q));
        if let Some(country) = country {
            path.push_str(&format!("&country={}", query_value(country)));
        }
        if let Some(limit) = limit {
            path.push_str(&format!("&limit={limit}"));
        }
        let found: Envelope<Vec<City>> = self.call(Method::GET, &path, None::<&()>).await?;
        Ok(found.data)
    }

    /// `GET /suggest?q=&limit=`: completions of `q`.
    pub async fn suggest(
        &self,
        q: &str,
        limit: Option<u32>,
    ) -> Result<Vec<Suggestion>, ClientError> {
        let mut path = format!("suggest?q={}", query_value(q));
        if let Some(limit) = limit {
            path.push_str(&format!("&limit={limit}"));
        }
        let found: Envelope<Vec<Suggestion>> = self.call(Method::GET, &path, None::<&()>).await?;
        Ok(found.data)
    }
}

/// `GET /status`: the ingest fleet.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct FleetStatus {
    /// `ok`, `degraded`, `down`, `starting` or `empty`.
    pub verdict: String,
    /// The newest job's first sighting.
    pub last_job_added_at: Option<String>,
    /// Each provider.
    pub providers: Vec<ProviderStatus>,
}

/// One provider of [`FleetStatus`].
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ProviderStatus {
    /// Its name.
    pub provider: String,
    /// Its verdict.
    pub verdict: String,
    /// Live boards.
    pub boards: u64,
    /// Boards whose last crawl succeeded.
    pub healthy: u64,
    /// Boards failing.
    pub failing: u64,
    /// Boards cooling down now.
    #[serde(default)]
    pub cooling: u64,
    /// Boards never crawled.
    pub never_crawled: u64,
    /// Open jobs.
    pub open_jobs: u64,
    /// The last successful crawl.
    pub last_success_at: Option<String>,
    /// Its failing boards counted by the class of their last failure, most first.
    #[serde(default)]
    pub failure_classes: Vec<ClassCount>,
    /// Its worst failing boards (at most 20).
    #[serde(default)]
    pub failing_boards: Vec<FailingBoard>,
}

/// How many of a provider's failing boards last failed with one class.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ClassCount {
    /// `dns`, `connect`, `tls`, `timeout`, `http_status`, `block_page`, `parse`, ….
    pub class: String,
    /// Boards.
    pub boards: u64,
}

/// A board failing since its last success.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct FailingBoard {
    /// The board as curated.
    pub board: String,
    /// Its region (empty for most providers).
    #[serde(default)]
    pub region: String,
    /// The company.
    pub company: String,
    /// Failures since its last success.
    pub consecutive_failures: u32,
    /// The class of its last failure.
    pub error_class: String,
    /// Its last error with its causes.
    pub last_error: Option<String>,
    /// When it last failed.
    pub last_error_at: Option<String>,
    /// Its last success, if any.
    pub last_success_at: Option<String>,
    /// Not crawled again before this instant.
    pub cooldown_until: Option<String>,
}

/// `GET /stats/catalog`: the catalogue's scale (the daily rollups are left out here).
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct CatalogStats {
    /// Whether the counts are exact.
    pub exact: bool,
    /// Open, non-duplicate jobs.
    pub open_jobs: u64,
    /// Companies with an open job.
    pub companies: u64,
    /// Providers with an open job.
    pub providers: u64,
    /// Live boards.
    pub boards: u64,
}

impl Client {
    /// `GET /status`.
    pub async fn status(&self) -> Result<FleetStatus, ClientError> {
        let found: Envelope<FleetStatus> = self.call(Method::GET, "status", None::<&()>).await?;
        Ok(found.data)
    }

    /// `GET /stats/catalog`.
    pub async fn catalog_stats(&self) -> Result<CatalogStats, ClientError> {
        let found: Envelope<CatalogStats> =
            self.call(Method::GET, "stats/catalog", None::<&()>).await?;
        Ok(found.data)
    }
}
