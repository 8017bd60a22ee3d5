//! The shapes [`AccountRepo`](crate::AccountRepo) takes and returns: accounts, one-time email
//! codes and API keys. Secrets never come back out: a password hash only in [`Credentials`]
//! (for the login check), a token or code only as its hash, going in.

use chrono::{DateTime, Utc};
use freehire_domain::{
    ApiKey, ApiKeyName, ApiKeyScope, CodePurpose, Email, Language, Role, Timezone, User, Username,
};

/// An account to create.
#[derive(Debug, Clone)]
pub struct NewUser<'a> {
    /// The normalised address (unique).
    pub email: &'a Email,
    /// The PHC string of the password's hash; `None` for an account without a password.
    pub password_hash: Option<&'a str>,
    /// What it may do.
    pub role: Role,
    /// Whether the address is already proven (operator-made accounts).
    pub email_verified: bool,
    /// The assistant's answer language.
    pub language: &'a Language,
}

/// An account with its password hash, for checking a login. `Debug` does not print the hash.
#[derive(Clone)]
pub struct Credentials {
    /// The account.
    pub user: User,
    /// The PHC string, if the account has a password.
    pub password_hash: Option<String>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("user", &self.user)
            .field("password_hash", &self.password_hash.as_ref().map(|_| "***"))
            .finish()
    }
}

/// A change to the profile fields: `None` leaves a field as it is; `Some(None)` clears a
/// nullable one.
#[derive(Debug, Clone, Default)]
pub struct ProfilePatch {
    /// The display name.
    pub username: Option<Option<Username>>,
    /// The time zone.
    pub timezone: Option<Option<Timezone>>,
    /// The answer language.
    pub language: Option<Language>,
}

impl ProfilePatch {
    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        self.username.is_none() && self.timezone.is_none() && self.language.is_none()
    }
}

/// What a password change does to the account's sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sessions {
    /// Keep them (a re-hash of the same password on login).
    Keep,
    /// Revoke every one: `token_version` goes up in the same statement.
    Revoke,
}

/// A one-time code to store (hashed by the caller). It replaces the account's live code of
/// the same purpose, with its attempts at zero.
#[derive(Debug, Clone)]
pub struct NewEmailCode<'a> {
    /// What it proves.
    pub purpose: CodePurpose,
    /// The code's keyed hash, hex.
    pub code_hash: &'a str,
    /// When it stops being accepted.
    pub expires_at: DateTime<Utc>,
}

/// What a right code does, in the same transaction that consumes it.
#[derive(Debug, Clone)]
pub enum Redeem {
    /// Marks the address verified.
    Verify,
    /// Sets the password to this PHC string, marks the address verified (the holder read the
    /// mailbox) and revokes every session.
    SetPassword(String),
}

/// What redeeming a code found. Only [`CodeOutcome::Redeemed`] changed the account; a wrong
/// code counts an attempt, nothing else writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeOutcome {
    /// The code was right and live: it is consumed and the [`Redeem`] action applied.
    Redeemed(User),
    /// The code was wrong; this many attempts remain (0: the code is now spent).
    Wrong {
        /// Attempts left before the code is refused whatever is entered.
        attempts_left: u32,
    },
    /// The live code's time ran out (it is deleted).
    Expired,
    /// The code was entered wrongly too many times (it is deleted).
    Exhausted,
    /// No code of this purpose was requested (or it was used).
    Missing,
}

/// An API key to store: the caller minted the token and passes only its hash and prefix.
#[derive(Debug, Clone)]
pub struct NewApiKey<'a> {
    /// The holder's name for it.
    pub name: &'a ApiKeyName,
    /// SHA-256 of the whole token, hex (unique).
    pub token_hash: &'a str,
    /// The token's first characters, shown in lists.
    pub prefix: &'a str,
    /// What it reaches.
    pub scope: ApiKeyScope,
    /// When it stops working, if ever.
    pub expires_at: Option<DateTime<Utc>>,
}

/// The key a token hash names, with its owner: what authenticating a request needs in one read.
#[derive(Debug, Clone)]
pub struct KeyHolder {
    /// The key.
    pub key: ApiKey,
    /// Its owner.
    pub user: User,
}

/// A page of accounts, oldest first, and how many there are.
#[derive(Debug, Clone)]
pub struct UserList {
    /// The page.
    pub users: Vec<User>,
    /// Every account.
    pub total: u64,
}
