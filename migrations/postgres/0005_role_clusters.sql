-- Role clusters (reference §3.10): reposts of one role share (company_slug, role_fingerprint);
-- every open member but the oldest points at the oldest with duplicate_of.
CREATE INDEX IF NOT EXISTS jobs_role_cluster ON jobs (company_slug, role_fingerprint)
    WHERE closed_at IS NULL AND role_fingerprint <> '';
CREATE INDEX IF NOT EXISTS jobs_duplicate_of ON jobs (duplicate_of) WHERE duplicate_of IS NOT NULL;
