//! [`JobRepo`] on SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ClosedReason, Job, JobId, JobPosting, PublicSlug};
use sqlx::{Row, sqlite::SqliteRow};

use super::{SqliteStore, json_list, outbox::enqueue};
use crate::{
    DerivedUpdate, JobKey, JobList, JobRepo, ListPage, OutboxKind, Refreshed, Result, SeenPosting,
    StoreError, Upserted,
    plan::{
        Found, UpsertPlan, after_reposts, index_ids, inserted_ids, refresh_plan, reopened_ids,
        reopened_upserts,
    },
    rows::{Batch, FacetColumns, JobRow, RawJob, ts},
};

/// One row per execution: a prepared statement with bound values beats extracting ~35
/// fields from a JSON batch (SQLite re-parses the JSON text for each extraction).
const UPSERT: &str = concat!(
    "INSERT INTO jobs (",
    upsert_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
     $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $34, $35, $33, $33, \
     $33)",
    upsert_conflict!()
);

fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| StoreError::corrupt("batch", e))
}

async fn upsert_row(
    conn: &mut sqlx::SqliteConnection,
    r: &JobRow<'_>,
    seen_at: &str,
) -> Result<SqliteRow> {
    Ok(sqlx::query(UPSERT)
        .bind(r.source)
        .bind(r.external_id)
        .bind(r.url.as_ref())
        .bind(&r.public_slug)
        .bind(r.title.as_ref())
        .bind(r.company.as_ref())
        .bind(&r.company_slug)
        .bind(&r.company_slug_folded)
        .bind(r.location.as_ref())
        .bind(r.remote)
        .bind(r.description.as_ref())
        .bind(&r.posted_at)
        .bind(json(&r.facets.countries)?)
        .bind(json(&r.facets.regions)?)
        .bind(json(r.facets.cities)?)
        .bind(r.facets.work_mode)
        .bind(r.facets.seniority)
        .bind(r.facets.category)
        .bind(r.facets.is_tech)
        .bind(json(r.facets.skills)?)
        .bind(r.facets.employment_type)
        .bind(r.facets.education_level)
        .bind(r.facets.english_level)
        .bind(r.facets.experience_years_min)
        .bind(r.facets.requires_clearance)
        .bind(r.facets.posting_language)
        .bind(r.salary_min)
        .bind(r.salary_max)
        .bind(r.salary_currency)
        .bind(r.salary_period)
        .bind(&r.content_hash)
        .bind(r.role_fingerprint)
        .bind(seen_at)
        .bind(&r.structured)
        .bind(&r.source_hash)
        .fetch_one(&mut *conn)
        .await?)
}

/// Existing rows of a batch of keys (`[[source, external_id], …]`).
const EXISTING: &str = "SELECT j.id, j.source, j.external_id, j.content_hash, \
     j.closed_at IS NOT NULL AS closed \
     FROM json_each($1) AS k \
     JOIN jobs AS j ON j.source = k.value ->> 0 AND j.external_id = k.value ->> 1";

const BUMP: &str = "UPDATE jobs SET last_seen_at = $1, closed_at = NULL, closed_reason = NULL \
     WHERE id IN (SELECT value FROM json_each($2))";

pub(super) fn keys_json<'a>(keys: impl Iterator<Item = (&'a str, &'a str)>) -> Result<String> {
    let pairs: Vec<[&str; 2]> = keys.map(|(s, e)| [s, e]).collect();
    serde_json::to_string(&pairs).map_err(|e| StoreError::corrupt("batch", e))
}

/// Moves `last_seen_at` and reopens.
pub(super) async fn bump(conn: &mut sqlx::SqliteConnection, ids: &[i64], at: &str) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let ids = serde_json::to_string(ids).map_err(|e| StoreError::corrupt("batch", e))?;
    sqlx::query(BUMP).bind(at).bind(ids).execute(&mut *conn).await?;
    Ok(())
}

pub(super) fn job_id(row: &SqliteRow) -> Result<JobId> {
    JobId::new(row.try_get("id")?).map_err(|e| StoreError::corrupt("id", e))
}

pub(super) async fn existing(conn: &mut sqlx::SqliteConnection, keys_json: &str) -> Result<Found> {
    let rows = sqlx::query(EXISTING).bind(keys_json).fetch_all(&mut *conn).await?;
    rows.iter()
        .map(|r| {
            Ok((
                (r.try_get("source")?, r.try_get("external_id")?),
                crate::plan::Existing {
                    id: job_id(r)?,
                    hash: r.try_get("content_hash")?,
                    closed: r.try_get("closed")?,
                },
            ))
        })
        .collect()
}

