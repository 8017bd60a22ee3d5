//! [`CoverLetterRepo`] on postgres: `Shared`'s bodies; reads run once more if they lost their connection (`retry_once_if_lost`).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_cv::letter::{Band, Letter};
use freehire_domain::{JobId, UserId};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{CoverLetterRepo, Result, letters::StoredLetter, sql::letters as sql};

#[async_trait]
impl CoverLetterRepo for PgStore {
    async fn save_cover_letter(
        &self,
        owner: UserId,
        job: JobId,
        band: Band,
        letter: &Letter,
        now: DateTime<Utc>,
    ) -> Result<StoredLetter> {
        Shared::save_letter(&self.pool, owner, job, band, letter, now).await
    }

    async fn cover_letter(&self, owner: UserId, id: i64) -> Result<Option<StoredLetter>> {
        retry_once_if_lost(|| Shared::letter_by(&self.pool, sql::BY_ID, owner, id)).await
    }

    async fn cover_letter_for_job(
        &self,
        owner: UserId,
        job: JobId,
    ) -> Result<Option<StoredLetter>> {
        retry_once_if_lost(|| Shared::letter_by(&self.pool, sql::BY_JOB, owner, job.get())).await
    }

    async fn list_cover_letters(&self, owner: UserId) -> Result<Vec<StoredLetter>> {
        retry_once_if_lost(|| Shared::list_letters(&self.pool, owner)).await
    }

    async fn delete_cover_letter(&self, owner: UserId, id: i64) -> Result<bool> {
        Shared::delete_letter(&self.pool, owner, id).await
    }
}
