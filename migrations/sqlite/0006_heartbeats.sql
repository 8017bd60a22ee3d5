-- Claims and leases carry a heartbeat (issue 11, items 6 and 7): a provider claim or an
-- outbox wave whose holder stops renewing expires a few heartbeats later, not after a fixed
-- timeout; the embedded index's writer is held under a lease in the database.
ALTER TABLE ingest_run_state ADD COLUMN heartbeat_at TEXT;
ALTER TABLE search_outbox ADD COLUMN heartbeat_at TEXT;
ALTER TABLE search_delete_outbox ADD COLUMN heartbeat_at TEXT;

CREATE TABLE search_writer_lease (
    name         TEXT PRIMARY KEY,
    holder       TEXT NOT NULL,
    acquired_at  TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL
);
