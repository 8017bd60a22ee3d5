//! `/status`: the service's health for anyone: the ingest fleet's verdict and when a job was
//! last added, each provider's boards and open jobs, the worst failing boards with the class
//! and text of their last error, the catalogue's size, and the last days' rollups (the same figures as `GET /api/v1/status` and `GET /api/v1/stats/catalog`).

use askama::Template;
use axum::{extract::State, response::Response};
use freehire_domain::FailureClass;

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
    /// Boards cooling down now.
    pub cooling: u64,
    /// Its failing boards by class of their last failure (`dns 2, http_status 1`), or empty.
    pub classes: String,
    /// Boards never crawled.
    pub never: u64,
    /// Open jobs.
    pub jobs: u64,
    /// The last successful crawl, or a dash.
    pub last_success: String,
}

/// A failing board's row.
pub struct FailingRow {
    /// `provider/board`.
    pub board: String,
    /// The company.
    pub company: String,
    /// The class of its last failure.
    pub class: &'static str,
    /// Failures since its last success.
    pub failures: u32,
    /// The end of its last error (the root cause).
    pub error: String,
    /// The whole error (the cell's title).
    pub full_error: String,
    /// Its last success, or "never".
    pub last_success: String,
    /// When it is crawled again, or a dash.
    pub cooling_until: String,
}

/// Characters of an error the failing boards' table shows (the end: the root cause).
const ERROR_SHOWN: usize = 160;

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
    /// The worst failing boards of each provider.
    pub failing: Vec<FailingRow>,
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
        .map(|r| {
            let p = &r.status;
            let classes = r
                .failure_classes
                .iter()
                .map(|(class, boards)| format!("{} {boards}", class.as_str()))
                .collect::<Vec<_>>()
                .join(", ");
            ProviderRow {
                name: p.provider.clone(),
                verdict: r.verdict.as_str(),
                boards: p.boards,
                healthy: p.healthy,
                failing: p.failing,
                cooling: p.cooling,
                classes,
                never: p.never_crawled,
                jobs: p.open_jobs,
                last_success: when(p.last_success_at, "—"),
            }
        })
        .collect();
    let stamp = |at: Option<chrono::DateTime<chrono::Utc>>, none: &str| {
        at.map_or(none.to_owned(), |at| format::date(at, ctx.tz))
    };
    let failing = fleet
        .providers
        .iter()
        .flat_map(|r| &r.failing_boards)
        .map(|b| {
            let h = &b.health;
            let full_error = h.last_error.clone().unwrap_or_default();
            FailingRow {
                board: format!("{}/{}", h.key.provider, b.board),
                company: b.company.clone(),
                class: h.last_error_class.unwrap_or(FailureClass::Other).as_str(),
                failures: h.consecutive_failures,
                error: h.error_tail(ERROR_SHOWN).unwrap_or_default(),
                full_error,
                last_success: stamp(h.last_success_at, "never"),
                cooling_until: stamp(h.cooldown_until.filter(|until| *until > ctx.now), "—"),
            }
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
        failing,
        days,
    })
}
