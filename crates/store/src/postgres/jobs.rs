//! [`JobRepo`] on PostgreSQL.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ClosedReason, Job, JobId, JobPosting, PublicSlug};
use sqlx::PgConnection;

use super::{
    PgStore, Shared,
    outbox::{OUTBOXES, enqueue},
    retry_once_if_lost,
    upsert_columns::{bind_rows, upsert_rows},
};
use crate::{
    DerivedUpdate, JobKey, JobList, JobRepo, ListPage, OutboxKind, Refreshed, Result, SeenPosting,
    Upserted,
    bind::{List, Stamp},
    error::committing,
    plan::{
        ExistingRow, Found, UpsertPlan, after_reposts, index_ids, inserted_ids, refresh_plan,
        reopened_ids, reopened_upserts,
    },
    rows::{Batch, Hashes, Part, job_id, jobs, key_columns},
};

/// A company slug merged away (`company_slug_aliases`) is stored as the slug it was merged
/// into. The rows arrive as column arrays ([`bind_rows`]), `$35` is the instant.
const UPSERT: &str = concat!(
    "INSERT INTO jobs (",
    upsert_columns!(),
    ") SELECT r.source, r.external_id, r.url, r.public_slug, r.title, r.company, \
     COALESCE((SELECT a.canonical_slug FROM company_slug_aliases AS a \
               WHERE a.alias_slug = r.company_slug), r.company_slug), r.company_slug_folded, \
     r.location, r.remote, r.description, r.posted_at, r.countries::text[], r.regions::text[], \
     r.cities::text[], r.work_mode, r.seniority, r.category, r.is_tech, r.skills::text[], \
     r.employment_type, r.education_level, r.english_level, r.experience_years_min, \
     r.requires_clearance, r.posting_language, r.salary_min, r.salary_max, r.salary_currency, \
     r.salary_period, r.content_hash, r.role_fingerprint, r.structured::jsonb, r.source_hash, \
     $35, $35, $35 FROM ",
    upsert_rows!(),
    upsert_conflict!()
);

/// Existing rows of a batch. Not locked: row locks would double the writes of a re-crawl, and
/// one board is written by one worker at a time (the scheduler's claim). Concurrent writers of
/// the same key still leave correct data (`ON CONFLICT`); only the reported outcome could be
/// stale.
const EXISTING: &str = "SELECT j.id, j.source, j.external_id, j.content_hash, \
     j.closed_at IS NOT NULL AS closed \
     FROM jobs AS j \
     JOIN UNNEST($1::text[], $2::text[]) AS k(source, external_id) \
       ON j.source = k.source AND j.external_id = k.external_id";

const BUMP: &str = "UPDATE jobs SET last_seen_at = $1, closed_at = NULL, closed_reason = NULL \
     WHERE id = ANY($2)";

/// Moves `last_seen_at` and reopens.
pub(super) async fn bump(conn: &mut PgConnection, ids: &[i64], at: Stamp) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    sqlx::query(BUMP).bind(at).bind(List(ids)).execute(&mut *conn).await?;
    Ok(())
}

pub(super) async fn existing(
    conn: &mut PgConnection,
    sources: &[&str],
    external_ids: &[&str],
) -> Result<Found> {
    let rows: Vec<ExistingRow> = sqlx::query_as(EXISTING)
        .bind(List(sources))
        .bind(List(external_ids))
        .fetch_all(&mut *conn)
        .await?;
    rows.into_iter().map(ExistingRow::entry).collect()
}

#[async_trait]
impl JobRepo for PgStore {
    async fn upsert_jobs(
        &self,
        postings: &[JobPosting],
        seen_at: DateTime<Utc>,
    ) -> Result<Vec<Upserted>> {
        if postings.is_empty() {
            return Ok(Vec::new());
        }
        retry_once_if_lost(|| async move {
            let mut tx = self.pool.begin().await?;
            let results =
                upsert_in(&mut tx, &[Part { postings, hashes: Hashes::default() }], seen_at)
                    .await?;
            tx.commit().await.map_err(committing)?;
            Ok(results)
        })
        .await
    }

