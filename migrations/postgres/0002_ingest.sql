-- Ingest: the search outboxes (written in the same transaction as the job rows they describe)
-- and the provider schedule (reference §3.6, §3.9, §4.1 queue tables, §5.11).

-- Jobs whose search document must be (re)built. One row per job: re-enqueueing a queued job
-- resets it, so a change made while a drain holds the row is not lost.
CREATE TABLE search_outbox (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id        bigint      NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    attempts      integer     NOT NULL DEFAULT 0,
    claimed_at    timestamptz,
    failed_at     timestamptz,
    last_error    text,
    created_at    timestamptz NOT NULL,
    job_posted_at timestamptz,
    CONSTRAINT search_outbox_job_id_key UNIQUE (job_id)
);

-- Jobs whose search document must go. No foreign key: the row outlives what it names.
CREATE TABLE search_delete_outbox (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id        bigint      NOT NULL,
    attempts      integer     NOT NULL DEFAULT 0,
    claimed_at    timestamptz,
    failed_at     timestamptz,
    last_error    text,
    created_at    timestamptz NOT NULL,
    job_posted_at timestamptz,
    CONSTRAINT search_delete_outbox_job_id_key UNIQUE (job_id)
);

-- Per-provider overrides of the scheduler's defaults. A missing row means the defaults.
CREATE TABLE ingest_schedule (
    provider        text    PRIMARY KEY,
    cadence_sec     integer CHECK (cadence_sec > 0),
    timeout_sec     integer CHECK (timeout_sec > 0),
    enabled         boolean NOT NULL DEFAULT true,
    disabled_reason text,
    notes           text,
    CONSTRAINT ingest_schedule_disabled_reason_check
        CHECK (enabled OR coalesce(btrim(disabled_reason), '') <> '')
);

-- One row per provider in the roster: when it is due, and who holds it.
CREATE TABLE ingest_run_state (
    provider         text        PRIMARY KEY,
    next_due_at      timestamptz NOT NULL,
    claimed_at       timestamptz,
    claimed_by       text,
    last_started_at  timestamptz,
    last_finished_at timestamptz,
    last_status      text,
    last_error       text
);
