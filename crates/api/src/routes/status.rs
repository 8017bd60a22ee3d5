//! `GET /status` (the ingest fleet's verdict, when a job was last added, a rollup per
//! provider) and `GET /stats/catalog` (the catalogue's scale, exact, and the last 30 days'
//! rollups) (reference search-ingest §6.4). Public, keyless.

use axum::{Json, extract::State};
use chrono::{DateTime, NaiveDate, Utc};
use freehire_app::status::{ProviderReport, Status, Verdict};
use freehire_domain::FailureClass;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    ApiError, AppState,
    openapi::{Errors, code::Unavailable},
    view::Single,
};

fn verdict_schema() -> utoipa::openapi::Object {
    crate::openapi::vocab::one_of(Verdict::ALL.iter().map(|v| v.as_str()))
}

/// The fleet: its verdict, the last job added and each provider.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatusView {
    /// `ok`, `degraded` (over 10 % of crawled boards failing, or no job added in 48 h), `down`
    /// (no successful crawl in 24 h), `starting` (no board crawled yet) or `empty`.
    #[schema(schema_with = verdict_schema)]
    pub verdict: &'static str,
    /// The newest job's first sighting.
    pub last_job_added_at: Option<DateTime<Utc>>,
    /// Each provider, by name.
    pub providers: Vec<ProviderView>,
}

/// One provider's boards and jobs.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProviderView {
    pub provider: String,
    /// Its own verdict (the same rule as the fleet's).
    #[schema(schema_with = verdict_schema)]
    pub verdict: &'static str,
    /// Live boards (pending or active).
    pub boards: u64,
    /// Boards whose last crawl succeeded.
    pub healthy: u64,
    /// Boards failing since their last success.
    pub failing: u64,
    /// Boards cooling down now.
    pub cooling: u64,
    /// Boards not crawled yet.
    pub never_crawled: u64,
    pub last_success_at: Option<DateTime<Utc>>,
    /// Open, non-duplicate jobs.
    pub open_jobs: u64,
    pub last_job_added_at: Option<DateTime<Utc>>,
    /// Every failing board counted by the class of its last failure, most first.
    pub failure_classes: Vec<ClassCountView>,
    /// The worst failing boards (at most 20): most consecutive failures, then the latest error.
    pub failing_boards: Vec<FailingBoardView>,
}

/// How many of a provider's failing boards last failed with one class.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClassCountView {
    /// `dns`, `connect`, `tls`, `timeout`, `network`, `http_status`, `gone`, `block_page`,
    /// `parse`, `too_large`, `refused`, `incomplete`, `invalid_board`, `storage` or `other`.
    #[schema(schema_with = crate::openapi::vocab::failure_class)]
    pub class: &'static str,
    pub boards: u64,
}

/// A board failing since its last success.
#[derive(Debug, Serialize, ToSchema)]
pub struct FailingBoardView {
    /// The board as curated.
    pub board: String,
    /// The board's region (empty for most providers).
    pub region: String,
    pub company: String,
    /// Failures since its last success.
    pub consecutive_failures: u32,
    /// The class of its last failure (`other` for failures recorded before classes were).
    #[schema(schema_with = crate::openapi::vocab::failure_class)]
    pub error_class: &'static str,
    /// Its last error with its causes.
    pub last_error: Option<String>,
    pub last_error_at: Option<DateTime<Utc>>,
    /// Its last successful crawl, if it ever had one.
    pub last_success_at: Option<DateTime<Utc>>,
    /// Not crawled again before this instant (after three failures in a row).
    pub cooldown_until: Option<DateTime<Utc>>,
}

