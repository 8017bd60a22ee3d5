//! Cover-letter rows as read (`cover_letters`), parsed totally: a stored band, id or letter
//! that no longer parses is [`StoreError::Corrupt`] naming its column.

use freehire_cv::letter::Band;
use freehire_domain::{JobId, UserId};

use crate::{
    Result, StoreError,
    bind::{Stamp, StoredJson},
    letters::StoredLetter,
};

/// A cover-letter row (the columns of `letter_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct LetterRecord {
    id: i64,
    user_id: i64,
    job_id: i64,
    band: String,
    letter: StoredJson,
    created_at: Stamp,
    updated_at: Stamp,
}

impl LetterRecord {
    pub fn into_letter(self) -> Result<StoredLetter> {
        let band = match self.band.as_str() {
            "short" => Band::Short,
            "standard" => Band::Standard,
            other => return Err(StoreError::corrupt("band", format!("unknown band {other:?}"))),
        };
        Ok(StoredLetter {
            id: self.id,
            owner: UserId::new(self.user_id).map_err(|e| StoreError::corrupt("user_id", e))?,
            job_id: JobId::new(self.job_id).map_err(|e| StoreError::corrupt("job_id", e))?,
            band,
            letter: self.letter.parse("letter")?,
            created_at: self.created_at.into(),
            updated_at: self.updated_at.into(),
        })
    }
}
