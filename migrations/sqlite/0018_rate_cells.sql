-- Rate-limit cells (issue 17): one GCRA cell per bucket and subject, its theoretical arrival
-- time in microseconds. The embedded API limits in process; this table keeps the store's port
-- the same on both backends.
CREATE TABLE rate_cells (
    bucket  TEXT    NOT NULL,
    subject BLOB    NOT NULL,
    tat_us  INTEGER NOT NULL,
    PRIMARY KEY (bucket, subject)
) WITHOUT ROWID;
