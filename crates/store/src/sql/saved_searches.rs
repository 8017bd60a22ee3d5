//! Statements on `saved_searches`, `subscriptions`, `notification_settings` and the reads of
//! `user_notifications`, shared by both dialects; only the owner-row lock of the capped insert
//! differs (`owner_lock!`). Every owner-scoped statement has the owner in its `WHERE` clause.

/// The columns every saved-search read selects (decoded by `SavedSearchRecord`).
macro_rules! saved_search_columns {
    () => {
        "id, user_id, name, query, public_slug, created_at, updated_at"
    };
}

/// The columns every subscription read selects (decoded by `SubscriptionRecord`); never the
/// secret.
macro_rules! subscription_columns {
    () => {
        "id, user_id, saved_search_id, channel, destination, active, start_at, created_at, \
         last_digest_sent_at"
    };
}

/// The columns every notification read selects, from `user_notifications AS n` left-joined
/// with its subscription `s` (decoded by `NotificationRecord`).
macro_rules! notification_columns {
    () => {
        "n.id, n.kind, n.title, n.body, n.public_slug, n.subscription_id, \
         s.saved_search_id, n.created_at, n.read_at, n.total"
    };
}

/// The owner's account row, read first in the capped insert's transaction; each adapter
/// appends its lock (`FOR UPDATE` on PostgreSQL, none on SQLite, whose `BEGIN IMMEDIATE`
/// holds the database), so two inserts of one owner take turns and the count stays true.
macro_rules! owner_lock {
    ($lock:literal) => {
        concat!("SELECT id FROM users WHERE id = $1", $lock)
    };
}
pub(crate) use owner_lock;

pub(crate) const COUNT_OF: &str = "SELECT count(*) FROM saved_searches WHERE user_id = $1";

pub(crate) const INSERT: &str = concat!(
    "INSERT INTO saved_searches (user_id, name, query, created_at, updated_at) \
     VALUES ($1, $2, $3, $4, $4) RETURNING ",
    saved_search_columns!()
);

/// An owner's saved searches, oldest first.
pub(crate) const LIST_OF: &str = concat!(
    "SELECT ",
    saved_search_columns!(),
    " FROM saved_searches WHERE user_id = $1 ORDER BY created_at, id"
);

pub(crate) const ONE_OF: &str = concat!(
    "SELECT ",
    saved_search_columns!(),
    " FROM saved_searches WHERE id = $1 AND user_id = $2"
);

/// A shared search by its public slug (no owner: the board is public).
pub(crate) const SHARED: &str = "SELECT name, query FROM saved_searches WHERE public_slug = $1";

/// A patch: NULL `$1`/`$2` keep the name/query; `$3` NULL keeps the sharing, true shares
/// (keeping a slug already given, else `$4`), false stops it.
pub(crate) const UPDATE: &str = concat!(
    "UPDATE saved_searches SET name = COALESCE($1, name), query = COALESCE($2, query), \
     public_slug = CASE WHEN $3 IS NULL THEN public_slug \
                        WHEN $3 THEN COALESCE(public_slug, $4) ELSE NULL END, \
     updated_at = $5 WHERE id = $6 AND user_id = $7 RETURNING ",
    saved_search_columns!()
);

/// Its subscriptions go with it (ON DELETE CASCADE).
pub(crate) const DELETE: &str = "DELETE FROM saved_searches WHERE id = $1 AND user_id = $2";

/// An owner's subscriptions, oldest first.
pub(crate) const SUBSCRIPTIONS_OF: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM subscriptions WHERE user_id = $1 ORDER BY created_at, id"
);

/// The subscriptions of one saved search of the owner, oldest first.
pub(crate) const SUBSCRIPTIONS_OF_SEARCH: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM subscriptions WHERE saved_search_id = $1 AND user_id = $2 ORDER BY created_at, id"
);

/// A subscription of the owner's saved search `$2`; affects no row when the search is not
/// the owner's. It starts now (`$6`).
pub(crate) const INSERT_SUBSCRIPTION: &str = concat!(
    "INSERT INTO subscriptions (user_id, saved_search_id, channel, destination, secret, \
     start_at, created_at) \
     SELECT user_id, id, $3, $4, $5, $6, $6 FROM saved_searches WHERE id = $2 AND user_id = $1 \
     RETURNING ",
    subscription_columns!()
);

pub(crate) const DELETE_SUBSCRIPTION: &str =
    "DELETE FROM subscriptions WHERE id = $1 AND user_id = $2";

/// The settings columns (hours cast to `integer`: PostgreSQL stores them as `smallint`).
macro_rules! settings_columns {
    () => {
        "enabled, digest_frequency, CAST(digest_hour AS integer) AS digest_hour, \
         CAST(quiet_hours_start AS integer) AS quiet_hours_start, \
         CAST(quiet_hours_end AS integer) AS quiet_hours_end, timezone, updated_at"
    };
}

pub(crate) const SETTINGS_OF: &str =
    concat!("SELECT ", settings_columns!(), " FROM notification_settings WHERE user_id = $1");

/// Writes every setting the API has (the email-alerts flag keeps its value).
pub(crate) const PUT_SETTINGS: &str = concat!(
    "INSERT INTO notification_settings \
     (user_id, enabled, digest_frequency, digest_hour, quiet_hours_start, quiet_hours_end, \
      timezone, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
     ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled, \
     digest_frequency = excluded.digest_frequency, digest_hour = excluded.digest_hour, \
     quiet_hours_start = excluded.quiet_hours_start, quiet_hours_end = excluded.quiet_hours_end, \
     timezone = excluded.timezone, updated_at = excluded.updated_at \
     RETURNING ",
    settings_columns!()
);

/// A page of an owner's history, newest first.
pub(crate) const NOTIFICATIONS_PAGE: &str = concat!(
    "SELECT ",
    notification_columns!(),
    " FROM user_notifications AS n LEFT JOIN subscriptions AS s ON s.id = n.subscription_id \
     WHERE n.user_id = $1 ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3"
);

/// How many notifications the owner has, and how many are unread.
pub(crate) const NOTIFICATION_COUNTS: &str = "SELECT count(*) AS total, \
     count(*) - count(read_at) AS unread FROM user_notifications WHERE user_id = $1";

/// One notification of the owner with its jobs.
pub(crate) const NOTIFICATION: &str = concat!(
    "SELECT ",
    notification_columns!(),
    ", n.jobs FROM user_notifications AS n \
     LEFT JOIN subscriptions AS s ON s.id = n.subscription_id \
     WHERE n.id = $1 AND n.user_id = $2"
);

/// Stamps the first read; affects no row when already read or not the owner's.
pub(crate) const MARK_READ: &str = "UPDATE user_notifications SET read_at = $1 \
     WHERE id = $2 AND user_id = $3 AND read_at IS NULL";

/// Whether the owner has the notification (a mark that wrote nothing: read or missing).
pub(crate) const HAS_NOTIFICATION: &str =
    "SELECT count(*) FROM user_notifications WHERE id = $1 AND user_id = $2";
