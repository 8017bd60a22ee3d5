//! Plans and per-user gateway keys ([`PlanRepo`](crate::PlanRepo),
//! [`LlmKeyRepo`](crate::LlmKeyRepo), migration 0011): the model type the ports return.
//!
//! Metering lives in `usage_daily` (one counter per user, feature and UTC day) and
//! `usage_ledger` (one row per charge, keyed by the caller's reference while it stands): a
//! charge is decided and written in one transaction holding the day's counter, so
//! concurrent charges take turns and an enforced allowance holds; a reference charges once;
//! a release restamps the row `release` (kept as the audit trail) and gives the unit back,
//! never below 0. The gateway key is two columns of `users`.

use secrecy::{ExposeSecret, SecretString};

/// A user's stored gateway virtual key.
#[derive(Debug, Clone)]
pub struct StoredKey {
    /// The key's secret (the bearer the user's model calls send).
    pub secret: SecretString,
    /// The gateway's id of the key (to block or delete it); `None` on rows stored before ids
    /// were kept.
    pub id: Option<String>,
}

impl StoredKey {
    /// A key from its parts.
    pub fn new(secret: impl Into<String>, id: Option<String>) -> Self {
        Self { secret: SecretString::from(secret.into()), id }
    }

    /// Whether this key's secret is `secret`.
    pub fn is(&self, secret: &str) -> bool {
        self.secret.expose_secret() == secret
    }
}
