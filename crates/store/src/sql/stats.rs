//! Operators' statements ([`StatsRepo`](crate::StatsRepo)): the fleet per provider, the
//! catalogue's counts, the daily rollups. Both dialects agree on these (timestamps compare as
//! the bound stamps on both).

/// `$1` now: live boards per provider joined to their health (board identity folded).
pub(crate) const FLEET_BOARDS: &str = "SELECT b.provider, count(*), \
       sum(CASE WHEN h.last_success_at IS NOT NULL AND h.consecutive_failures = 0 THEN 1 ELSE 0 END), \
       sum(CASE WHEN h.consecutive_failures > 0 THEN 1 ELSE 0 END), \
       sum(CASE WHEN h.cooldown_until > $1 THEN 1 ELSE 0 END), \
       sum(CASE WHEN h.last_run_at IS NULL THEN 1 ELSE 0 END), \
       max(h.last_success_at) \
     FROM boards b LEFT JOIN board_health h \
       ON h.provider = b.provider AND h.board = lower(b.board) AND h.region = b.region \
     WHERE b.status IN ('pending', 'active') \
     GROUP BY b.provider ORDER BY b.provider";

/// Open, non-duplicate jobs per provider, with the newest first sighting of any of its jobs.
pub(crate) const FLEET_JOBS: &str = "SELECT source, \
       sum(CASE WHEN closed_at IS NULL AND duplicate_of IS NULL THEN 1 ELSE 0 END), \
       max(created_at) \
     FROM jobs GROUP BY source ORDER BY source";

/// Both search outboxes' depth and oldest row (upserts, then deletes).
pub(crate) const OUTBOXES: &str = "SELECT \
       (SELECT count(*) FROM search_outbox), (SELECT min(created_at) FROM search_outbox), \
       (SELECT count(*) FROM search_delete_outbox), \
       (SELECT min(created_at) FROM search_delete_outbox)";

/// The catalogue's counts in one row.
pub(crate) const CATALOG: &str = "SELECT \
       (SELECT count(*) FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL), \
       (SELECT count(*) FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NOT NULL), \
       (SELECT count(DISTINCT company_slug) FROM jobs \
          WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug <> ''), \
       (SELECT count(DISTINCT source) FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL), \
       (SELECT count(*) FROM boards WHERE status IN ('pending', 'active'))";

/// `$1` day, `$2` its start, `$3` the next day's start, `$4` now: the day's jobs row.
pub(crate) const ROLLUP_JOBS: &str = "INSERT INTO job_daily_stats \
       (day, added, removed, open_jobs, computed_at) \
     SELECT $1, \
       (SELECT count(*) FROM jobs WHERE created_at >= $2 AND created_at < $3), \
       (SELECT count(*) FROM jobs WHERE closed_at >= $2 AND closed_at < $3), \
       (SELECT count(*) FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL), \
       $4 \
     ON CONFLICT (day) DO UPDATE SET added = excluded.added, removed = excluded.removed, \
       open_jobs = excluded.open_jobs, computed_at = excluded.computed_at";

/// `$1` day, `$2` verdict, `$3` boards, `$4` failing, `$5` now: the day's fleet row.
pub(crate) const ROLLUP_STATUS: &str = "INSERT INTO site_status_daily \
       (day, verdict, boards, failing, computed_at) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (day) DO UPDATE SET verdict = excluded.verdict, boards = excluded.boards, \
       failing = excluded.failing, computed_at = excluded.computed_at";

/// `$1` the first day wanted: the rollups from then on, newest first.
pub(crate) const DAILY: &str = "SELECT j.day, j.added, j.removed, j.open_jobs, s.verdict, \
       j.computed_at \
     FROM job_daily_stats j LEFT JOIN site_status_daily s ON s.day = j.day \
     WHERE j.day >= $1 ORDER BY j.day DESC";
