-- Lifecycle (issue 18; reference search-ingest §3.9): the liveness probe's reads of postings no
-- crawl watches (a source without a live board), and the archive of pruned jobs.

-- One row per probed job: consecutive "expired" reads (2 close the job with 'expired'), the
-- last read and why. Deleted with its job.
CREATE TABLE job_liveness (
    job_id       INTEGER     PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    strikes      integer    NOT NULL DEFAULT 0,
    last_verdict text       NOT NULL,
    last_reason  text,
    checked_at   TEXT NOT NULL,
    CONSTRAINT job_liveness_verdict_check CHECK (last_verdict IN ('alive', 'expired', 'unknown'))
);
CREATE INDEX job_liveness_checked_idx ON job_liveness (checked_at);

-- What `freehire jobs prune --apply` hard-deleted, and under which rule. Applications keep
-- their company and role (their job_id is nulled by the jobs foreign key).
CREATE TABLE pruned_jobs (
    id           INTEGER     PRIMARY KEY,
    source       text       NOT NULL,
    external_id  text       NOT NULL,
    title        text       NOT NULL,
    company_slug text       NOT NULL,
    rule         text       NOT NULL,
    pruned_at    TEXT NOT NULL
);
