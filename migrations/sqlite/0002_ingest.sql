-- Ingest: the search outboxes (written in the same transaction as the job rows they describe)
-- and the provider schedule. Same schema as migrations/postgres/0002_ingest.sql.

CREATE TABLE search_outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id        INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    attempts      INTEGER NOT NULL DEFAULT 0,
    claimed_at    TEXT,
    failed_at     TEXT,
    last_error    TEXT,
    created_at    TEXT    NOT NULL,
    job_posted_at TEXT,
    CONSTRAINT search_outbox_job_id_key UNIQUE (job_id)
);

CREATE TABLE search_delete_outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id        INTEGER NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    claimed_at    TEXT,
    failed_at     TEXT,
    last_error    TEXT,
    created_at    TEXT    NOT NULL,
    job_posted_at TEXT,
    CONSTRAINT search_delete_outbox_job_id_key UNIQUE (job_id)
);

CREATE TABLE ingest_schedule (
    provider        TEXT    PRIMARY KEY,
    cadence_sec     INTEGER CHECK (cadence_sec > 0),
    timeout_sec     INTEGER CHECK (timeout_sec > 0),
    enabled         INTEGER NOT NULL DEFAULT 1,
    disabled_reason TEXT,
    notes           TEXT,
    CONSTRAINT ingest_schedule_disabled_reason_check
        CHECK (enabled OR coalesce(trim(disabled_reason), '') <> '')
);

CREATE TABLE ingest_run_state (
    provider         TEXT PRIMARY KEY,
    next_due_at      TEXT NOT NULL,
    claimed_at       TEXT,
    claimed_by       TEXT,
    last_started_at  TEXT,
    last_finished_at TEXT,
    last_status      TEXT,
    last_error       TEXT
);
