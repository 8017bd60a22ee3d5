-- Plans and quotas (assistant reference §13, §16.6) and per-user gateway keys (§14.2, §16.5).
-- Same schema as migrations/sqlite/0011_plans.sql, in PostgreSQL's dialect. Every row is
-- deleted with its user.

-- One counter per (user, feature, UTC day); a new day is a new row (the reset is lazy).
CREATE TABLE usage_daily (
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- tailor, match, assistant, dictation, cover-letter, auto-apply.
    feature    text        NOT NULL,
    day        date        NOT NULL,
    used       bigint      NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL,
    CONSTRAINT usage_daily_key UNIQUE (user_id, feature, day),
    CONSTRAINT usage_daily_used_check CHECK (used >= 0)
);

-- Every charge, by reference; a released charge is restamped `release` and kept.
CREATE TABLE usage_ledger (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    feature    text        NOT NULL,
    day        date        NOT NULL,
    kind       text        NOT NULL,
    delta      bigint      NOT NULL,
    ref        text        NOT NULL,
    created_at timestamptz NOT NULL,
    CONSTRAINT usage_ledger_kind_check CHECK (kind IN ('consume', 'release'))
);
-- A reference is charged at most once while its charge stands.
CREATE UNIQUE INDEX usage_ledger_consume_ref_uniq ON usage_ledger (user_id, feature, ref) WHERE kind = 'consume';
CREATE INDEX usage_ledger_user_created_idx ON usage_ledger (user_id, created_at DESC);

-- The user's gateway virtual key (secret and id); rows with a secret and no id are allowed.
ALTER TABLE users ADD COLUMN llm_key text;
ALTER TABLE users ADD COLUMN llm_key_id text;
