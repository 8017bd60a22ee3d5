//! Statements on `user_jobs`, `applications`, `application_events` and `job_reminders`, shared
//! by both dialects; only the job row's lock differs (`job_for!`). Application reads join the
//! posting (`LEFT JOIN jobs`: the slug, and whether it is closed or gone); the tracking list is
//! one `UNION ALL` of the applications and the jobs with marks only (`cards_from!`), filtered by
//! the wire value of its filter.

/// The columns every application read selects (decoded by `ApplicationRecord`), over
/// `applications AS a LEFT JOIN jobs AS j`.
macro_rules! application_columns {
    () => {
        "a.id, a.job_id, COALESCE(j.public_slug, a.job_slug) AS job_slug, a.company, \
         a.company_slug, a.role_title, a.stage, a.applied_at, a.notes, a.followed_up_at, a.cv_id, \
         a.created_at, a.updated_at, (j.id IS NULL OR j.closed_at IS NOT NULL) AS job_closed, \
         a.snapshot_url, a.snapshot_location, a.snapshot_description, a.snapshot_facts"
    };
}

/// The job of a slug, with the dialect's row lock appended.
macro_rules! job_for {
    ($lock:literal) => {
        concat!("SELECT ", job_columns!(), " FROM jobs WHERE public_slug = $1", $lock)
    };
}
pub(crate) use job_for;

/// The job of an id, with the dialect's row lock appended.
macro_rules! job_by_id_for {
    ($lock:literal) => {
        concat!("SELECT ", job_columns!(), " FROM jobs WHERE id = $1", $lock)
    };
}
pub(crate) use job_by_id_for;

/// Every card of owner `$1` as the subquery `c`: the applications (with the posting and the
/// marks on it), then the jobs with marks and no application. A card's `updated_at` is the
/// later of the application's and the marks' change.
macro_rules! cards_from {
    () => {
        "(SELECT a.id AS application_id, COALESCE(j.public_slug, a.job_slug) AS job_slug, \
           a.company AS company, a.company_slug AS company_slug, a.role_title AS role_title, \
           COALESCE(j.title, a.role_title) AS title, \
           COALESCE(j.location, a.snapshot_location, '') AS location, \
           COALESCE(j.url, a.snapshot_url, '') AS url, a.stage AS stage, \
           a.applied_at AS applied_at, a.notes AS notes, a.followed_up_at AS followed_up_at, \
           a.cv_id AS cv_id, a.created_at AS created_at, \
           CASE WHEN uj.updated_at IS NOT NULL AND uj.updated_at > a.updated_at \
             THEN uj.updated_at ELSE a.updated_at END AS updated_at, \
           uj.viewed_at AS viewed_at, uj.saved_at AS saved_at, uj.dismissed_at AS dismissed_at, \
           (j.id IS NULL OR j.closed_at IS NOT NULL) AS job_closed \
         FROM applications AS a LEFT JOIN jobs AS j ON j.id = a.job_id \
         LEFT JOIN user_jobs AS uj ON uj.user_id = a.user_id AND uj.job_id = a.job_id \
         WHERE a.user_id = $1 \
         UNION ALL \
         SELECT NULL, j.public_slug, j.company, j.company_slug, j.title, j.title, j.location, \
           j.url, NULL, NULL, '', NULL, NULL, NULL, uj.updated_at, uj.viewed_at, uj.saved_at, \
           uj.dismissed_at, (j.closed_at IS NOT NULL) \
         FROM user_jobs AS uj JOIN jobs AS j ON j.id = uj.job_id \
         WHERE uj.user_id = $1 AND NOT EXISTS (SELECT 1 FROM applications AS x \
           WHERE x.user_id = uj.user_id AND x.job_id = uj.job_id)) AS c"
    };
}

