//! [`AccountRepo`] on PostgreSQL: `Shared`'s bodies; a code is redeemed in a transaction that
//! locks its row (`FOR UPDATE`), so concurrent redeems of one code take turns. Reads and the
//! redeem transaction run once more if they lost their connection before committing
//! ([`retry_once_if_lost`]); the single-statement writes do not.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ApiKey, ApiKeyId, CodePurpose, Email, Role, User, UserId};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    AccountRepo, CodeOutcome, Credentials, KeyHolder, ListPage, NewApiKey, NewEmailCode, NewUser,
    ProfilePatch, Redeem, Result, Sessions, UserList,
};

/// The live code of an owner and purpose, locked until the redeem commits.
const CODE_OF: &str = crate::sql::accounts::code_of!(" FOR UPDATE");

#[async_trait]
impl AccountRepo for PgStore {
    async fn create_user(&self, user: &NewUser<'_>, at: DateTime<Utc>) -> Result<User> {
        Shared::create_user(&self.pool, user, at).await
    }

    async fn user_by_id(&self, id: UserId) -> Result<Option<User>> {
        retry_once_if_lost(|| Shared::user_by_id(&self.pool, id)).await
    }

    async fn credentials_by_email(&self, email: &Email) -> Result<Option<Credentials>> {
        retry_once_if_lost(|| Shared::credentials_by_email(&self.pool, email)).await
    }

    async fn credentials_by_id(&self, id: UserId) -> Result<Option<Credentials>> {
        retry_once_if_lost(|| Shared::credentials_by_id(&self.pool, id)).await
    }

    async fn list_users(&self, page: ListPage) -> Result<UserList> {
        retry_once_if_lost(|| Shared::list_users(&self.pool, page)).await
    }

    async fn set_password_hash(
        &self,
        id: UserId,
        hash: &str,
        sessions: Sessions,
    ) -> Result<Option<User>> {
        Shared::set_password_hash(&self.pool, id, hash, sessions).await
    }

    async fn bump_token_version(&self, id: UserId) -> Result<Option<User>> {
        Shared::bump_token_version(&self.pool, id).await
    }

    async fn set_role(&self, id: UserId, role: Role) -> Result<Option<User>> {
        Shared::set_role(&self.pool, id, role).await
    }

    async fn set_email_verified(&self, id: UserId) -> Result<Option<User>> {
        Shared::set_email_verified(&self.pool, id).await
    }

    async fn update_profile(&self, id: UserId, patch: &ProfilePatch) -> Result<Option<User>> {
        if patch.is_empty() {
            return self.user_by_id(id).await;
        }
        Shared::update_profile(&self.pool, id, patch).await
    }

    async fn delete_user(&self, id: UserId) -> Result<bool> {
        Shared::delete_user(&self.pool, id).await
    }

    async fn put_email_code(
        &self,
        owner: UserId,
        code: &NewEmailCode<'_>,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::put_email_code(&self.pool, owner, code, at).await
    }

    async fn redeem_email_code(
        &self,
        owner: UserId,
        purpose: CodePurpose,
        code_hash: &str,
        redeem: &Redeem,
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<CodeOutcome> {
        retry_once_if_lost(|| async move {
            let tx = self.pool.begin().await?;
            Shared::redeem_email_code(
                tx,
                CODE_OF,
                owner,
                purpose,
                code_hash,
                redeem,
                max_attempts,
                now,
            )
            .await
        })
        .await
    }

    async fn create_api_key(
        &self,
        owner: UserId,
        key: &NewApiKey<'_>,
        at: DateTime<Utc>,
    ) -> Result<ApiKey> {
        Shared::create_api_key(&self.pool, owner, key, at).await
    }

    async fn list_api_keys(&self, owner: UserId) -> Result<Vec<ApiKey>> {
        retry_once_if_lost(|| Shared::list_api_keys(&self.pool, owner)).await
    }

    async fn delete_api_key(&self, owner: UserId, id: ApiKeyId) -> Result<bool> {
        Shared::delete_api_key(&self.pool, owner, id).await
    }

    async fn api_key_holder(&self, token_hash: &str) -> Result<Option<KeyHolder>> {
        retry_once_if_lost(|| Shared::api_key_holder(&self.pool, token_hash)).await
    }

    async fn touch_api_key(
        &self,
        id: ApiKeyId,
        at: DateTime<Utc>,
        min_interval: chrono::Duration,
    ) -> Result<bool> {
        // A lost last-use stamp is harmless: the coordination pool, no WAL flush.
        Shared::touch_api_key(&self.quick, id, at, min_interval).await
    }
}
