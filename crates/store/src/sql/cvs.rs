//! Statements on `cvs` and `cv_revisions`, shared by both dialects (JSON and times are bound
//! through the [`bind`](crate::bind) types); only the CV row's lock differs (`cv_for!`:
//! `FOR UPDATE` on PostgreSQL, nothing on SQLite, whose `BEGIN IMMEDIATE` holds the
//! database). Every owner-scoped statement has the owner in its `WHERE` clause; revision
//! statements run after the owner's CV was found (and, for writes, locked).

/// The columns every revision read selects (decoded by `RevisionRecord`).
macro_rules! revision_columns {
    () => {
        "id, seq, actor, origin, batch, title, note, ops, inverse, reverts, is_undo, reverted, \
         created_at"
    };
}

/// One of the owner's CVs, with the dialect's row lock appended.
macro_rules! cv_for {
    ($lock:literal) => {
        concat!("SELECT ", cv_columns!(), " FROM cvs WHERE id = $1 AND user_id = $2", $lock)
    };
}
pub(crate) use cv_for;

/// Creates the owner's base CV unless there is one.
pub(crate) const INSERT_BASE: &str = "INSERT INTO cvs \
     (user_id, kind, title, template_id, data, created_at, updated_at) \
     VALUES ($1, 'base', $2, $3, $4, $5, $5) \
     ON CONFLICT (user_id) WHERE kind = 'base' DO NOTHING";

pub(crate) const BASE: &str =
    concat!("SELECT ", cv_columns!(), " FROM cvs WHERE user_id = $1 AND kind = 'base'");

/// One of the owner's CVs (no lock).
pub(crate) const CV: &str = cv_for!("");

/// The owner's CVs: the base first, then the tailored copies, most recently changed first.
pub(crate) const LIST: &str = concat!(
    "SELECT ",
    cv_columns!(),
    " FROM cvs WHERE user_id = $1 \
     ORDER BY CASE kind WHEN 'base' THEN 0 ELSE 1 END, updated_at DESC, id DESC"
);

/// Copies the owner's base CV as the copy tailored to job `$2`, unless that copy exists (the
/// partial unique index settles a race: the loser inserts nothing).
pub(crate) const TAILOR: &str = "INSERT INTO cvs \
     (user_id, kind, job_id, title, template_id, data, created_at, updated_at) \
     SELECT user_id, 'tailored', $2, title, template_id, data, $3, $3 \
     FROM cvs WHERE user_id = $1 AND kind = 'base' \
     ON CONFLICT (user_id, job_id) WHERE kind = 'tailored' DO NOTHING";

/// The first revision of a new tailored copy `$1` (reference §11.3 step 4): a system entry
/// with no ops, so nothing undoes it (`$2` its title, `$3` now).
pub(crate) const SEED_REVISION: &str = "INSERT INTO cv_revisions \
     (cv_id, seq, actor, origin, title, ops, inverse, is_undo, created_at) \
     SELECT id, 1, 'system', 'template', $2, '[]', '[]', false, $3 \
     FROM cvs WHERE id = $1";

pub(crate) const TAILORED: &str = concat!(
    "SELECT ",
    cv_columns!(),
    " FROM cvs WHERE user_id = $1 AND kind = 'tailored' AND job_id = $2"
);

pub(crate) const SAVE_STATE: &str = "UPDATE cvs \
     SET title = $2, template_id = $3, data = $4, updated_at = $5 WHERE id = $1";

pub(crate) const NEWEST_REVISION: &str = concat!(
    "SELECT ",
    revision_columns!(),
    " FROM cv_revisions WHERE cv_id = $1 ORDER BY seq DESC LIMIT 1"
);

pub(crate) const REVISIONS: &str = concat!(
    "SELECT ",
    revision_columns!(),
    " FROM cv_revisions WHERE cv_id = $1 ORDER BY seq DESC LIMIT $2"
);

pub(crate) const REVISION: &str =
    concat!("SELECT ", revision_columns!(), " FROM cv_revisions WHERE id = $1 AND cv_id = $2");

/// A batch's revisions an undo can still take back (not reverted, not undos), newest first.
pub(crate) const BATCH_REVISIONS: &str = concat!(
    "SELECT ",
    revision_columns!(),
    " FROM cv_revisions WHERE cv_id = $1 AND batch = $2 AND NOT reverted AND NOT is_undo \
     ORDER BY seq DESC"
);

/// Files the next revision of a CV (its `seq` computed here, under the CV's row lock).
pub(crate) const INSERT_REVISION: &str = concat!(
    "INSERT INTO cv_revisions \
     (cv_id, seq, actor, origin, batch, title, note, ops, inverse, reverts, is_undo, created_at) \
     VALUES ($1, (SELECT coalesce(max(seq), 0) + 1 FROM cv_revisions WHERE cv_id = $1), \
     $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ",
    revision_columns!()
);

/// Coalescing: the newest revision takes the new ops, title and note, and keeps its inverse.
pub(crate) const COALESCE_REVISION: &str = concat!(
    "UPDATE cv_revisions SET ops = $2, title = $3, note = $4 WHERE id = $1 RETURNING ",
    revision_columns!()
);

pub(crate) const MARK_REVERTED: &str = "UPDATE cv_revisions SET reverted = true WHERE id = $1";

/// Keeps the newest `$2` revisions of a CV.
pub(crate) const TRIM: &str = "DELETE FROM cv_revisions WHERE cv_id = $1 \
     AND seq <= (SELECT max(seq) FROM cv_revisions WHERE cv_id = $1) - $2";

/// Names the tailoring session working on one of the owner's tailored copies.
pub(crate) const SET_SESSION: &str = "UPDATE cvs SET agent_session_id = $3 \
     WHERE id = $1 AND user_id = $2 AND kind = 'tailored'";

/// Replaces the tailor report of one of the owner's tailored copies.
pub(crate) const SET_REPORT: &str = "UPDATE cvs SET autopilot_report = $3 \
     WHERE id = $1 AND user_id = $2 AND kind = 'tailored'";