/// The catalogue's scale and its last days.
#[derive(Debug, Serialize, ToSchema)]
pub struct CatalogStatsView {
    /// Whether the counts are exact (always, on both backends).
    pub exact: bool,
    /// Open, non-duplicate jobs.
    pub open_jobs: u64,
    /// Open jobs that are copies of another (hidden from lists).
    pub duplicates: u64,
    /// Companies with an open job.
    pub companies: u64,
    /// Providers with an open job.
    pub providers: u64,
    /// Live boards.
    pub boards: u64,
    /// The worker's daily rollups of the last 30 days, newest first.
    pub daily: Vec<DayView>,
}

/// One UTC day.
#[derive(Debug, Serialize, ToSchema)]
pub struct DayView {
    pub day: NaiveDate,
    /// Jobs first seen that day.
    pub added: u64,
    /// Jobs closed that day.
    pub removed: u64,
    /// Open, non-duplicate jobs when it was computed.
    pub open_jobs: u64,
    /// The fleet's verdict that day.
    pub verdict: Option<String>,
    pub computed_at: DateTime<Utc>,
}

/// The ingest fleet's health now.
#[utoipa::path(
    get, path = "/status", tag = "operations", operation_id = "status",
    security(()),
    responses(
        (status = 200, description = "The fleet's verdict and each provider's.", body = Single<StatusView>),
        Errors<(Unavailable,)>,
    ),
)]
pub async fn status(State(state): State<AppState>) -> Result<Json<Single<StatusView>>, ApiError> {
    let report = Status::new(state.store.clone()).fleet((state.clock)()).await?;
    let providers = report
        .providers
        .into_iter()
        .map(|ProviderReport { status: p, verdict, failing_boards, failure_classes }| {
            ProviderView {
                failure_classes: failure_classes
                    .into_iter()
                    .map(|(class, boards)| ClassCountView { class: class.as_str(), boards })
                    .collect(),
                failing_boards: failing_boards
                    .into_iter()
                    .map(|b| FailingBoardView {
                        board: b.board,
                        region: b.health.key.region,
                        company: b.company,
                        consecutive_failures: b.health.consecutive_failures,
                        error_class: b
                            .health
                            .last_error_class
                            .unwrap_or(FailureClass::Other)
                            .as_str(),
                        last_error: b.health.last_error,
                        last_error_at: b.health.last_error_at,
                        last_success_at: b.health.last_success_at,
                        cooldown_until: b.health.cooldown_until,
                    })
                    .collect(),
                provider: p.provider,
                verdict: verdict.as_str(),
                boards: p.boards,
                healthy: p.healthy,
                failing: p.failing,
                cooling: p.cooling,
                never_crawled: p.never_crawled,
                last_success_at: p.last_success_at,
                open_jobs: p.open_jobs,
                last_job_added_at: p.last_job_added_at,
            }
        })
        .collect();
    Ok(Json(Single {
        data: StatusView {
            verdict: report.verdict.as_str(),
            last_job_added_at: report.last_job_added_at,
            providers,
        },
    }))
}

/// The catalogue's scale and its last 30 days.
#[utoipa::path(
    get, path = "/stats/catalog", tag = "operations", operation_id = "catalog_stats",
    security(()),
    responses(
        (status = 200, description = "The catalogue's counts and daily rollups.", body = Single<CatalogStatsView>),
        Errors<(Unavailable,)>,
    ),
)]
pub async fn catalog(
    State(state): State<AppState>,
) -> Result<Json<Single<CatalogStatsView>>, ApiError> {
    let report = Status::new(state.store.clone()).catalog((state.clock)()).await?;
    let c = report.counts;
    let daily = report
        .daily
        .into_iter()
        .map(|d| DayView {
            day: d.day,
            added: d.added,
            removed: d.removed,
            open_jobs: d.open_jobs,
            verdict: d.verdict,
            computed_at: d.computed_at,
        })
        .collect();
    Ok(Json(Single {
        data: CatalogStatsView {
            exact: report.exact,
            open_jobs: c.open_jobs,
            duplicates: c.duplicates,
            companies: c.companies,
            providers: c.providers,
            boards: c.boards,
            daily,
        },
    }))
}
