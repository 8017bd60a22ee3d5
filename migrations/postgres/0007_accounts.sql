-- Accounts (reference §4.2, §6.2): users, their one-time email codes and their API keys.
-- Same schema as migrations/sqlite/0007_accounts.sql, in PostgreSQL's dialect. Deleting a
-- user deletes every row it owns (ON DELETE CASCADE).

CREATE TABLE users (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- Stored lower-cased (the domain's Email form); unique on lower(email) all the same.
    email          text        NOT NULL,
    -- The PHC string of the password's hash; NULL for an account without a password.
    password_hash  text,
    created_at     timestamptz NOT NULL,
    role           text        NOT NULL DEFAULT 'user',
    email_verified boolean     NOT NULL DEFAULT false,
    -- Sessions carry it; bumping it revokes every session.
    token_version  bigint      NOT NULL DEFAULT 1,
    username       text,
    timezone       text,
    language       text        NOT NULL DEFAULT 'en',
    -- The assistant plan: pro / ultra until then.
    pro_until      timestamptz,
    ultra_until    timestamptz,
    CONSTRAINT users_role_check CHECK (role IN ('user', 'moderator'))
);

CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- At most one live code per account and purpose; a new one replaces it (attempts back to 0).
CREATE TABLE user_email_codes (
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    text        NOT NULL,
    -- The code's keyed hash, hex: the code itself is never stored.
    code_hash  text        NOT NULL,
    expires_at timestamptz NOT NULL,
    attempts   integer     NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, purpose),
    CONSTRAINT user_email_codes_purpose_check CHECK (purpose IN ('verify', 'reset'))
);

CREATE TABLE api_keys (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text        NOT NULL,
    -- SHA-256 of the whole token, hex: the token itself is never stored.
    token_hash   text        NOT NULL,
    token_prefix text        NOT NULL,
    scope        text        NOT NULL,
    created_at   timestamptz NOT NULL,
    last_used_at timestamptz,
    expires_at   timestamptz,
    CONSTRAINT api_keys_token_hash_key UNIQUE (token_hash),
    CONSTRAINT api_keys_scope_check CHECK (scope IN ('full', 'cv'))
);

-- An owner's keys (the list, owner-scoped deletes, the cascade).
CREATE INDEX api_keys_user_id_idx ON api_keys (user_id);
