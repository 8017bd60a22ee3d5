//! [`AccountRepo`](crate::AccountRepo) bodies both backends run unchanged: accounts, one-time
//! email codes and API keys, over the statements of [`sql::accounts`]. The adapters pass their
//! pool (on SQLite, the writer pool for writes), their transaction (`BEGIN IMMEDIATE` on
//! SQLite) and the code row's lock (`FOR UPDATE` on PostgreSQL).
//!
//! Redeeming a code is one transaction: read the code row (locked), judge it in Rust
//! ([`judge`]: missing, exhausted, expired, wrong or right, the hashes compared in constant
//! time), then delete it, count the attempt, or delete it and apply the [`Redeem`] action,
//! and commit. Two concurrent redeems of one code therefore see each other's writes: at most
//! one is `Redeemed`, and no wrong attempt is lost.

use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::{ApiKey, ApiKeyId, CodePurpose, Email, Role, User, UserId};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type};
use subtle::ConstantTimeEq;

use super::{RowsAffected, Shared};
use crate::{
    CodeOutcome, Credentials, KeyHolder, ListPage, NewApiKey, NewEmailCode, NewUser, ProfilePatch,
    Redeem, Result, Sessions, StoreError, UserList,
    bind::Stamp,
    rows::{
        accounts::{ApiKeyRecord, CodeRecord, CredentialsRecord, HolderRecord, UserRecord},
        count,
    },
    sql::accounts as sql,
};

/// What the live code of a redeem is, before anything is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Entered wrongly `max_attempts` times already: delete it, refuse.
    Exhausted,
    /// Its time ran out: delete it, refuse.
    Expired,
    /// Wrong: count the attempt (delete the code when none is left).
    Wrong { attempts_left: u32 },
    /// Right and live: delete it and apply the action.
    Right,
}

/// Judges the live code against the entered hash at `now`. Exhaustion is checked before expiry,
/// both before the hash: a spent or expired code says so whatever is entered.
fn judge(
    code: &CodeRecord,
    entered: &str,
    max_attempts: u32,
    now: DateTime<Utc>,
) -> Result<Verdict> {
    let attempts = code.attempts()?;
    if attempts >= max_attempts {
        return Ok(Verdict::Exhausted);
    }
    if code.expires_at() <= now {
        return Ok(Verdict::Expired);
    }
    let right: bool = code.code_hash().as_bytes().ct_eq(entered.as_bytes()).into();
    if right {
        Ok(Verdict::Right)
    } else {
        // attempts < max_attempts, so this does not underflow.
        Ok(Verdict::Wrong { attempts_left: max_attempts - attempts - 1 })
    }
}

/// A unique violation of the statement's one unique value as [`StoreError::Conflict`] naming
/// `field`; any other error as it is.
fn taken(e: sqlx::Error, field: &'static str) -> StoreError {
    match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict { field },
        _ => e.into(),
    }
}

