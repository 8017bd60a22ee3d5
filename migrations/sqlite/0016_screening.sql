-- Screening answers (reference assistant.md §10.5; issue 16).
-- Same schema as migrations/postgres/0016_screening.sql, in SQLite's dialect: JSON text,
-- written only by `json_patch` (RFC 7396), so two partial updates never lose each other's
-- fields.
ALTER TABLE users ADD COLUMN screening_answers TEXT NOT NULL DEFAULT '{}';
