//! [`IngestRepo`] on PostgreSQL. A board prefix is scanned as a byte-order range with the
//! `text_pattern_ops` operators (`~>=~`, `~<~`), which `jobs_source_extid_pattern_idx` serves
//! even in a generic (prepared) plan, unlike `LIKE $1`.

use super::{
    PgStore,
    jobs::{bump, existing},
    outbox::enqueue,
    retry_once_if_lost,
};
use crate::{
    BoardWrite, BoardWritten, IngestRepo, JobKey, OutboxKind, Refreshed, Result, SeenJob,
    StoreError, UnseenScope,
    bind::{List, Stamp},
    group::{Close, Group, all_closed, closed_per_board},
    plan::{
        Bumped, SeenRow, prefix_upper_bound, reopened_ids, seen_job, touch_merge, touch_plan,
        touch_rest,
    },
    rows::{job_id, key_columns},
};
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ClosedReason, JobId, Provider};

fn bounds(prefix: &str) -> Result<(&str, String)> {
    let upper = prefix_upper_bound(prefix).ok_or_else(|| {
        StoreError::corrupt("board_prefix", "an empty board prefix names every job")
    })?;
    Ok((prefix, upper))
}

#[async_trait]
impl IngestRepo for PgStore {
    async fn board_seen_set(
        &self,
        source: &Provider,
        board_prefix: &str,
        hydration_cutoff: DateTime<Utc>,
    ) -> Result<Vec<SeenJob>> {
        let (lo, hi) = bounds(board_prefix)?;
        let hi = hi.as_str();
        retry_once_if_lost(|| async move {
            let rows: Vec<SeenRow> = sqlx::query_as(
                "SELECT external_id, is_tech, source_hash, \
             (octet_length(description) = 0 AND created_at >= $4) AS needs_detail FROM jobs \
             WHERE source = $1 AND external_id ~>=~ $2 AND external_id ~<~ $3 \
             ORDER BY external_id COLLATE \"C\"",
            )
            .bind(source.as_str())
            .bind(lo)
            .bind(hi)
            .bind(Stamp(hydration_cutoff))
            .fetch_all(&self.pool)
            .await?;
            Ok(rows.into_iter().map(seen_job).collect())
        })
        .await
    }

    async fn touch_jobs(&self, keys: &[JobKey], at: DateTime<Utc>) -> Result<Vec<Refreshed>> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        retry_once_if_lost(|| async move {
            let mut tx = self.pool.begin().await?;
            let out = touch_in(&mut tx, keys, at).await?;
            tx.commit().await.map_err(crate::error::committing)?;
            Ok(out)
        })
        .await
    }

    async fn write_board(&self, w: &BoardWrite<'_>) -> Result<BoardWritten> {
        retry_once_if_lost(|| async move {
            let mut tx = self.pool.begin().await?;
            let written = write_in(&mut tx, w).await?;
            tx.commit().await.map_err(crate::error::committing)?;
            Ok(written)
        })
        .await
    }

    async fn write_boards(&self, writes: &[BoardWrite<'_>]) -> Result<Vec<Result<BoardWritten>>> {
        // A lost connection retries the group whole.
        retry_once_if_lost(|| {
            crate::shared::each_isolated(|| self.pool.begin(), writes, write_group_in, write_in)
        })
        .await
    }

    async fn close_unseen(
        &self,
        scope: &UnseenScope,
        reason: ClosedReason,
        at: DateTime<Utc>,
    ) -> Result<Vec<JobId>> {
        retry_once_if_lost(|| async move {
            let mut tx = self.pool.begin().await?;
            let out = close_unseen_in(&mut tx, scope, reason, at).await?;
            tx.commit().await.map_err(crate::error::committing)?;
            Ok(out)
        })
        .await
    }
}

/// Everything one board's crawl changed (see [`BoardWrite`]), on `conn` inside the caller's
/// transaction (or savepoint): a group of one.
async fn write_in(conn: &mut sqlx::PgConnection, w: &BoardWrite<'_>) -> Result<BoardWritten> {
    let mut written = write_group(&mut *conn, &Group::one(w)).await?;
    written.pop().ok_or_else(|| StoreError::corrupt("group", "a board's write returned nothing"))
}

