//! Ghost-report statements ([`GhostRepo`](crate::GhostRepo)); both dialects agree.

/// `$1` user, `$2` job, `$3` applied on, `$4` at: a live report (a retracted one revives).
pub(crate) const REPORT: &str = "INSERT INTO ghost_reports \
       (user_id, job_id, applied_on, reported_at, retracted_at) VALUES ($1, $2, $3, $4, NULL) \
     ON CONFLICT (user_id, job_id) DO UPDATE SET applied_on = excluded.applied_on, \
       reported_at = excluded.reported_at, retracted_at = NULL";

/// `$1` user, `$2` job, `$3` at: retracts a live report.
pub(crate) const RETRACT: &str = "UPDATE ghost_reports SET retracted_at = $3 \
     WHERE user_id = $1 AND job_id = $2 AND retracted_at IS NULL";

/// `$1` user, `$2` job: the day of the user's live report.
pub(crate) const MINE: &str = "SELECT applied_on FROM ghost_reports \
     WHERE user_id = $1 AND job_id = $2 AND retracted_at IS NULL";

/// `$1` job: who reports it now.
pub(crate) const REPORTERS: &str =
    "SELECT user_id FROM ghost_reports WHERE job_id = $1 AND retracted_at IS NULL ORDER BY user_id";

/// `$1` job: its applications with an applied date (the silence clock's inputs).
pub(crate) const APPLICATIONS: &str = "SELECT user_id, stage, applied_at FROM applications \
     WHERE job_id = $1 AND applied_at IS NOT NULL ORDER BY user_id";
