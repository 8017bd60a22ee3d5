-- Plans and quotas (assistant reference §13, §16.6) and per-user gateway keys (§14.2, §16.5).
-- Same schema as migrations/postgres/0011_plans.sql, in SQLite's dialect (days as `YYYY-MM-DD`
-- text, timestamps as fixed-width RFC 3339 UTC text). Every row is deleted with its user.

-- One counter per (user, feature, UTC day); a new day is a new row (the reset is lazy).
CREATE TABLE usage_daily (
    user_id    INTEGER     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- tailor, match, assistant, dictation, cover-letter, auto-apply.
    feature    TEXT        NOT NULL,
    day        TEXT        NOT NULL,
    used       INTEGER     NOT NULL DEFAULT 0,
    updated_at TEXT        NOT NULL,
    CONSTRAINT usage_daily_key UNIQUE (user_id, feature, day),
    CONSTRAINT usage_daily_used_check CHECK (used >= 0)
);

-- Every charge, by reference; a released charge is restamped `release` and kept.
CREATE TABLE usage_ledger (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    feature    TEXT        NOT NULL,
    day        TEXT        NOT NULL,
    kind       TEXT        NOT NULL,
    delta      INTEGER     NOT NULL,
    ref        TEXT        NOT NULL,
    created_at TEXT        NOT NULL,
    CONSTRAINT usage_ledger_kind_check CHECK (kind IN ('consume', 'release'))
);
-- A reference is charged at most once while its charge stands.
CREATE UNIQUE INDEX usage_ledger_consume_ref_uniq ON usage_ledger (user_id, feature, ref) WHERE kind = 'consume';
CREATE INDEX usage_ledger_user_created_idx ON usage_ledger (user_id, created_at DESC);

-- The user's gateway virtual key (secret and id); rows with a secret and no id are allowed.
ALTER TABLE users ADD COLUMN llm_key text;
ALTER TABLE users ADD COLUMN llm_key_id text;
