//! The operators' view (reference search-ingest §6.4, §11.1): [`Status`] answers
//! `GET /status` (the ingest fleet's verdict, when a job was last added, a rollup per
//! provider with its worst failing boards and their failures by class) and `GET /stats/catalog` (the catalogue's scale and its last days), and writes the
//! daily rollups the worker runs ([`Status::rollup`], [`run_rollups`]).
//!
//! **The verdict** ([`verdict`], pure), per provider and for the fleet, from the live boards:
//! - `empty`: no live board and no open job;
//! - `starting`: live boards, none crawled yet;
//! - `down`: no board crawled successfully in the last [`DOWN_AFTER`] (24 h);
//! - `degraded`: more than [`DEGRADED_SHARE`] (10 %) of the crawled boards failing, or no job
//!   added in the last [`STALE_AFTER`] (48 h) while boards are crawled;
//! - `ok` otherwise.

use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use freehire_domain::FailureClass;
use freehire_store::{
    CatalogCounts, DailyStats, DayVerdict, FailingBoard, FleetStatus, ProviderStatus, Store,
};
use tokio_util::sync::CancellationToken;

use crate::AppError;

/// No successful crawl for this long is `down`.
pub const DOWN_AFTER: Duration = Duration::hours(24);
/// No job added for this long is `degraded`.
pub const STALE_AFTER: Duration = Duration::hours(48);
/// More than this share of crawled boards failing is `degraded`.
pub const DEGRADED_SHARE: f64 = 0.10;
/// Failing boards `GET /status` names per provider (the worst ones).
pub const FAILING_SHOWN: u32 = 20;
/// Days of rollups `GET /stats/catalog` answers.
pub const DAILY_DAYS: i64 = 30;
/// How often the worker rewrites today's and yesterday's rollups.
pub const ROLLUP_EVERY: std::time::Duration = std::time::Duration::from_secs(60 * 60);

/// A verdict on boards' health.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Crawling and adding jobs.
    Ok,
    /// Crawling, with too many failing boards or no new job for a while.
    Degraded,
    /// No successful crawl for a day.
    Down,
    /// Boards, none crawled yet.
    Starting,
    /// Nothing to crawl.
    Empty,
}

impl Verdict {
    /// Every verdict, as the wire names them.
    pub const ALL: [Self; 5] = [Self::Ok, Self::Degraded, Self::Down, Self::Starting, Self::Empty];

    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Degraded => "degraded",
            Self::Down => "down",
            Self::Starting => "starting",
            Self::Empty => "empty",
        }
    }
}

/// Boards and jobs as the verdict weighs them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Health {
    /// Live boards.
    pub boards: u64,
    /// Boards never crawled.
    pub never_crawled: u64,
    /// Boards failing since their last success.
    pub failing: u64,
    /// Open jobs.
    pub open_jobs: u64,
    /// The last successful crawl.
    pub last_success_at: Option<DateTime<Utc>>,
    /// The last job added.
    pub last_job_added_at: Option<DateTime<Utc>>,
}

impl Health {
    /// One provider's.
    pub fn of(p: &ProviderStatus) -> Self {
        Self {
            boards: p.boards,
            never_crawled: p.never_crawled,
            failing: p.failing,
            open_jobs: p.open_jobs,
            last_success_at: p.last_success_at,
            last_job_added_at: p.last_job_added_at,
        }
    }

    /// The whole fleet's.
    pub fn fleet(f: &FleetStatus) -> Self {
        let mut all = Self { last_job_added_at: f.last_job_added_at, ..Self::default() };
        for p in &f.providers {
            all.boards += p.boards;
            all.never_crawled += p.never_crawled;
            all.failing += p.failing;
            all.open_jobs += p.open_jobs;
            all.last_success_at = all.last_success_at.max(p.last_success_at);
        }
        all
    }
}

/// The verdict on `h` at `now` (see the module docs).
pub fn verdict(h: &Health, now: DateTime<Utc>) -> Verdict {
    if h.boards == 0 {
        return if h.open_jobs == 0 { Verdict::Empty } else { Verdict::Ok };
    }
    let crawled = h.boards.saturating_sub(h.never_crawled);
    if crawled == 0 {
        return Verdict::Starting;
    }
    if h.last_success_at.is_none_or(|at| now - at > DOWN_AFTER) {
        return Verdict::Down;
    }
    let failing_share = h.failing as f64 / crawled as f64;
    let stale = h.last_job_added_at.is_none_or(|at| now - at > STALE_AFTER);
    if failing_share > DEGRADED_SHARE || stale {
        return Verdict::Degraded;
    }
    Verdict::Ok
}

/// `GET /status`: the fleet's verdict and each provider's.
#[derive(Debug, Clone)]
pub struct FleetReport {
    /// The fleet's verdict.
    pub verdict: Verdict,
    /// The newest job's first sighting.
    pub last_job_added_at: Option<DateTime<Utc>>,
    /// Each provider, by name, with its own verdict.
    pub providers: Vec<ProviderReport>,
}

/// One provider's figures, verdict and failing boards.
#[derive(Debug, Clone)]
pub struct ProviderReport {
    /// Boards and jobs.
    pub status: ProviderStatus,
    /// Its verdict.
    pub verdict: Verdict,
    /// Its worst [`FAILING_SHOWN`] failing boards, most consecutive failures first.
    pub failing_boards: Vec<FailingBoard>,
    /// All its failing boards counted by the class of their last failure, most first.
    pub failure_classes: Vec<(FailureClass, u64)>,
}

