-- Rate-limit cells shared by every API process on the database (reference search-ingest §6.3;
-- issue 17): one GCRA cell per bucket and subject, its theoretical arrival time in
-- microseconds of the database server's clock. A request is counted and refused in one upsert.
-- UNLOGGED: a crash forgets the cells, which only refills buckets, and no write waits for the
-- WAL. A cell whose time has passed is a full bucket and is swept.
CREATE UNLOGGED TABLE rate_cells (
    bucket  text   NOT NULL,
    subject bytea  NOT NULL,
    tat_us  bigint NOT NULL,
    PRIMARY KEY (bucket, subject)
);
