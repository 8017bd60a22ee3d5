//! [`RateCellRepo`] on PostgreSQL: a take is one statement on the coordination pool (its
//! commits skip the WAL flush, and `rate_cells` is UNLOGGED), timed by the server's clock so
//! API processes on several machines share one time.

use async_trait::async_trait;

use super::PgStore;
use crate::rates::{RateQuota, RateTake};
use crate::sql::rates::{SWEEP_POSTGRES, TAKE_POSTGRES};
use crate::{RateCellRepo, Result};

#[async_trait]
impl RateCellRepo for PgStore {
    async fn take_rate_cell(
        &self,
        bucket: &str,
        subject: &[u8],
        quota: RateQuota,
    ) -> Result<RateTake> {
        let (now_us, taken, held): (i64, Option<i64>, Option<i64>) = sqlx::query_as(TAKE_POSTGRES)
            .bind(bucket)
            .bind(subject)
            .bind(quota.interval_us)
            .bind(quota.period_us)
            .fetch_one(&self.quick)
            .await?;
        Ok(match taken {
            Some(tat_us) => RateTake { counted: true, now_us, tat_us },
            // Refused: the cell stood at least a period ahead (a row another process wrote
            // after this statement's snapshot reads as none: one interval to wait).
            None => RateTake {
                counted: false,
                now_us,
                tat_us: held.unwrap_or(now_us + quota.period_us),
            },
        })
    }

    async fn sweep_rate_cells(&self) -> Result<u64> {
        Ok(sqlx::query(SWEEP_POSTGRES).execute(&self.quick).await?.rows_affected())
    }
}
