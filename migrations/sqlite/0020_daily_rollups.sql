-- Daily rollups (reference search-ingest §11.1; issue 17), written by the worker: per UTC day
-- the jobs first seen and closed and the open catalogue at the time, and the ingest fleet's
-- verdict. A day is rewritten until it is over.
CREATE TABLE job_daily_stats (
    day         TEXT        PRIMARY KEY,
    added       INTEGER     NOT NULL,
    removed     INTEGER     NOT NULL,
    open_jobs   INTEGER     NOT NULL,
    computed_at TEXT    NOT NULL
);

CREATE TABLE site_status_daily (
    day         TEXT        PRIMARY KEY,
    verdict     TEXT        NOT NULL,
    boards      INTEGER     NOT NULL,
    failing     INTEGER     NOT NULL,
    computed_at TEXT    NOT NULL
);
