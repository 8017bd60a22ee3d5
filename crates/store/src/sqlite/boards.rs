//! [`BoardRepo`] and [`BoardHealthRepo`] on SQLite.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{Board, BoardHealth, BoardId, BoardKey, BoardStatus, NewBoard, Provider};
use sqlx::{FromRow, SqliteConnection};

use super::SqliteStore;
use crate::{
    AddedBoard, BoardFilter, BoardHealthRepo, BoardRepo, Result,
    bind::{List, Stamp},
    health::{health_key, on_failure, on_success},
    rows::{BoardRecord, HealthRecord},
    sql::boards::{
        ACTIVATE, COOLDOWNS, INSERT, LIVE_BY_IDENTITY, SAVE_HEALTH, SET_STATUS, SUCCESS,
    },
};

async fn live_board(conn: &mut SqliteConnection, key: &BoardKey) -> Result<Option<Board>> {
    let row: Option<BoardRecord> = sqlx::query_as(LIVE_BY_IDENTITY)
        .bind(key.provider.as_str())
        .bind(&key.board)
        .bind(&key.region)
        .fetch_optional(&mut *conn)
        .await?;
    row.map(BoardRecord::into_board).transpose()
}

#[async_trait]
impl BoardRepo for SqliteStore {
    async fn add_board(&self, board: &NewBoard, at: DateTime<Utc>) -> Result<AddedBoard> {
        let mut tx = self.write().await?;
        if let Some(existing) = live_board(&mut tx, &board.key).await? {
            tx.commit().await?;
            return Ok(AddedBoard { board: existing, created: false });
        }
        let activated = (board.status == BoardStatus::Active).then_some(Stamp(at));
        let row: BoardRecord = sqlx::query_as(INSERT)
            .bind(board.key.provider.as_str())
            .bind(&board.key.board)
            .bind(&board.key.region)
            .bind(&board.company)
            .bind(&board.url)
            .bind(board.status.as_str())
            .bind(Stamp(at))
            .bind(activated)
            .fetch_one(&mut *tx)
            .await?;
        let created = row.into_board()?;
        tx.commit().await?;
        Ok(AddedBoard { board: created, created: true })
    }

    async fn list_boards(&self, filter: &BoardFilter) -> Result<Vec<Board>> {
        let statuses: Vec<&str> = filter.statuses.iter().map(|s| s.as_str()).collect();
        let rows: Vec<BoardRecord> = sqlx::query_as(concat!(
            "SELECT ",
            board_columns!(),
            " FROM boards WHERE ($1 IS NULL OR provider = $1) \
              AND (json_array_length($2) = 0 OR status IN (SELECT value FROM json_each($2))) \
              ORDER BY provider, lower(board), region, id"
        ))
        .bind(filter.provider.as_ref().map(|p| p.as_str()))
        .bind(List(&statuses))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(BoardRecord::into_board).collect()
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
        let done = sqlx::query(SET_STATUS)
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

async fn health(conn: &mut SqliteConnection, key: &BoardKey) -> Result<Option<BoardHealth>> {
    let key = health_key(key);
    let row: Option<HealthRecord> = sqlx::query_as(crate::sql::boards::health_of!(""))
        .bind(key.provider.as_str())
        .bind(&key.board)
        .bind(&key.region)
        .fetch_optional(&mut *conn)
        .await?;
    row.map(HealthRecord::into_health).transpose()
}

/// Binds a health row's twelve columns in [`health_columns!`] order.
fn bind_health<'q>(
    query: sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>,
    h: &'q BoardHealth,
) -> sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>> {
    query
        .bind(h.key.provider.as_str())
        .bind(&h.key.board)
        .bind(&h.key.region)
        .bind(i32::try_from(h.consecutive_failures).unwrap_or(i32::MAX))
        .bind(Stamp::opt(h.cooldown_until))
        .bind(&h.last_error)
        .bind(Stamp::opt(h.last_error_at))
        .bind(Stamp::opt(h.last_success_at))
        .bind(h.last_ingested_count)
        .bind(Stamp::opt(h.last_run_at))
        .bind(Stamp(h.first_seen_at))
        .bind(Stamp::opt(h.last_yield_at))
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
        let mut tx = self.write().await?;
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
        let mut tx = self.write().await?;
        let next = on_failure(health(&mut tx, key).await?, key, error, at);
        save_health(&mut tx, &next).await?;
        tx.commit().await?;
        Ok(next)
    }

    async fn cooldowns(&self, provider: &Provider) -> Result<Vec<BoardHealth>> {
        let rows: Vec<HealthRecord> =
            sqlx::query_as(COOLDOWNS).bind(provider.as_str()).fetch_all(&self.pool).await?;
        rows.into_iter().map(HealthRecord::into_health).collect()
    }

    async fn board_health(&self, key: &BoardKey) -> Result<Option<BoardHealth>> {
        let mut conn = self.pool.acquire().await?;
        health(&mut conn, key).await
    }
}

/// Records a successful crawl on `conn` inside the caller's transaction.
pub(super) async fn success_in(
    conn: &mut sqlx::SqliteConnection,
    key: &BoardKey,
    ingested: u64,
    at: DateTime<Utc>,
) -> Result<BoardHealth> {
    let first = on_success(None, key, ingested, at);
    let row = bind_health(sqlx::query(SUCCESS), &first).fetch_one(&mut *conn).await?;
    HealthRecord::from_row(&row)?.into_health()
}

/// Flips a pending board to active on `conn`.
pub(super) async fn activate_in(
    conn: &mut sqlx::SqliteConnection,
    key: &BoardKey,
    at: DateTime<Utc>,
) -> Result<bool> {
    let done = sqlx::query(ACTIVATE)
        .bind(Stamp(at))
        .bind(key.provider.as_str())
        .bind(&key.board)
        .bind(&key.region)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}
