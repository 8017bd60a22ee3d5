//! [`Throttle`]: the port through which an edge other than the JSON API (the web pages)
//! counts sign-up, sign-in and code attempts against the same rate limits the JSON API
//! applies to its auth routes, per client and per account. The JSON API implements it over
//! its in-process limiter and its trusted proxies, so a form and the matching JSON route share
//! one bucket: an attacker gains nothing by switching between them.

use std::net::IpAddr;

/// What is being attempted (each maps to one bucket of the API's limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthAction {
    /// Creating an account.
    Register,
    /// Signing in.
    Login,
    /// Asking for a new verification code.
    VerifyRequest,
    /// Redeeming a verification code.
    VerifyConfirm,
    /// Asking for a password-reset code.
    PasswordForgot,
    /// Redeeming a password-reset code.
    PasswordReset,
}

/// Who sent a request: the socket peer and the `X-Forwarded-For` values as received (the
/// implementation decides which proxies it believes).
#[derive(Debug, Clone, Default)]
pub struct Client {
    /// The socket peer.
    pub peer: Option<IpAddr>,
    /// Every `X-Forwarded-For` header value, in order.
    pub forwarded_for: Vec<String>,
}

/// Counts auth attempts.
pub trait Throttle: Send + Sync {
    /// Counts one attempt at `action` by `client` and, when named, for `account` (the
    /// normalised email); refused (counting nothing) with the seconds to wait.
    fn check(&self, action: AuthAction, client: &Client, account: Option<&str>) -> Result<(), u64>;
}

/// Limits nothing (an embedding that limits elsewhere, or the limits switched off).
#[derive(Debug, Clone, Copy, Default)]
pub struct Unlimited;

impl Throttle for Unlimited {
    fn check(&self, _: AuthAction, _: &Client, _: Option<&str>) -> Result<(), u64> {
        Ok(())
    }
}
