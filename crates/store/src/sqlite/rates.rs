//! [`RateCellRepo`] on SQLite: the take and its refusal's read run on the one writer
//! connection, in one transaction, timed by this machine's clock.

use async_trait::async_trait;

use super::SqliteStore;
use crate::rates::{RateQuota, RateTake};
use crate::sql::rates::{HELD, SWEEP_SQLITE, TAKE_SQLITE};
use crate::{RateCellRepo, Result};

/// This machine's time in microseconds since the epoch.
fn now_us() -> i64 {
    chrono::Utc::now().timestamp_micros()
}

#[async_trait]
impl RateCellRepo for SqliteStore {
    async fn take_rate_cell(
        &self,
        bucket: &str,
        subject: &[u8],
        quota: RateQuota,
    ) -> Result<RateTake> {
        let now_us = now_us();
        let mut tx = self.writer.begin().await?;
        let taken: Option<i64> = sqlx::query_scalar(TAKE_SQLITE)
            .bind(bucket)
            .bind(subject)
            .bind(quota.interval_us)
            .bind(quota.period_us)
            .bind(now_us)
            .fetch_optional(&mut *tx)
            .await?;
        let take = match taken {
            Some(tat_us) => RateTake { counted: true, now_us, tat_us },
            None => {
                let held: Option<i64> = sqlx::query_scalar(HELD)
                    .bind(bucket)
                    .bind(subject)
                    .fetch_optional(&mut *tx)
                    .await?;
                RateTake {
                    counted: false,
                    now_us,
                    tat_us: held.unwrap_or(now_us + quota.period_us),
                }
            }
        };
        tx.commit().await?;
        Ok(take)
    }

    async fn sweep_rate_cells(&self) -> Result<u64> {
        Ok(sqlx::query(SWEEP_SQLITE).bind(now_us()).execute(&self.writer).await?.rows_affected())
    }
}
