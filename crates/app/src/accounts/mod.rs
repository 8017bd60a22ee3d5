//! Accounts (reference §6.2): sign-up, sign-in, sessions, mailed one-time codes, API keys and
//! the operator's account commands, as one service, [`Accounts`], that the API, the CLI and
//! the web pages call.
//!
//! - passwords: argon2id ([`password`]); an unknown email costs a login what a wrong password
//!   costs, and both answer [`AccountError::WrongCredentials`];
//! - sessions: HS256 JWTs carrying the user id and `token_version` ([`session`]); bumping the
//!   version (logout everywhere, password change, password reset) revokes every session;
//! - codes: six digits, keyed hash at rest, single use, 15 minutes, five tries ([`code`]);
//!   the store redeems a code and applies its effect in one transaction;
//! - API keys: `fhk_…` tokens, SHA-256 at rest ([`token`]), scope `full` or `cv`, only for
//!   verified accounts; `last_used_at` is written at most once a minute per key;
//! - operators ([`Operators`]): create accounts, list them, set roles and mint keys from the
//!   command line, with no session secret and no mail.
//! - the session secret ([`secret`]): configured, or generated into the data directory.
//!
//! Mail that would tell whether an address has an account (a verification request by email, a
//! forgotten password) is sent in the background, so the answer takes the same time either way.

pub mod code;
mod config;
pub mod cookie;
mod error;
mod keys;
mod mail;
mod operator;
pub mod password;
pub mod secret;
mod service;
pub mod session;
pub mod token;

pub use code::{CODE_MAX_ATTEMPTS, CODE_TTL, CodeKey};
pub use config::AccountsArgs;
pub use error::{AccountError, CodeProblem};
pub use keys::{KeyRequest, MintedKey};
pub use operator::{OperatorAccount, Operators};
pub use password::PasswordHasher;
pub use secret::{SESSION_KEY_FILE, SESSION_SECRET_MIN_BYTES, SessionSecret};
pub use service::{Accounts, AccountsConfig, Credential, KEY_TOUCH_INTERVAL, Registered};
pub use session::{DEFAULT_SESSION_TTL, SESSION_COOKIE, Session, SessionKeys};
