-- Accounts (reference §4.2, §6.2): users, their one-time email codes and their API keys.
-- Same schema as migrations/postgres/0007_accounts.sql, in SQLite's dialect (timestamps are
-- fixed-width RFC 3339 UTC text, booleans 0/1). Deleting a user deletes every row it owns
-- (ON DELETE CASCADE; the store opens SQLite with foreign keys on).

CREATE TABLE users (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Stored lower-cased (the domain's Email form); unique on lower(email) all the same.
    email          TEXT    NOT NULL,
    -- The PHC string of the password's hash; NULL for an account without a password.
    password_hash  TEXT,
    created_at     TEXT    NOT NULL,
    role           TEXT    NOT NULL DEFAULT 'user',
    email_verified INTEGER NOT NULL DEFAULT 0,
    -- Sessions carry it; bumping it revokes every session.
    token_version  INTEGER NOT NULL DEFAULT 1,
    username       TEXT,
    timezone       TEXT,
    language       TEXT    NOT NULL DEFAULT 'en',
    -- The assistant plan: pro / ultra until then.
    pro_until      TEXT,
    ultra_until    TEXT,
    CONSTRAINT users_role_check CHECK (role IN ('user', 'moderator'))
);

CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- At most one live code per account and purpose; a new one replaces it (attempts back to 0).
CREATE TABLE user_email_codes (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT    NOT NULL,
    -- The code's keyed hash, hex: the code itself is never stored.
    code_hash  TEXT    NOT NULL,
    expires_at TEXT    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (user_id, purpose),
    CONSTRAINT user_email_codes_purpose_check CHECK (purpose IN ('verify', 'reset'))
);

CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    -- SHA-256 of the whole token, hex: the token itself is never stored.
    token_hash   TEXT    NOT NULL,
    token_prefix TEXT    NOT NULL,
    scope        TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    last_used_at TEXT,
    expires_at   TEXT,
    CONSTRAINT api_keys_token_hash_key UNIQUE (token_hash),
    CONSTRAINT api_keys_scope_check CHECK (scope IN ('full', 'cv'))
);

-- An owner's keys (the list, owner-scoped deletes, the cascade).
CREATE INDEX api_keys_user_id_idx ON api_keys (user_id);
