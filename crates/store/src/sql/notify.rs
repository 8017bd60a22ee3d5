//! Statements of the notification engines ([`NotifyRepo`](crate::NotifyRepo)) shared by both
//! dialects, and [`NotifySql`]: the few each dialect writes its own way (row locks with
//! `SKIP LOCKED`, null-safe equality, "id is in the list `$n`", pairwise list inserts).

/// The settings columns of a read that left-joins `notification_settings AS ns` and
/// `users AS u` (decoded by `SettingsColumns`).
macro_rules! settings_columns {
    () => {
        "ns.enabled AS s_enabled, ns.digest_frequency AS s_frequency, \
         ns.digest_hour AS s_hour, ns.quiet_hours_start AS s_quiet_start, \
         ns.quiet_hours_end AS s_quiet_end, COALESCE(ns.timezone, u.timezone) AS s_timezone, \
         ns.alerts_email_enabled AS s_alerts_email"
    };
}
pub(crate) use settings_columns;

/// The statements each dialect writes its own way.
pub(crate) struct NotifySql {
    /// Inserts the pairs `($1[i], $2[i])` as matches at `$3`, skipping pairs whose
    /// subscription or job is gone and pairs already recorded.
    pub insert_matches: &'static str,
    /// The subscription `$1` (active, with `last_digest_sent_at` null-safely equal to `$2`),
    /// its channel, destination, search name and owner's address, locked (skipped when
    /// another transaction holds it).
    pub lock_subscription: &'static str,
    /// Marks the matches of subscription `$3` whose job is in `$4` notified by `$1` at `$2`.
    pub mark_matches: &'static str,
    /// Leases up to `$4` due pending deliveries to `$1` until `$2` (due and unleased at `$3`).
    pub claim_deliveries: &'static str,
    /// The deliveries in `$1` leased to `$2`, with their notification (`due_delivery_columns`).
    pub deliveries_by_ids: &'static str,
    /// Leases up to `$4` due pending reminders to `$1` at `$2` (a lease older than `$3` is dead).
    pub claim_reminders: &'static str,
    /// The reminders in `$1` leased to `$2`, with what decides whether they fire.
    pub reminders_by_ids: &'static str,
}

/// The due-delivery read, with the dialect's "`d.id` is in `$1`" condition.
macro_rules! deliveries_by_ids {
    ($ids:literal) => {
        concat!(
            "SELECT d.id, d.notification_id, d.user_id, d.channel, \
             COALESCE(d.destination, u.email) AS destination, sub.secret, d.attempts, n.kind, \
             n.title, n.body, n.jobs, n.total, ss.name AS saved_search, \
             ss.id AS saved_search_id \
             FROM notification_deliveries AS d \
             JOIN user_notifications AS n ON n.id = d.notification_id \
             JOIN users AS u ON u.id = d.user_id \
             LEFT JOIN subscriptions AS sub ON sub.id = d.subscription_id \
             LEFT JOIN saved_searches AS ss ON ss.id = sub.saved_search_id \
             WHERE d.id ",
            $ids,
            " AND d.claimed_by = $2 ORDER BY d.id"
        )
    };
}
pub(crate) use deliveries_by_ids;

/// The due-reminder read, with the dialect's "`r.id` is in `$1`" condition.
macro_rules! reminders_by_ids {
    ($ids:literal) => {
        concat!(
            "SELECT r.id, r.user_id, u.email, ",
            $crate::sql::notify::settings_columns!(),
            ", r.job_id, j.public_slug, j.title, j.company, j.location, \
             (j.closed_at IS NULL) AS job_open, \
             (uj.saved_at IS NOT NULL) AS saved, \
             EXISTS (SELECT 1 FROM applications AS a WHERE a.user_id = r.user_id \
                     AND a.job_id = r.job_id AND a.applied_at IS NOT NULL) AS applied \
             FROM job_reminders AS r \
             JOIN users AS u ON u.id = r.user_id \
             JOIN jobs AS j ON j.id = r.job_id \
             LEFT JOIN user_jobs AS uj ON uj.user_id = r.user_id AND uj.job_id = r.job_id \
             LEFT JOIN notification_settings AS ns ON ns.user_id = r.user_id \
             WHERE r.id ",
            $ids,
            " AND r.claimed_by = $2 ORDER BY r.id"
        )
    };
}
pub(crate) use reminders_by_ids;

/// The subscription lock of a digest claim, with the dialect's null-safe equality and lock.
macro_rules! lock_subscription {
    ($is:literal, $lock:literal) => {
        concat!(
            "SELECT s.id, s.user_id, s.channel, s.destination, ss.name AS search_name, \
             u.email FROM subscriptions AS s \
             JOIN saved_searches AS ss ON ss.id = s.saved_search_id \
             JOIN users AS u ON u.id = s.user_id \
             WHERE s.id = $1 AND s.active AND s.last_digest_sent_at ",
            $is,
            " $2",
            $lock
        )
    };
}
pub(crate) use lock_subscription;

