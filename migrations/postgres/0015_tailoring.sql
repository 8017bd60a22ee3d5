-- Tailoring sessions name the CV copy they edit (reference assistant.md §11.3; issue 16).
-- Same schema as migrations/sqlite/0015_tailoring.sql, in PostgreSQL's dialect.
--
-- `assistant_sessions.cv_id` was a placeholder UUID column (CVs did not exist yet and nothing
-- wrote it); CVs have numeric ids, so it becomes a reference to `cvs`, nulled when the CV goes
-- (the session and its transcript stay, and its turns then lose the CV tools).
ALTER TABLE assistant_sessions DROP COLUMN cv_id;
ALTER TABLE assistant_sessions ADD COLUMN cv_id bigint REFERENCES cvs (id) ON DELETE SET NULL;
CREATE INDEX assistant_sessions_cv_idx ON assistant_sessions (cv_id) WHERE cv_id IS NOT NULL;
