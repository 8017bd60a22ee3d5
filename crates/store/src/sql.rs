//! SQL text shared by both adapters. Both write `$N` placeholders (SQLite accepts them) and
//! bind the [`bind`](crate::bind) types, so a statement the dialects agree on is one `const`
//! here; only real differences (`json_each` vs `UNNEST`/`= ANY`, `FOR UPDATE`, `instr` vs
//! `strpos`, jsonb batches) stay in the adapters. Column lists and statement templates are
//! macros so every statement stays a `&'static str` (sqlx accepts only static SQL without an
//! explicit safety assertion). The account statements are in [`accounts`].

// CV documents (issue 16).
/// The columns every CV read selects (decoded by `CvRecord`).
macro_rules! cv_columns {
    () => {
        "id, user_id, kind, job_id, agent_session_id, title, template_id, data, \
         autopilot_report, created_at, updated_at"
    };
}

/// The columns every job read selects (decoded by `JobRecord`).
macro_rules! job_columns {
    () => {
        "id, source, external_id, url, public_slug, title, company, company_slug, location, \
         remote, description, posted_at, created_at, updated_at, last_seen_at, closed_at, \
         closed_reason, countries, regions, cities, work_mode, seniority, category, is_tech, \
         skills, employment_type, education_level, english_level, experience_years_min, \
         requires_clearance, posting_language, salary_min_source, salary_max_source, \
         salary_currency_source, salary_period_source, content_hash, role_fingerprint, \
         duplicate_of, structured"
    };
}

/// The columns a batch upsert writes, in the order its `SELECT` produces them.
macro_rules! upsert_columns {
    () => {
        "source, external_id, url, public_slug, title, company, company_slug, \
         company_slug_folded, location, remote, description, posted_at, countries, regions, \
         cities, work_mode, seniority, category, is_tech, skills, employment_type, \
         education_level, english_level, experience_years_min, requires_clearance, \
         posting_language, salary_min_source, salary_max_source, salary_currency_source, \
         salary_period_source, content_hash, role_fingerprint, structured, source_hash, \
         created_at, updated_at, last_seen_at"
    };
}

/// The conflict clause of a batch upsert: rewrite the content (never with an empty
/// description), keep `public_slug` and `created_at`, reopen.
macro_rules! upsert_conflict {
    () => {
        " ON CONFLICT (source, external_id) DO UPDATE SET \
         url = excluded.url, title = excluded.title, company = excluded.company, \
         company_slug = excluded.company_slug, company_slug_folded = excluded.company_slug_folded, \
         location = excluded.location, remote = excluded.remote, \
         description = CASE WHEN excluded.description = '' THEN jobs.description \
                            ELSE excluded.description END, \
         posted_at = excluded.posted_at, countries = excluded.countries, \
         regions = excluded.regions, cities = excluded.cities, work_mode = excluded.work_mode, \
         seniority = excluded.seniority, category = excluded.category, \
         is_tech = excluded.is_tech, skills = excluded.skills, \
         employment_type = excluded.employment_type, education_level = excluded.education_level, \
         english_level = excluded.english_level, \
         experience_years_min = excluded.experience_years_min, \
         requires_clearance = excluded.requires_clearance, \
         posting_language = excluded.posting_language, \
         salary_min_source = excluded.salary_min_source, \
         salary_max_source = excluded.salary_max_source, \
         salary_currency_source = excluded.salary_currency_source, \
         salary_period_source = excluded.salary_period_source, \
         content_hash = excluded.content_hash, role_fingerprint = excluded.role_fingerprint, \
         structured = excluded.structured, source_hash = excluded.source_hash, \
         updated_at = excluded.updated_at, last_seen_at = excluded.last_seen_at, \
         closed_at = NULL, closed_reason = NULL \
         RETURNING id, source, external_id"
    };
}

/// Board columns every board read selects (decoded by `BoardRecord`).
macro_rules! board_columns {
    () => {
        "id, provider, board, region, company, url, status, rejected_reason, created_at, \
         activated_at"
    };
}

/// Board-health columns every health read selects (decoded by `HealthRecord`).
macro_rules! health_columns {
    () => {
        "provider, board, region, consecutive_failures, cooldown_until, last_error, \
         last_error_at, last_success_at, last_ingested_count, last_run_at, first_seen_at, \
         last_yield_at, last_error_class"
    };
}