/// The delivery lease, with the dialect's row lock.
macro_rules! claim_deliveries {
    ($lock:literal) => {
        concat!(
            "UPDATE notification_deliveries SET claimed_by = $1, claimed_until = $2 \
             WHERE id IN (SELECT id FROM notification_deliveries \
               WHERE status = 'pending' AND next_attempt_at <= $3 \
                 AND (claimed_until IS NULL OR claimed_until < $3) \
               ORDER BY next_attempt_at, id LIMIT $4",
            $lock,
            ") RETURNING id"
        )
    };
}
pub(crate) use claim_deliveries;

/// The reminder lease, with the dialect's row lock.
macro_rules! claim_reminders {
    ($lock:literal) => {
        concat!(
            "UPDATE job_reminders SET claimed_by = $1, claimed_at = $2, attempts = attempts + 1 \
             WHERE id IN (SELECT id FROM job_reminders \
               WHERE status = 'pending' AND fire_at <= $2 \
                 AND (claimed_at IS NULL OR claimed_at < $3) \
               ORDER BY fire_at, id LIMIT $4",
            $lock,
            ") RETURNING id"
        )
    };
}
pub(crate) use claim_reminders;

pub(crate) const CURSOR: &str = "SELECT position FROM engine_cursors WHERE name = $1";

/// Creates a cursor at 0 unless it exists.
pub(crate) const CURSOR_INIT: &str = "INSERT INTO engine_cursors (name, position, updated_at) \
     VALUES ($1, 0, $2) ON CONFLICT (name) DO NOTHING";

/// Compare-and-set: moves cursor `$1` from `$2` to `$3`.
pub(crate) const CURSOR_ADVANCE: &str = "UPDATE engine_cursors SET position = $3, \
     updated_at = $4 WHERE name = $1 AND position = $2";

/// Every active subscription with its saved search's query, by id.
pub(crate) const SUBSCRIBERS: &str = "SELECT s.id, s.user_id, ss.query, s.start_at \
     FROM subscriptions AS s JOIN saved_searches AS ss ON ss.id = s.saved_search_id \
     WHERE s.active ORDER BY s.id";

/// Active subscriptions with unnotified matches, with their owner's settings.
pub(crate) const DIGEST_CANDIDATES: &str = concat!(
    "SELECT s.id, s.user_id, s.last_digest_sent_at, p.pending, ",
    settings_columns!(),
    " FROM (SELECT subscription_id, count(*) AS pending FROM subscription_matches \
            WHERE notified_at IS NULL GROUP BY subscription_id) AS p \
     JOIN subscriptions AS s ON s.id = p.subscription_id \
     JOIN users AS u ON u.id = s.user_id \
     LEFT JOIN notification_settings AS ns ON ns.user_id = s.user_id \
     WHERE s.active ORDER BY s.id"
);

/// The oldest `$2` unnotified matches of subscription `$1`, with their jobs.
pub(crate) const PENDING_MATCHES: &str = "SELECT m.job_id, j.public_slug, j.title, j.company, \
     j.location, j.url FROM subscription_matches AS m JOIN jobs AS j ON j.id = m.job_id \
     WHERE m.subscription_id = $1 AND m.notified_at IS NULL \
     ORDER BY m.matched_at, m.job_id LIMIT $2";

pub(crate) const PENDING_COUNT: &str =
    "SELECT count(*) FROM subscription_matches WHERE subscription_id = $1 AND notified_at IS NULL";

pub(crate) const INSERT_NOTIFICATION: &str = "INSERT INTO user_notifications \
     (user_id, kind, title, body, public_slug, subscription_id, created_at, jobs, total) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id";

pub(crate) const INSERT_DELIVERY: &str = "INSERT INTO notification_deliveries \
     (notification_id, user_id, channel, destination, subscription_id, status, attempts, \
      next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $6) RETURNING id";

pub(crate) const SET_LAST_DIGEST: &str =
    "UPDATE subscriptions SET last_digest_sent_at = $1 WHERE id = $2";

/// Ends an attempt of delivery `$5` held by `$6`: status `$1`, next attempt `$2` (NULL
/// keeps it), error `$3`, sent at `$4`; the lease is released.
pub(crate) const FINISH_DELIVERY: &str = "UPDATE notification_deliveries SET status = $1, \
     attempts = attempts + 1, next_attempt_at = COALESCE($2, next_attempt_at), \
     last_error = $3, sent_at = $4, claimed_by = NULL, claimed_until = NULL \
     WHERE id = $5 AND claimed_by = $6 AND status = 'pending'";

