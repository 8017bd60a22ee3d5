//! Statements on `users`, `user_email_codes` and `api_keys`, shared by both dialects (all of
//! them: only the code row's lock differs, see `code_of!`). User reads never select the
//! password hash but its presence (`has_password`); the credential reads add it. Key columns
//! are aliased `key_*`, so a key and its owner decode from one joined row.

/// The columns every user read selects (decoded by `UserRecord`), each prefixed with `$p`
/// (a table alias and a dot, or nothing).
#[rustfmt::skip]
macro_rules! user_columns {
    ($p:literal) => {
        concat!(
            $p, "id, ", $p, "email, ", $p, "created_at, ", $p, "role, ",
            $p, "email_verified, ", $p, "token_version, ", $p, "username, ",
            $p, "timezone, ", $p, "language, ", $p, "pro_until, ", $p, "ultra_until, ",
            "(", $p, "password_hash IS NOT NULL) AS has_password"
        )
    };
}

/// The columns every key read selects, aliased `key_*` (decoded by `ApiKeyRecord`), each
/// prefixed with `$p`.
#[rustfmt::skip]
macro_rules! api_key_columns {
    ($p:literal) => {
        concat!(
            $p, "id AS key_id, ", $p, "user_id AS key_user_id, ", $p, "name AS key_name, ",
            $p, "token_prefix AS key_prefix, ", $p, "scope AS key_scope, ",
            $p, "created_at AS key_created_at, ", $p, "last_used_at AS key_last_used_at, ",
            $p, "expires_at AS key_expires_at"
        )
    };
}

pub(crate) const INSERT_USER: &str = concat!(
    "INSERT INTO users (email, password_hash, created_at, role, email_verified, language) \
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ",
    user_columns!("")
);

pub(crate) const USER_BY_ID: &str =
    concat!("SELECT ", user_columns!(""), " FROM users WHERE id = $1");

/// By address, through the unique index on `lower(email)`.
pub(crate) const CREDENTIALS_BY_EMAIL: &str = concat!(
    "SELECT ",
    user_columns!(""),
    ", password_hash FROM users WHERE lower(email) = lower($1)"
);

pub(crate) const CREDENTIALS_BY_ID: &str =
    concat!("SELECT ", user_columns!(""), ", password_hash FROM users WHERE id = $1");

/// A page of accounts, oldest first.
pub(crate) const USERS_PAGE: &str =
    concat!("SELECT ", user_columns!(""), " FROM users ORDER BY created_at, id LIMIT $1 OFFSET $2");

pub(crate) const USERS_COUNT: &str = "SELECT count(*) FROM users";

/// Sets the hash and adds `$2` (0 keeps the sessions, 1 revokes them) to `token_version`.
pub(crate) const SET_PASSWORD: &str = concat!(
    "UPDATE users SET password_hash = $1, token_version = token_version + $2 WHERE id = $3 \
     RETURNING ",
    user_columns!("")
);

pub(crate) const BUMP_TOKEN_VERSION: &str = concat!(
    "UPDATE users SET token_version = token_version + 1 WHERE id = $1 RETURNING ",
    user_columns!("")
);

pub(crate) const SET_ROLE: &str =
    concat!("UPDATE users SET role = $1 WHERE id = $2 RETURNING ", user_columns!(""));

pub(crate) const SET_VERIFIED: &str =
    concat!("UPDATE users SET email_verified = true WHERE id = $1 RETURNING ", user_columns!(""));

/// A profile patch: `$1`/`$3` say whether `username`/`timezone` change (to `$2`/`$4`, NULL
/// clearing them); a NULL `$5` keeps the language.
pub(crate) const UPDATE_PROFILE: &str = concat!(
    "UPDATE users SET username = CASE WHEN $1 THEN $2 ELSE username END, \
     timezone = CASE WHEN $3 THEN $4 ELSE timezone END, \
     language = COALESCE($5, language) WHERE id = $6 RETURNING ",
    user_columns!("")
);

/// Codes and keys go with it (ON DELETE CASCADE).
pub(crate) const DELETE_USER: &str = "DELETE FROM users WHERE id = $1";

/// Stores a code for an existing account, replacing its code of the same purpose with the
/// attempts at zero; affects no row when there is no such account.
pub(crate) const PUT_CODE: &str = "INSERT INTO user_email_codes \
     (user_id, purpose, code_hash, expires_at, attempts, created_at) \
     SELECT id, $2, $3, $4, 0, $5 FROM users WHERE id = $1 \
     ON CONFLICT (user_id, purpose) DO UPDATE SET code_hash = excluded.code_hash, \
     expires_at = excluded.expires_at, attempts = 0, created_at = excluded.created_at";

/// The live code of an owner and purpose; each adapter appends its row lock (none on SQLite,
/// whose write transaction holds the database).
macro_rules! code_of {
    ($lock:literal) => {
        concat!(
            "SELECT code_hash, expires_at, attempts FROM user_email_codes \
             WHERE user_id = $1 AND purpose = $2",
            $lock
        )
    };
}
pub(crate) use code_of;

pub(crate) const DELETE_CODE: &str =
    "DELETE FROM user_email_codes WHERE user_id = $1 AND purpose = $2";

pub(crate) const COUNT_ATTEMPT: &str =
    "UPDATE user_email_codes SET attempts = attempts + 1 WHERE user_id = $1 AND purpose = $2";

/// A reset code's action: the new hash, the address proven, every session revoked.
pub(crate) const RESET_PASSWORD: &str = concat!(
    "UPDATE users SET password_hash = $1, email_verified = true, \
     token_version = token_version + 1 WHERE id = $2 RETURNING ",
    user_columns!("")
);

pub(crate) const INSERT_API_KEY: &str = concat!(
    "INSERT INTO api_keys (user_id, name, token_hash, token_prefix, scope, created_at, \
     expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ",
    api_key_columns!("")
);

/// An owner's keys, newest first.
pub(crate) const API_KEYS_OF: &str = concat!(
    "SELECT ",
    api_key_columns!(""),
    " FROM api_keys WHERE user_id = $1 ORDER BY created_at DESC, id DESC"
);

/// Owner-scoped: another account's key id deletes nothing.
pub(crate) const DELETE_API_KEY: &str = "DELETE FROM api_keys WHERE id = $1 AND user_id = $2";

/// The key of a token hash and its owner, in one row.
pub(crate) const KEY_HOLDER: &str = concat!(
    "SELECT ",
    api_key_columns!("k."),
    ", ",
    user_columns!("u."),
    " FROM api_keys AS k JOIN users AS u ON u.id = k.user_id WHERE k.token_hash = $1"
);

/// Stamps `$1` unless the key was stamped after `$3` (`$1` minus the interval).
pub(crate) const TOUCH_API_KEY: &str = "UPDATE api_keys SET last_used_at = $1 \
     WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $3)";
