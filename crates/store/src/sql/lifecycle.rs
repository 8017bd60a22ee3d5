//! Lifecycle statements ([`LifecycleRepo`](crate::LifecycleRepo)); both dialects agree.

/// `$1` checked before, `$2` limit: open postings with a page whose source has no live board
/// (manual entries, imports, providers whose boards were all retired), never read first, then
/// the longest unread.
pub(crate) const LIVENESS_CANDIDATES: &str = "SELECT j.id, j.source, j.external_id, j.url, \
       COALESCE(l.strikes, 0) AS strikes \
     FROM jobs j LEFT JOIN job_liveness l ON l.job_id = j.id \
     WHERE j.closed_at IS NULL AND j.url <> '' \
       AND j.source NOT IN (SELECT provider FROM boards WHERE status IN ('pending', 'active')) \
       AND (l.checked_at IS NULL OR l.checked_at < $1) \
     ORDER BY CASE WHEN l.checked_at IS NULL THEN 0 ELSE 1 END, l.checked_at, j.id \
     LIMIT $2";

/// `$1` job, `$2` verdict, `$3` reason, `$4` at, `$5` strike window: one read; `expired` adds
/// a strike unless the last one was counted at or after `$5` (another worker's read of the same
/// hour), `alive` clears them, `unknown` keeps them. Returns the strikes.
pub(crate) const RECORD_LIVENESS: &str = "INSERT INTO job_liveness \
       (job_id, strikes, last_verdict, last_reason, checked_at, struck_at) \
     VALUES ($1, CASE WHEN $2 = 'expired' THEN 1 ELSE 0 END, $2, $3, $4, \
             CASE WHEN $2 = 'expired' THEN $4 END) \
     ON CONFLICT (job_id) DO UPDATE SET \
       strikes = CASE excluded.last_verdict WHEN 'alive' THEN 0 \
         WHEN 'expired' THEN CASE \
           WHEN job_liveness.struck_at IS NULL OR job_liveness.struck_at < $5 \
           THEN job_liveness.strikes + 1 ELSE job_liveness.strikes END \
         ELSE job_liveness.strikes END, \
       struck_at = CASE excluded.last_verdict WHEN 'alive' THEN NULL \
         WHEN 'expired' THEN CASE \
           WHEN job_liveness.struck_at IS NULL OR job_liveness.struck_at < $5 \
           THEN excluded.checked_at ELSE job_liveness.struck_at END \
         ELSE job_liveness.struck_at END, \
       last_verdict = excluded.last_verdict, last_reason = excluded.last_reason, \
       checked_at = excluded.checked_at \
     RETURNING strikes";

/// `$1` closed before, `$2` limit: closed jobs old enough to prune, oldest first, none still
/// waiting to leave the search index.
pub(crate) const PRUNE_CANDIDATES: &str = "SELECT id, source, external_id, title, company_slug \
     FROM jobs WHERE closed_at IS NOT NULL AND closed_at < $1 \
       AND NOT EXISTS (SELECT 1 FROM search_delete_outbox d WHERE d.job_id = jobs.id) \
     ORDER BY closed_at, id LIMIT $2";

/// Archives one pruned job.
pub(crate) const ARCHIVE: &str = "INSERT INTO pruned_jobs \
     (id, source, external_id, title, company_slug, rule, pruned_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// Deletes one job if it is still closed (applications keep their company and role).
pub(crate) const DELETE_CLOSED: &str = "DELETE FROM jobs WHERE id = $1 AND closed_at IS NOT NULL";

/// The role history of a set of jobs, over the ids list `IDS` (each dialect's list form):
/// per job with a fingerprint, its cluster's postings and open ones.
macro_rules! role_history {
    ($ids:literal) => {
        concat!(
            "SELECT j.id, count(c.id) AS postings, \
               count(c.id) FILTER (WHERE c.closed_at IS NULL) AS open \
             FROM jobs j JOIN jobs c \
               ON c.company_slug = j.company_slug AND c.role_fingerprint = j.role_fingerprint \
             WHERE j.role_fingerprint <> '' AND j.id ",
            $ids,
            " GROUP BY j.id ORDER BY j.id"
        )
    };
}

/// [`role_history!`] on PostgreSQL (`$1` an `int8[]`).
pub(crate) const ROLE_HISTORY_PG: &str = role_history!("= ANY($1)");
/// [`role_history!`] on SQLite (`$1` a JSON array).
pub(crate) const ROLE_HISTORY_SQLITE: &str = role_history!("IN (SELECT value FROM json_each($1))");
