//! Cover-letter statements ([`CoverLetterRepo`](crate::CoverLetterRepo)), the same text on both
//! dialects: every statement is scoped by `user_id = $1`.

macro_rules! letter_columns {
    () => {
        "id, user_id, job_id, band, letter, created_at, updated_at"
    };
}

/// `$1` owner, `$2` job, `$3` band, `$4` letter, `$5` now: inserted, or replaced in place.
pub(crate) const SAVE: &str = concat!(
    "INSERT INTO cover_letters (user_id, job_id, band, letter, created_at, updated_at) \
     VALUES ($1, $2, $3, $4, $5, $5) \
     ON CONFLICT (user_id, job_id) DO UPDATE \
     SET band = excluded.band, letter = excluded.letter, updated_at = excluded.updated_at \
     RETURNING ",
    letter_columns!()
);

/// `$1` owner, `$2` id.
pub(crate) const BY_ID: &str =
    concat!("SELECT ", letter_columns!(), " FROM cover_letters WHERE user_id = $1 AND id = $2");

/// `$1` owner, `$2` job.
pub(crate) const BY_JOB: &str =
    concat!("SELECT ", letter_columns!(), " FROM cover_letters WHERE user_id = $1 AND job_id = $2");

/// `$1` owner: newest first.
pub(crate) const LIST: &str = concat!(
    "SELECT ",
    letter_columns!(),
    " FROM cover_letters WHERE user_id = $1 ORDER BY updated_at DESC, id DESC"
);

/// `$1` owner, `$2` id.
pub(crate) const DELETE: &str = "DELETE FROM cover_letters WHERE user_id = $1 AND id = $2";