pub(super) fn raw_job(row: &SqliteRow) -> Result<RawJob> {
    let structured = |row: &SqliteRow| -> Result<freehire_domain::Structured> {
        let raw: String = row.try_get("structured")?;
        serde_json::from_str(&raw).map_err(|e| StoreError::corrupt("structured", e))
    };
    raw_job!(row, list: json_list, structured: structured)
}

#[async_trait]
impl JobRepo for SqliteStore {
    async fn upsert_jobs(
        &self,
        postings: &[JobPosting],
        seen_at: DateTime<Utc>,
    ) -> Result<Vec<Upserted>> {
        if postings.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let results = upsert_in(&mut tx, postings, seen_at).await?;
        tx.commit().await?;
        Ok(results)
    }

    async fn refresh_unchanged(
        &self,
        items: &[SeenPosting],
        seen_at: DateTime<Utc>,
    ) -> Result<Vec<Refreshed>> {
        if items.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let found = existing(
            &mut tx,
            &keys_json(items.iter().map(|i| (i.key.source.as_str(), i.key.external_id.as_str())))?,
        )
        .await?;
        let (out, bumped) = refresh_plan(items, &found);
        bump(&mut tx, &bumped, &ts(seen_at)).await?;
        let index = super::clusters::recluster(&mut tx, &reopened_ids(&out)).await?;
        enqueue(&mut tx, OutboxKind::Index, &index, &ts(seen_at)).await?;
        tx.commit().await?;
        Ok(out)
    }

    async fn close_jobs(
        &self,
        keys: &[JobKey],
        reason: ClosedReason,
        at: DateTime<Utc>,
    ) -> Result<Vec<JobId>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let rows = sqlx::query(
            "UPDATE jobs SET closed_at = $1, closed_reason = $2 \
             WHERE closed_at IS NULL AND id IN ( \
               SELECT j.id FROM json_each($3) AS k \
               JOIN jobs AS j ON j.source = k.value ->> 0 AND j.external_id = k.value ->> 1) \
             RETURNING id",
        )
        .bind(ts(at))
        .bind(reason.as_str())
        .bind(keys_json(keys.iter().map(|k| (k.source.as_str(), k.external_id.as_str())))?)
        .fetch_all(&mut *tx)
        .await?;
        let mut ids = rows.iter().map(job_id).collect::<Result<Vec<_>>>()?;
        ids.sort();
        let raw: Vec<i64> = ids.iter().map(|i| i.get()).collect();
        enqueue(&mut tx, OutboxKind::Delete, &raw, &ts(at)).await?;
        let released = super::clusters::release_duplicates(&mut tx, &raw).await?;
        enqueue(&mut tx, OutboxKind::Index, &released, &ts(at)).await?;
        tx.commit().await?;
        Ok(ids)
    }

    async fn set_duplicate_of(&self, id: JobId, canonical: Option<JobId>) -> Result<bool> {
        if canonical == Some(id) {
            return Err(StoreError::Invalid(freehire_domain::DomainError::Invalid {
                field: "duplicate_of",
                value: id.to_string(),
                reason: "a job cannot duplicate itself",
            }));
        }
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let done = sqlx::query("UPDATE jobs SET duplicate_of = $1 WHERE id = $2")
            .bind(canonical.map(JobId::get))
            .bind(id.get())
            .execute(&mut *tx)
            .await?;
        let now = ts(Utc::now());
        match canonical {
            Some(_) => enqueue(&mut tx, OutboxKind::Delete, &[id.get()], &now).await?,
            None => enqueue(&mut tx, OutboxKind::Index, &[id.get()], &now).await?,
        }
        tx.commit().await?;
        Ok(done.rows_affected() > 0)
    }

    async fn jobs_by_ids(&self, ids: &[JobId]) -> Result<Vec<Job>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<i64> = ids.iter().map(|i| i.get()).collect();
        let rows = sqlx::query(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE id IN (SELECT value FROM json_each($1)) ORDER BY id"
        ))
        .bind(serde_json::to_string(&raw).map_err(|e| StoreError::corrupt("batch", e))?)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| raw_job(r)?.into_job()).collect()
    }

    async fn open_duplicates_of(&self, canonicals: &[JobId]) -> Result<Vec<Job>> {
        if canonicals.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<i64> = canonicals.iter().map(|i| i.get()).collect();
        let rows = sqlx::query(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE duplicate_of IN (SELECT value FROM json_each($1)) AND closed_at IS NULL ORDER BY id"
        ))
        .bind(serde_json::to_string(&raw).map_err(|e| StoreError::corrupt("batch", e))?)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| raw_job(r)?.into_job()).collect()
    }

    async fn jobs_after(&self, after: Option<JobId>, limit: u32) -> Result<Vec<Job>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE id > $1 ORDER BY id LIMIT $2"
        ))
        .bind(after.map_or(0, JobId::get))
        .bind(i64::from(limit.clamp(1, 1000)))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| raw_job(r)?.into_job()).collect()
    }

    async fn rewrite_derived(&self, updates: &[DerivedUpdate], at: DateTime<Utc>) -> Result<u64> {
        if updates.is_empty() {
            return Ok(0);
        }
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let mut listed = Vec::new();
        let mut written = 0;
        for u in updates {
            let f = FacetColumns::new(&u.facets);
            let row = sqlx::query(rewrite_derived_sql!("$"))
                .bind(json(&f.countries)?)
                .bind(json(&f.regions)?)
                .bind(json(f.cities)?)
                .bind(f.work_mode)
                .bind(f.seniority)
                .bind(f.category)
                .bind(f.is_tech)
                .bind(json(f.skills)?)
                .bind(f.employment_type)
                .bind(f.education_level)
                .bind(f.english_level)
                .bind(f.experience_years_min)
                .bind(f.requires_clearance)
                .bind(f.posting_language)
                .bind(&u.role_fingerprint)
                .bind(&u.content_hash)
                .bind(ts(at))
                .bind(u.id.get())
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(row) = row {
                written += 1;
                if row.try_get::<bool, _>("listed")? {
                    listed.push(u.id.get());
                }
            }
        }
        enqueue(&mut tx, OutboxKind::Index, &listed, &ts(at)).await?;
        tx.commit().await?;
        Ok(written)
    }

    async fn list_open_jobs(&self, page: ListPage) -> Result<JobList> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL \
              ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2"
        ))
        .bind(i64::from(page.limit()))
        .bind(i64::try_from(page.offset()).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        let total: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL",
        )
        .fetch_one(&self.pool)
        .await?;
        let jobs = rows.iter().map(|r| raw_job(r)?.into_job()).collect::<Result<_>>()?;
        Ok(JobList { jobs, total: u64::try_from(total).unwrap_or_default() })
    }

    async fn job_by_slug(&self, slug: &PublicSlug) -> Result<Option<Job>> {
        let row =
            sqlx::query(concat!("SELECT ", job_columns!(), " FROM jobs WHERE public_slug = $1"))
                .bind(slug.as_str())
                .fetch_optional(&self.pool)
                .await?;
        row.map(|r| raw_job(&r)?.into_job()).transpose()
    }

    async fn job_by_key(&self, key: &JobKey) -> Result<Option<Job>> {
        let row = sqlx::query(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE source = $1 AND external_id = $2"
        ))
        .bind(key.source.as_str())
        .bind(&key.external_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| raw_job(&r)?.into_job()).transpose()
    }
}

