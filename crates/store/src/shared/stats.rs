//! [`StatsRepo`](crate::StatsRepo) bodies both backends run unchanged, over [`sql::stats`].

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Shared;
use crate::{
    CatalogCounts, DailyStats, DayVerdict, FleetStatus, OutboxDepth, ProviderStatus, Result,
    StoreError, bind::Stamp, rows::count, sql::stats as sql,
};

/// A provider's boards as [`sql::FLEET_BOARDS`] reads them.
type BoardRow = (String, i64, i64, i64, i64, i64, Option<Stamp>);
/// A day as [`sql::DAILY`] reads it.
type DayRow = (String, i64, i64, i64, Option<String>, Stamp);

impl<DB> Shared<DB>
where
    DB: Database,
    for<'c> &'c Pool<DB>: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    BoardRow: for<'r> FromRow<'r, DB::Row>,
    DayRow: for<'r> FromRow<'r, DB::Row>,
    (String, i64, Option<Stamp>): for<'r> FromRow<'r, DB::Row>,
    (i64, i64, i64, i64, i64): for<'r> FromRow<'r, DB::Row>,
    (i64, Option<Stamp>, i64, Option<Stamp>): for<'r> FromRow<'r, DB::Row>,
{
    /// The fleet per provider at `now`.
    pub async fn fleet_status(pool: &Pool<DB>, now: DateTime<Utc>) -> Result<FleetStatus> {
        let boards: Vec<BoardRow> =
            sqlx::query_as(sql::FLEET_BOARDS).bind(Stamp(now)).fetch_all(pool).await?;
        let jobs: Vec<(String, i64, Option<Stamp>)> =
            sqlx::query_as(sql::FLEET_JOBS).fetch_all(pool).await?;
        let mut providers: Vec<ProviderStatus> = boards
            .into_iter()
            .map(|(provider, boards, healthy, failing, cooling, never, last)| ProviderStatus {
                provider,
                boards: count(boards),
                healthy: count(healthy),
                failing: count(failing),
                cooling: count(cooling),
                never_crawled: count(never),
                last_success_at: last.map(Into::into),
                open_jobs: 0,
                last_job_added_at: None,
            })
            .collect();
        let mut last_job_added_at: Option<DateTime<Utc>> = None;
        for (source, open, newest) in jobs {
            let newest: Option<DateTime<Utc>> = newest.map(Into::into);
            last_job_added_at = last_job_added_at.max(newest);
            let row = match providers.iter().position(|p| p.provider == source) {
                Some(at) => &mut providers[at],
                None => {
                    providers.push(ProviderStatus {
                        provider: source,
                        boards: 0,
                        healthy: 0,
                        failing: 0,
                        cooling: 0,
                        never_crawled: 0,
                        last_success_at: None,
                        open_jobs: 0,
                        last_job_added_at: None,
                    });
                    let last = providers.len() - 1;
                    &mut providers[last]
                }
            };
            row.open_jobs = count(open);
            row.last_job_added_at = newest;
        }
        providers.sort_by(|a, b| a.provider.cmp(&b.provider));
        Ok(FleetStatus { last_job_added_at, providers })
    }

    /// Both search outboxes' backlogs (upserts, deletes).
    pub async fn outbox_backlog(pool: &Pool<DB>) -> Result<(OutboxDepth, OutboxDepth)> {
        let (up, up_oldest, del, del_oldest): (i64, Option<Stamp>, i64, Option<Stamp>) =
            sqlx::query_as(sql::OUTBOXES).fetch_one(pool).await?;
        Ok((
            OutboxDepth { rows: count(up), oldest: up_oldest.map(Into::into) },
            OutboxDepth { rows: count(del), oldest: del_oldest.map(Into::into) },
        ))
    }

    /// The catalogue's counts.
    pub async fn catalog_counts(pool: &Pool<DB>) -> Result<CatalogCounts> {
        let (open, duplicates, companies, providers, boards): (i64, i64, i64, i64, i64) =
            sqlx::query_as(sql::CATALOG).fetch_one(pool).await?;
        Ok(CatalogCounts {
            open_jobs: count(open),
            duplicates: count(duplicates),
            companies: count(companies),
            providers: count(providers),
            boards: count(boards),
        })
    }

    /// Writes `day`'s two rollup rows (replacing what an earlier run wrote).
    pub async fn record_daily(
        pool: &Pool<DB>,
        day: NaiveDate,
        fleet: &DayVerdict,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let start = day.and_hms_opt(0, 0, 0).map(|t| t.and_utc());
        let end = day.succ_opt().and_then(|d| d.and_hms_opt(0, 0, 0)).map(|t| t.and_utc());
        let (Some(start), Some(end)) = (start, end) else {
            return Err(StoreError::Invalid(freehire_domain::DomainError::Invalid {
                field: "day",
                value: day.to_string(),
                reason: "is outside the calendar",
            }));
        };
        let key = day.format("%Y-%m-%d").to_string();
        sqlx::query(sql::ROLLUP_JOBS)
            .bind(key.clone())
            .bind(Stamp(start))
            .bind(Stamp(end))
            .bind(Stamp(now))
            .execute(pool)
            .await?;
        sqlx::query(sql::ROLLUP_STATUS)
            .bind(key)
            .bind(fleet.verdict.clone())
            .bind(i64::try_from(fleet.boards).unwrap_or(i64::MAX))
            .bind(i64::try_from(fleet.failing).unwrap_or(i64::MAX))
            .bind(Stamp(now))
            .execute(pool)
            .await?;
        Ok(())
    }

    /// The rollups from `since` on, newest first.
    pub async fn daily_stats(pool: &Pool<DB>, since: NaiveDate) -> Result<Vec<DailyStats>> {
        let rows: Vec<DayRow> = sqlx::query_as(sql::DAILY)
            .bind(since.format("%Y-%m-%d").to_string())
            .fetch_all(pool)
            .await?;
        rows.into_iter()
            .map(|(day, added, removed, open, verdict, at)| {
                let day = NaiveDate::parse_from_str(&day, "%Y-%m-%d")
                    .map_err(|e| StoreError::corrupt("job_daily_stats.day", e))?;
                Ok(DailyStats {
                    day,
                    added: count(added),
                    removed: count(removed),
                    open_jobs: count(open),
                    verdict,
                    computed_at: at.into(),
                })
            })
            .collect()
    }
}