    async fn refresh_unchanged(
        &self,
        items: &[SeenPosting],
        seen_at: DateTime<Utc>,
    ) -> Result<Vec<Refreshed>> {
        if items.is_empty() {
            return Ok(Vec::new());
        }
        let seen_at = Stamp(seen_at);
        let (sources, external_ids): (Vec<&str>, Vec<&str>) =
            items.iter().map(|i| (i.key.source.as_str(), i.key.external_id.as_str())).unzip();
        let (sources, external_ids) = (&sources, &external_ids);
        retry_once_if_lost(|| async move {
            let mut tx = self.pool.begin().await?;
            let found = existing(&mut tx, sources, external_ids).await?;
            let (out, bumped) = refresh_plan(items, &found);
            bump(&mut tx, &bumped, seen_at).await?;
            let index = super::clusters::recluster(&mut tx, &reopened_ids(&out)).await?;
            enqueue(&mut tx, OutboxKind::Index, &index, seen_at).await?;
            tx.commit().await.map_err(committing)?;
            Ok(out)
        })
        .await
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
        let at = Stamp(at);
        let (sources, external_ids) = key_columns(keys);
        let (sources, external_ids) = (&sources, &external_ids);
        retry_once_if_lost(|| async move {
            let mut tx = self.pool.begin().await?;
            let rows: Vec<i64> = sqlx::query_scalar(
                "UPDATE jobs AS j SET closed_at = $1, closed_reason = $2 \
             FROM UNNEST($3::text[], $4::text[]) AS k(source, external_id) \
             WHERE j.source = k.source AND j.external_id = k.external_id \
               AND j.closed_at IS NULL \
             RETURNING j.id",
            )
            .bind(at)
            .bind(reason.as_str())
            .bind(List(sources))
            .bind(List(external_ids))
            .fetch_all(&mut *tx)
            .await?;
            let mut ids = rows.into_iter().map(job_id).collect::<Result<Vec<_>>>()?;
            ids.sort();
            let raw: Vec<i64> = ids.iter().map(|i| i.get()).collect();
            enqueue(&mut tx, OutboxKind::Delete, &raw, at).await?;
            let released = super::clusters::release_duplicates(&mut tx, &raw).await?;
            enqueue(&mut tx, OutboxKind::Index, &released, at).await?;
            tx.commit().await.map_err(committing)?;
            Ok(ids)
        })
        .await
    }

    async fn set_duplicate_of(&self, id: JobId, canonical: Option<JobId>) -> Result<bool> {
        retry_once_if_lost(|| async move {
            Shared::set_duplicate_of(self.pool.begin().await?, &OUTBOXES, id, canonical).await
        })
        .await
    }

