//! [`AccountRepo`] on SQLite: `Shared`'s bodies, reads on the reader pool, writes on the one
//! writer connection, and a code redeemed in a `BEGIN IMMEDIATE` transaction (which holds the
//! database, so the code row needs no lock of its own).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{ApiKey, ApiKeyId, CodePurpose, Email, Role, User, UserId};

use super::{Shared, SqliteStore};
use crate::{
    AccountRepo, CodeOutcome, Credentials, KeyHolder, ListPage, NewApiKey, NewEmailCode, NewUser,
    ProfilePatch, Redeem, Result, Sessions, UserList,
};

/// The live code of an owner and purpose (no lock: the write transaction holds the database).
const CODE_OF: &str = crate::sql::accounts::code_of!("");

#[async_trait]
impl AccountRepo for SqliteStore {
    async fn create_user(&self, user: &NewUser<'_>, at: DateTime<Utc>) -> Result<User> {
        Shared::create_user(&self.writer, user, at).await
    }

    async fn user_by_id(&self, id: UserId) -> Result<Option<User>> {
        Shared::user_by_id(&self.pool, id).await
    }

    async fn credentials_by_email(&self, email: &Email) -> Result<Option<Credentials>> {
        Shared::credentials_by_email(&self.pool, email).await
    }

    async fn credentials_by_id(&self, id: UserId) -> Result<Option<Credentials>> {
        Shared::credentials_by_id(&self.pool, id).await
    }

    async fn list_users(&self, page: ListPage) -> Result<UserList> {
        Shared::list_users(&self.pool, page).await
    }

    async fn set_password_hash(
        &self,
        id: UserId,
        hash: &str,
        sessions: Sessions,
    ) -> Result<Option<User>> {
        Shared::set_password_hash(&self.writer, id, hash, sessions).await
    }

    async fn bump_token_version(&self, id: UserId) -> Result<Option<User>> {
        Shared::bump_token_version(&self.writer, id).await
    }

    async fn set_role(&self, id: UserId, role: Role) -> Result<Option<User>> {
        Shared::set_role(&self.writer, id, role).await
    }

    async fn set_email_verified(&self, id: UserId) -> Result<Option<User>> {
        Shared::set_email_verified(&self.writer, id).await
    }

    async fn update_profile(&self, id: UserId, patch: &ProfilePatch) -> Result<Option<User>> {
        Shared::update_profile(&self.writer, id, patch).await
    }

    async fn delete_user(&self, id: UserId) -> Result<bool> {
        Shared::delete_user(&self.writer, id).await
    }

    async fn put_email_code(
        &self,
        owner: UserId,
        code: &NewEmailCode<'_>,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        Shared::put_email_code(&self.writer, owner, code, at).await
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
        let tx = self.write().await?;
        Shared::redeem_email_code(tx, CODE_OF, owner, purpose, code_hash, redeem, max_attempts, now)
            .await
    }

    async fn create_api_key(
        &self,
        owner: UserId,
        key: &NewApiKey<'_>,
        at: DateTime<Utc>,
    ) -> Result<ApiKey> {
        Shared::create_api_key(&self.writer, owner, key, at).await
    }

    async fn list_api_keys(&self, owner: UserId) -> Result<Vec<ApiKey>> {
        Shared::list_api_keys(&self.pool, owner).await
    }

    async fn delete_api_key(&self, owner: UserId, id: ApiKeyId) -> Result<bool> {
        Shared::delete_api_key(&self.writer, owner, id).await
    }

    async fn api_key_holder(&self, token_hash: &str) -> Result<Option<KeyHolder>> {
        Shared::api_key_holder(&self.pool, token_hash).await
    }

    async fn touch_api_key(
        &self,
        id: ApiKeyId,
        at: DateTime<Utc>,
        min_interval: chrono::Duration,
    ) -> Result<bool> {
        Shared::touch_api_key(&self.writer, id, at, min_interval).await
    }
}