/// Outbox statements for one table in one dialect: its row-lock clause and its "job id is in
/// the list `$1`" condition.
macro_rules! outbox_statements {
    ($table:literal, lock: $lock:literal, ids_in: $ids:literal) => {
        crate::plan::OutboxSql {
            enqueue: concat!(
                "INSERT INTO ",
                $table,
                " (job_id, created_at, job_posted_at) SELECT id, $2, posted_at FROM jobs WHERE id ",
                $ids,
                " ON CONFLICT (job_id) DO UPDATE SET attempts = 0, claimed_at = NULL, \
                 failed_at = NULL, last_error = NULL, created_at = excluded.created_at, \
                 job_posted_at = excluded.job_posted_at"
            ),
            drop_jobs: concat!("DELETE FROM ", $table, " WHERE job_id ", $ids),
            claim: concat!(
                "UPDATE ",
                $table,
                " SET claimed_at = $1, heartbeat_at = $1, attempts = attempts + 1 \
                 WHERE id IN (SELECT id FROM ",
                $table,
                " WHERE (claimed_at IS NULL OR coalesce(heartbeat_at, claimed_at) < $2) \
                 AND attempts < $3 \
                 ORDER BY id LIMIT $4",
                $lock,
                ") RETURNING id, job_id, attempts, claimed_at"
            ),
            ack: concat!("DELETE FROM ", $table, " WHERE id = $1 AND claimed_at = $2"),
            renew: concat!(
                "UPDATE ",
                $table,
                " SET heartbeat_at = $1 WHERE id = $2 AND claimed_at = $3"
            ),
            fail: concat!(
                "UPDATE ",
                $table,
                " SET claimed_at = NULL, failed_at = $1, last_error = $2 \
                 WHERE id = $3 AND claimed_at = $4"
            ),
            depth: concat!("SELECT count(*) FROM ", $table),
            purge_before: concat!("DELETE FROM ", $table, " WHERE created_at < $1"),
        }
    };
}

/// Re-derivation write of one row.
pub(crate) const REWRITE_DERIVED: &str = "UPDATE jobs SET countries = $1, regions = $2, \
     cities = $3, work_mode = $4, seniority = $5, category = $6, is_tech = $7, skills = $8, \
     employment_type = $9, education_level = $10, english_level = $11, \
     experience_years_min = $12, requires_clearance = $13, posting_language = $14, \
     role_fingerprint = $15, content_hash = $16, updated_at = $17 \
     WHERE id = $18 RETURNING (closed_at IS NULL AND duplicate_of IS NULL) AS listed";

/// The repost check of reference §3.10 as one `UPDATE`: each row of the batch (`$ids`: the
/// dialect's "id is in the batch" condition on `j.id`) whose role (company slug and non-empty
/// fingerprint) has an older open, non-duplicate job points at the oldest such job. Returns
/// `(id, duplicate_of)` of the rows marked.
///
/// Written so that no plan can walk the table, even one made while `jobs` was empty and
/// unanalysed: the batch rows are found by id only (their own conditions sit in a `CASE`,
/// which no partial index can serve), and the cluster minimum is taken over the other
/// members (`c.id <> j.id`, compared afterwards) through the role's index, never through an
/// `id <` range over every older job.
macro_rules! mark_reposts_sql {
    ($ids:literal) => {
        concat!(
            "UPDATE jobs AS j SET duplicate_of = ( \
               SELECT min(c.id) FROM jobs AS c \
               WHERE c.company_slug = j.company_slug AND c.role_fingerprint = j.role_fingerprint \
                 AND c.role_fingerprint <> '' AND c.closed_at IS NULL AND c.duplicate_of IS NULL \
                 AND c.id <> j.id) \
             WHERE ",
            $ids,
            " AND CASE WHEN j.role_fingerprint <> '' AND j.closed_at IS NULL \
                         AND j.duplicate_of IS NULL THEN 1 ELSE 0 END = 1 \
               AND ( \
               SELECT min(c.id) FROM jobs AS c \
               WHERE c.company_slug = j.company_slug AND c.role_fingerprint = j.role_fingerprint \
                 AND c.role_fingerprint <> '' AND c.closed_at IS NULL AND c.duplicate_of IS NULL \
                 AND c.id <> j.id) < j.id \
             RETURNING id, duplicate_of"
        )
    };
}

