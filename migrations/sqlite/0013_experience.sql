-- The experience bank (reference assistant.md §12, §16.3–§16.5): the candidate's employments
-- (jobs and projects) and achievements ("atoms"), each atom labelled with its provenance.
-- Same schema as migrations/postgres/0013_experience.sql, in SQLite's dialect (timestamps are
-- fixed-width RFC 3339 UTC text, booleans 0/1, lists as JSON text). Every row is
-- deleted with its user; an employment's atoms go with it.

CREATE TABLE experience_employments (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id            INTEGER     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind               text        NOT NULL,
    -- The place label: a job's company, a project's name.
    company            text        NOT NULL DEFAULT '',
    role               text        NOT NULL DEFAULT '',
    location           text        NOT NULL DEFAULT '',
    is_current         INTEGER     NOT NULL DEFAULT 0,
    summary            text        NOT NULL DEFAULT '',
    -- A project's link ('' for a job).
    link               text        NOT NULL DEFAULT '',
    -- Canonical skill slugs.
    stack              TEXT        NOT NULL DEFAULT '[]',
    -- `{year, month?}` dates: a month only with its year; no end while current.
    period_start_year  integer,
    period_start_month integer,
    period_end_year    integer,
    period_end_month   integer,
    created_at         TEXT        NOT NULL,
    updated_at         TEXT        NOT NULL,
    CONSTRAINT experience_employments_kind_check CHECK (kind IN ('job', 'project')),
    CONSTRAINT experience_employments_start_check CHECK (
        (period_start_year IS NULL AND period_start_month IS NULL)
        OR (period_start_year BETWEEN 1900 AND 2100
            AND (period_start_month IS NULL OR period_start_month BETWEEN 1 AND 12))),
    CONSTRAINT experience_employments_end_check CHECK (
        (period_end_year IS NULL AND period_end_month IS NULL)
        OR (period_end_year BETWEEN 1900 AND 2100
            AND (period_end_month IS NULL OR period_end_month BETWEEN 1 AND 12)))
);
-- Deliberately no unique constraint on (user, company, role) (§16.3).
CREATE INDEX experience_employments_user_idx ON experience_employments (user_id);

CREATE TABLE experience_atoms (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    employment_id INTEGER     REFERENCES experience_employments (id) ON DELETE CASCADE,
    claim         text        NOT NULL,
    -- freehire_domain::experience::claim_key(claim): the dedup key.
    claim_key     text        NOT NULL,
    context       text        NOT NULL DEFAULT '',
    metrics       TEXT        NOT NULL DEFAULT '[]',
    skills        TEXT        NOT NULL DEFAULT '[]',
    provenance    text        NOT NULL,
    source_ref    text        NOT NULL DEFAULT '',
    created_at    TEXT        NOT NULL,
    -- Merges are gated on it.
    updated_at    TEXT        NOT NULL,
    CONSTRAINT experience_atoms_provenance_check
        CHECK (provenance IN ('cv_import', 'stated_in_chat', 'manual', 'agent_inferred')),
    CONSTRAINT experience_atoms_user_claim_key UNIQUE (user_id, claim_key)
);
CREATE INDEX experience_atoms_user_employment_idx ON experience_atoms (user_id, employment_id);
CREATE INDEX experience_atoms_employment_idx ON experience_atoms (employment_id);

-- Whether interactive creates need a context (§12.3; import and edits are exempt).
ALTER TABLE users ADD COLUMN experience_require_context INTEGER NOT NULL DEFAULT 0;
