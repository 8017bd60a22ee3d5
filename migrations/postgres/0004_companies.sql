-- Companies are derived from the open jobs (GET /companies, /companies/{slug}): one partial
-- index groups and counts them by slug (an index-only scan), and serves a company's open jobs
-- newest first. Same as migrations/sqlite/0004.
CREATE INDEX jobs_open_company_idx ON jobs (company_slug, created_at DESC, id DESC)
    WHERE closed_at IS NULL AND duplicate_of IS NULL;
