-- Application tracking (reference §4.2 "Tracking tables", §7): per-user job marks, the durable
-- application record, its append-only event ledger, saved-job reminders and nudges.
-- Same schema as migrations/postgres/0008_tracking.sql, in SQLite's dialect (timestamps are
-- fixed-width RFC 3339 UTC text, booleans 0/1, arrays and JSON as JSON text). Every row is
-- deleted with its user; a job's deletion (a prune) keeps the application and nulls `job_id`.

-- How many accounts applied to a job (each once, under the job's row lock).
ALTER TABLE jobs ADD COLUMN applied_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN view_count INTEGER NOT NULL DEFAULT 0;

-- One row per (user, job): view, save, dismiss, vote.
CREATE TABLE user_jobs (
    user_id      INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    job_id       INTEGER      NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    viewed_at    TEXT,
    saved_at     TEXT,
    dismissed_at TEXT,
    -- The last mark set or cleared (the tracking list's order for rows without an application).
    updated_at   TEXT NOT NULL,
    -- Whether this user's application has been counted in jobs.applied_count (once, ever).
    applied_counted INTEGER     NOT NULL DEFAULT 0,
    -- -1, 0 or 1.
    vote         INTEGER    NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, job_id),
    CONSTRAINT user_jobs_vote_check CHECK (vote IN (-1, 0, 1))
);
CREATE INDEX user_jobs_job_idx ON user_jobs (job_id);

-- The durable record of an application: it outlives its posting.
CREATE TABLE applications (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- NULL once the posting is deleted (pruned); company and role stay.
    job_id           INTEGER      REFERENCES jobs (id) ON DELETE SET NULL,
    company_slug     TEXT        NOT NULL,
    company          TEXT        NOT NULL DEFAULT '',
    role_title       TEXT        NOT NULL,
    -- The posting's public slug when the application was made (addresses it after a prune).
    job_slug         text,
    applied_at       TEXT,
    stage            text,
    notes            TEXT        NOT NULL DEFAULT '',
    followed_up_at   TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    -- The posting as it was when the user applied (beyond the reference): shown after it closes.
    snapshot_url         text,
    snapshot_location    text,
    snapshot_description text,
    snapshot_facts       TEXT,
    -- The CV version sent (set once CVs exist).
    cv_id            INTEGER,
    cv_revision      INTEGER,
    CONSTRAINT applications_stage_check CHECK (stage IN ('preparing', 'applied', 'screening',
        'responded', 'interview', 'offer', 'accepted', 'rejected', 'withdrawn', 'expired'))
);
-- One application per (user, job) while the job exists.
CREATE UNIQUE INDEX applications_user_job_key ON applications (user_id, job_id) WHERE job_id IS NOT NULL;
CREATE INDEX applications_user_idx ON applications (user_id, created_at DESC, id DESC);

-- Every movement, appended; re-dating an `applied` event is the only mutation.
CREATE TABLE application_events (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    application_id INTEGER      REFERENCES applications (id) ON DELETE CASCADE,
    job_id         INTEGER      REFERENCES jobs (id) ON DELETE SET NULL,
    company_slug   TEXT        NOT NULL DEFAULT '',
    kind           TEXT        NOT NULL,
    -- The kind's value: the stage set, the note text, …
    signal         text,
    occurred_at    TEXT NOT NULL,
    recorded_at    TEXT NOT NULL,
    source         TEXT        NOT NULL DEFAULT 'user',
    -- Where it came from (an import's row key, a mail id, …): unique per user and source.
    source_ref     text,
    retracted_at   TEXT,
    CONSTRAINT application_events_kind_check CHECK (kind IN ('viewed', 'saved', 'unsaved',
        'dismissed', 'undismissed', 'applied', 'stage_set', 'stage_cleared', 'note',
        'followed_up', 'track_cleared')),
    CONSTRAINT application_events_source_check CHECK (source IN ('user', 'import', 'mail', 'assistant'))
);
CREATE INDEX application_events_application_idx ON application_events (application_id, occurred_at, id);
CREATE INDEX application_events_user_idx ON application_events (user_id, occurred_at, id);
CREATE UNIQUE INDEX application_events_source_ref_key ON application_events (user_id, source, source_ref)
    WHERE source_ref IS NOT NULL;

-- A saved job's reminder: fires once at fire_at unless the save is undone or the user applies.
CREATE TABLE job_reminders (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    job_id      INTEGER      NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    fire_at     TEXT NOT NULL,
    channels    TEXT        NOT NULL DEFAULT '["email"]',
    -- pending → fired | cancelled.
    status      TEXT        NOT NULL DEFAULT 'pending',
    claimed_at  TEXT,
    claimed_by  text,
    attempts    INTEGER     NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    fired_at    TEXT,
    CONSTRAINT job_reminders_status_check CHECK (status IN ('pending', 'fired', 'cancelled'))
);
CREATE UNIQUE INDEX job_reminders_pending_key ON job_reminders (user_id, job_id) WHERE status = 'pending';
CREATE INDEX job_reminders_due_idx ON job_reminders (fire_at) WHERE status = 'pending';

-- A nudge sent about an application (silence, interview prep): once per episode.
CREATE TABLE application_nudges (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    application_id INTEGER      NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    job_id         INTEGER      REFERENCES jobs (id) ON DELETE SET NULL,
    kind           TEXT        NOT NULL,
    -- What makes this occurrence distinct (the stage and the date the clock started, …).
    episode_key    TEXT        NOT NULL,
    status         TEXT        NOT NULL DEFAULT 'sent',
    notification_id INTEGER,
    created_at     TEXT NOT NULL,
    CONSTRAINT application_nudges_kind_check CHECK (kind IN ('silent', 'interview_prep')),
    CONSTRAINT application_nudges_episode_key UNIQUE (application_id, kind, episode_key)
);
