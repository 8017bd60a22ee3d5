//! [`JobRepo`] on SQLite.

use super::{
    Shared, SqliteStore,
    outbox::{OUTBOXES, enqueue},
};
use crate::{
    DerivedUpdate, JobKey, JobList, JobRepo, ListPage, OutboxKind, Refreshed, Result, SeenPosting,
    StoreError, Upserted,
    bind::{List, Stamp},
    plan::{
        ExistingRow, Found, UpsertPlan, after_reposts, index_ids, inserted_ids, refresh_plan,
        reopened_ids, reopened_upserts,
    },
    rows::{Batch, Hashes, JobRow, Part, job_id, jobs},
};
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ClosedReason, Job, JobId, JobPosting, PublicSlug};

/// The bound values of one upserted row: 38 anonymous parameters, bound in their order of
/// appearance ([`upsert_rows`]: the company slug twice, the time seen three times last). A
/// company slug merged away (`company_slug_aliases`) is stored as the slug it was merged into.
///
/// Anonymous `?` rather than numbered `$n`: SQLite keeps numbered and named parameters in a
/// list it scans to name each one, and the driver asks every parameter's name when it binds,
/// so a statement of 16 rows (608 numbered parameters) cost a quadratic scan per execution
/// (4 % of a first crawl's samples). Anonymous parameters have no name to look up.
const UPSERT_ROW: &str = "(?, ?, ?, ?, ?, ?, \
     COALESCE((SELECT canonical_slug FROM company_slug_aliases WHERE alias_slug = ?), ?), ?, ?, \
     ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/// Rows per upsert statement. Bound values, not a JSON batch: extracting ~35 fields from JSON
/// text costs SQLite more than the round trips it saves (measured). But each statement is a
/// round trip to the driver's thread while the board's transaction holds the one writer, so
/// a board's rows go up to this many at once: one statement (608 parameters) for a board of
/// 16 new or changed postings instead of 16. One statement text per row count, so at most this
/// many prepared statements are cached.
const UPSERT_CHUNK: usize = 16;

/// The upsert of `rows` rows (1 ..= [`UPSERT_CHUNK`]), built once per count.
fn upsert_sql(rows: usize) -> &'static str {
    static SQL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let all = SQL.get_or_init(|| (1..=UPSERT_CHUNK).map(build_upsert).collect());
    &all[rows.clamp(1, UPSERT_CHUNK) - 1]
}

fn build_upsert(rows: usize) -> String {
    let mut sql = String::from(concat!("INSERT INTO jobs (", upsert_columns!(), ") VALUES "));
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push_str(UPSERT_ROW);
    }
    sql.push_str(upsert_conflict!());
    sql
}

