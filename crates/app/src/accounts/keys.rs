//! Minting API keys, shared by the signed-in account and the operator's command: only a
//! verified account gets one, an expiry must be in the future, and the store keeps only the
//! token's hash and prefix.

use chrono::{DateTime, Utc};
use freehire_domain::{ApiKey, ApiKeyName, ApiKeyScope, User};
use freehire_store::{NewApiKey, Store, StoreError};

use super::{AccountError, token};

/// A new key's parameters.
#[derive(Debug, Clone)]
pub struct KeyRequest {
    /// Its name.
    pub name: ApiKeyName,
    /// What it reaches.
    pub scope: ApiKeyScope,
    /// When it stops working, if ever (must be in the future).
    pub expires_at: Option<DateTime<Utc>>,
}

/// A minted key and its token, shown once.
#[derive(Debug, Clone)]
pub struct MintedKey {
    /// The stored key.
    pub key: ApiKey,
    /// The whole token.
    pub token: String,
}

/// Mints a key for `user` at `now`.
pub(super) async fn mint(
    store: &dyn Store,
    user: &User,
    request: &KeyRequest,
    now: DateTime<Utc>,
) -> Result<MintedKey, AccountError> {
    if !user.email_verified {
        return Err(AccountError::NotVerified);
    }
    if request.expires_at.is_some_and(|at| at <= now) {
        return Err(AccountError::ExpiryInPast);
    }
    // A collision of 200 random bits does not happen; one retry covers the impossible.
    for _ in 0..2 {
        let minted = token::mint();
        let new = NewApiKey {
            name: &request.name,
            token_hash: &minted.hash,
            prefix: &minted.prefix,
            scope: request.scope,
            expires_at: request.expires_at,
        };
        match store.create_api_key(user.id, &new, now).await {
            Ok(key) => return Ok(MintedKey { key, token: minted.token }),
            Err(StoreError::Conflict { field: "token" }) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(AccountError::Hashing("two token collisions in a row".to_owned()))
}
