//! [`BoardRepo`] and [`BoardHealthRepo`] on SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{Board, BoardHealth, BoardId, BoardKey, BoardStatus, NewBoard, Provider};
use sqlx::{SqliteConnection, sqlite::SqliteRow};

use super::SqliteStore;
use crate::{
    AddedBoard, BoardFilter, BoardHealthRepo, BoardRepo, Result, StoreError,
    health::{health_key, on_failure, on_success},
    rows::{RawBoard, RawHealth, ts},
};

fn raw_board(row: &SqliteRow) -> Result<Board> {
    raw_board!(row)
}

const LIVE_BY_IDENTITY: &str = concat!(
    "SELECT ",
    board_columns!(),
    " FROM boards WHERE provider = $1 AND lower(board) = lower($2) AND region = $3 \
      AND status IN ('pending', 'active')"
);

async fn live_board(conn: &mut SqliteConnection, key: &BoardKey) -> Result<Option<Board>> {
    let row = sqlx::query(LIVE_BY_IDENTITY)
        .bind(key.provider.as_str())
        .bind(&key.board)
        .bind(&key.region)
        .fetch_optional(&mut *conn)
        .await?;
    row.as_ref().map(raw_board).transpose()
}

#[async_trait]
impl BoardRepo for SqliteStore {
    async fn add_board(&self, board: &NewBoard, at: DateTime<Utc>) -> Result<AddedBoard> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        if let Some(existing) = live_board(&mut tx, &board.key).await? {
            tx.commit().await?;
            return Ok(AddedBoard { board: existing, created: false });
        }
        let activated = (board.status == BoardStatus::Active).then(|| ts(at));
        let row = sqlx::query(concat!(
            "INSERT INTO boards (provider, board, region, company, url, status, created_at, \
             activated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ",
            board_columns!()
        ))
        .bind(board.key.provider.as_str())
        .bind(&board.key.board)
        .bind(&board.key.region)
        .bind(&board.company)
        .bind(&board.url)
        .bind(board.status.as_str())
        .bind(ts(at))
        .bind(activated)
        .fetch_one(&mut *tx)
        .await?;
        let created = raw_board(&row)?;
        tx.commit().await?;
        Ok(AddedBoard { board: created, created: true })
    }

    async fn list_boards(&self, filter: &BoardFilter) -> Result<Vec<Board>> {
        let statuses: Vec<&str> = filter.statuses.iter().map(|s| s.as_str()).collect();
        let statuses =
            serde_json::to_string(&statuses).map_err(|e| StoreError::corrupt("filter", e))?;
        let rows = sqlx::query(concat!(
            "SELECT ",
            board_columns!(),
            " FROM boards WHERE ($1 IS NULL OR provider = $1) \
              AND (json_array_length($2) = 0 OR status IN (SELECT value FROM json_each($2))) \
              ORDER BY provider, lower(board), region, id"
        ))
        .bind(filter.provider.as_ref().map(|p| p.as_str()))
        .bind(statuses)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(raw_board).collect()
    }

    async fn board_by_key(&self, key: &BoardKey) -> Result<Option<Board>> {
        let mut conn = self.pool.acquire().await?;
        live_board(&mut conn, key).await
    }

    async fn set_board_status(
        &self,
        id: BoardId,
        status: BoardStatus,
        reason: Option<&str>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE boards SET status = $1, rejected_reason = CASE WHEN $1 = 'rejected' THEN $2 END \
             WHERE id = $3",
        )
        .bind(status.as_str())
        .bind(reason)
        .bind(id.get())
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn activate_board(&self, key: &BoardKey, at: DateTime<Utc>) -> Result<bool> {
        let mut conn = self.writer.acquire().await?;
        activate_in(&mut conn, key, at).await
    }
}

fn raw_health(row: &SqliteRow) -> Result<BoardHealth> {
    raw_health!(row)
}

async fn health(conn: &mut SqliteConnection, key: &BoardKey) -> Result<Option<BoardHealth>> {
    let key = health_key(key);
    let row = sqlx::query(concat!(
        "SELECT ",
        health_columns!(),
        " FROM board_health WHERE provider = $1 AND board = $2 AND region = $3"
    ))
    .bind(key.provider.as_str())
    .bind(&key.board)
    .bind(&key.region)
    .fetch_optional(&mut *conn)
    .await?;
    row.as_ref().map(raw_health).transpose()
}

