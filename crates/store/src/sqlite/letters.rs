//! [`CoverLetterRepo`] on sqlite: `Shared`'s bodies; reads on the reader pool, writes on the writer.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_cv::letter::{Band, Letter};
use freehire_domain::{JobId, UserId};

use super::{Shared, SqliteStore};
use crate::{CoverLetterRepo, Result, letters::StoredLetter, sql::letters as sql};

#[async_trait]
impl CoverLetterRepo for SqliteStore {
    async fn save_cover_letter(
        &self,
        owner: UserId,
        job: JobId,
        band: Band,
        letter: &Letter,
        now: DateTime<Utc>,
    ) -> Result<StoredLetter> {
        Shared::save_letter(&self.writer, owner, job, band, letter, now).await
    }

    async fn cover_letter(&self, owner: UserId, id: i64) -> Result<Option<StoredLetter>> {
        Shared::letter_by(&self.pool, sql::BY_ID, owner, id).await
    }

    async fn cover_letter_for_job(
        &self,
        owner: UserId,
        job: JobId,
    ) -> Result<Option<StoredLetter>> {
        Shared::letter_by(&self.pool, sql::BY_JOB, owner, job.get()).await
    }

    async fn list_cover_letters(&self, owner: UserId) -> Result<Vec<StoredLetter>> {
        Shared::list_letters(&self.pool, owner).await
    }

    async fn delete_cover_letter(&self, owner: UserId, id: i64) -> Result<bool> {
        Shared::delete_letter(&self.writer, owner, id).await
    }
}