/// `rows` parenthesised rows of `width` parameters each, numbered on from `$first`:
/// `param_rows(2, 2, 1)` is `($1, $2), ($3, $4)`.
pub(crate) fn param_rows(rows: usize, width: usize, first: usize) -> String {
    let row = |r: usize| {
        let params: Vec<String> =
            (0..width).map(|c| format!("${}", first + r * width + c)).collect();
        format!("({})", params.join(", "))
    };
    (0..rows).map(row).collect::<Vec<_>>().join(", ")
}

/// Reads of `jobs` shared by both dialects.
pub(crate) mod jobs {
    pub(crate) const SET_DUPLICATE_OF: &str = "UPDATE jobs SET duplicate_of = $1 WHERE id = $2";

    pub(crate) const AFTER: &str =
        concat!("SELECT ", job_columns!(), " FROM jobs WHERE id > $1 ORDER BY id LIMIT $2");

    pub(crate) const OPEN_PAGE: &str = concat!(
        "SELECT ",
        job_columns!(),
        " FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL \
          ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2"
    );

    pub(crate) const OPEN_COUNT: &str =
        "SELECT count(*) FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL";

    pub(crate) const BY_SLUG: &str =
        concat!("SELECT ", job_columns!(), " FROM jobs WHERE public_slug = $1");

    pub(crate) const BY_KEY: &str =
        concat!("SELECT ", job_columns!(), " FROM jobs WHERE source = $1 AND external_id = $2");

    /// One page of a company's open jobs, newest first.
    pub(crate) const OF_COMPANY: &str = concat!(
        "SELECT ",
        job_columns!(),
        " FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug = $1 \
          ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3"
    );

    pub(crate) const OF_COMPANY_COUNT: &str = "SELECT count(*) FROM jobs \
         WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug = $1";
}

/// Statements on `boards` and `board_health` shared by both dialects.
pub(crate) mod boards {
    /// The live (pending or active) board of an identity; the board name folds case.
    pub(crate) const LIVE_BY_IDENTITY: &str = concat!(
        "SELECT ",
        board_columns!(),
        " FROM boards WHERE provider = $1 AND lower(board) = lower($2) AND region = $3 \
          AND status IN ('pending', 'active')"
    );

    pub(crate) const INSERT: &str = concat!(
        "INSERT INTO boards (provider, board, region, company, url, status, created_at, \
         activated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ",
        board_columns!()
    );

    /// One board of a bulk add; a live board of the same identity makes it a no-op (the only
    /// unique indexes are the id and the live identity).
    pub(crate) const INSERT_IF_ABSENT: &str = concat!(
        "INSERT INTO boards (provider, board, region, company, url, status, created_at, \
         activated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING ",
        board_columns!()
    );

    /// The rejection reason is kept only with the `rejected` status (sqlx declares `$2` text).
    pub(crate) const SET_STATUS: &str = "UPDATE boards SET status = $1, \
         rejected_reason = CASE WHEN $1 = 'rejected' THEN $2 END WHERE id = $3";

    /// Flips a pending board to active.
    pub(crate) const ACTIVATE: &str = "UPDATE boards SET status = 'active', activated_at = $1 \
         WHERE provider = $2 AND lower(board) = lower($3) AND region = $4 AND status = 'pending'";

    /// The health row of a key; each adapter appends its row lock (none on SQLite).
    macro_rules! health_of {
        ($lock:literal) => {
            concat!(
                "SELECT ",
                health_columns!(),
                " FROM board_health WHERE provider = $1 AND board = $2 AND region = $3",
                $lock
            )
        };
    }
    pub(crate) use health_of;