/// Upserts postings on `conn` (inside the caller's transaction), queueing search rows.
pub(super) async fn upsert_in(
    conn: &mut sqlx::SqliteConnection,
    postings: &[JobPosting],
    seen_at: DateTime<Utc>,
) -> Result<Vec<Upserted>> {
    if postings.is_empty() {
        return Ok(Vec::new());
    }
    let batch = Batch::prepare(postings)?;
    let found =
        existing(&mut *conn, &keys_json(batch.rows.iter().map(|r| (r.source, r.external_id)))?)
            .await?;

    let mut plan = UpsertPlan::new(&batch, &found);
    let seen = ts(seen_at);
    for row in std::mem::take(&mut plan.to_write) {
        let r = upsert_row(&mut *conn, row, &seen).await?;
        let source: String = r.try_get("source")?;
        let external_id: String = r.try_get("external_id")?;
        plan.written(&source, &external_id, job_id(&r)?)?;
    }
    bump(&mut *conn, &plan.bumped, &ts(seen_at)).await?;
    let results = plan.finish(&batch.slot)?;
    // A new row repeating an open role is a repost: marked, and not indexed (reference §3.10).
    let marked = super::clusters::mark_reposts(&mut *conn, &inserted_ids(&results)).await?;
    let members = super::clusters::recluster(&mut *conn, &reopened_upserts(&results)).await?;
    let index = crate::plan::union(after_reposts(index_ids(&results), &marked), members);
    enqueue(&mut *conn, OutboxKind::Index, &index, &ts(seen_at)).await?;
    Ok(results)
}