/// The keys of owner `$1`'s cards as the subquery `f` (no posting columns: the page is
/// ordered and cut on these, and only its rows are joined to the postings): the application id,
/// the job id, the sort time and the filter columns.
macro_rules! card_keys {
    () => {
        "(SELECT a.id AS aid, a.job_id AS jid, \
           CASE WHEN uj.updated_at IS NOT NULL AND uj.updated_at > a.updated_at \
             THEN uj.updated_at ELSE a.updated_at END AS sort_at, \
           uj.viewed_at AS v, uj.saved_at AS s, a.applied_at AS ap, a.stage AS st, \
           uj.dismissed_at AS d \
         FROM applications AS a \
         LEFT JOIN user_jobs AS uj ON uj.user_id = a.user_id AND uj.job_id = a.job_id \
         WHERE a.user_id = $1 \
         UNION ALL \
         SELECT NULL, uj.job_id, uj.updated_at, uj.viewed_at, uj.saved_at, NULL, NULL, \
           uj.dismissed_at \
         FROM user_jobs AS uj WHERE uj.user_id = $1 AND (uj.viewed_at IS NOT NULL \
           OR uj.saved_at IS NOT NULL OR uj.dismissed_at IS NOT NULL) \
           AND NOT EXISTS (SELECT 1 FROM applications AS x \
             WHERE x.user_id = uj.user_id AND x.job_id = uj.job_id)) AS f \
         WHERE ($2 = 'all' OR ($2 = 'viewed' AND f.v IS NOT NULL) \
           OR ($2 = 'saved' AND f.s IS NOT NULL) OR ($2 = 'applied' AND f.ap IS NOT NULL) \
           OR ($2 = 'board' AND f.st IS NOT NULL) \
           OR ($2 = 'dismissed' AND f.d IS NOT NULL))"
    };
}

/// The list's order (the newest change first; ties by application, then job, newest first).
macro_rules! card_order {
    ($t:literal) => {
        concat!(
            " ORDER BY ",
            $t,
            ".sort_at DESC, COALESCE(",
            $t,
            ".aid, 0) DESC, COALESCE(",
            $t,
            ".jid, 0) DESC"
        )
    };
}

/// A page of cards: `$1` owner, `$2` filter, `$3` limit, `$4` offset. The keys are ordered and
/// cut first; only the page's rows are joined to their application, posting and marks.
pub(crate) const CARDS_PAGE: &str = concat!(
    "SELECT k.aid AS application_id, COALESCE(j.public_slug, a.job_slug) AS job_slug, \
     COALESCE(a.company, j.company) AS company, \
     COALESCE(a.company_slug, j.company_slug) AS company_slug, \
     COALESCE(a.role_title, j.title) AS role_title, COALESCE(j.title, a.role_title) AS title, \
     COALESCE(j.location, a.snapshot_location, '') AS location, \
     COALESCE(j.url, a.snapshot_url, '') AS url, a.stage AS stage, a.applied_at AS applied_at, \
     COALESCE(a.notes, '') AS notes, a.followed_up_at AS followed_up_at, a.cv_id AS cv_id, \
     a.created_at AS created_at, k.sort_at AS updated_at, uj.viewed_at AS viewed_at, \
     uj.saved_at AS saved_at, uj.dismissed_at AS dismissed_at, \
     (j.id IS NULL OR j.closed_at IS NOT NULL) AS job_closed \
     FROM (SELECT f.* FROM ",
    card_keys!(),
    card_order!("f"),
    " LIMIT $3 OFFSET $4) AS k \
     LEFT JOIN applications AS a ON a.id = k.aid \
     LEFT JOIN jobs AS j ON j.id = k.jid \
     LEFT JOIN user_jobs AS uj ON uj.user_id = $1 AND uj.job_id = k.jid",
    card_order!("k")
);

pub(crate) const CARDS_COUNT: &str = concat!("SELECT count(*) FROM ", card_keys!());

/// The card of slug `$2` (the live posting's first, then a pruned application's).
pub(crate) const CARD_OF_SLUG: &str = concat!(
    "SELECT c.* FROM ",
    cards_from!(),
    " WHERE c.job_slug = $2 ORDER BY c.job_closed, COALESCE(c.application_id, 0) DESC LIMIT 1"
);