    pub(crate) const SAVE_HEALTH: &str = concat!(
        "INSERT INTO board_health (",
        health_columns!(),
        ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
         ON CONFLICT (provider, board, region) DO UPDATE SET \
         consecutive_failures = excluded.consecutive_failures, \
         cooldown_until = excluded.cooldown_until, last_error = excluded.last_error, \
         last_error_class = excluded.last_error_class, \
         last_error_at = excluded.last_error_at, last_success_at = excluded.last_success_at, \
         last_ingested_count = excluded.last_ingested_count, last_run_at = excluded.last_run_at, \
         last_yield_at = excluded.last_yield_at"
    );

    /// The insert's head up to `VALUES`; the rows follow, then [`success_tail`].
    macro_rules! success_head {
        () => {
            concat!("INSERT INTO board_health (", health_columns!(), ") VALUES ")
        };
    }

    /// The conflict clause and the returned columns of [`successes`].
    macro_rules! success_tail {
        () => {
            concat!(
                " ON CONFLICT (provider, board, region) DO UPDATE SET \
                 consecutive_failures = 0, cooldown_until = NULL, \
                 last_success_at = excluded.last_success_at, \
                 last_ingested_count = excluded.last_ingested_count, \
                 last_run_at = excluded.last_run_at, \
                 last_yield_at = COALESCE(excluded.last_yield_at, board_health.last_yield_at) \
                 RETURNING ",
                health_columns!()
            )
        };
    }

    /// The parameters of one health row.
    pub(crate) const HEALTH_PARAMS: usize = 13;

    /// The most boards one of the group statements below names; a larger group is written
    /// in chunks of this many. One statement text per count, so at most this many prepared
    /// statements are cached per kind.
    pub(crate) const GROUP_CHUNK: usize = 16;

    /// Heals `boards` rows at once (1 ..= [`GROUP_CHUNK`], distinct keys), each row's
    /// [`HEALTH_PARAMS`] parameters in turn; the rows come back in no stated order. A first
    /// success inserts `on_success` of nothing; a later one applies the same transition to the
    /// stored row (failures and cooldown reset, success and run stamped, yield only when the
    /// listing named anything, the last error kept).
    pub(crate) fn successes(boards: usize) -> &'static str {
        static SQL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let all = SQL.get_or_init(|| {
            (1..=GROUP_CHUNK)
                .map(|n| {
                    [success_head!(), &super::param_rows(n, HEALTH_PARAMS, 1), success_tail!()]
                        .concat()
                })
                .collect()
        });
        &all[boards.clamp(1, GROUP_CHUNK) - 1]
    }

    /// [`ACTIVATE`] for `boards` keys at once (1 ..= [`GROUP_CHUNK`]): the stamp is `$1`,
    /// then each key's provider, board and region in turn. The `OR` of identities is one
    /// lookup of the identity index per key (a row-value `IN` scans the table on SQLite).
    pub(crate) fn activate_many(boards: usize) -> &'static str {
        static SQL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let all = SQL.get_or_init(|| (1..=GROUP_CHUNK).map(build_activate_many).collect());
        &all[boards.clamp(1, GROUP_CHUNK) - 1]
    }

    fn build_activate_many(boards: usize) -> String {
        let keys: Vec<String> = (0..boards)
            .map(|i| {
                let p = 2 + 3 * i;
                format!(
                    "(provider = ${p} AND lower(board) = lower(${}) AND region = ${})",
                    p + 1,
                    p + 2
                )
            })
            .collect();
        format!(
            "UPDATE boards SET status = 'active', activated_at = $1 \
             WHERE status = 'pending' AND ({})",
            keys.join(" OR ")
        )
    }

    /// Every health row, or `$1`'s when it is not null.
    pub(crate) const HEALTHS: &str = concat!(
        "SELECT ",
        health_columns!(),
        " FROM board_health WHERE ($1 IS NULL OR provider = $1) ORDER BY provider, board, region"
    );

    /// The live boards failing since their last success, at most `$1` per provider (most
    /// consecutive failures, then the latest error, first): the curated spelling and company,
    /// then the health columns.
    pub(crate) const FAILING: &str = concat!(
        "SELECT listed_board, company, ",
        health_columns!(),
        " FROM (SELECT b.board AS listed_board, b.company, h.*, ROW_NUMBER() OVER ( \
             PARTITION BY b.provider \
             ORDER BY h.consecutive_failures DESC, h.last_error_at DESC, b.board) AS rank \
           FROM boards b JOIN board_health h \
             ON h.provider = b.provider AND h.board = lower(b.board) AND h.region = b.region \
           WHERE b.status IN ('pending', 'active') AND h.consecutive_failures > 0) failing \
         WHERE rank <= $1 ORDER BY provider, rank"
    );

    /// The live failing boards counted per provider and class of their last failure.
    pub(crate) const FAILING_CLASSES: &str = "SELECT b.provider, \
           COALESCE(h.last_error_class, 'other') AS error_class, count(*) \
         FROM boards b JOIN board_health h \
           ON h.provider = b.provider AND h.board = lower(b.board) AND h.region = b.region \
         WHERE b.status IN ('pending', 'active') AND h.consecutive_failures > 0 \
         GROUP BY b.provider, COALESCE(h.last_error_class, 'other') \
         ORDER BY b.provider, count(*) DESC, error_class";

    pub(crate) const COOLDOWNS: &str = concat!(
        "SELECT ",
        health_columns!(),
        " FROM board_health WHERE provider = $1 AND cooldown_until IS NOT NULL"
    );
}

