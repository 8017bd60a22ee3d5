//! Per-user gateway keys (reference §14.2): each user's model calls run on a virtual key of
//! their own, minted at a Bifrost-style gateway on their first AI call, so spend is
//! attributed per user.
//!
//! - [`KeyGateway`] is the port (mint, block, delete, activity); [`BifrostGateway`] speaks
//!   the Bifrost governance HTTP API, configured only when all of `LLM_ADMIN_URL`,
//!   `LLM_ADMIN_USERNAME`, `LLM_ADMIN_PASSWORD` and `LLM_ADMIN_TEMPLATE_KEY` are set.
//! - [`KeyResolver`] finds a user's key: the stored one, else a freshly minted one claimed
//!   on the account (`WHERE llm_key IS NULL`; the loser of a race adopts the winner's key and
//!   deletes its own; a store failure after minting deletes the minted key). A key the
//!   gateway refused is forgotten: cleared where it is still the stored secret, and blocked.
//!
//! Scope rule: only the API server runs on per-user keys; background work (the worker, the
//! command line) always uses the service key. A test (`tests/it/scope.rs`) keeps this module
//! and the per-user binding out of everything but the API's request path.

mod bifrost;

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::UserId;
use freehire_store::{Store, StoredKey};
use secrecy::{ExposeSecret, SecretString};

pub use bifrost::{BifrostConfig, BifrostGateway, REQUEST_TIMEOUT};

/// A key the gateway minted.
#[derive(Debug, Clone)]
pub struct MintedKey {
    /// The gateway's id of the key.
    pub id: String,
    /// Its secret value.
    pub secret: SecretString,
}

/// Requests through one key over a window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Activity {
    /// Every request.
    pub total: u64,
    /// Failed requests.
    pub errors: u64,
}

/// What a gateway call can fail with.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The gateway does not know the key (HTTP 404).
    #[error("the gateway does not know this key")]
    UnknownKey,
    /// Any other non-success status, a 401 on an admin call included.
    #[error("gateway answered HTTP {status}: {message}")]
    Upstream {
        /// The status.
        status: u16,
        /// The start of the body.
        message: String,
    },
    /// The request failed before a response.
    #[error("gateway request failed")]
    Transport(#[source] reqwest::Error),
    /// The answer did not have the expected shape.
    #[error("unexpected gateway answer: {0}")]
    Malformed(String),
}

/// The gateway's key administration.
#[async_trait]
pub trait KeyGateway: Send + Sync {
    /// Mints a new key for `user`.
    async fn mint(&self, user: UserId) -> Result<MintedKey, KeyError>;
    /// Deactivates a key; an unknown key counts as done.
    async fn block(&self, key_id: &str) -> Result<(), KeyError>;
    /// Deletes a key; an unknown key counts as done.
    async fn delete(&self, key_id: &str) -> Result<(), KeyError>;
    /// Requests through a key between `from` and `to` (widened to whole UTC days); an empty
    /// id is zeros without a call.
    async fn activity(
        &self,
        key_id: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Activity, KeyError>;
}

/// Finds, mints and forgets users' keys.
#[derive(Clone)]
pub struct KeyResolver {
    store: Arc<dyn Store>,
    gateway: Arc<dyn KeyGateway>,
}

impl std::fmt::Debug for KeyResolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyResolver").finish_non_exhaustive()
    }
}

impl KeyResolver {
    /// A resolver storing keys in `store` and minting them at `gateway`.
    pub fn new(store: Arc<dyn Store>, gateway: Arc<dyn KeyGateway>) -> Self {
        Self { store, gateway }
    }

    /// The user's key secret (§14.2 `For`): the stored one; else a minted one, claimed on
    /// the account. `None` (use the service key) when the stored key cannot be read (never
    /// minting then), when minting fails, or when the account is gone.
    pub async fn key_for(&self, user: UserId) -> Option<SecretString> {
        match self.store.llm_key(user).await {
            Ok(Some(key)) => return Some(key.secret),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(
                    error = &e as &dyn std::error::Error,
                    "llm keys: reading the stored key failed; using the service key"
                );
                return None;
            }
        }
        let minted = match self.gateway.mint(user).await {
            Ok(minted) => minted,
            Err(e) => {
                tracing::warn!(
                    error = &e as &dyn std::error::Error,
                    "llm keys: minting a key failed; using the service key"
                );
                return None;
            }
        };
        let ours = StoredKey { secret: minted.secret.clone(), id: Some(minted.id.clone()) };
        match self.store.claim_llm_key(user, &ours).await {
            Ok(Some(stored)) if stored.is(minted.secret.expose_secret()) => Some(minted.secret),
            Ok(Some(winner)) => {
                self.discard(&minted.id).await;
                Some(winner.secret)
            }
            Ok(None) => {
                self.discard(&minted.id).await;
                None
            }
            Err(e) => {
                tracing::warn!(
                    error = &e as &dyn std::error::Error,
                    "llm keys: storing a minted key failed; deleting it"
                );
                self.discard(&minted.id).await;
                None
            }
        }
    }

    /// The stored key, never minting.
    pub async fn stored(&self, user: UserId) -> Option<StoredKey> {
        self.store.llm_key(user).await.ok().flatten()
    }

    /// Forgets a key the gateway refused: clears the account's key only where it is still
    /// `secret` and then blocks it; leaves everything when the stored key cannot be read or
    /// is another one.
    pub async fn forget(&self, user: UserId, secret: &str) {
        let stored = match self.store.llm_key(user).await {
            Ok(Some(stored)) if stored.is(secret) => stored,
            Ok(_) => return,
            Err(e) => {
                tracing::warn!(
                    error = &e as &dyn std::error::Error,
                    "llm keys: reading the key to forget failed; leaving it"
                );
                return;
            }
        };
        match self.store.clear_llm_key(user, secret).await {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => {
                tracing::warn!(
                    error = &e as &dyn std::error::Error,
                    "llm keys: clearing a refused key failed"
                );
                return;
            }
        }
        if let Some(id) = stored.id {
            self.block(&id, "refused").await;
        }
    }

    /// Blocks the user's key (account deletion).
    pub async fn revoke(&self, user: UserId) {
        if let Some(StoredKey { id: Some(id), .. }) = self.stored(user).await {
            self.block(&id, "revoked").await;
        }
    }

    /// Blocks a key, logging a failure (`why` names the key's fate).
    async fn block(&self, id: &str, why: &str) {
        if let Err(e) = self.gateway.block(id).await {
            tracing::warn!(
                error = &e as &dyn std::error::Error,
                "llm keys: blocking a {why} key failed"
            );
        }
    }

    /// Deletes a minted key that will not be used.
    async fn discard(&self, id: &str) {
        if let Err(e) = self.gateway.delete(id).await {
            tracing::warn!(
                error = &e as &dyn std::error::Error,
                "llm keys: deleting an unused minted key failed"
            );
        }
    }
}
