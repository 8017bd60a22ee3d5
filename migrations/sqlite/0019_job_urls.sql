-- Looking a posting up by its URL (`GET /jobs/find?url=`, issue 17).
CREATE INDEX IF NOT EXISTS jobs_url_idx ON jobs (url);