fn user(row: Option<UserRecord>) -> Result<Option<User>> {
    row.map(UserRecord::into_user).transpose()
}

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> bool: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q> Option<Stamp>: Encode<'q, DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    UserRecord: for<'r> FromRow<'r, DB::Row>,
    CredentialsRecord: for<'r> FromRow<'r, DB::Row>,
    ApiKeyRecord: for<'r> FromRow<'r, DB::Row>,
    HolderRecord: for<'r> FromRow<'r, DB::Row>,
    CodeRecord: for<'r> FromRow<'r, DB::Row>,
{
    // ---- accounts ----

    pub async fn create_user(
        pool: &Pool<DB>,
        new: &NewUser<'_>,
        at: DateTime<Utc>,
    ) -> Result<User> {
        let row: UserRecord = sqlx::query_as(sql::INSERT_USER)
            .bind(new.email.as_str())
            .bind(new.password_hash)
            .bind(Stamp(at))
            .bind(new.role.as_str())
            .bind(new.email_verified)
            .bind(new.language.as_str())
            .fetch_one(pool)
            .await
            .map_err(|e| taken(e, "email"))?;
        row.into_user()
    }

    pub async fn user_by_id(pool: &Pool<DB>, id: UserId) -> Result<Option<User>> {
        user(sqlx::query_as(sql::USER_BY_ID).bind(id.get()).fetch_optional(pool).await?)
    }

    pub async fn credentials_by_email(
        pool: &Pool<DB>,
        email: &Email,
    ) -> Result<Option<Credentials>> {
        let row: Option<CredentialsRecord> = sqlx::query_as(sql::CREDENTIALS_BY_EMAIL)
            .bind(email.as_str())
            .fetch_optional(pool)
            .await?;
        row.map(CredentialsRecord::into_credentials).transpose()
    }

    pub async fn credentials_by_id(pool: &Pool<DB>, id: UserId) -> Result<Option<Credentials>> {
        let row: Option<CredentialsRecord> =
            sqlx::query_as(sql::CREDENTIALS_BY_ID).bind(id.get()).fetch_optional(pool).await?;
        row.map(CredentialsRecord::into_credentials).transpose()
    }

    pub async fn list_users(pool: &Pool<DB>, page: ListPage) -> Result<UserList> {
        let rows: Vec<UserRecord> = sqlx::query_as(sql::USERS_PAGE)
            .bind(i64::from(page.limit()))
            .bind(page.offset_i64())
            .fetch_all(pool)
            .await?;
        let total: i64 = sqlx::query_scalar(sql::USERS_COUNT).fetch_one(pool).await?;
        let users = rows.into_iter().map(UserRecord::into_user).collect::<Result<_>>()?;
        Ok(UserList { users, total: count(total) })
    }

    pub async fn set_password_hash(
        pool: &Pool<DB>,
        id: UserId,
        hash: &str,
        sessions: Sessions,
    ) -> Result<Option<User>> {
        let bump: i64 = match sessions {
            Sessions::Keep => 0,
            Sessions::Revoke => 1,
        };
        user(
            sqlx::query_as(sql::SET_PASSWORD)
                .bind(hash)
                .bind(bump)
                .bind(id.get())
                .fetch_optional(pool)
                .await?,
        )
    }

    pub async fn bump_token_version(pool: &Pool<DB>, id: UserId) -> Result<Option<User>> {
        user(sqlx::query_as(sql::BUMP_TOKEN_VERSION).bind(id.get()).fetch_optional(pool).await?)
    }

    pub async fn set_role(pool: &Pool<DB>, id: UserId, role: Role) -> Result<Option<User>> {
        user(
            sqlx::query_as(sql::SET_ROLE)
                .bind(role.as_str())
                .bind(id.get())
                .fetch_optional(pool)
                .await?,
        )
    }

    pub async fn set_email_verified(pool: &Pool<DB>, id: UserId) -> Result<Option<User>> {
        user(sqlx::query_as(sql::SET_VERIFIED).bind(id.get()).fetch_optional(pool).await?)
    }

    /// Applies a patch in one statement; an empty patch only reads.
    pub async fn update_profile(
        pool: &Pool<DB>,
        id: UserId,
        patch: &ProfilePatch,
    ) -> Result<Option<User>> {
        if patch.is_empty() {
            return Self::user_by_id(pool, id).await;
        }
        let username = patch.username.as_ref().and_then(|u| u.as_ref().map(|u| u.as_str()));
        let timezone = patch.timezone.as_ref().and_then(|t| t.as_ref().map(|t| t.as_str()));
        user(
            sqlx::query_as(sql::UPDATE_PROFILE)
                .bind(patch.username.is_some())
                .bind(username)
                .bind(patch.timezone.is_some())
                .bind(timezone)
                .bind(patch.language.as_ref().map(|l| l.as_str()))
                .bind(id.get())
                .fetch_optional(pool)
                .await?,
        )
    }

    pub async fn delete_user(pool: &Pool<DB>, id: UserId) -> Result<bool> {
        let done = sqlx::query(sql::DELETE_USER).bind(id.get()).execute(pool).await?;
        Ok(done.rows_affected() > 0)
    }

    // ---- one-time codes ----

    pub async fn put_email_code(
        pool: &Pool<DB>,
        owner: UserId,
        code: &NewEmailCode<'_>,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(sql::PUT_CODE)
            .bind(owner.get())
            .bind(code.purpose.as_str())
            .bind(code.code_hash)
            .bind(Stamp(code.expires_at))
            .bind(Stamp(at))
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Redeems in the caller's transaction (see the module docs); `code_of` is the dialect's
    /// `sql::accounts::code_of!`.
    #[allow(clippy::too_many_arguments)]
    pub async fn redeem_email_code(
        mut tx: Transaction<'_, DB>,
        code_of: &'static str,
        owner: UserId,
        purpose: CodePurpose,
        code_hash: &str,
        redeem: &Redeem,
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<CodeOutcome> {
        let code: Option<CodeRecord> = sqlx::query_as(code_of)
            .bind(owner.get())
            .bind(purpose.as_str())
            .fetch_optional(&mut *tx)
            .await?;
        let Some(code) = code else {
            tx.rollback().await?;
            return Ok(CodeOutcome::Missing);
        };
        let verdict = judge(&code, code_hash, max_attempts, now)?;
        let consume = !matches!(verdict, Verdict::Wrong { attempts_left } if attempts_left > 0);
        let statement = if consume { sql::DELETE_CODE } else { sql::COUNT_ATTEMPT };
        sqlx::query(statement).bind(owner.get()).bind(purpose.as_str()).execute(&mut *tx).await?;
        let outcome = match verdict {
            Verdict::Exhausted => CodeOutcome::Exhausted,
            Verdict::Expired => CodeOutcome::Expired,
            Verdict::Wrong { attempts_left } => CodeOutcome::Wrong { attempts_left },
            Verdict::Right => {
                let row: Option<UserRecord> = match redeem {
                    Redeem::Verify => {
                        sqlx::query_as(sql::SET_VERIFIED)
                            .bind(owner.get())
                            .fetch_optional(&mut *tx)
                            .await?
                    }
                    Redeem::SetPassword(hash) => {
                        sqlx::query_as(sql::RESET_PASSWORD)
                            .bind(hash.as_str())
                            .bind(owner.get())
                            .fetch_optional(&mut *tx)
                            .await?
                    }
                };
                // The code row's foreign key keeps its account; a missing one is no code.
                user(row)?.map_or(CodeOutcome::Missing, CodeOutcome::Redeemed)
            }
        };
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(outcome)
    }

    // ---- API keys ----

    pub async fn create_api_key(
        pool: &Pool<DB>,
        owner: UserId,
        key: &NewApiKey<'_>,
        at: DateTime<Utc>,
    ) -> Result<ApiKey> {
        let row: ApiKeyRecord = sqlx::query_as(sql::INSERT_API_KEY)
            .bind(owner.get())
            .bind(key.name.as_str())
            .bind(key.token_hash)
            .bind(key.prefix)
            .bind(key.scope.as_str())
            .bind(Stamp(at))
            .bind(Stamp::opt(key.expires_at))
            .fetch_one(pool)
            .await
            .map_err(|e| taken(e, "token"))?;
        row.into_api_key()
    }

    pub async fn list_api_keys(pool: &Pool<DB>, owner: UserId) -> Result<Vec<ApiKey>> {
        let rows: Vec<ApiKeyRecord> =
            sqlx::query_as(sql::API_KEYS_OF).bind(owner.get()).fetch_all(pool).await?;
        rows.into_iter().map(ApiKeyRecord::into_api_key).collect()
    }

    pub async fn delete_api_key(pool: &Pool<DB>, owner: UserId, id: ApiKeyId) -> Result<bool> {
        let done =
            sqlx::query(sql::DELETE_API_KEY).bind(id.get()).bind(owner.get()).execute(pool).await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn api_key_holder(pool: &Pool<DB>, token_hash: &str) -> Result<Option<KeyHolder>> {
        let row: Option<HolderRecord> =
            sqlx::query_as(sql::KEY_HOLDER).bind(token_hash).fetch_optional(pool).await?;
        row.map(HolderRecord::into_holder).transpose()
    }

    /// One conditional `UPDATE`: writes only when the last stamp is at least `min_interval`
    /// old (instants in microseconds, as both backends store them).
    pub async fn touch_api_key(
        pool: &Pool<DB>,
        id: ApiKeyId,
        at: DateTime<Utc>,
        min_interval: chrono::Duration,
    ) -> Result<bool> {
        let at = at.trunc_subsecs(6);
        let cutoff = at.checked_sub_signed(min_interval).unwrap_or(DateTime::<Utc>::MIN_UTC);
        let done = sqlx::query(sql::TOUCH_API_KEY)
            .bind(Stamp(at))
            .bind(id.get())
            .bind(Stamp(cutoff))
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::{Duration, TimeZone};

    use super::*;

    fn code(hash: &str, attempts: i32, expires_at: DateTime<Utc>) -> CodeRecord {
        CodeRecord::new(hash.to_owned(), Stamp(expires_at), attempts)
    }

    #[test]
    fn a_code_is_judged_spent_then_expired_then_by_its_hash() {
        let now = Utc.with_ymd_and_hms(2026, 11, 5, 8, 0, 0).unwrap();
        let live = now + Duration::minutes(10);
        assert_eq!(judge(&code("aa", 0, live), "aa", 5, now).unwrap(), Verdict::Right);
        assert_eq!(
            judge(&code("aa", 0, live), "ab", 5, now).unwrap(),
            Verdict::Wrong { attempts_left: 4 }
        );
        assert_eq!(
            judge(&code("aa", 4, live), "ab", 5, now).unwrap(),
            Verdict::Wrong { attempts_left: 0 }
        );
        assert_eq!(
            judge(&code("aa", 0, live), "aaa", 5, now).unwrap(),
            Verdict::Wrong { attempts_left: 4 }
        );
        // Spent wins over expired, and both over a right hash.
        assert_eq!(judge(&code("aa", 5, now), "aa", 5, now).unwrap(), Verdict::Exhausted);
        assert_eq!(judge(&code("aa", 0, now), "aa", 5, now).unwrap(), Verdict::Expired);
        assert_eq!(judge(&code("aa", 0, live), "aa", 0, now).unwrap(), Verdict::Exhausted);
        assert!(judge(&code("aa", -1, live), "aa", 5, now).is_err());
    }
}