const SAVE_HEALTH: &str = concat!(
    "INSERT INTO board_health (",
    health_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
         ON CONFLICT (provider, board, region) DO UPDATE SET \
         consecutive_failures = excluded.consecutive_failures, \
         cooldown_until = excluded.cooldown_until, last_error = excluded.last_error, \
         last_error_at = excluded.last_error_at, last_success_at = excluded.last_success_at, \
         last_ingested_count = excluded.last_ingested_count, last_run_at = excluded.last_run_at, \
         last_yield_at = excluded.last_yield_at"
);

/// Binds a health row's twelve columns in [`health_columns!`] order.
fn bind_health<'q>(
    query: sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>,
    h: &'q BoardHealth,
) -> sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>> {
    query
        .bind(h.key.provider.as_str())
        .bind(&h.key.board)
        .bind(&h.key.region)
        .bind(i64::from(h.consecutive_failures))
        .bind(h.cooldown_until.map(ts))
        .bind(&h.last_error)
        .bind(h.last_error_at.map(ts))
        .bind(h.last_success_at.map(ts))
        .bind(h.last_ingested_count)
        .bind(h.last_run_at.map(ts))
        .bind(ts(h.first_seen_at))
        .bind(h.last_yield_at.map(ts))
}

async fn save_health(conn: &mut SqliteConnection, h: &BoardHealth) -> Result<()> {
    bind_health(sqlx::query(SAVE_HEALTH), h).execute(&mut *conn).await?;
    Ok(())
}

#[async_trait]
impl BoardHealthRepo for SqliteStore {
    async fn record_board_success(
        &self,
        key: &BoardKey,
        ingested: u64,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let next = success_in(&mut tx, key, ingested, at).await?;
        tx.commit().await?;
        Ok(next)
    }

    async fn record_board_failure(
        &self,
        key: &BoardKey,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let next = on_failure(health(&mut tx, key).await?, key, error, at);
        save_health(&mut tx, &next).await?;
        tx.commit().await?;
        Ok(next)
    }

    async fn cooldowns(&self, provider: &Provider) -> Result<Vec<BoardHealth>> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            health_columns!(),
            " FROM board_health WHERE provider = $1 AND cooldown_until IS NOT NULL"
        ))
        .bind(provider.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(raw_health).collect()
    }

    async fn board_health(&self, key: &BoardKey) -> Result<Option<BoardHealth>> {
        let mut conn = self.pool.acquire().await?;
        health(&mut conn, key).await
    }
}

/// Heals the row in one statement: a first success inserts [`on_success`] of nothing; a later
/// one applies the same transition to the stored row (failures and cooldown reset, success and
/// run stamped, yield only when the listing named anything, the last error kept).
const SUCCESS: &str = concat!(
    "INSERT INTO board_health (",
    health_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
     ON CONFLICT (provider, board, region) DO UPDATE SET \
     consecutive_failures = 0, cooldown_until = NULL, \
     last_success_at = excluded.last_success_at, \
     last_ingested_count = excluded.last_ingested_count, last_run_at = excluded.last_run_at, \
     last_yield_at = COALESCE(excluded.last_yield_at, board_health.last_yield_at) \
     RETURNING ",
    health_columns!()
);

/// Records a successful crawl on `conn` inside the caller's transaction.
pub(super) async fn success_in(
    conn: &mut sqlx::SqliteConnection,
    key: &BoardKey,
    ingested: u64,
    at: DateTime<Utc>,
) -> Result<BoardHealth> {
    let first = on_success(None, key, ingested, at);
    let row = bind_health(sqlx::query(SUCCESS), &first).fetch_one(&mut *conn).await?;
    raw_health(&row)
}

/// Flips a pending board to active on `conn`.
pub(super) async fn activate_in(
    conn: &mut sqlx::SqliteConnection,
    key: &BoardKey,
    at: DateTime<Utc>,
) -> Result<bool> {
    let done = sqlx::query(
            "UPDATE boards SET status = 'active', activated_at = $1 \
             WHERE provider = $2 AND lower(board) = lower($3) AND region = $4 AND status = 'pending'",
        )
        .bind(ts(at))
        .bind(key.provider.as_str())
        .bind(&key.board)
        .bind(&key.region)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}
