//! [`ScreeningRepo`] on PostgreSQL: the read runs once more if it lost its connection
//! ([`retry_once_if_lost`]); the merge is one statement (`||` then `jsonb_strip_nulls`).

use async_trait::async_trait;
use freehire_domain::{ScreeningAnswers, ScreeningPatch, UserId};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{Result, ScreeningRepo, sql::screening::PATCH_POSTGRES};

#[async_trait]
impl ScreeningRepo for PgStore {
    async fn screening_answers(&self, owner: UserId) -> Result<Option<ScreeningAnswers>> {
        retry_once_if_lost(|| Shared::screening_answers(&self.pool, owner)).await
    }

    async fn patch_screening_answers(
        &self,
        owner: UserId,
        patch: &ScreeningPatch,
    ) -> Result<Option<ScreeningAnswers>> {
        Shared::patch_screening_answers(&self.pool, PATCH_POSTGRES, owner, patch).await
    }
}
