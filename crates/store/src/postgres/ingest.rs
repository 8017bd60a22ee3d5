//! [`IngestRepo`] on PostgreSQL. Board prefixes use `LIKE 'prefix%'` with the prefix escaped,
//! served by `jobs_source_extid_pattern_idx` (`text_pattern_ops`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ClosedReason, JobId, Provider};
use sqlx::Row;

use super::{
    PgStore,
    jobs::{bump, existing, job_id},
    outbox::{enqueue_delete, enqueue_index},
};
use crate::{
    IngestRepo, JobKey, Refreshed, Result, SeenJob, StoreError, UnseenScope,
    plan::{reopened_ids, touch_plan},
    rows::key_columns,
};

/// `prefix%` with `\`, `%` and `_` escaped (PostgreSQL's default LIKE escape is `\`).
fn like_prefix(prefix: &str) -> Result<String> {
    if prefix.is_empty() {
        return Err(StoreError::corrupt("board_prefix", "an empty board prefix names every job"));
    }
    let mut pattern = String::with_capacity(prefix.len() + 2);
    for c in prefix.chars() {
        if matches!(c, '\\' | '%' | '_') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    Ok(pattern)
}

#[async_trait]
impl IngestRepo for PgStore {
    async fn board_seen_set(
        &self,
        source: &Provider,
        board_prefix: &str,
        hydration_cutoff: DateTime<Utc>,
    ) -> Result<Vec<SeenJob>> {
        let rows = sqlx::query(
            "SELECT external_id, is_tech FROM jobs \
             WHERE source = $1 AND external_id LIKE $2 \
               AND NOT (octet_length(description) = 0 AND created_at >= $3) \
             ORDER BY external_id",
        )
        .bind(source.as_str())
        .bind(like_prefix(board_prefix)?)
        .bind(hydration_cutoff)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SeenJob {
                    external_id: r.try_get("external_id")?,
                    is_tech: r.try_get("is_tech")?,
                })
            })
            .collect()
    }

    async fn touch_jobs(&self, keys: &[JobKey], at: DateTime<Utc>) -> Result<Vec<Refreshed>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let (sources, external_ids) = key_columns(keys);
        let mut tx = self.pool.begin().await?;
        let found = existing(&mut tx, &sources, &external_ids).await?;
        let (out, bumped) = touch_plan(keys, &found);
        bump(&mut tx, &bumped, at).await?;
        enqueue_index(&mut tx, &reopened_ids(&out), at).await?;
        tx.commit().await?;
        Ok(out)
    }

    async fn close_unseen(
        &self,
        scope: &UnseenScope,
        reason: ClosedReason,
        at: DateTime<Utc>,
    ) -> Result<Vec<JobId>> {
        let patterns =
            scope.board_prefixes.iter().map(|p| like_prefix(p)).collect::<Result<Vec<_>>>()?;
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(
            "UPDATE jobs SET closed_at = $1, closed_reason = $2 \
             WHERE source = $3 AND external_id LIKE ANY($4) \
               AND closed_at IS NULL AND last_seen_at < $5 \
             RETURNING id",
        )
        .bind(at)
        .bind(reason.as_str())
        .bind(scope.source.as_str())
        .bind(&patterns)
        .bind(scope.last_seen_before)
        .fetch_all(&mut *tx)
        .await?;
        let mut closed = rows.iter().map(job_id).collect::<Result<Vec<_>>>()?;
        closed.sort();
        let raw: Vec<i64> = closed.iter().map(|i| i.get()).collect();
        enqueue_delete(&mut tx, &raw, at).await?;
        tx.commit().await?;
        Ok(closed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_patterns_escape_wildcards() {
        assert_eq!(like_prefix("acme:").unwrap(), "acme:%");
        assert_eq!(like_prefix("a_b%c\\:").unwrap(), "a\\_b\\%c\\\\:%");
        assert!(like_prefix("").is_err());
    }
}
