//! Statements on `assistant_sessions`, `assistant_messages` and `assistant_turn_leases`,
//! shared by both dialects (UUIDs, JSON and times are bound through the
//! [`bind`](crate::bind) types, so the text is the same). Every owner-scoped statement has the
//! owner in its `WHERE` clause.

/// The columns every session read selects (decoded by `SessionRecord`).
macro_rules! session_columns {
    () => {
        "id, user_id, preset, label, cv_id, job_id, created_at, updated_at"
    };
}

pub(crate) const INSERT_SESSION: &str = concat!(
    "INSERT INTO assistant_sessions \
     (id, user_id, preset, label, cv_id, job_id, created_at, updated_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ",
    session_columns!()
);

pub(crate) const SESSION: &str = concat!(
    "SELECT ",
    session_columns!(),
    " FROM assistant_sessions WHERE id = $1 AND user_id = $2"
);

/// The rail: the owner's sessions of the rail presets, most recently used first.
pub(crate) const RAIL: &str = concat!(
    "SELECT ",
    session_columns!(),
    " FROM assistant_sessions WHERE user_id = $1 \
     AND preset IN ('chat', 'profile', 'interview', 'debrief') \
     ORDER BY updated_at DESC, id DESC"
);

/// Its messages and turn lease go with it (ON DELETE CASCADE).
pub(crate) const DELETE_SESSION: &str =
    "DELETE FROM assistant_sessions WHERE id = $1 AND user_id = $2";

/// Names the session once: only while it has no label.
pub(crate) const LABEL: &str = "UPDATE assistant_sessions SET label = $3 \
     WHERE id = $1 AND user_id = $2 AND label IS NULL";

/// [`LABEL`] and [`TOUCH`] in one statement (after a prompt): the label only while there is
/// none and `$3` is not empty, `updated_at = $4` always.
pub(crate) const LABEL_AND_TOUCH: &str = "UPDATE assistant_sessions \
     SET label = coalesce(label, nullif($3, '')), updated_at = $4 \
     WHERE id = $1 AND user_id = $2";

pub(crate) const TOUCH: &str =
    "UPDATE assistant_sessions SET updated_at = $3 WHERE id = $1 AND user_id = $2";

pub(crate) const COUNT_USER_TURNS: &str =
    "SELECT count(*) FROM assistant_messages WHERE session_id = $1 AND role = 'user'";

/// The next message of the owner's session, its `seq` computed in the insert; inserts nothing
/// when the session is not the owner's. Two writers that computed the same `seq` collide on
/// the primary key (the later one's unique violation).
pub(crate) const INSERT_MESSAGE: &str = "INSERT INTO assistant_messages \
     (session_id, seq, role, content, created_at) \
     SELECT s.id, coalesce((SELECT max(m.seq) FROM assistant_messages AS m \
                            WHERE m.session_id = s.id), 0) + 1, $3, $4, $5 \
     FROM assistant_sessions AS s WHERE s.id = $1 AND s.user_id = $2 \
     RETURNING seq, role, content";

/// Every message of the owner's session, ascending; one row of NULLs for a session without
/// messages, none when it is not the owner's.
pub(crate) const TRANSCRIPT: &str = "SELECT m.seq, m.role, m.content \
     FROM assistant_sessions AS s LEFT JOIN assistant_messages AS m ON m.session_id = s.id \
     WHERE s.id = $1 AND s.user_id = $2 ORDER BY m.seq";

/// The newest `$3` messages of the owner's session, newest first (the caller reverses them);
/// NULLs and no rows as in [`TRANSCRIPT`].
pub(crate) const RECENT: &str = "SELECT m.seq, m.role, m.content \
     FROM assistant_sessions AS s LEFT JOIN assistant_messages AS m ON m.session_id = s.id \
     WHERE s.id = $1 AND s.user_id = $2 ORDER BY m.seq DESC LIMIT $3";

// ---- turn leases ----

/// Takes the running lease for holder `$2` of process `$5` until `$3` when it is free, expired
/// (`$4` is now) or already `$2`'s, and the queue place is empty, expired or `$2`'s (a waiter
/// never loses its turn to a newcomer); a waiter that takes the lease leaves the queue.
/// Returns the cancel generation; no row when busy.
pub(crate) const ACQUIRE_LEASE: &str = "INSERT INTO assistant_turn_leases \
     (session_id, holder, holder_expires_at, holder_process) VALUES ($1, $2, $3, $5) \
     ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, \
     holder_expires_at = excluded.holder_expires_at, \
     holder_process = excluded.holder_process, \
     waiter = CASE WHEN assistant_turn_leases.waiter = excluded.holder THEN NULL \
                   ELSE assistant_turn_leases.waiter END, \
     waiter_expires_at = CASE WHEN assistant_turn_leases.waiter = excluded.holder THEN NULL \
                   ELSE assistant_turn_leases.waiter_expires_at END \
     WHERE (assistant_turn_leases.holder IS NULL \
            OR assistant_turn_leases.holder_expires_at <= $4 \
            OR assistant_turn_leases.holder = excluded.holder) \
       AND (assistant_turn_leases.waiter IS NULL \
            OR assistant_turn_leases.waiter = excluded.holder \
            OR assistant_turn_leases.waiter_expires_at <= $4) \
     RETURNING cancel_generation";

/// Extends every lease of process `$1` to `$2`; the leases it still holds.
pub(crate) const RENEW_LEASES: &str = "UPDATE assistant_turn_leases SET holder_expires_at = $2 \
     WHERE holder_process = $1 RETURNING session_id, holder, cancel_generation";

/// Every lease of process `$1` with its generation.
pub(crate) const HELD_LEASES: &str = "SELECT session_id, holder, cancel_generation \
     FROM assistant_turn_leases WHERE holder_process = $1";

pub(crate) const RELEASE_LEASE: &str = "UPDATE assistant_turn_leases \
     SET holder = NULL, holder_expires_at = NULL, holder_process = NULL \
     WHERE session_id = $1 AND holder = $2";

/// Takes (or extends to `$3`) the queue place for waiter `$2` when it is empty, expired (`$4`
/// is now) or already `$2`'s; no row when another waiter has it.
pub(crate) const QUEUE: &str = "UPDATE assistant_turn_leases \
     SET waiter = $2, waiter_expires_at = $3 \
     WHERE session_id = $1 AND (waiter IS NULL OR waiter = $2 OR waiter_expires_at <= $4) \
     RETURNING cancel_generation";

pub(crate) const LEAVE_QUEUE: &str = "UPDATE assistant_turn_leases \
     SET waiter = NULL, waiter_expires_at = NULL WHERE session_id = $1 AND waiter = $2";

/// Moves the cancel generation; returns whether a live holder was there (`$2` is now).
pub(crate) const CANCEL: &str = "UPDATE assistant_turn_leases \
     SET cancel_generation = cancel_generation + 1 WHERE session_id = $1 \
     RETURNING (holder IS NOT NULL AND holder_expires_at > $2)";

pub(crate) const GENERATION: &str =
    "SELECT cancel_generation FROM assistant_turn_leases WHERE session_id = $1";
