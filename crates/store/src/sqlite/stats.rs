//! [`StatsRepo`] on SQLite: `Shared`'s bodies, reads on the reader pool, the rollup on the
//! writer.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

use super::{Shared, SqliteStore};
use crate::{CatalogCounts, DailyStats, DayVerdict, FleetStatus, Result, StatsRepo};

#[async_trait]
impl StatsRepo for SqliteStore {
    async fn fleet_status(&self, now: DateTime<Utc>) -> Result<FleetStatus> {
        Shared::fleet_status(&self.pool, now).await
    }

    async fn catalog_counts(&self) -> Result<CatalogCounts> {
        Shared::catalog_counts(&self.pool).await
    }

    async fn outbox_backlog(&self) -> Result<(crate::OutboxDepth, crate::OutboxDepth)> {
        Shared::outbox_backlog(&self.pool).await
    }

    async fn record_daily(
        &self,
        day: NaiveDate,
        fleet: &DayVerdict,
        now: DateTime<Utc>,
    ) -> Result<()> {
        Shared::record_daily(&self.writer, day, fleet, now).await
    }

    async fn daily_stats(&self, since: NaiveDate) -> Result<Vec<DailyStats>> {
        Shared::daily_stats(&self.pool, since).await
    }
}
