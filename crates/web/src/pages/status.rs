//! `/status`: the service's health for anyone: the ingest fleet's verdict and when a job was
//! last added, each provider's boards and open jobs, the catalogue's size, and the last days'
//! rollups (the same figures as `GET /api/v1/status` and `GET /api/v1/stats/catalog`).

use askama::Template;
use axum::{extract::State, response::Response};

use crate::{WebState, format, layout::Ctx, layout::Layout};

/// One provider's row.
pub struct ProviderRow {
    /// The provider.
    pub name: String,
    /// Its verdict.
    pub verdict: &'static str,
    /// Live boards.
    pub boards: u64,
    /// Healthy boards.
    pub healthy: u64,
    /// Failing boards.
    pub failing: u64,
    /// Boards never crawled.
    pub never: u64,
    /// Open jobs.
    pub jobs: u64,
    /// The last successful crawl, or a dash.
    pub last_success: String,
}

/// One day's row.
pub struct DayRow {
    /// The day.
    pub day: String,
    /// Jobs first seen.
    pub added: u64,
    /// Jobs closed.
    pub removed: u64,
    /// Open jobs then.
    pub open: u64,
    /// The fleet's verdict, or a dash.
    pub verdict: String,
}

/// The status page.
#[derive(Template)]
#[template(path = "status.html")]
pub struct StatusPage {
    /// The layout.
    pub layout: Layout,
    /// The fleet's verdict.
    pub verdict: &'static str,
    /// When a job was last added, or "never".
    pub last_added: String,
    /// Open jobs, companies, providers, boards.
    pub counts: (u64, u64, u64, u64),
    /// Each provider.
    pub providers: Vec<ProviderRow>,
    /// The last days, newest first.
    pub days: Vec<DayRow>,
}

/// `GET /status`.
pub async fn page(State(state): State<WebState>, ctx: Ctx) -> Response {
    let status = &state.status;
    let (fleet, catalog) = match tokio::try_join!(status.fleet(ctx.now), status.catalog(ctx.now)) {
        Ok(both) => both,
        Err(e) => return ctx.error(e),
    };
    let when = |at: Option<chrono::DateTime<chrono::Utc>>, none: &str| {
        at.map_or(none.to_owned(), |at| format::day(at, ctx.tz))
    };
    let providers = fleet
        .providers
        .iter()
        .map(|(p, v)| ProviderRow {
            name: p.provider.clone(),
            verdict: v.as_str(),
            boards: p.boards,
            healthy: p.healthy,
            failing: p.failing,
            never: p.never_crawled,
            jobs: p.open_jobs,
            last_success: when(p.last_success_at, "—"),
        })
        .collect();
    let days = catalog
        .daily
        .iter()
        .map(|d| DayRow {
            day: d.day.to_string(),
            added: d.added,
            removed: d.removed,
            open: d.open_jobs,
            verdict: d.verdict.clone().unwrap_or_else(|| "—".to_owned()),
        })
        .collect();
    let c = catalog.counts;
    ctx.page(&StatusPage {
        layout: ctx.layout("Status"),
        verdict: fleet.verdict.as_str(),
        last_added: when(fleet.last_job_added_at, "never"),
        counts: (c.open_jobs, c.companies, c.providers, c.boards),
        providers,
        days,
    })
}