pub(crate) const FIRE_REMINDER: &str = "UPDATE job_reminders SET status = 'fired', \
     fired_at = $1 WHERE id = $2 AND claimed_by = $3 AND status = 'pending'";

pub(crate) const CANCEL_REMINDER: &str = "UPDATE job_reminders SET status = 'cancelled' \
     WHERE id = $1 AND claimed_by = $2 AND status = 'pending'";

/// The condition of a `stage_set interview` event (`e`) recorded at or after `$1` that has
/// no interview-prep nudge yet.
macro_rules! pending_interview {
    () => {
        "e.kind = 'stage_set' AND e.signal = 'interview' AND e.application_id IS NOT NULL \
         AND e.retracted_at IS NULL AND e.recorded_at >= $1 \
         AND NOT EXISTS (SELECT 1 FROM application_nudges AS n \
           WHERE n.application_id = e.application_id AND n.kind = 'interview_prep' \
             AND n.episode_key = 'event:' || CAST(e.id AS TEXT))"
    };
}

/// Applications on the silence clock (applied, unsettled) or with an interview move to nudge.
pub(crate) const NUDGE_CANDIDATES: &str = concat!(
    "SELECT a.id, a.user_id, u.email, ",
    settings_columns!(),
    ", a.job_id, a.job_slug, a.role_title, a.company, a.stage, a.applied_at \
     FROM applications AS a JOIN users AS u ON u.id = a.user_id \
     LEFT JOIN notification_settings AS ns ON ns.user_id = a.user_id \
     WHERE (a.applied_at IS NOT NULL AND (a.stage IS NULL OR a.stage IN \
            ('applied', 'screening', 'responded', 'interview', 'offer'))) \
        OR a.id IN (SELECT e.application_id FROM application_events AS e WHERE ",
    pending_interview!(),
    ") ORDER BY a.id"
);

/// The silence episodes already nudged, of applications that are applied.
pub(crate) const SILENT_EPISODES: &str = "SELECT n.application_id, n.episode_key \
     FROM application_nudges AS n JOIN applications AS a ON a.id = n.application_id \
     WHERE n.kind = 'silent' AND a.applied_at IS NOT NULL";

/// `(application, event)` of the interview moves to nudge.
pub(crate) const INTERVIEW_EVENTS: &str = concat!(
    "SELECT e.application_id, e.id FROM application_events AS e WHERE ",
    pending_interview!(),
    " ORDER BY e.id"
);

/// Records a nudge unless its episode was nudged; returns its id when new.
pub(crate) const INSERT_NUDGE: &str = "INSERT INTO application_nudges \
     (user_id, application_id, job_id, kind, episode_key, status, created_at) \
     VALUES ($1, $2, $3, $4, $5, 'sent', $6) \
     ON CONFLICT (application_id, kind, episode_key) DO NOTHING RETURNING id";

pub(crate) const SET_NUDGE_NOTIFICATION: &str =
    "UPDATE application_nudges SET notification_id = $1 WHERE id = $2";

/// An owner's engine-written notifications, oldest first.
pub(crate) const NOTIFICATIONS_OF: &str = "SELECT id, user_id, kind, title, jobs, total \
     FROM user_notifications WHERE user_id = $1 ORDER BY id";

/// An owner's deliveries, by id.
pub(crate) const DELIVERIES_OF: &str = "SELECT id, notification_id, channel, status, attempts, \
     next_attempt_at, last_error FROM notification_deliveries WHERE user_id = $1 ORDER BY id";

/// The advisory lock every PostgreSQL transaction that may insert jobs holds shared (from its
/// first insert to its commit), and the match step's horizon holds exclusively for an instant:
/// while it is held nothing that allocated a job id is in flight, so every id up to the
/// highest committed one is final ("freehire" in ASCII).
pub(crate) const JOB_INSERT_LOCK: i64 = 0x6672_6565_6869_7265;

/// Takes [`JOB_INSERT_LOCK`] shared, to the end of the transaction.
pub(crate) const LOCK_JOB_INSERTS_SHARED: &str = "SELECT pg_advisory_xact_lock_shared($1)";

/// Takes [`JOB_INSERT_LOCK`] exclusively, to the end of the transaction (waits for every
/// transaction holding it shared).
pub(crate) const LOCK_JOB_INSERTS: &str = "SELECT pg_advisory_xact_lock($1)";

/// The highest job id (NULL with no jobs).
pub(crate) const MAX_JOB_ID: &str = "SELECT max(id) FROM jobs";
