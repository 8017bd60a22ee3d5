//! [`EdgeLimits`]: the API's rate limits and trusted proxies as a
//! [`freehire_app::throttle::Throttle`], for the web pages' forms. A form counts against the
//! same bucket (and the same client IP, resolved the same way) as the JSON route it mirrors.

use axum::http::{HeaderMap, HeaderValue};
use freehire_app::throttle::{AuthAction, Client, Throttle};

use super::{Bucket, RateLimits, Subject};
use crate::client_ip::{ClientIp, TrustedProxies, X_FORWARDED_FOR};

/// The API's limits and proxies, shared with the pages.
#[derive(Debug, Clone)]
pub struct EdgeLimits {
    limits: RateLimits,
    trusted: TrustedProxies,
}

impl EdgeLimits {
    /// Over these limits, believing these proxies.
    pub fn new(limits: RateLimits, trusted: TrustedProxies) -> Self {
        Self { limits, trusted }
    }
}

fn bucket(action: AuthAction) -> Bucket {
    match action {
        AuthAction::Register => Bucket::Register,
        AuthAction::Login => Bucket::Login,
        AuthAction::VerifyRequest => Bucket::VerifyRequest,
        AuthAction::VerifyConfirm => Bucket::VerifyConfirm,
        AuthAction::PasswordForgot => Bucket::PasswordForgot,
        AuthAction::PasswordReset => Bucket::PasswordReset,
    }
}

impl Throttle for EdgeLimits {
    fn check(&self, action: AuthAction, client: &Client, account: Option<&str>) -> Result<(), u64> {
        let mut headers = HeaderMap::new();
        for value in &client.forwarded_for {
            // A value that is no header value cannot name a hop: the peer counts.
            if let Ok(value) = HeaderValue::from_str(value) {
                headers.append(X_FORWARDED_FOR, value);
            }
        }
        let peer = client.peer.unwrap_or(std::net::Ipv4Addr::UNSPECIFIED.into());
        let ClientIp(ip) = ClientIp::resolve(peer, &headers, &self.trusted);
        let mut subjects = vec![Subject::ip(ip)];
        subjects.extend(account.map(Subject::account));
        self.limits.check(bucket(action), &subjects).map(drop).map_err(|l| l.retry_after_secs)
    }
}
