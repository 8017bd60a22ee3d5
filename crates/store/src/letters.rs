//! Cover letters as stored ([`CoverLetterRepo`](crate::CoverLetterRepo), migration 0017): one
//! per user and vacancy, replaced in place when drafted again.

use chrono::{DateTime, Utc};
use freehire_cv::letter::{Band, Letter};
use freehire_domain::{JobId, UserId};

/// A stored cover letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredLetter {
    /// Its id (kept when the letter is drafted again).
    pub id: i64,
    /// Its owner.
    pub owner: UserId,
    /// The vacancy it is for.
    pub job_id: JobId,
    /// Its length band.
    pub band: Band,
    /// The letter.
    pub letter: Letter,
    /// First drafted.
    pub created_at: DateTime<Utc>,
    /// Last drafted.
    pub updated_at: DateTime<Utc>,
}
