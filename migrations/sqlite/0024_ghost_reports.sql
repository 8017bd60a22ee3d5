-- Ghost reports (issue 18; reference search-ingest §4.2, §5.10): an applicant says a posting
-- is a ghost job (applied on a day, never heard back). One live report per user and job; a
-- retraction keeps the row with its time. Gone with the user or the job.
CREATE TABLE ghost_reports (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    job_id       INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    -- The day the applicant applied, YYYY-MM-DD.
    applied_on   TEXT NOT NULL,
    reported_at  TEXT NOT NULL,
    retracted_at TEXT,
    PRIMARY KEY (user_id, job_id)
);
CREATE INDEX ghost_reports_job ON ghost_reports (job_id) WHERE retracted_at IS NULL;
