-- When a posting's last counted expired read was (issue 18 review): an expired read adds a
-- strike only when the last strike is older than the caller's window, so two workers reading
-- one posting in the same hour count one observation, not two. Same as
-- migrations/postgres/0026.
ALTER TABLE job_liveness ADD COLUMN struck_at TEXT;
UPDATE job_liveness SET struck_at = checked_at WHERE strikes > 0;
