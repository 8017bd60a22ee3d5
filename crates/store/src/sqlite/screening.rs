//! [`ScreeningRepo`] on SQLite: reads on the reader pool, the `json_patch` merge on the writer.

use async_trait::async_trait;
use freehire_domain::{ScreeningAnswers, ScreeningPatch, UserId};

use super::{Shared, SqliteStore};
use crate::{Result, ScreeningRepo, sql::screening::PATCH_SQLITE};

#[async_trait]
impl ScreeningRepo for SqliteStore {
    async fn screening_answers(&self, owner: UserId) -> Result<Option<ScreeningAnswers>> {
        Shared::screening_answers(&self.pool, owner).await
    }

    async fn patch_screening_answers(
        &self,
        owner: UserId,
        patch: &ScreeningPatch,
    ) -> Result<Option<ScreeningAnswers>> {
        Shared::patch_screening_answers(&self.writer, PATCH_SQLITE, owner, patch).await
    }
}
