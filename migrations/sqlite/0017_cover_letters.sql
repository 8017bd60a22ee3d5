-- Cover letters (reference assistant.md §10.6; issue 16).
-- Same schema as migrations/postgres/0017_cover_letters.sql, in SQLite's dialect.
CREATE TABLE cover_letters (
    id         INTEGER     PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    job_id     INTEGER     NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    band       text        NOT NULL,
    letter     TEXT        NOT NULL CHECK (json_valid(letter)),
    created_at TEXT        NOT NULL,
    updated_at TEXT        NOT NULL,
    CONSTRAINT cover_letters_band_check CHECK (band IN ('short', 'standard')),
    CONSTRAINT cover_letters_user_job UNIQUE (user_id, job_id)
);
CREATE INDEX cover_letters_user_updated_idx ON cover_letters (user_id, updated_at DESC);
