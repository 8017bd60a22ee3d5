-- Reality signals (issue 18; reference search-ingest §5.10): a role's history at a company
-- counts its postings ever seen, open or closed, so the cluster key is indexed over every row
-- with a fingerprint (0005's index holds only the open ones).
CREATE INDEX IF NOT EXISTS jobs_role_history ON jobs (company_slug, role_fingerprint)
    WHERE role_fingerprint <> '';
