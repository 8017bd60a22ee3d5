-- Daily rollups (reference search-ingest §11.1; issue 17), written by the worker: per UTC day
-- the jobs first seen and closed and the open catalogue at the time, and the ingest fleet's
-- verdict. A day is rewritten until it is over.
CREATE TABLE job_daily_stats (
    day         text        PRIMARY KEY,
    added       bigint      NOT NULL,
    removed     bigint      NOT NULL,
    open_jobs   bigint      NOT NULL,
    computed_at timestamptz NOT NULL
);

CREATE TABLE site_status_daily (
    day         text        PRIMARY KEY,
    verdict     text        NOT NULL,
    boards      bigint      NOT NULL,
    failing     bigint      NOT NULL,
    computed_at timestamptz NOT NULL
);