/// Upserts `rows` (at most [`UPSERT_CHUNK`]) in one statement: each row's id and key.
async fn upsert_rows(
    conn: &mut sqlx::SqliteConnection,
    rows: &[&JobRow<'_>],
    seen_at: Stamp,
) -> Result<Vec<(i64, String, String)>> {
    let mut query = sqlx::query_as(upsert_sql(rows.len()));
    for r in rows {
        query = query
            .bind(r.source)
            .bind(r.external_id)
            .bind(r.url.as_ref())
            .bind(&r.public_slug)
            .bind(r.title.as_ref())
            .bind(r.company.as_ref())
            .bind(&r.company_slug)
            .bind(&r.company_slug)
            .bind(&r.company_slug_folded)
            .bind(r.location.as_ref())
            .bind(r.remote)
            .bind(r.description.as_ref())
            .bind(r.posted_at)
            .bind(List(&r.facets.countries))
            .bind(List(&r.facets.regions))
            .bind(List(r.facets.cities))
            .bind(r.facets.work_mode)
            .bind(r.facets.seniority)
            .bind(r.facets.category)
            .bind(r.facets.is_tech)
            .bind(List(r.facets.skills))
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
            .bind(&r.structured)
            .bind(&r.source_hash)
            .bind(seen_at)
            .bind(seen_at)
            .bind(seen_at);
    }
    Ok(query.fetch_all(&mut *conn).await?)
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
pub(super) async fn bump(conn: &mut sqlx::SqliteConnection, ids: &[i64], at: Stamp) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    sqlx::query(BUMP).bind(at).bind(List(ids)).execute(&mut *conn).await?;
    Ok(())
}

pub(super) async fn existing(conn: &mut sqlx::SqliteConnection, keys_json: &str) -> Result<Found> {
    let rows: Vec<ExistingRow> =
        sqlx::query_as(EXISTING).bind(keys_json).fetch_all(&mut *conn).await?;
    rows.into_iter().map(ExistingRow::entry).collect()
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
        let mut tx = self.write().await?;
        let results =
            upsert_in(&mut tx, &[Part { postings, hashes: Hashes::default() }], seen_at).await?;
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
        let seen_at = Stamp(seen_at);
        let mut tx = self.write().await?;
        let found = existing(
            &mut tx,
            &keys_json(items.iter().map(|i| (i.key.source.as_str(), i.key.external_id.as_str())))?,
        )
        .await?;
        let (out, bumped) = refresh_plan(items, &found);
        bump(&mut tx, &bumped, seen_at).await?;
        let index = super::clusters::recluster(&mut tx, &reopened_ids(&out)).await?;
        enqueue(&mut tx, OutboxKind::Index, &index, seen_at).await?;
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
        let at = Stamp(at);
        let mut tx = self.write().await?;
        let rows: Vec<i64> = sqlx::query_scalar(
            "UPDATE jobs SET closed_at = $1, closed_reason = $2 \
             WHERE closed_at IS NULL AND id IN ( \
               SELECT j.id FROM json_each($3) AS k \
               JOIN jobs AS j ON j.source = k.value ->> 0 AND j.external_id = k.value ->> 1) \
             RETURNING id",
        )
        .bind(at)
        .bind(reason.as_str())
        .bind(keys_json(keys.iter().map(|k| (k.source.as_str(), k.external_id.as_str())))?)
        .fetch_all(&mut *tx)
        .await?;
        let mut ids = rows.into_iter().map(job_id).collect::<Result<Vec<_>>>()?;
        ids.sort();
        let raw: Vec<i64> = ids.iter().map(|i| i.get()).collect();
        enqueue(&mut tx, OutboxKind::Delete, &raw, at).await?;
        let released = super::clusters::release_duplicates(&mut tx, &raw).await?;
        enqueue(&mut tx, OutboxKind::Index, &released, at).await?;
        tx.commit().await?;
        Ok(ids)
    }

    async fn set_duplicate_of(&self, id: JobId, canonical: Option<JobId>) -> Result<bool> {
        Shared::set_duplicate_of(self.write().await?, &OUTBOXES, id, canonical).await
    }

    async fn jobs_by_ids(&self, ids: &[JobId]) -> Result<Vec<Job>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<i64> = ids.iter().map(|i| i.get()).collect();
        let rows = sqlx::query_as(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE id IN (SELECT value FROM json_each($1)) ORDER BY id"
        ))
        .bind(List(&raw))
        .fetch_all(&self.pool)
        .await?;
        jobs(rows)
    }

    async fn jobs_by_slugs(&self, slugs: &[PublicSlug]) -> Result<Vec<Job>> {
        if slugs.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<&str> = slugs.iter().map(|s| s.as_str()).collect();
        let rows = sqlx::query_as(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE public_slug IN (SELECT value FROM json_each($1)) ORDER BY id"
        ))
        .bind(List(&raw))
        .fetch_all(&self.pool)
        .await?;
        jobs(rows)
    }

    async fn open_duplicates_of(&self, canonicals: &[JobId]) -> Result<Vec<Job>> {
        if canonicals.is_empty() {
            return Ok(Vec::new());
        }
        let raw: Vec<i64> = canonicals.iter().map(|i| i.get()).collect();
        let rows = sqlx::query_as(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE duplicate_of IN (SELECT value FROM json_each($1)) \
              AND closed_at IS NULL ORDER BY id"
        ))
        .bind(List(&raw))
        .fetch_all(&self.pool)
        .await?;
        jobs(rows)
    }

    async fn jobs_after(&self, after: Option<JobId>, limit: u32) -> Result<Vec<Job>> {
        Shared::jobs_after(&self.pool, after, limit).await
    }

    async fn rewrite_derived(&self, updates: &[DerivedUpdate], at: DateTime<Utc>) -> Result<u64> {
        if updates.is_empty() {
            return Ok(0);
        }
        Shared::rewrite_derived(self.write().await?, &OUTBOXES, updates, at).await
    }

    async fn list_open_jobs(&self, page: ListPage) -> Result<JobList> {
        Shared::list_open_jobs(&self.pool, page).await
    }

    async fn job_by_slug(&self, slug: &PublicSlug) -> Result<Option<Job>> {
        Shared::job_by_slug(&self.pool, slug).await
    }

    async fn job_by_key(&self, key: &JobKey) -> Result<Option<Job>> {
        Shared::job_by_key(&self.pool, key).await
    }

    async fn jobs_by_urls(&self, urls: &[String]) -> Result<Vec<Job>> {
        if urls.is_empty() {
            return Ok(Vec::new());
        }
        let rows = sqlx::query_as(concat!(
            "SELECT ",
            job_columns!(),
            " FROM jobs WHERE url IN (SELECT value FROM json_each($1)) ORDER BY id"
        ))
        .bind(List(urls))
        .fetch_all(&self.pool)
        .await?;
        jobs(rows)
    }

    async fn sitemap_jobs(&self, offset: u64, limit: u32) -> Result<crate::SitemapPage> {
        Shared::sitemap_jobs(&self.pool, offset, limit).await
    }

    async fn suggestion_terms(
        &self,
        floors: crate::SuggestFloors,
    ) -> Result<crate::SuggestionTerms> {
        Shared::suggestion_terms(&self.pool, crate::sql::suggest::SKILLS_SQLITE, floors).await
    }
}

