//! [`BoardRepo`] and [`BoardHealthRepo`] on SQLite: the bodies are `Shared`'s but for the
//! board list's status filter.

use super::{Shared, SqliteStore};
use crate::{
    AddedBoard, BoardFilter, BoardHealthRepo, BoardRepo, FailingBoards, Result,
    bind::{List, Stamp},
    rows::BoardRecord,
};
use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{
    Board, BoardHealth, BoardId, BoardKey, BoardStatus, FailureClass, NewBoard, Provider,
};

/// The health row of a board (no lock: the write transaction holds the database).
const HEALTH_OF: &str = crate::sql::boards::health_of!("");

#[async_trait]
impl BoardRepo for SqliteStore {
    async fn add_board(&self, board: &NewBoard, at: DateTime<Utc>) -> Result<AddedBoard> {
        let mut tx = self.write().await?;
        if let Some(existing) = Shared::live_board(&mut tx, &board.key).await? {
            tx.commit().await?;
            return Ok(AddedBoard { board: existing, created: false });
        }
        let created = Shared::insert_board(&mut tx, board, at).await?.into_board()?;
        tx.commit().await?;
        Ok(AddedBoard { board: created, created: true })
    }

    async fn add_boards(&self, boards: &[NewBoard], at: DateTime<Utc>) -> Result<Vec<Board>> {
        let mut tx = self.write().await?;
        let mut created = Vec::new();
        for board in boards {
            let activated = (board.status == BoardStatus::Active).then_some(Stamp(at));
            let row: Option<BoardRecord> = sqlx::query_as(crate::sql::boards::INSERT_IF_ABSENT)
                .bind(board.key.provider.as_str())
                .bind(board.key.board.as_str())
                .bind(board.key.region.as_str())
                .bind(board.company.as_str())
                .bind(board.url.as_deref())
                .bind(board.status.as_str())
                .bind(Stamp(at))
                .bind(activated)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(row) = row {
                created.push(row.into_board()?);
            }
        }
        tx.commit().await?;
        Ok(created)
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
        Shared::board_by_key(&self.pool, key).await
    }

    async fn set_board_status(
        &self,
        id: BoardId,
        status: BoardStatus,
        reason: Option<&str>,
    ) -> Result<bool> {
        Shared::set_board_status(&self.writer, id, status, reason).await
    }

    async fn activate_board(&self, key: &BoardKey, at: DateTime<Utc>) -> Result<bool> {
        Shared::activate_board(&self.writer, key, at).await
    }
}

#[async_trait]
impl BoardHealthRepo for SqliteStore {
    async fn record_board_success(
        &self,
        key: &BoardKey,
        ingested: u64,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        Shared::record_board_success(self.write().await?, key, ingested, at).await
    }

    async fn record_board_failure(
        &self,
        key: &BoardKey,
        class: FailureClass,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        Shared::record_board_failure(self.write().await?, HEALTH_OF, key, class, error, at).await
    }

    async fn cooldowns(&self, provider: &Provider) -> Result<Vec<BoardHealth>> {
        Shared::cooldowns(&self.pool, provider).await
    }

    async fn board_healths(&self, provider: Option<&Provider>) -> Result<Vec<BoardHealth>> {
        Shared::board_healths(&self.pool, provider).await
    }

    async fn failing_boards(&self, per_provider: u32) -> Result<FailingBoards> {
        Shared::failing_boards(&self.pool, per_provider).await
    }

    async fn board_health(&self, key: &BoardKey) -> Result<Option<BoardHealth>> {
        Shared::board_health(&self.pool, HEALTH_OF, key).await
    }
}