    async fn jobs_by_ids(&self, ids: &[JobId]) -> Result<Vec<Job>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<i64> = ids.iter().map(|i| i.get()).collect();
        let raw = &raw;
        retry_once_if_lost(|| async move {
            let rows = sqlx::query_as(concat!(
                "SELECT ",
                job_columns!(),
                " FROM jobs WHERE id = ANY($1) ORDER BY id"
            ))
            .bind(List(raw))
            .fetch_all(&self.pool)
            .await?;
            jobs(rows)
        })
        .await
    }

    async fn jobs_by_slugs(&self, slugs: &[PublicSlug]) -> Result<Vec<Job>> {
        if slugs.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<&str> = slugs.iter().map(|s| s.as_str()).collect();
        let raw = &raw;
        retry_once_if_lost(|| async move {
            let rows = sqlx::query_as(concat!(
                "SELECT ",
                job_columns!(),
                " FROM jobs WHERE public_slug = ANY($1) ORDER BY id"
            ))
            .bind(List(raw))
            .fetch_all(&self.pool)
            .await?;
            jobs(rows)
        })
        .await
    }

    async fn open_duplicates_of(&self, canonicals: &[JobId]) -> Result<Vec<Job>> {
        if canonicals.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<i64> = canonicals.iter().map(|i| i.get()).collect();
        let raw = &raw;
        retry_once_if_lost(|| async move {
            let rows = sqlx::query_as(concat!(
                "SELECT ",
                job_columns!(),
                " FROM jobs WHERE duplicate_of = ANY($1) AND closed_at IS NULL ORDER BY id"
            ))
            .bind(List(raw))
            .fetch_all(&self.pool)
            .await?;
            jobs(rows)
        })
        .await
    }

    async fn jobs_after(&self, after: Option<JobId>, limit: u32) -> Result<Vec<Job>> {
        retry_once_if_lost(|| async move { Shared::jobs_after(&self.pool, after, limit).await })
            .await
    }

    async fn rewrite_derived(&self, updates: &[DerivedUpdate], at: DateTime<Utc>) -> Result<u64> {
        if updates.is_empty() {
            return Ok(0);
        }
        retry_once_if_lost(|| async move {
            Shared::rewrite_derived(self.pool.begin().await?, &OUTBOXES, updates, at).await
        })
        .await
    }

    async fn list_open_jobs(&self, page: ListPage) -> Result<JobList> {
        retry_once_if_lost(|| async move { Shared::list_open_jobs(&self.pool, page).await }).await
    }

    async fn job_by_slug(&self, slug: &PublicSlug) -> Result<Option<Job>> {
        retry_once_if_lost(|| async move { Shared::job_by_slug(&self.pool, slug).await }).await
    }

    async fn job_by_key(&self, key: &JobKey) -> Result<Option<Job>> {
        retry_once_if_lost(|| async move { Shared::job_by_key(&self.pool, key).await }).await
    }

    async fn jobs_by_urls(&self, urls: &[String]) -> Result<Vec<Job>> {
        if urls.is_empty() {
            return Ok(Vec::new());
        }
        retry_once_if_lost(|| async move {
            let rows = sqlx::query_as(concat!(
                "SELECT ",
                job_columns!(),
                " FROM jobs WHERE url = ANY($1) ORDER BY id"
            ))
            .bind(List(urls))
            .fetch_all(&self.pool)
            .await?;
            jobs(rows)
        })
        .await
    }

    async fn sitemap_jobs(&self, offset: u64, limit: u32) -> Result<crate::SitemapPage> {
        retry_once_if_lost(|| Shared::sitemap_jobs(&self.pool, offset, limit)).await
    }

    async fn suggestion_terms(
        &self,
        floors: crate::SuggestFloors,
    ) -> Result<crate::SuggestionTerms> {
        let skills = crate::sql::suggest::SKILLS_POSTGRES;
        retry_once_if_lost(|| Shared::suggestion_terms(&self.pool, skills, floors)).await
    }
}

/// Upserts the parts' postings on `conn` (inside the caller's transaction), queueing search rows;
/// the results are in the parts' order, one after another.
pub(super) async fn upsert_in(
    conn: &mut sqlx::PgConnection,
    parts: &[Part<'_>],
    seen_at: DateTime<Utc>,
) -> Result<Vec<Upserted>> {
    if parts.iter().all(|p| p.postings.is_empty()) {
        return Ok(Vec::new());
    }
    // Held to the commit: the notify engine's insert horizon waits for this transaction.
    sqlx::query(crate::sql::notify::LOCK_JOB_INSERTS_SHARED)
        .bind(crate::sql::notify::JOB_INSERT_LOCK)
        .execute(&mut *conn)
        .await?;
    let seen_at = Stamp(seen_at);
    let batch = Batch::prepare(parts)?;
    let (sources, external_ids): (Vec<&str>, Vec<&str>) =
        batch.rows.iter().map(|r| (r.source, r.external_id)).unzip();
    let found = existing(&mut *conn, &sources, &external_ids).await?;

    let mut plan = UpsertPlan::new(&batch, &found);
    if !plan.to_write.is_empty() {
        let written: Vec<(i64, String, String)> = bind_rows(sqlx::query_as(UPSERT), &plan.to_write)
            .bind(seen_at)
            .fetch_all(&mut *conn)
            .await?;
        for (id, source, external_id) in written {
            plan.written(&source, &external_id, job_id(id)?)?;
        }
    }
    bump(&mut *conn, &plan.bumped, seen_at).await?;
    let results = plan.finish(&batch.slot)?;
    // A new row repeating an open role is a repost: marked, and not indexed (reference §3.10).
    let marked = super::clusters::mark_reposts(&mut *conn, &inserted_ids(&results)).await?;
    let members = super::clusters::recluster(&mut *conn, &reopened_upserts(&results)).await?;
    let index = crate::plan::union(after_reposts(index_ids(&results), &marked), members);
    enqueue(&mut *conn, OutboxKind::Index, &index, seen_at).await?;
    Ok(results)
}
