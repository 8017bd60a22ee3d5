-- The catalogue: jobs, boards and board health (reference §4.1, §3.5, §3.8).
-- Same schema as migrations/sqlite/0001_catalogue.sql, in PostgreSQL's dialect.

CREATE TABLE jobs (
    id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source                 text        NOT NULL,
    external_id            text        NOT NULL,
    url                    text        NOT NULL DEFAULT '',
    public_slug            text        NOT NULL,
    title                  text        NOT NULL,
    company                text        NOT NULL DEFAULT '',
    company_slug           text        NOT NULL DEFAULT '',
    company_slug_folded    text        NOT NULL DEFAULT '',
    location               text        NOT NULL DEFAULT '',
    remote                 boolean     NOT NULL DEFAULT false,
    posted_at              timestamptz,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    last_seen_at           timestamptz NOT NULL,
    closed_at              timestamptz,
    closed_reason          text,
    countries              text[]      NOT NULL DEFAULT '{}',
    regions                text[]      NOT NULL DEFAULT '{}',
    cities                 text[]      NOT NULL DEFAULT '{}',
    work_mode              text,
    seniority              text,
    category               text,
    is_tech                boolean,
    skills                 text[]      NOT NULL DEFAULT '{}',
    employment_type        text,
    education_level        text,
    english_level          text,
    experience_years_min   integer,
    requires_clearance     boolean,
    posting_language       text,
    salary_min_source      bigint,
    salary_max_source      bigint,
    salary_currency_source text,
    salary_period_source   text,
    content_hash           text        NOT NULL,
    role_fingerprint       text        NOT NULL DEFAULT '',
    duplicate_of           bigint      REFERENCES jobs (id) ON DELETE SET NULL,
    -- Last: the widest column. SQLite then reads the columns before it (hashes, dates)
    -- without following overflow pages.
    description            text        NOT NULL DEFAULT '',
    CONSTRAINT jobs_source_external_id_key UNIQUE (source, external_id),
    CONSTRAINT jobs_public_slug_key UNIQUE (public_slug),
    CONSTRAINT jobs_closed_reason_check CHECK ((closed_at IS NULL) = (closed_reason IS NULL)),
    CONSTRAINT jobs_work_mode_check CHECK (work_mode IN ('remote', 'hybrid', 'onsite')),
    CONSTRAINT jobs_salary_period_check CHECK (salary_period_source IN ('year', 'month', 'day', 'hour'))
) WITH (fillfactor = 90);
-- fillfactor leaves room on each page so a re-crawl's `last_seen_at` bump is a HOT update.
-- No index may cover last_seen_at for the same reason: the unseen sweep scans a source's open
-- rows through jobs_source_extid_pattern_idx instead.

-- The public list order: open, non-duplicate, newest first.
CREATE INDEX jobs_open_created_idx ON jobs (created_at DESC, id DESC)
    WHERE closed_at IS NULL AND duplicate_of IS NULL;
-- The `<board>:` prefix of namespaced external ids (seen sets, board-scoped closes).
CREATE INDEX jobs_source_extid_pattern_idx ON jobs (source, external_id text_pattern_ops);
-- Company pages and merges.
CREATE INDEX jobs_company_slug_folded_idx ON jobs (company_slug_folded) WHERE closed_at IS NULL;

CREATE TABLE boards (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider        text        NOT NULL,
    board           text        NOT NULL,
    region          text        NOT NULL DEFAULT '',
    company         text        NOT NULL,
    url             text,
    status          text        NOT NULL DEFAULT 'pending',
    rejected_reason text,
    created_at      timestamptz NOT NULL,
    activated_at    timestamptz,
    CONSTRAINT boards_status_check CHECK (status IN ('pending', 'active', 'rejected', 'retired'))
);

-- One live row per board identity: (provider, lower(board), region) among pending/active.
CREATE UNIQUE INDEX boards_identity_key ON boards (provider, lower(board), region)
    WHERE status IN ('pending', 'active');

-- Runtime crawl state, keyed by board identity (board folded to lowercase).
CREATE TABLE board_health (
    provider             text        NOT NULL,
    board                text        NOT NULL,
    region               text        NOT NULL DEFAULT '',
    consecutive_failures integer     NOT NULL DEFAULT 0,
    cooldown_until       timestamptz,
    last_error           text,
    last_error_at        timestamptz,
    last_success_at      timestamptz,
    last_ingested_count  bigint      NOT NULL DEFAULT 0,
    last_run_at          timestamptz,
    first_seen_at        timestamptz NOT NULL,
    last_yield_at        timestamptz,
    PRIMARY KEY (provider, board, region)
);
