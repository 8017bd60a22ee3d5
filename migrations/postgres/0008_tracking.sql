-- Application tracking (reference §4.2 "Tracking tables", §7): per-user job marks, the durable
-- application record, its append-only event ledger, saved-job reminders and nudges.
-- Same schema as migrations/sqlite/0008_tracking.sql, in PostgreSQL's dialect. Every row is
-- deleted with its user; a job's deletion (a prune) keeps the application and nulls `job_id`.

-- How many accounts applied to a job (each once, under the job's row lock).
ALTER TABLE jobs ADD COLUMN applied_count bigint NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN view_count bigint NOT NULL DEFAULT 0;

-- One row per (user, job): view, save, dismiss, vote.
CREATE TABLE user_jobs (
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    job_id       bigint      NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    viewed_at    timestamptz,
    saved_at     timestamptz,
    dismissed_at timestamptz,
    -- The last mark set or cleared (the tracking list's order for rows without an application).
    updated_at   timestamptz NOT NULL,
    -- Whether this user's application has been counted in jobs.applied_count (once, ever).
    applied_counted boolean     NOT NULL DEFAULT false,
    -- -1, 0 or 1.
    vote         smallint    NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, job_id),
    CONSTRAINT user_jobs_vote_check CHECK (vote IN (-1, 0, 1))
);
CREATE INDEX user_jobs_job_idx ON user_jobs (job_id);

-- The durable record of an application: it outlives its posting.
CREATE TABLE applications (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id          bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- NULL once the posting is deleted (pruned); company and role stay.
    job_id           bigint      REFERENCES jobs (id) ON DELETE SET NULL,
    company_slug     text        NOT NULL,
    company          text        NOT NULL DEFAULT '',
    role_title       text        NOT NULL,
    -- The posting's public slug when the application was made (addresses it after a prune).
    job_slug         text,
    applied_at       timestamptz,
    stage            text,
    notes            text        NOT NULL DEFAULT '',
    followed_up_at   timestamptz,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    -- The posting as it was when the user applied (beyond the reference): shown after it closes.
    snapshot_url         text,
    snapshot_location    text,
    snapshot_description text,
    snapshot_facts       jsonb,
    -- The CV version sent (set once CVs exist).
    cv_id            bigint,
    cv_revision      bigint,
    CONSTRAINT applications_stage_check CHECK (stage IN ('preparing', 'applied', 'screening',
        'responded', 'interview', 'offer', 'accepted', 'rejected', 'withdrawn', 'expired'))
);
-- One application per (user, job) while the job exists.
CREATE UNIQUE INDEX applications_user_job_key ON applications (user_id, job_id) WHERE job_id IS NOT NULL;
CREATE INDEX applications_user_idx ON applications (user_id, created_at DESC, id DESC);

-- Every movement, appended; re-dating an `applied` event is the only mutation.
CREATE TABLE application_events (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id        bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    application_id bigint      REFERENCES applications (id) ON DELETE CASCADE,
    job_id         bigint      REFERENCES jobs (id) ON DELETE SET NULL,
    company_slug   text        NOT NULL DEFAULT '',
    kind           text        NOT NULL,
    -- The kind's value: the stage set, the note text, …
    signal         text,
    occurred_at    timestamptz NOT NULL,
    recorded_at    timestamptz NOT NULL,
    source         text        NOT NULL DEFAULT 'user',
    -- Where it came from (an import's row key, a mail id, …): unique per user and source.
    source_ref     text,
    retracted_at   timestamptz,
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
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    job_id      bigint      NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    fire_at     timestamptz NOT NULL,
    channels    text[]      NOT NULL DEFAULT '{email}',
    -- pending → fired | cancelled.
    status      text        NOT NULL DEFAULT 'pending',
    claimed_at  timestamptz,
    claimed_by  text,
    attempts    integer     NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL,
    fired_at    timestamptz,
    CONSTRAINT job_reminders_status_check CHECK (status IN ('pending', 'fired', 'cancelled'))
);
CREATE UNIQUE INDEX job_reminders_pending_key ON job_reminders (user_id, job_id) WHERE status = 'pending';
CREATE INDEX job_reminders_due_idx ON job_reminders (fire_at) WHERE status = 'pending';

-- A nudge sent about an application (silence, interview prep): once per episode.
CREATE TABLE application_nudges (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id        bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    application_id bigint      NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    job_id         bigint      REFERENCES jobs (id) ON DELETE SET NULL,
    kind           text        NOT NULL,
    -- What makes this occurrence distinct (the stage and the date the clock started, …).
    episode_key    text        NOT NULL,
    status         text        NOT NULL DEFAULT 'sent',
    notification_id bigint,
    created_at     timestamptz NOT NULL,
    CONSTRAINT application_nudges_kind_check CHECK (kind IN ('silent', 'interview_prep')),
    CONSTRAINT application_nudges_episode_key UNIQUE (application_id, kind, episode_key)
);
