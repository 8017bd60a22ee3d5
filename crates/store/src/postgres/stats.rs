//! [`StatsRepo`] on PostgreSQL: `Shared`'s bodies on the main pool; the reads run once more if
//! they lost their connection.

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{CatalogCounts, DailyStats, DayVerdict, FleetStatus, Result, StatsRepo};

#[async_trait]
impl StatsRepo for PgStore {
    async fn fleet_status(&self, now: DateTime<Utc>) -> Result<FleetStatus> {
        retry_once_if_lost(|| Shared::fleet_status(&self.pool, now)).await
    }

    async fn catalog_counts(&self) -> Result<CatalogCounts> {
        retry_once_if_lost(|| Shared::catalog_counts(&self.pool)).await
    }

    async fn outbox_backlog(&self) -> Result<(crate::OutboxDepth, crate::OutboxDepth)> {
        retry_once_if_lost(|| Shared::outbox_backlog(&self.pool)).await
    }

    async fn record_daily(
        &self,
        day: NaiveDate,
        fleet: &DayVerdict,
        now: DateTime<Utc>,
    ) -> Result<()> {
        Shared::record_daily(&self.pool, day, fleet, now).await
    }

    async fn daily_stats(&self, since: NaiveDate) -> Result<Vec<DailyStats>> {
        retry_once_if_lost(|| Shared::daily_stats(&self.pool, since)).await
    }
}