/// Take or renew the embedded index's writer lease for `$1` at `$2`: it is free, already the
/// holder's, or its last heartbeat is older than `$3`. Affects one row when `$1` holds it.
pub(crate) const HOLD_WRITER_LEASE: &str = "INSERT INTO search_writer_lease \
     (name, holder, acquired_at, heartbeat_at) VALUES ('embedded', $1, $2, $2) \
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, \
     acquired_at = CASE WHEN search_writer_lease.holder = excluded.holder \
       THEN search_writer_lease.acquired_at ELSE excluded.acquired_at END, \
     heartbeat_at = excluded.heartbeat_at \
     WHERE search_writer_lease.holder = excluded.holder OR search_writer_lease.heartbeat_at < $3";

/// Give the writer lease up if `$1` holds it.
pub(crate) const RELEASE_WRITER_LEASE: &str =
    "DELETE FROM search_writer_lease WHERE name = 'embedded' AND holder = $1";

/// Renew `$3`'s claim on provider `$2` to `$1`.
pub(crate) const RENEW_PROVIDER_CLAIM: &str = "UPDATE ingest_run_state SET heartbeat_at = $1 \
     WHERE provider = $2 AND claimed_by = $3 AND claimed_at IS NOT NULL";

/// The claim on provider `$1`, if any.
pub(crate) const PROVIDER_CLAIM: &str = "SELECT claimed_by, claimed_at, heartbeat_at \
     FROM ingest_run_state WHERE provider = $1 AND claimed_at IS NOT NULL AND claimed_by IS NOT NULL";

pub(crate) mod accounts;
pub(crate) mod assistant;
#[macro_use]
pub(crate) mod companies;
pub(crate) mod experience;
pub(crate) mod ghost;
pub(crate) mod lifecycle;
// CV documents (issue 16).
pub(crate) mod cvs;
pub(crate) mod letters;
pub(crate) mod notify;
pub(crate) mod plans;
pub(crate) mod rates;
pub(crate) mod saved_searches;
pub(crate) mod screening;
pub(crate) mod sitemaps;
pub(crate) mod stats;
pub(crate) mod suggest;
pub(crate) mod tracking;

#[cfg(test)]
mod tests {
    use super::{boards, param_rows};

    #[test]
    fn group_statements_number_each_rows_parameters_in_turn() {
        assert_eq!(param_rows(2, 2, 1), "($1, $2), ($3, $4)");
        assert_eq!(param_rows(1, 3, 2), "($2, $3, $4)");
        let two = boards::successes(2);
        assert!(two.contains("($14, $15,") && two.ends_with("last_yield_at, last_error_class"));
        assert!(!two.contains("$27"), "{two}");
        assert!(boards::successes(1).contains("VALUES ($1, $2, $3,"));
        let three = boards::activate_many(3);
        assert!(three.contains("(provider = $8 AND lower(board) = lower($9) AND region = $10)"));
        assert_eq!(three.matches(" OR ").count(), 2);
        let most = boards::successes(boards::GROUP_CHUNK);
        assert_eq!(boards::successes(boards::GROUP_CHUNK + 4), most, "clamped");
    }
}