/// The timeline of a card: the application's events (`$2`) and the job's (slug `$3`) that
/// belong to no application, oldest first.
pub(crate) const EVENTS_OF: &str = "SELECT kind, signal, occurred_at, recorded_at, source \
     FROM application_events WHERE user_id = $1 AND ((application_id IS NOT NULL \
     AND application_id = $2) OR (application_id IS NULL AND job_id IS NOT NULL \
     AND job_id = (SELECT id FROM jobs WHERE public_slug = $3))) ORDER BY occurred_at, id";

/// The live description of slug `$1` (a pruned posting has none: its snapshot serves).
pub(crate) const DESCRIPTION_OF: &str = "SELECT description FROM jobs WHERE public_slug = $1";

pub(crate) const SNAPSHOT_DESCRIPTION: &str =
    "SELECT snapshot_description FROM applications WHERE id = $1 AND user_id = $2";

pub(crate) const MARKS_OF: &str = "SELECT viewed_at, saved_at, dismissed_at, applied_counted \
     FROM user_jobs WHERE user_id = $1 AND job_id = $2";

/// Writes the whole marks row (read, changed in the transaction, written back).
pub(crate) const PUT_MARKS: &str = "INSERT INTO user_jobs \
     (user_id, job_id, viewed_at, saved_at, dismissed_at, updated_at, applied_counted) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, job_id) DO UPDATE SET \
     viewed_at = excluded.viewed_at, saved_at = excluded.saved_at, \
     dismissed_at = excluded.dismissed_at, updated_at = excluded.updated_at, \
     applied_counted = excluded.applied_counted";

pub(crate) const APPLICATION_OF_JOB: &str = concat!(
    "SELECT ",
    application_columns!(),
    " FROM applications AS a LEFT JOIN jobs AS j ON j.id = a.job_id \
     WHERE a.user_id = $1 AND a.job_id = $2"
);

pub(crate) const APPLICATION_BY_ID: &str = concat!(
    "SELECT ",
    application_columns!(),
    " FROM applications AS a LEFT JOIN jobs AS j ON j.id = a.job_id \
     WHERE a.user_id = $1 AND a.id = $2"
);

/// An owner's application for a company and role (an import's match without a live posting).
pub(crate) const APPLICATION_BY_ROLE: &str = concat!(
    "SELECT ",
    application_columns!(),
    " FROM applications AS a LEFT JOIN jobs AS j ON j.id = a.job_id \
     WHERE a.user_id = $1 AND a.company_slug = $2 AND a.role_title = $3 ORDER BY a.id LIMIT 1"
);

pub(crate) const INSERT_APPLICATION: &str = "INSERT INTO applications (user_id, job_id, \
     company_slug, company, role_title, job_slug, applied_at, stage, notes, created_at, \
     updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id";

/// Writes every mutable field of an application (read, changed, written back).
pub(crate) const PUT_APPLICATION: &str = "UPDATE applications SET applied_at = $1, stage = $2, \
     notes = $3, followed_up_at = $4, updated_at = $5, snapshot_url = $6, \
     snapshot_location = $7, snapshot_description = $8, snapshot_facts = $9, cv_id = $10 \
     WHERE id = $11 AND user_id = $12";

/// Its events go with it (ON DELETE CASCADE).
pub(crate) const DELETE_APPLICATION: &str =
    "DELETE FROM applications WHERE id = $1 AND user_id = $2";

pub(crate) const COUNT_APPLIED: &str =
    "UPDATE jobs SET applied_count = applied_count + 1 WHERE id = $1";

pub(crate) const COUNT_VIEWED: &str = "UPDATE jobs SET view_count = view_count + 1 WHERE id = $1";

pub(crate) const INSERT_EVENT: &str = "INSERT INTO application_events (user_id, \
     application_id, job_id, company_slug, kind, signal, occurred_at, recorded_at, source) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// The one ledger mutation: re-dating an application's `applied` event.