/// Upserts the parts' postings on `conn` (inside the caller's transaction), queueing search rows;
/// the results are in the parts' order, one after another.
pub(super) async fn upsert_in(
    conn: &mut sqlx::SqliteConnection,
    parts: &[Part<'_>],
    seen_at: DateTime<Utc>,
) -> Result<Vec<Upserted>> {
    if parts.iter().all(|p| p.postings.is_empty()) {
        return Ok(Vec::new());
    }
    let seen_at = Stamp(seen_at);
    let batch = Batch::prepare(parts)?;
    let found =
        existing(&mut *conn, &keys_json(batch.rows.iter().map(|r| (r.source, r.external_id)))?)
            .await?;

    let mut plan = UpsertPlan::new(&batch, &found);
    for rows in std::mem::take(&mut plan.to_write).chunks(UPSERT_CHUNK) {
        for (id, source, external_id) in upsert_rows(&mut *conn, rows, seen_at).await? {
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

#[cfg(test)]
mod tests {
    use super::{UPSERT_CHUNK, build_upsert, upsert_sql};

    /// Parameters of one row in `UPSERT_ROW`.
    const ROW_PARAMS: usize = 38;

    #[test]
    fn each_row_of_a_statement_binds_its_own_parameters() {
        let columns = upsert_columns!().split(',').count();
        // The company slug is bound twice (the alias lookup), every other column once.
        assert_eq!(ROW_PARAMS, columns + 1);
        let sql = build_upsert(3);
        assert_eq!(sql.matches('?').count(), 3 * ROW_PARAMS);
        assert!(!sql.contains('$'), "anonymous parameters only");
        assert_eq!(sql.matches("COALESCE((SELECT canonical_slug").count(), 3);
        assert_eq!(upsert_sql(UPSERT_CHUNK + 5), upsert_sql(UPSERT_CHUNK), "clamped");
    }
}
