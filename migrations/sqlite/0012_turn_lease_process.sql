-- Issue 15: the API process holding a running turn lease, so one statement renews or reads
-- every lease of a process (one poll per process instead of one per turn).
ALTER TABLE assistant_turn_leases ADD COLUMN holder_process TEXT;

CREATE INDEX assistant_turn_leases_process ON assistant_turn_leases (holder_process)
    WHERE holder_process IS NOT NULL;