pub(crate) const REDATE_APPLIED: &str = "UPDATE application_events SET occurred_at = $1, \
     signal = $2 WHERE application_id = $3 AND user_id = $4 AND kind = 'applied'";

/// An import's event, unless its key is there already.
pub(crate) const INSERT_IMPORTED_EVENT: &str = "INSERT INTO application_events (user_id, \
     application_id, job_id, company_slug, kind, signal, occurred_at, recorded_at, source, \
     source_ref) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'import', $9) \
     ON CONFLICT (user_id, source, source_ref) WHERE source_ref IS NOT NULL DO NOTHING";

/// Whether the application (`$1`, of job `$5`) already has this event (kind `$2`, signal
/// `$3`, time `$4`), recorded on it or on its job before it existed, among owner `$6`'s.
pub(crate) const SAME_EVENT: &str = "SELECT count(*) FROM application_events \
     WHERE user_id = $6 AND (application_id = $1 OR (application_id IS NULL AND job_id IS NOT NULL \
     AND job_id = $5)) AND kind = $2 AND COALESCE(signal, '') = $3 AND occurred_at = $4";

/// The digest hour and the time zone a reminder is due in (settings, else the account's).
pub(crate) const REMINDER_CLOCK: &str = "SELECT CAST(ns.digest_hour AS BIGINT) AS digest_hour, \
     COALESCE(ns.timezone, u.timezone) AS timezone FROM users AS u \
     LEFT JOIN notification_settings AS ns ON ns.user_id = u.id WHERE u.id = $1";

pub(crate) const INSERT_REMINDER: &str = "INSERT INTO job_reminders (user_id, job_id, fire_at, \
     created_at) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (user_id, job_id) WHERE status = 'pending' DO NOTHING";

pub(crate) const CANCEL_REMINDER: &str = "UPDATE job_reminders SET status = 'cancelled' \
     WHERE user_id = $1 AND job_id = $2 AND status = 'pending'";

pub(crate) const STAGE_COUNTS: &str = "SELECT stage, count(*) FROM applications \
     WHERE user_id = $1 AND stage IS NOT NULL GROUP BY stage ORDER BY stage";

pub(crate) const VIEWED_SLUGS: &str = "SELECT j.public_slug FROM user_jobs AS uj \
     JOIN jobs AS j ON j.id = uj.job_id WHERE uj.user_id = $1 AND uj.viewed_at IS NOT NULL \
     ORDER BY j.public_slug";

pub(crate) const SAVED_SLUGS: &str = "SELECT j.public_slug FROM user_jobs AS uj \
     JOIN jobs AS j ON j.id = uj.job_id WHERE uj.user_id = $1 AND uj.saved_at IS NOT NULL \
     ORDER BY j.public_slug";

pub(crate) const DISMISSED_SLUGS: &str = "SELECT j.public_slug FROM user_jobs AS uj \
     JOIN jobs AS j ON j.id = uj.job_id WHERE uj.user_id = $1 AND uj.dismissed_at IS NOT NULL \
     ORDER BY j.public_slug";

/// Every application of `$1` with its events (the application's, and its job's that belong
/// to no application), by application, events oldest first.
pub(crate) const EXPORT: &str = "SELECT a.id AS application_id, \
     COALESCE(j.public_slug, a.job_slug) AS job_slug, a.company, a.company_slug, a.role_title, \
     a.stage, a.applied_at, a.notes, e.kind, e.signal, e.occurred_at, e.recorded_at, e.source \
     FROM applications AS a LEFT JOIN jobs AS j ON j.id = a.job_id \
     LEFT JOIN application_events AS e ON e.user_id = a.user_id AND (e.application_id = a.id \
       OR (e.application_id IS NULL AND a.job_id IS NOT NULL AND e.job_id = a.job_id)) \
     WHERE a.user_id = $1 ORDER BY a.id, e.occurred_at, e.id";