/// A group of board writes on `conn` inside the caller's transaction: as one set of
/// statements when the group qualifies ([`Group`]), else board after board.
async fn write_group_in(
    conn: &mut sqlx::PgConnection,
    writes: &[BoardWrite<'_>],
) -> Result<Vec<BoardWritten>> {
    if let Some(group) = Group::new(writes) {
        return write_group(&mut *conn, &group).await;
    }
    let mut out = Vec::with_capacity(writes.len());
    for w in writes {
        out.push(write_in(&mut *conn, w).await?);
    }
    Ok(out)
}

/// A qualifying group's statements: its boards' upserts, source hashes, touches, health,
/// activations and closes, one set for all of them.
async fn write_group(
    conn: &mut sqlx::PgConnection,
    group: &Group<'_, '_>,
) -> Result<Vec<BoardWritten>> {
    let at = group.at();
    let upserted =
        group.split_upserted(super::jobs::upsert_in(&mut *conn, &group.parts(), at).await?)?;
    let (ids, hashes): (Vec<i64>, Vec<&str>) =
        group.source_hash_pairs(&upserted)?.into_iter().unzip();
    if !ids.is_empty() {
        sqlx::query(SET_SOURCE_HASHES)
            .bind(List(&ids))
            .bind(List(&hashes))
            .execute(&mut *conn)
            .await?;
    }
    let touched = group.split_touched(touch_in(&mut *conn, &group.touch_keys(), at).await?)?;
    let health = super::Shared::successes_in(&mut *conn, &group.successes(), at).await?;
    super::Shared::activate_many_in(&mut *conn, &group.to_activate(), at).await?;
    let closes = group.closes()?;
    let closed =
        close_ranges_in(&mut *conn, &closes, group.len(), ClosedReason::BoardUnseen, at).await?;
    Ok(group.assemble(upserted, touched, closed, health))
}

/// Closes (with `reason`) each range's open jobs not seen since its close's instant, in one
/// statement, queueing the deletes and the released duplicates; the ids per board of a group
/// of `boards` (a close's `board` is its place).
async fn close_ranges_in(
    conn: &mut sqlx::PgConnection,
    closes: &[Close<'_>],
    boards: usize,
    reason: ClosedReason,
    at: DateTime<Utc>,
) -> Result<Vec<Vec<JobId>>> {
    if closes.is_empty() {
        return Ok(vec![Vec::new(); boards]);
    }
    let sources: Vec<&str> = closes.iter().map(|c| c.source.as_str()).collect();
    let los: Vec<&str> = closes.iter().map(|c| c.lo.as_str()).collect();
    let his: Vec<&str> = closes.iter().map(|c| c.hi.as_str()).collect();
    let befores: Vec<DateTime<Utc>> = closes.iter().map(|c| c.before).collect();
    let at = Stamp(at);
    let rows: Vec<(i64, String, String)> = sqlx::query_as(CLOSE_RANGES)
        .bind(at)
        .bind(reason.as_str())
        .bind(List(&sources))
        .bind(List(&los))
        .bind(List(&his))
        .bind(List(&befores))
        .fetch_all(&mut *conn)
        .await?;
    let closed = closed_per_board(closes, rows, boards)?;
    let mut raw: Vec<i64> = closed.iter().flatten().map(|i| i.get()).collect();
    raw.sort_unstable();
    enqueue(&mut *conn, OutboxKind::Delete, &raw, at).await?;
    let released = super::clusters::release_duplicates(&mut *conn, &raw).await?;
    enqueue(&mut *conn, OutboxKind::Index, &released, at).await?;
    Ok(closed)
}

/// Closes the open rows of each range (external ids in `lo ..< hi` of `source`, last seen
/// before `before`), one pattern-index range scan per range.
///
/// The ranges are read one by one through a lateral subquery that `OFFSET 0` keeps from being
/// flattened: as a plain join, the planner hashes the ranges on `source` (all of a provider's
/// ranges share it) and scans the whole table once per statement, which made a first crawl
/// of 37,802 boards on PostgreSQL quadratic (one such statement ran for minutes). The outer
/// conditions repeat the inner ones so that a row changed meanwhile is checked again.
const CLOSE_RANGES: &str = "UPDATE jobs AS j SET closed_at = $1, closed_reason = $2 \
     FROM (SELECT m.id, k.before \
           FROM UNNEST($3::text[], $4::text[], $5::text[], $6::timestamptz[]) \
             AS k(source, lo, hi, before) \
           CROSS JOIN LATERAL (SELECT id FROM jobs \
             WHERE source = k.source AND external_id ~>=~ k.lo AND external_id ~<~ k.hi \
               AND closed_at IS NULL AND last_seen_at < k.before OFFSET 0) AS m) AS gone \
     WHERE j.id = gone.id AND j.closed_at IS NULL AND j.last_seen_at < gone.before \
     RETURNING j.id, j.source, j.external_id";

/// See the trait method; runs on `conn` inside the caller's transaction.
pub(super) async fn touch_in(
    conn: &mut sqlx::PgConnection,
    keys: &[JobKey],
    at: DateTime<Utc>,
) -> Result<Vec<Refreshed>> {
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    // The usual re-crawl: every key is an open row, bumped by one statement. The rest (closed
    // rows to reopen, keys not stored) is looked up, locked and planned as before.
    let at = Stamp(at);
    let (sources, external_ids) = key_columns(keys);
    let rows: Vec<(i64, String, String)> = sqlx::query_as(BUMP_OPEN)
        .bind(at)
        .bind(List(&sources))
        .bind(List(&external_ids))
        .fetch_all(&mut *conn)
        .await?;
    let mut bumped = Bumped::with_capacity(rows.len());
    for (id, source, external_id) in rows {
        bumped.insert((source, external_id), job_id(id)?);
    }
    let rest = touch_rest(keys, &bumped);
    if rest.is_empty() {
        return Ok(touch_merge(keys, &bumped, Vec::new()));
    }
    let (sources, external_ids) = key_columns(&rest);
    let found = existing(&mut *conn, &sources, &external_ids).await?;
    let (out, ids) = touch_plan(&rest, &found);
    bump(&mut *conn, &ids, at).await?;
    let index = super::clusters::recluster(&mut *conn, &reopened_ids(&out)).await?;
    enqueue(&mut *conn, OutboxKind::Index, &index, at).await?;
    Ok(touch_merge(keys, &bumped, out))
}

/// Stores the caller's source hashes where they differ.
const SET_SOURCE_HASHES: &str = "UPDATE jobs AS j SET source_hash = k.hash \
     FROM UNNEST($1::bigint[], $2::text[]) AS k(id, hash) \
     WHERE j.id = k.id AND j.source_hash IS DISTINCT FROM k.hash";

/// Bumps the open rows of a batch of keys, returning them.
const BUMP_OPEN: &str = "UPDATE jobs AS j SET last_seen_at = $1 \
     FROM UNNEST($2::text[], $3::text[]) AS k(source, external_id) \
     WHERE j.source = k.source AND j.external_id = k.external_id AND j.closed_at IS NULL \
     RETURNING j.id, j.source, j.external_id";

/// See the trait method; runs on `conn` inside the caller's transaction.
pub(super) async fn close_unseen_in(
    conn: &mut sqlx::PgConnection,
    scope: &UnseenScope,
    reason: ClosedReason,
    at: DateTime<Utc>,
) -> Result<Vec<JobId>> {
    let closes = Close::of_scope(scope)?;
    Ok(all_closed(close_ranges_in(&mut *conn, &closes, closes.len(), reason, at).await?))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::testing::TestDb;

    /// Inserts open Ashby jobs `i` = 1..=`rows`, each with the external id and description the
    /// SQL expressions (over `i`) give.
    async fn insert_jobs(db: &TestDb, rows: u32, external_id: &str, description: &str) {
        db.execute(&format!(
            "INSERT INTO jobs (source, external_id, public_slug, title, description, created_at, \
               updated_at, last_seen_at, content_hash) \
             SELECT 'ashby', {external_id}, 'slug-' || i, 'T', {description}, now(), now(), \
               now(), 'h' FROM generate_series(1, {rows}) AS i"
        ))
        .await;
    }

    /// The plan of closing three boards' ranges among 500 boards' 20,000 open jobs.
    async fn close_plan(db: &TestDb) -> String {
        insert_jobs(db, 20_000, "'board' || (i / 40) || ':' || i", "''").await;
        db.execute("ANALYZE jobs").await;
        let sources = ["ashby"; 3];
        let los = ["board1:", "board2:", "board3:"];
        let his = ["board1;", "board2;", "board3;"];
        let befores = [Utc::now(); 3];
        let pool = db.postgres_pool().expect("a PostgreSQL database");
        let lines: Vec<(String,)> = sqlx::query_as(&format!("EXPLAIN {CLOSE_RANGES}"))
            .bind(Stamp(Utc::now()))
            .bind(ClosedReason::BoardUnseen.as_str())
            .bind(List(&sources))
            .bind(List(&los))
            .bind(List(&his))
            .bind(List(&befores))
            .fetch_all(pool)
            .await
            .unwrap();
        lines.into_iter().map(|(l,)| l).collect::<Vec<_>>().join("\n")
    }

    /// A group's close reads each board's range through the pattern index: as a plain join
    /// the planner hashed the ranges and scanned every job once per statement.
    // scenario: A close of many boards reads each board's range
    #[tokio::test]
    async fn a_close_of_ranges_scans_each_range_through_the_pattern_index() {
        let db = TestDb::postgres().await;
        let plan = close_plan(&db).await;
        assert!(plan.contains("Index Cond: ((source = k.source)"), "{plan}");
        assert!(!plan.contains("Seq Scan on jobs"), "{plan}");
        db.teardown().await;
    }

    /// A re-crawl's bump of a board's rows is a HOT update for a share of them: descriptions of
    /// rows over 1 KB live out of line and new pages keep 30 % free (migration 0029): 14 of 40
    /// here. Before it, rows with 1.5 KB descriptions inline filled their pages and none of
    /// the 40 was HOT.
    // scenario: A re-crawl's bump of long rows is partly heap-only
    #[tokio::test]
    async fn a_bump_of_rows_with_long_descriptions_is_partly_heap_only() {
        let db = TestDb::postgres().await;
        // 1.5 KB of hex per description.
        let description = "(SELECT string_agg(md5(i::text || '-' || g::text), '') FROM generate_series(1, 47) AS g)";
        insert_jobs(&db, 40, "'board:' || i", description).await;
        let keys: Vec<JobKey> = (1..=40)
            .map(|i| JobKey {
                source: Provider::parse("ashby").unwrap(),
                external_id: format!("board:{i}"),
            })
            .collect();
        let pool = db.postgres_pool().expect("a PostgreSQL database");
        let mut tx = pool.begin().await.unwrap();
        let touched = touch_in(&mut tx, &keys, Utc::now()).await.unwrap();
        assert_eq!(touched.len(), 40);
        let (updated, hot): (i64, i64) = sqlx::query_as(
            "SELECT pg_stat_get_xact_tuples_updated('jobs'::regclass), \
                    pg_stat_get_xact_tuples_hot_updated('jobs'::regclass)",
        )
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        tx.rollback().await.unwrap();
        assert_eq!(updated, 40);
        assert!(hot * 4 >= updated, "{hot} of {updated} bumps were HOT");
        db.teardown().await;
    }

    /// The slugs marked in `company_refresh` since the last call, which takes them.
    async fn marks(db: &TestDb) -> Vec<String> {
        let pool = db.postgres_pool().expect("a PostgreSQL database");
        let slugs: Vec<(String,)> = sqlx::query_as("DELETE FROM company_refresh RETURNING slug")
            .fetch_all(pool)
            .await
            .unwrap();
        let mut slugs: Vec<String> = slugs.into_iter().map(|(s,)| s).collect();
        slugs.sort();
        slugs
    }

    /// A batch insert appends each of its companies to `company_refresh` once (migration 0030):
    /// a row trigger appended one mark per job. An upsert that updates a row still marks through
    /// the update trigger (the company it left and the one it joined), a delete through its
    /// row trigger, and a job without a company marks nothing.
    // scenario: A batch insert marks each company once
    #[tokio::test]
    async fn a_batch_insert_marks_each_company_once() {
        let db = TestDb::postgres().await;
        marks(&db).await;
        let upsert = |rows: &str, company: &str| {
            format!(
                "INSERT INTO jobs (source, external_id, public_slug, title, company_slug, \
                   created_at, updated_at, last_seen_at, content_hash) \
                 SELECT 'ashby', 'board:' || i, 'slug-' || i, 'T', {company}, now(), now(), \
                   now(), 'h' FROM generate_series({rows}) AS i \
                 ON CONFLICT (source, external_id) \
                   DO UPDATE SET company_slug = excluded.company_slug"
            )
        };
        db.execute(&upsert(
            "1, 150",
            "CASE WHEN i % 3 = 0 THEN 'beta' WHEN i = 1 THEN '' ELSE 'acme' END",
        ))
        .await;
        assert_eq!(marks(&db).await, ["acme", "beta"]);
        db.execute(&upsert("2, 2", "'gamma'")).await;
        assert_eq!(marks(&db).await, ["acme", "gamma"]);
        db.execute("DELETE FROM jobs WHERE external_id IN ('board:3', 'board:1')").await;
        assert_eq!(marks(&db).await, ["beta"]);
        db.teardown().await;
    }

    /// A long description is stored lz4-compressed (this suite's server has lz4): pglz was
    /// about a tenth of a first crawl's CPU.
    // scenario: Descriptions are compressed with lz4
    #[tokio::test]
    async fn a_long_description_is_stored_lz4_compressed() {
        let db = TestDb::postgres().await;
        insert_jobs(&db, 1, "'board:' || i", "repeat('Build reliable systems. ', 400)").await;
        let pool = db.postgres_pool().expect("a PostgreSQL database");
        let (method,): (Option<String>,) =
            sqlx::query_as("SELECT pg_column_compression(description) FROM jobs")
                .fetch_one(pool)
                .await
                .unwrap();
        assert_eq!(method.as_deref(), Some("lz4"));
        db.teardown().await;
    }
}
