//! The signed webhook channel: one `POST` of the JSON payload per delivery, with
//! `X-Freehire-Signature: sha256=<hex HMAC-SHA256(secret, body)>`, `X-Freehire-Delivery`
//! (the delivery id: a receiver dedupes a resend by it) and `X-Freehire-Timestamp` (Unix
//! seconds). A 2xx answer is sent; anything else, a timeout or a network error is a failure.
//!
//! The URL is checked against the ingest crate's SSRF guard at send time (scheme, IP literals,
//! `localhost`, and every address the host resolves to), unless private targets are allowed
//! (`FREEHIRE_WEBHOOK_ALLOW_PRIVATE`, for tests and closed networks). Redirects are not
//! followed.

use std::time::Duration;

use freehire_ingest::http::{SsrfPolicy, check_target, guarded_client_builder, refusal_of};
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Longest wait for a receiver's answer.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How the webhook sender dials.
#[derive(Debug, Clone, Copy)]
pub struct WebhookConfig {
    /// Allow loopback and private targets (`FREEHIRE_WEBHOOK_ALLOW_PRIVATE`).
    pub allow_private: bool,
    /// The bound on one request.
    pub timeout: Duration,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        Self { allow_private: false, timeout: DEFAULT_TIMEOUT }
    }
}

/// Why a webhook was not delivered.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// The SSRF guard refused the target: retrying will not help.
    #[error("refused target: {0}")]
    Refused(String),
    /// The URL does not parse.
    #[error("bad webhook URL: {0}")]
    BadUrl(String),
    /// The receiver answered with a non-2xx status.
    #[error("the receiver answered {0}")]
    Status(u16),
    /// No answer (network error or timeout).
    #[error("no answer: {0}")]
    Network(String),
}

impl WebhookError {
    /// Whether another attempt cannot succeed.
    pub fn is_permanent(&self) -> bool {
        matches!(self, WebhookError::Refused(_) | WebhookError::BadUrl(_))
    }
}

/// `sha256=<hex>` of the HMAC-SHA256 of `body` under `secret`.
pub fn signature(secret: &str, body: &[u8]) -> String {
    #[allow(clippy::expect_used)] // Input cannot reach this: HMAC accepts any key length.
    let mut mac =
        <Hmac<Sha256>>::new_from_slice(secret.as_bytes()).expect("HMAC accepts any key length");
    mac.update(body);
    format!("sha256={}", data_encoding::HEXLOWER.encode(&mac.finalize().into_bytes()))
}

/// Sends signed webhooks.
#[derive(Debug, Clone)]
pub struct WebhookSender {
    client: reqwest::Client,
    policy: SsrfPolicy,
}

impl WebhookSender {
    /// A sender with its own client.
    pub fn new(config: WebhookConfig) -> Result<Self, WebhookError> {
        let policy = if config.allow_private {
            SsrfPolicy::AllowPrivateTargets
        } else {
            SsrfPolicy::Enforce
        };
        let client = guarded_client_builder(policy)
            .timeout(config.timeout)
            .user_agent(concat!("freehire-webhook/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| WebhookError::Network(e.to_string()))?;
        Ok(Self { client, policy })
    }

    /// Posts `body` to `url`, signed with `secret`, as delivery `delivery` at `timestamp`.
    pub async fn send(
        &self,
        url: &str,
        secret: &str,
        delivery: &str,
        timestamp: i64,
        body: Vec<u8>,
    ) -> Result<(), WebhookError> {
        let parsed = reqwest::Url::parse(url).map_err(|e| WebhookError::BadUrl(e.to_string()))?;
        check_target(&parsed, self.policy).map_err(WebhookError::Refused)?;
        let answer = self
            .client
            .post(parsed)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header("X-Freehire-Signature", signature(secret, &body))
            .header("X-Freehire-Delivery", delivery)
            .header("X-Freehire-Timestamp", timestamp.to_string())
            .body(body)
            .send()
            .await
            .map_err(|e| match refusal_of(&e) {
                Some(reason) => WebhookError::Refused(reason),
                None => WebhookError::Network(freehire_ingest::error_chain(&e)),
            })?;
        let status = answer.status();
        if status.is_success() { Ok(()) } else { Err(WebhookError::Status(status.as_u16())) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_hmac_sha256_hex() {
        // RFC 4231 test case 2.
        assert_eq!(
            signature("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
