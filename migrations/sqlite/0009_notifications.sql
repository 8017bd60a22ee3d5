-- Saved searches and notifications (reference §4.2, §8): saved searches, their subscriptions
-- and matches, notification settings, the in-app notification history, and the delivery queue
-- every notification goes out through (email or a signed webhook), with leases and retries.
-- Same schema as migrations/postgres/0009_notifications.sql, in SQLite's dialect (timestamps are
-- fixed-width RFC 3339 UTC text, booleans 0/1, arrays and JSON as JSON text).

CREATE TABLE saved_searches (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id              INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name                 TEXT        NOT NULL,
    -- The search's query string in the search grammar (`skills=rust&countries=de`); '' = all.
    query                TEXT        NOT NULL DEFAULT '',
    -- Public read-only board address (`/shared-boards/{slug}`); NULL = not shared.
    public_slug          text,
    derived_from_profile INTEGER     NOT NULL DEFAULT 0,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    CONSTRAINT saved_searches_public_slug_key UNIQUE (public_slug)
);
-- Names are unique per user, compared case-insensitively.
CREATE UNIQUE INDEX saved_searches_name_key ON saved_searches (user_id, lower(name));
CREATE UNIQUE INDEX saved_searches_profile_key ON saved_searches (user_id) WHERE derived_from_profile = 1;

CREATE TABLE subscriptions (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id             INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    saved_search_id     INTEGER      NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
    channel             TEXT        NOT NULL,
    -- The webhook URL (checked against private addresses); NULL for email (the account's address).
    destination         text,
    -- The webhook's HMAC-SHA256 key (hex), shown once at creation; NULL for email.
    secret              text,
    active              INTEGER     NOT NULL DEFAULT 1,
    -- Jobs indexed before this are never matched.
    start_at            TEXT NOT NULL,
    created_at          TEXT NOT NULL,
    last_digest_sent_at TEXT,
    -- The digest lease (`FOR UPDATE SKIP LOCKED` picks unleased ones).
    claimed_by          text,
    claimed_until       TEXT,
    CONSTRAINT subscriptions_channel_check CHECK (channel IN ('email', 'webhook')),
    CONSTRAINT subscriptions_destination_check CHECK ((channel = 'email') = (destination IS NULL))
);
CREATE UNIQUE INDEX subscriptions_channel_key ON subscriptions (saved_search_id, channel, coalesce(destination, ''));
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id);

-- The in-app history; a digest is recorded here before it is sent.
CREATE TABLE user_notifications (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind        TEXT        NOT NULL,
    title       TEXT        NOT NULL,
    body        TEXT        NOT NULL DEFAULT '',
    -- The saved search's or job's public slug the notification is about, if any.
    public_slug text,
    subscription_id INTEGER  REFERENCES subscriptions (id) ON DELETE SET NULL,
    created_at  TEXT NOT NULL,
    read_at     TEXT,
    -- The jobs it lists: [{slug, title, company, location}], at most the snapshot cap.
    jobs        TEXT       NOT NULL DEFAULT '[]',
    -- How many matched in all (jobs holds at most the snapshot cap).
    total       INTEGER     NOT NULL DEFAULT 0,
    CONSTRAINT user_notifications_kind_check CHECK (kind IN ('digest', 'reminder', 'nudge_silent', 'nudge_interview'))
);
CREATE INDEX user_notifications_user_idx ON user_notifications (user_id, created_at DESC, id DESC);

CREATE TABLE subscription_matches (
    subscription_id INTEGER      NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
    job_id          INTEGER      NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    matched_at      TEXT NOT NULL,
    -- Set when a digest took it (the digest's notification).
    notification_id INTEGER      REFERENCES user_notifications (id) ON DELETE SET NULL,
    notified_at     TEXT,
    claimed_at      TEXT,
    attempts        INTEGER     NOT NULL DEFAULT 0,
    failed_at       TEXT,
    last_error      text,
    PRIMARY KEY (subscription_id, job_id)
);
CREATE INDEX subscription_matches_pending_idx ON subscription_matches (subscription_id, matched_at)
    WHERE notified_at IS NULL;

-- One outgoing message of a notification on one channel: the delivery queue.
CREATE TABLE notification_deliveries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    notification_id INTEGER      NOT NULL REFERENCES user_notifications (id) ON DELETE CASCADE,
    user_id         INTEGER      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    channel         TEXT        NOT NULL,
    -- The address or URL it goes to (an email address is resolved at send time when NULL).
    destination     text,
    subscription_id INTEGER      REFERENCES subscriptions (id) ON DELETE SET NULL,
    -- pending → sent | failed (attempts exhausted).
    status          TEXT        NOT NULL DEFAULT 'pending',
    attempts        INTEGER     NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    claimed_by      text,
    claimed_until   TEXT,
    last_error      text,
    created_at      TEXT NOT NULL,
    sent_at         TEXT,
    CONSTRAINT notification_deliveries_channel_check CHECK (channel IN ('email', 'webhook')),
    CONSTRAINT notification_deliveries_status_check CHECK (status IN ('pending', 'sent', 'failed'))
);
CREATE INDEX notification_deliveries_due_idx ON notification_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE TABLE notification_settings (
    user_id              INTEGER   PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    enabled              INTEGER  NOT NULL DEFAULT 1,
    -- instant | daily | weekly.
    digest_frequency     TEXT     NOT NULL DEFAULT 'daily',
    -- The local hour (0–23) daily and weekly digests and reminders go out at.
    digest_hour          INTEGER NOT NULL DEFAULT 9,
    -- Local quiet hours [start, end) when nothing is sent; NULL = none.
    quiet_hours_start    INTEGER,
    quiet_hours_end      INTEGER,
    -- An IANA zone; NULL = the account's time zone, else UTC.
    timezone             text,
    alerts_email_enabled INTEGER  NOT NULL DEFAULT 1,
    updated_at           TEXT NOT NULL,
    CONSTRAINT notification_settings_frequency_check CHECK (digest_frequency IN ('instant', 'daily', 'weekly')),
    CONSTRAINT notification_settings_hour_check CHECK (digest_hour BETWEEN 0 AND 23),
    CONSTRAINT notification_settings_quiet_check CHECK ((quiet_hours_start IS NULL) = (quiet_hours_end IS NULL)
        AND (quiet_hours_start IS NULL OR (quiet_hours_start BETWEEN 0 AND 23 AND quiet_hours_end BETWEEN 0 AND 23)))
);

-- Where each engine has got to (the notify engine's last percolated job id).
CREATE TABLE engine_cursors (
    name       TEXT        PRIMARY KEY,
    position   INTEGER      NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
);
