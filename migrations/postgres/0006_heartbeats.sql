-- Claims and leases carry a heartbeat (issue 11, items 6 and 7): a provider claim or an
-- outbox wave whose holder stops renewing expires a few heartbeats later, not after a fixed
-- timeout; the embedded index's writer is held under a lease in the database.
ALTER TABLE ingest_run_state ADD COLUMN heartbeat_at timestamptz;
ALTER TABLE search_outbox ADD COLUMN heartbeat_at timestamptz;
ALTER TABLE search_delete_outbox ADD COLUMN heartbeat_at timestamptz;

CREATE TABLE search_writer_lease (
    name         text        PRIMARY KEY,
    holder       text        NOT NULL,
    acquired_at  timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL
);
