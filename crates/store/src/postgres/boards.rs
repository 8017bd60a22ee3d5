//! [`BoardRepo`] and [`BoardHealthRepo`] on PostgreSQL: the bodies are `Shared`'s but for the
//! board list's status filter, and the insert race a concurrent writer can win.

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    AddedBoard, BoardFilter, BoardHealthRepo, BoardRepo, FailingBoards, Result, StoreError,
    bind::{List, Stamp},
    rows::BoardRecord,
};
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{
    Board, BoardHealth, BoardId, BoardKey, BoardStatus, FailureClass, NewBoard, Provider,
};

/// The health row of a board (locked: concurrent failures of one board count each).
const HEALTH_OF: &str = crate::sql::boards::health_of!(" FOR UPDATE");

/// A bulk add in one statement: the batch is one `jsonb` array; a live board of the same
/// identity (or an earlier row of the batch) makes a row a no-op.
const ADD_MANY: &str = concat!(
    "INSERT INTO boards (provider, board, region, company, url, status, created_at, \
     activated_at) SELECT r.provider, r.board, r.region, r.company, r.url, r.status, $2, \
     CASE WHEN r.status = 'active' THEN $2 END \
     FROM jsonb_to_recordset($1::jsonb) AS r(provider text, board text, region text, \
       company text, url text, status text) \
     ON CONFLICT DO NOTHING RETURNING ",
    board_columns!()
);

/// One row of [`ADD_MANY`]'s batch.
#[derive(serde::Serialize)]
struct BatchBoard<'a> {
    provider: &'a str,
    board: &'a str,
    region: &'a str,
    company: &'a str,
    url: Option<&'a str>,
    status: &'a str,
}

impl<'a> From<&'a NewBoard> for BatchBoard<'a> {
    fn from(b: &'a NewBoard) -> Self {
        Self {
            provider: b.key.provider.as_str(),
            board: b.key.board.as_str(),
            region: b.key.region.as_str(),
            company: b.company.as_str(),
            url: b.url.as_deref(),
            status: b.status.as_str(),
        }
    }
}

#[async_trait]
impl BoardRepo for PgStore {
    async fn add_board(&self, board: &NewBoard, at: DateTime<Utc>) -> Result<AddedBoard> {
        let mut conn = self.pool.acquire().await?;
        if let Some(existing) = Shared::live_board(&mut conn, &board.key).await? {
            return Ok(AddedBoard { board: existing, created: false });
        }
        match Shared::insert_board(&mut conn, board, at).await {
            Ok(row) => Ok(AddedBoard { board: row.into_board()?, created: true }),
            // A concurrent writer added the same board between our read and our insert.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                match Shared::live_board(&mut conn, &board.key).await? {
                    Some(existing) => Ok(AddedBoard { board: existing, created: false }),
                    None => Err(sqlx::Error::Database(e).into()),
                }
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn add_boards(&self, boards: &[NewBoard], at: DateTime<Utc>) -> Result<Vec<Board>> {
        if boards.is_empty() {
            return Ok(Vec::new());
        }
        let rows: Vec<BatchBoard<'_>> = boards.iter().map(BatchBoard::from).collect();
        let json = serde_json::to_string(&rows).map_err(|e| StoreError::corrupt("batch", e))?;
        let mut tx = self.pool.begin().await?;
        let created: Vec<BoardRecord> =
            sqlx::query_as(ADD_MANY).bind(json).bind(Stamp(at)).fetch_all(&mut *tx).await?;
        tx.commit().await?;
        let mut created: Vec<Board> =
            created.into_iter().map(BoardRecord::into_board).collect::<Result<_>>()?;
        created.sort_by_key(|b| b.id);
        Ok(created)
    }

    async fn list_boards(&self, filter: &BoardFilter) -> Result<Vec<Board>> {
        let statuses: Vec<&str> = filter.statuses.iter().map(|s| s.as_str()).collect();
        let statuses = &statuses;
        retry_once_if_lost(|| async move {
            let rows: Vec<BoardRecord> = sqlx::query_as(concat!(
                "SELECT ",
                board_columns!(),
                " FROM boards WHERE ($1::text IS NULL OR provider = $1) \
              AND (cardinality($2::text[]) = 0 OR status = ANY($2)) \
              ORDER BY provider, lower(board), region, id"
            ))
            .bind(filter.provider.as_ref().map(|p| p.as_str()))
            .bind(List(statuses))
            .fetch_all(&self.pool)
            .await?;
            rows.into_iter().map(BoardRecord::into_board).collect()
        })
        .await
    }

    async fn board_by_key(&self, key: &BoardKey) -> Result<Option<Board>> {
        retry_once_if_lost(|| async move { Shared::board_by_key(&self.pool, key).await }).await
    }

    async fn set_board_status(
        &self,
        id: BoardId,
        status: BoardStatus,
        reason: Option<&str>,
    ) -> Result<bool> {
        Shared::set_board_status(&self.pool, id, status, reason).await
    }

    async fn activate_board(&self, key: &BoardKey, at: DateTime<Utc>) -> Result<bool> {
        Shared::activate_board(&self.pool, key, at).await
    }
}

#[async_trait]
impl BoardHealthRepo for PgStore {
    async fn record_board_success(
        &self,
        key: &BoardKey,
        ingested: u64,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        retry_once_if_lost(|| async move {
            Shared::record_board_success(self.pool.begin().await?, key, ingested, at).await
        })
        .await
    }

    async fn record_board_failure(
        &self,
        key: &BoardKey,
        class: FailureClass,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        retry_once_if_lost(|| async move {
            Shared::record_board_failure(self.pool.begin().await?, HEALTH_OF, key, class, error, at)
                .await
        })
        .await
    }

    async fn cooldowns(&self, provider: &Provider) -> Result<Vec<BoardHealth>> {
        retry_once_if_lost(|| async move { Shared::cooldowns(&self.pool, provider).await }).await
    }

    async fn board_healths(&self, provider: Option<&Provider>) -> Result<Vec<BoardHealth>> {
        retry_once_if_lost(|| async move { Shared::board_healths(&self.pool, provider).await })
            .await
    }

    async fn failing_boards(&self, per_provider: u32) -> Result<FailingBoards> {
        retry_once_if_lost(|| async move { Shared::failing_boards(&self.pool, per_provider).await })
            .await
    }

    async fn board_health(&self, key: &BoardKey) -> Result<Option<BoardHealth>> {
        retry_once_if_lost(|| async move { Shared::board_health(&self.pool, HEALTH_OF, key).await })
            .await
    }
}
