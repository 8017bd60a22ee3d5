//! Screening answers (reference assistant.md §10.5): the facts application forms ask, kept once
//! per account. One service for the `/me/screening-answers` routes, the `/account` page and the
//! assistant's `screening_answers_set` tool, so the three read and write the same way: a
//! [`ScreeningPatch`] (checked at the edge) merged into the stored answers in one statement.

use std::sync::Arc;

use freehire_domain::{ScreeningAnswers, ScreeningPatch, UserId};
use freehire_store::{Store, StoreError};

/// What a screening-answers operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ScreeningError {
    /// The account is gone (deleted between sign-in and the call).
    #[error("account not found")]
    NotFound,
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The screening-answers service.
#[derive(Clone)]
pub struct Screening {
    store: Arc<dyn Store>,
}

impl Screening {
    /// Over `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self { store }
    }

    /// The owner's answers (all unstated for a new account).
    pub async fn get(&self, owner: UserId) -> Result<ScreeningAnswers, ScreeningError> {
        self.store.screening_answers(owner).await?.ok_or(ScreeningError::NotFound)
    }

    /// Applies `patch` and returns the answers after it; an empty patch only reads.
    pub async fn set(
        &self,
        owner: UserId,
        patch: &ScreeningPatch,
    ) -> Result<ScreeningAnswers, ScreeningError> {
        if patch.is_empty() {
            return self.get(owner).await;
        }
        self.store.patch_screening_answers(owner, patch).await?.ok_or(ScreeningError::NotFound)
    }
}
