-- The catalogue: jobs, boards and board health (reference §4.1, §3.5, §3.8).
-- Same schema as migrations/postgres/0001_catalogue.sql, in SQLite's dialect:
-- timestamps are RFC 3339 UTC text with microseconds (fixed width, so text order is time
-- order), arrays are JSON text, booleans are 0/1.

CREATE TABLE jobs (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    source                 TEXT    NOT NULL,
    external_id            TEXT    NOT NULL,
    url                    TEXT    NOT NULL DEFAULT '',
    public_slug            TEXT    NOT NULL,
    title                  TEXT    NOT NULL,
    company                TEXT    NOT NULL DEFAULT '',
    company_slug           TEXT    NOT NULL DEFAULT '',
    company_slug_folded    TEXT    NOT NULL DEFAULT '',
    location               TEXT    NOT NULL DEFAULT '',
    remote                 INTEGER NOT NULL DEFAULT 0,
    posted_at              TEXT,
    created_at             TEXT    NOT NULL,
    updated_at             TEXT    NOT NULL,
    last_seen_at           TEXT    NOT NULL,
    closed_at              TEXT,
    closed_reason          TEXT,
    countries              TEXT    NOT NULL DEFAULT '[]',
    regions                TEXT    NOT NULL DEFAULT '[]',
    cities                 TEXT    NOT NULL DEFAULT '[]',
    work_mode              TEXT,
    seniority              TEXT,
    category               TEXT,
    is_tech                INTEGER,
    skills                 TEXT    NOT NULL DEFAULT '[]',
    employment_type        TEXT,
    education_level        TEXT,
    english_level          TEXT,
    experience_years_min   INTEGER,
    requires_clearance     INTEGER,
    posting_language       TEXT,
    salary_min_source      INTEGER,
    salary_max_source      INTEGER,
    salary_currency_source TEXT,
    salary_period_source   TEXT,
    content_hash           TEXT    NOT NULL,
    role_fingerprint       TEXT    NOT NULL DEFAULT '',
    duplicate_of           INTEGER REFERENCES jobs (id) ON DELETE SET NULL,
    -- Last: the widest column. SQLite then reads the columns before it (hashes, dates)
    -- without following overflow pages.
    description            TEXT    NOT NULL DEFAULT '',
    CONSTRAINT jobs_source_external_id_key UNIQUE (source, external_id),
    CONSTRAINT jobs_public_slug_key UNIQUE (public_slug),
    CONSTRAINT jobs_closed_reason_check CHECK ((closed_at IS NULL) = (closed_reason IS NULL)),
    CONSTRAINT jobs_work_mode_check CHECK (work_mode IN ('remote', 'hybrid', 'onsite')),
    CONSTRAINT jobs_salary_period_check CHECK (salary_period_source IN ('year', 'month', 'day', 'hour'))
);

CREATE INDEX jobs_open_created_idx ON jobs (created_at DESC, id DESC)
    WHERE closed_at IS NULL AND duplicate_of IS NULL;
CREATE INDEX jobs_company_slug_folded_idx ON jobs (company_slug_folded) WHERE closed_at IS NULL;
-- (source, external_id) prefix scans use the UNIQUE constraint's index in SQLite. No index
-- covers last_seen_at: every re-crawl bumps it, and the sweep scans a source's open rows.

CREATE TABLE boards (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    provider        TEXT NOT NULL,
    board           TEXT NOT NULL,
    region          TEXT NOT NULL DEFAULT '',
    company         TEXT NOT NULL,
    url             TEXT,
    status          TEXT NOT NULL DEFAULT 'pending',
    rejected_reason TEXT,
    created_at      TEXT NOT NULL,
    activated_at    TEXT,
    CONSTRAINT boards_status_check CHECK (status IN ('pending', 'active', 'rejected', 'retired'))
);

CREATE UNIQUE INDEX boards_identity_key ON boards (provider, lower(board), region)
    WHERE status IN ('pending', 'active');

CREATE TABLE board_health (
    provider             TEXT    NOT NULL,
    board                TEXT    NOT NULL,
    region               TEXT    NOT NULL DEFAULT '',
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    cooldown_until       TEXT,
    last_error           TEXT,
    last_error_at        TEXT,
    last_success_at      TEXT,
    last_ingested_count  INTEGER NOT NULL DEFAULT 0,
    last_run_at          TEXT,
    first_seen_at        TEXT    NOT NULL,
    last_yield_at        TEXT,
    PRIMARY KEY (provider, board, region)
);