/// `GET /stats/catalog`: the catalogue's counts (exact) and its last days.
#[derive(Debug, Clone)]
pub struct CatalogReport {
    /// The counts.
    pub counts: CatalogCounts,
    /// Whether the counts are exact (they are, on both backends).
    pub exact: bool,
    /// The last [`DAILY_DAYS`] days' rollups, newest first.
    pub daily: Vec<DailyStats>,
}

/// The operators' figures over the store.
#[derive(Clone)]
pub struct Status {
    store: Arc<dyn Store>,
}

impl Status {
    /// The figures of `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self { store }
    }

    /// The fleet at `now`, with each provider's failing boards.
    pub async fn fleet(&self, now: DateTime<Utc>) -> Result<FleetReport, AppError> {
        let (fleet, failing) = tokio::try_join!(
            self.store.fleet_status(now),
            self.store.failing_boards(FAILING_SHOWN)
        )?;
        let overall = verdict(&Health::fleet(&fleet), now);
        let mut boards = failing.boards;
        let providers = fleet
            .providers
            .into_iter()
            .map(|p| {
                let verdict = verdict(&Health::of(&p), now);
                let (failing_boards, rest) =
                    boards.drain(..).partition(|b| b.health.key.provider.as_str() == p.provider);
                boards = rest;
                let failure_classes = failing
                    .classes
                    .iter()
                    .filter(|c| c.provider == p.provider)
                    .map(|c| (c.class, c.boards))
                    .collect();
                ProviderReport { status: p, verdict, failing_boards, failure_classes }
            })
            .collect();
        Ok(FleetReport { verdict: overall, last_job_added_at: fleet.last_job_added_at, providers })
    }

    /// The catalogue's scale and the rollups of the [`DAILY_DAYS`] days up to `now`.
    pub async fn catalog(&self, now: DateTime<Utc>) -> Result<CatalogReport, AppError> {
        let counts = self.store.catalog_counts().await?;
        let since = (now - Duration::days(DAILY_DAYS - 1)).date_naive();
        let daily = self.store.daily_stats(since).await?;
        Ok(CatalogReport { counts, exact: true, daily })
    }

    /// Rewrites the rollups of `now`'s day and the day before (the day before closes with its
    /// last jobs); the fleet's verdict now is recorded for both.
    pub async fn rollup(&self, now: DateTime<Utc>) -> Result<(), AppError> {
        let fleet = self.store.fleet_status(now).await?;
        let health = Health::fleet(&fleet);
        let day_verdict = DayVerdict {
            verdict: verdict(&health, now).as_str().to_owned(),
            boards: health.boards,
            failing: health.failing,
        };
        let today: NaiveDate = now.date_naive();
        if let Some(yesterday) = today.pred_opt() {
            // Yesterday keeps the verdict it last had, unless it had none.
            let had = self.store.daily_stats(yesterday).await?;
            let kept =
                had.iter().find(|d| d.day == yesterday).and_then(|d| d.verdict.clone()).map_or(
                    day_verdict.clone(),
                    |verdict| DayVerdict { verdict, ..day_verdict.clone() },
                );
            self.store.record_daily(yesterday, &kept, now).await?;
        }
        self.store.record_daily(today, &day_verdict, now).await?;
        Ok(())
    }
}

/// The worker's rollup loop: [`Status::rollup`] now and every [`ROLLUP_EVERY`] until `cancel`;
/// a failed rollup is logged and tried again next time.
pub async fn run_rollups(
    status: &Status,
    cancel: &CancellationToken,
    clock: &(dyn Fn() -> DateTime<Utc> + Send + Sync),
) {
    let mut every = tokio::time::interval(ROLLUP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = cancel.cancelled() => break,
            _ = every.tick() => {
                match status.rollup(clock()).await {
                    Ok(()) => tracing::debug!("daily rollups written"),
                    Err(e) => tracing::warn!(error = %e, "daily rollups failed; retrying next hour"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 3, 12, 0, 0).unwrap()
    }

    fn crawled(failing: u64) -> Health {
        Health {
            boards: 20,
            never_crawled: 0,
            failing,
            open_jobs: 100,
            last_success_at: Some(now() - Duration::hours(1)),
            last_job_added_at: Some(now() - Duration::hours(2)),
        }
    }

    #[test]
    fn verdicts_follow_the_boards() {
        assert_eq!(verdict(&Health::default(), now()), Verdict::Empty);
        assert_eq!(verdict(&Health { open_jobs: 3, ..Health::default() }, now()), Verdict::Ok);
        let new = Health { boards: 5, never_crawled: 5, ..Health::default() };
        assert_eq!(verdict(&new, now()), Verdict::Starting);
        assert_eq!(verdict(&crawled(2), now()), Verdict::Ok, "10 % failing is still ok");
        assert_eq!(verdict(&crawled(3), now()), Verdict::Degraded);
        let stale = Health { last_job_added_at: Some(now() - Duration::hours(49)), ..crawled(0) };
        assert_eq!(verdict(&stale, now()), Verdict::Degraded);
        let down = Health { last_success_at: Some(now() - Duration::hours(25)), ..crawled(0) };
        assert_eq!(verdict(&down, now()), Verdict::Down);
    }
}
