//! Statements on `usage_daily`, `usage_ledger` and the users' gateway-key columns, the same
//! text on both dialects. The counter row's lock is [`LOCK_DAY`]'s upsert (a row lock on
//! PostgreSQL; SQLite's `BEGIN IMMEDIATE` holds the database).

/// Creates the day's counter at 0 unless it exists and locks it until the transaction ends,
/// returning its count: one statement, the first of a charge's or a release's transaction. The
/// conflict's no-op update takes the row lock on PostgreSQL (a concurrent charge or release of
/// the same counter waits here, then reads the count it committed); on SQLite `BEGIN
/// IMMEDIATE` already holds the database.
pub(crate) const LOCK_DAY: &str = "INSERT INTO usage_daily (user_id, feature, day, used, updated_at) \
     VALUES ($1, $2, $3, 0, $4) ON CONFLICT (user_id, feature, day) \
     DO UPDATE SET used = usage_daily.used RETURNING used";

pub(crate) const SET_DAY: &str = "UPDATE usage_daily SET used = $4, updated_at = $5 \
     WHERE user_id = $1 AND feature = $2 AND day = $3";

/// Takes `$4` off the counter, never below 0.
pub(crate) const DECREMENT_DAY: &str = "UPDATE usage_daily \
     SET used = CASE WHEN used > $4 THEN used - $4 ELSE 0 END, updated_at = $5 \
     WHERE user_id = $1 AND feature = $2 AND day = $3";

/// A charge's reads once the counter is locked, in one statement (a snapshot taken after the
/// lock, so a charge of the same reference committed meanwhile is seen): whether the
/// reference's charge stands and the account's tier columns; no row when the account is gone.
pub(crate) const CHARGE_READS: &str = "SELECT (SELECT count(*) FROM usage_ledger \
     WHERE user_id = $1 AND feature = $2 AND ref = $3 AND kind = 'consume') AS charged, \
     pro_until, ultra_until FROM users WHERE id = $1";

pub(crate) const INSERT_CONSUMPTION: &str = "INSERT INTO usage_ledger \
     (user_id, feature, day, kind, delta, ref, created_at) VALUES ($1, $2, $3, 'consume', $4, $5, $6)";

/// The day a reference's standing charge was counted on.
pub(crate) const CONSUMPTION_DAY: &str = "SELECT day FROM usage_ledger \
     WHERE user_id = $1 AND feature = $2 AND ref = $3 AND kind = 'consume'";

/// Voids a standing charge, keeping the row as the audit trail.
pub(crate) const RELEASE_CONSUMPTION: &str = "UPDATE usage_ledger SET kind = 'release' \
     WHERE user_id = $1 AND feature = $2 AND ref = $3 AND kind = 'consume'";

/// The references of standing charges that start with `$3`.
pub(crate) const REFS_BY_PREFIX: &str = "SELECT ref FROM usage_ledger \
     WHERE user_id = $1 AND feature = $2 AND kind = 'consume' \
     AND substr(ref, 1, length($3)) = $3 ORDER BY ref";

/// One counter of a day (no lock: a read).
pub(crate) const USED_ON: &str =
    "SELECT used FROM usage_daily WHERE user_id = $1 AND feature = $2 AND day = $3";

/// Every counter of a user's day.
pub(crate) const DAY_OF: &str =
    "SELECT feature, used FROM usage_daily WHERE user_id = $1 AND day = $2";

/// The tier columns of an account.
pub(crate) const TIER_OF: &str = "SELECT pro_until, ultra_until FROM users WHERE id = $1";

pub(crate) const KEY_OF: &str = "SELECT llm_key, llm_key_id FROM users WHERE id = $1";

/// Stores a key only where none is stored (the first of racing claims wins).
pub(crate) const CLAIM_KEY: &str =
    "UPDATE users SET llm_key = $2, llm_key_id = $3 WHERE id = $1 AND llm_key IS NULL";

/// Clears the key only where it is still the given secret.
pub(crate) const CLEAR_KEY: &str =
    "UPDATE users SET llm_key = NULL, llm_key_id = NULL WHERE id = $1 AND llm_key = $2";

/// PostgreSQL's charge, first statement: the day's count (0 without a counter), whether the
/// reference's charge stands and the tier columns, read without a lock; no row when the
/// account is gone ([`CAS_CHARGE`] then commits it only if the count is unchanged).
pub(crate) const CHARGE_SNAPSHOT: &str = "SELECT \
     coalesce((SELECT used FROM usage_daily WHERE user_id = $1 AND feature = $2 AND day = $3), 0) \
     AS used, (SELECT count(*) FROM usage_ledger \
     WHERE user_id = $1 AND feature = $2 AND ref = $4 AND kind = 'consume') AS charged, \
     pro_until, ultra_until FROM users WHERE id = $1";

/// PostgreSQL's charge, second statement and its own commit: sets the day's counter to `$6`
/// only where it still holds `$5`, the count [`CHARGE_SNAPSHOT`] read (or creates it at `$6`
/// where there was none), and inserts the ledger row of `$8` units under reference `$4` only
/// when the counter moved: one row affected is the charge made, none a lost race (the caller
/// reads again). The conflict's update waits for a concurrent charge or release of the same
/// counter and then compares against what that one committed.
pub(crate) const CAS_CHARGE: &str = "WITH counter AS ( \
     INSERT INTO usage_daily (user_id, feature, day, used, updated_at) VALUES ($1, $2, $3, $6, $7) \
     ON CONFLICT (user_id, feature, day) DO UPDATE SET used = EXCLUDED.used, \
     updated_at = EXCLUDED.updated_at WHERE usage_daily.used = $5 RETURNING 1) \
     INSERT INTO usage_ledger (user_id, feature, day, kind, delta, ref, created_at) \
     SELECT $1, $2, $3, 'consume', $8, $4, $7 FROM counter";
