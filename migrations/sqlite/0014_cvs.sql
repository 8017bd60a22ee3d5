-- CV documents and their revisions (reference assistant.md §11.1–§11.2, §16.7; issue 16).
-- Same schema as migrations/postgres/0014_cvs.sql, in SQLite's dialect (timestamps as
-- fixed-width RFC 3339 UTC text, JSON as text that must be valid JSON, booleans as 0/1).
--
-- A CV is a user's base CV (`kind = 'base'`, at most one per user) or a copy tailored to a
-- vacancy (`kind = 'tailored'`, at most one per user and job). The kind is its own column
-- because a tailored copy outlives its job: `job_id` is nulled when the job goes, and the copy
-- must not then collide with the base CV's unique index. `title` and `template_id` are
-- columns (the list shows them); `data` holds the rest of the editable state, the
-- `CvDocument` as JSON (header, summary, experience, …), so `CvState` = title + template +
-- data. Everything is deleted with its user.

CREATE TABLE cvs (
    id               INTEGER     PRIMARY KEY AUTOINCREMENT,
    user_id          INTEGER     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind             text        NOT NULL,
    -- The vacancy of a tailored copy (NULL for the base CV, and once the job is deleted).
    job_id           INTEGER     REFERENCES jobs (id) ON DELETE SET NULL,
    -- The tailoring session working on the copy (the assistant session's UUID as text).
    agent_session_id text,
    title            text        NOT NULL,
    template_id      text        NOT NULL,
    data             TEXT        NOT NULL CHECK (json_valid(data)),
    -- The tailor report of the latest autopilot run, per requirement.
    autopilot_report TEXT        CHECK (autopilot_report IS NULL OR json_valid(autopilot_report)),
    created_at       TEXT        NOT NULL,
    updated_at       TEXT        NOT NULL,
    CONSTRAINT cvs_kind_check CHECK (kind IN ('base', 'tailored')),
    CONSTRAINT cvs_base_has_no_job CHECK (kind = 'tailored' OR job_id IS NULL)
);
CREATE UNIQUE INDEX cvs_one_base_per_user ON cvs (user_id) WHERE kind = 'base';
CREATE UNIQUE INDEX cvs_one_copy_per_job ON cvs (user_id, job_id) WHERE kind = 'tailored';
CREATE INDEX cvs_job_idx ON cvs (job_id);

-- The revision feed of a CV: at most 100 per CV (older ones are trimmed), newest by `seq`.
-- `ops` are the change as applied, `inverse` what restores the state before it; an undo is a
-- revision of its own (`is_undo`) naming what it `reverts`, which is then marked `reverted`.
CREATE TABLE cv_revisions (
    id         INTEGER     PRIMARY KEY AUTOINCREMENT,
    cv_id      INTEGER     NOT NULL REFERENCES cvs (id) ON DELETE CASCADE,
    seq        INTEGER     NOT NULL,
    actor      text        NOT NULL,
    origin     text        NOT NULL,
    -- The assistant turn or autopilot run the change belongs to (undone whole by a revert).
    batch      text,
    title      text        NOT NULL,
    note       text,
    ops        TEXT        NOT NULL CHECK (json_valid(ops)),
    inverse    TEXT        NOT NULL CHECK (json_valid(inverse)),
    reverts    INTEGER     REFERENCES cv_revisions (id) ON DELETE SET NULL,
    is_undo    INTEGER     NOT NULL DEFAULT 0,
    reverted   INTEGER     NOT NULL DEFAULT 0,
    created_at TEXT        NOT NULL,
    CONSTRAINT cv_revisions_seq_uniq UNIQUE (cv_id, seq),
    CONSTRAINT cv_revisions_actor_check CHECK (actor IN ('candidate', 'agent', 'system')),
    CONSTRAINT cv_revisions_origin_check
        CHECK (origin IN ('editor', 'tailor_agent', 'cli', 'template', 'import'))
);
CREATE INDEX cv_revisions_batch_idx ON cv_revisions (cv_id, batch) WHERE batch IS NOT NULL;
CREATE INDEX cv_revisions_reverts_idx ON cv_revisions (reverts) WHERE reverts IS NOT NULL;
