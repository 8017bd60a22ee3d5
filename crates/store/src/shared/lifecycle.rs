//! [`LifecycleRepo`](crate::LifecycleRepo) bodies both backends run unchanged, over
//! [`sql::lifecycle`](crate::sql::lifecycle).

use chrono::{DateTime, Utc};
use freehire_domain::{JobId, Provider};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type};

use super::Shared;
use crate::{
    JobKey, LivenessCandidate, LivenessRead, PrunedJob, Result, StoreError, bind::Stamp,
    sql::lifecycle as sql,
};

/// A candidate as [`sql::LIVENESS_CANDIDATES`] reads it.
type CandidateRow = (i64, String, String, String, i32);
/// A job as [`sql::PRUNE_CANDIDATES`] reads it.
type PruneRow = (i64, String, String, String, String);

/// Role histories as [`sql::ROLE_HISTORY_PG`] / [`sql::ROLE_HISTORY_SQLITE`] read them.
pub(crate) fn role_histories(rows: Vec<(i64, i64, i64)>) -> Result<Vec<crate::RoleHistory>> {
    let count = |n: i64, field| u32::try_from(n).map_err(|e| StoreError::corrupt(field, e));
    rows.into_iter()
        .map(|(id, postings, open)| {
            Ok(crate::RoleHistory {
                id: job_id(id)?,
                postings: count(postings, "postings")?,
                open: count(open, "open")?,
            })
        })
        .collect()
}

fn job_id(raw: i64) -> Result<JobId> {
    JobId::new(raw).map_err(|e| StoreError::corrupt("id", e))
}

impl<DB> Shared<DB>
where
    DB: Database,
    for<'c> &'c Pool<DB>: Executor<'c, Database = DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    CandidateRow: for<'r> FromRow<'r, DB::Row>,
    PruneRow: for<'r> FromRow<'r, DB::Row>,
    (i32,): for<'r> FromRow<'r, DB::Row>,
{
    pub async fn liveness_candidates(
        pool: &Pool<DB>,
        checked_before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<LivenessCandidate>> {
        let rows: Vec<CandidateRow> = sqlx::query_as(sql::LIVENESS_CANDIDATES)
            .bind(Stamp(checked_before))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
        rows.into_iter()
            .map(|(id, source, external_id, url, strikes)| {
                let source =
                    Provider::parse(&source).map_err(|e| StoreError::corrupt("source", e))?;
                Ok(LivenessCandidate {
                    id: job_id(id)?,
                    key: JobKey { source, external_id },
                    url,
                    strikes: u32::try_from(strikes).unwrap_or(0),
                })
            })
            .collect()
    }

    pub async fn record_liveness(
        mut tx: Transaction<'_, DB>,
        id: JobId,
        read: LivenessRead,
        reason: Option<&str>,
        at: DateTime<Utc>,
        strike_after: DateTime<Utc>,
    ) -> Result<u32> {
        let (strikes,): (i32,) = sqlx::query_as(sql::RECORD_LIVENESS)
            .bind(id.get())
            .bind(read.as_str())
            .bind(reason)
            .bind(Stamp(at))
            .bind(Stamp(strike_after))
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(u32::try_from(strikes).unwrap_or(0))
    }

    pub async fn prune_closed(
        mut tx: Transaction<'_, DB>,
        closed_before: DateTime<Utc>,
        rule: &str,
        limit: u32,
        apply: bool,
        at: DateTime<Utc>,
    ) -> Result<Vec<PrunedJob>> {
        let rows: Vec<PruneRow> = sqlx::query_as(sql::PRUNE_CANDIDATES)
            .bind(Stamp(closed_before))
            .bind(i64::from(limit))
            .fetch_all(&mut *tx)
            .await?;
        let mut pruned = Vec::with_capacity(rows.len());
        for (id, source, external_id, title, company_slug) in rows {
            if apply {
                sqlx::query(sql::ARCHIVE)
                    .bind(id)
                    .bind(source.as_str())
                    .bind(external_id.as_str())
                    .bind(title.as_str())
                    .bind(company_slug.as_str())
                    .bind(rule)
                    .bind(Stamp(at))
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(sql::DELETE_CLOSED).bind(id).execute(&mut *tx).await?;
            }
            pruned.push(PrunedJob { id: job_id(id)?, source, external_id, title, company_slug });
        }
        if apply {
            tx.commit().await.map_err(crate::error::committing)?;
        }
        Ok(pruned)
    }
}
