//! SQL text shared by both adapters, as macros so every statement stays a `&'static str`
//! (sqlx accepts only static SQL without an explicit safety assertion).

/// The columns every job read selects (decoded by `RawJob`).
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

/// Board columns every board read selects.
macro_rules! board_columns {
    () => {
        "id, provider, board, region, company, url, status, rejected_reason, created_at, \
         activated_at"
    };
}

/// Board-health columns every health read selects.
macro_rules! health_columns {
    () => {
        "provider, board, region, consecutive_failures, cooldown_until, last_error, \
         last_error_at, last_success_at, last_ingested_count, last_run_at, first_seen_at, \
         last_yield_at"
    };
}

/// Outbox statements for one table in one dialect: its placeholders and its row-lock clause.
macro_rules! outbox_statements {
    (
        $table:literal, $p1:literal, $p2:literal, $p3:literal, $p4:literal, $lock:literal,
        ids_in: $ids:literal
    ) => {
        crate::plan::OutboxSql {
            enqueue: concat!(
                "INSERT INTO ",
                $table,
                " (job_id, created_at, job_posted_at) \
                 SELECT id, ",
                $p2,
                ", posted_at FROM jobs WHERE id ",
                $ids,
                " ON CONFLICT (job_id) DO UPDATE SET attempts = 0, claimed_at = NULL, \
                 failed_at = NULL, last_error = NULL, created_at = excluded.created_at, \
                 job_posted_at = excluded.job_posted_at"
            ),
            drop_jobs: concat!("DELETE FROM ", $table, " WHERE job_id ", $ids),
            claim: concat!(
                "UPDATE ",
                $table,
                " SET claimed_at = ",
                $p1,
                ", attempts = attempts + 1 \
                 WHERE id IN (SELECT id FROM ",
                $table,
                " \
                   WHERE (claimed_at IS NULL OR claimed_at < ",
                $p2,
                ") AND attempts < ",
                $p3,
                " ORDER BY id LIMIT ",
                $p4,
                $lock,
                ") \
                 RETURNING id, job_id, attempts, claimed_at"
            ),
            ack: concat!("DELETE FROM ", $table, " WHERE id = ", $p1, " AND claimed_at = ", $p2),
            fail: concat!(
                "UPDATE ",
                $table,
                " SET claimed_at = NULL, failed_at = ",
                $p1,
                ", last_error = ",
                $p2,
                " WHERE id = ",
                $p3,
                " AND claimed_at = ",
                $p4
            ),
            depth: concat!("SELECT count(*) FROM ", $table),
            purge_before: concat!("DELETE FROM ", $table, " WHERE created_at < ", $p1),
        }
    };
}

/// Re-derivation write of one row, numbered `$1`… (both dialects accept them).
macro_rules! rewrite_derived_sql {
    ($p:literal) => {
        concat!(
            "UPDATE jobs SET countries = ",
            $p,
            "1, regions = ",
            $p,
            "2, cities = ",
            $p,
            "3, \
             work_mode = ",
            $p,
            "4, seniority = ",
            $p,
            "5, category = ",
            $p,
            "6, is_tech = ",
            $p,
            "7, skills = ",
            $p,
            "8, employment_type = ",
            $p,
            "9, education_level = ",
            $p,
            "10, \
             english_level = ",
            $p,
            "11, experience_years_min = ",
            $p,
            "12, \
             requires_clearance = ",
            $p,
            "13, posting_language = ",
            $p,
            "14, \
             role_fingerprint = ",
            $p,
            "15, content_hash = ",
            $p,
            "16, updated_at = ",
            $p,
            "17 \
             WHERE id = ",
            $p,
            "18 RETURNING (closed_at IS NULL AND duplicate_of IS NULL) AS listed"
        )
    };
}

/// Reads a job row into `RawJob`; the dialects differ only in how they store lists and the
/// structured JSON, which the caller reads with `$list(row, column)` and `$structured(row)`.
macro_rules! raw_job {
    ($row:expr, list: $list:expr, structured: $structured:expr) => {{
        use sqlx::Row as _;
        Ok(crate::rows::RawJob {
            id: $row.try_get("id")?,
            source: $row.try_get("source")?,
            external_id: $row.try_get("external_id")?,
            url: $row.try_get("url")?,
            public_slug: $row.try_get("public_slug")?,
            title: $row.try_get("title")?,
            company: $row.try_get("company")?,
            company_slug: $row.try_get("company_slug")?,
            location: $row.try_get("location")?,
            remote: $row.try_get("remote")?,
            description: $row.try_get("description")?,
            posted_at: $row.try_get("posted_at")?,
            created_at: $row.try_get("created_at")?,
            updated_at: $row.try_get("updated_at")?,
            last_seen_at: $row.try_get("last_seen_at")?,
            closed_at: $row.try_get("closed_at")?,
            closed_reason: $row.try_get("closed_reason")?,
            countries: $list($row, "countries")?,
            regions: $list($row, "regions")?,
            cities: $list($row, "cities")?,
            work_mode: $row.try_get("work_mode")?,
            seniority: $row.try_get("seniority")?,
            category: $row.try_get("category")?,
            is_tech: $row.try_get("is_tech")?,
            skills: $list($row, "skills")?,
            employment_type: $row.try_get("employment_type")?,
            education_level: $row.try_get("education_level")?,
            english_level: $row.try_get("english_level")?,
            experience_years_min: $row.try_get("experience_years_min")?,
            requires_clearance: $row.try_get("requires_clearance")?,
            posting_language: $row.try_get("posting_language")?,
            salary_min: $row.try_get("salary_min_source")?,
            salary_max: $row.try_get("salary_max_source")?,
            salary_currency: $row.try_get("salary_currency_source")?,
            salary_period: $row.try_get("salary_period_source")?,
            content_hash: $row.try_get("content_hash")?,
            role_fingerprint: $row.try_get("role_fingerprint")?,
            duplicate_of: $row.try_get("duplicate_of")?,
            structured: $structured($row)?,
        })
    }};
}

/// Reads a `boards` row (same columns in both dialects).
macro_rules! raw_board {
    ($row:expr) => {{
        use sqlx::Row as _;

        RawBoard {
            id: $row.try_get("id")?,
            provider: $row.try_get("provider")?,
            board: $row.try_get("board")?,
            region: $row.try_get("region")?,
            company: $row.try_get("company")?,
            url: $row.try_get("url")?,
            status: $row.try_get("status")?,
            rejected_reason: $row.try_get("rejected_reason")?,
            created_at: $row.try_get("created_at")?,
            activated_at: $row.try_get("activated_at")?,
        }
        .into_board()
    }};
}

/// Reads a `board_health` row (same columns in both dialects).
macro_rules! raw_health {
    ($row:expr) => {{
        use sqlx::Row as _;

        RawHealth {
            provider: $row.try_get("provider")?,
            board: $row.try_get("board")?,
            region: $row.try_get("region")?,
            consecutive_failures: $row.try_get("consecutive_failures")?,
            cooldown_until: $row.try_get("cooldown_until")?,
            last_error: $row.try_get("last_error")?,
            last_error_at: $row.try_get("last_error_at")?,
            last_success_at: $row.try_get("last_success_at")?,
            last_ingested_count: $row.try_get("last_ingested_count")?,
            last_run_at: $row.try_get("last_run_at")?,
            first_seen_at: $row.try_get("first_seen_at")?,
            last_yield_at: $row.try_get("last_yield_at")?,
        }
        .into_health()
    }};
}

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
