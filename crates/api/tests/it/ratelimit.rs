//! Rate limits over a real server: a small router of its own served like the API's
//! (`serve_router`, so requests carry their peer address), one route limited by client IP with
//! the route layer, one by IP and account in its handler. Login is tightened to 3 per minute.

use std::time::Duration;

use axum::{
    Json, Router,
    extract::State,
    routing::{get, post},
};
use freehire_api::{
    ApiError, AppState, ServerLimits,
    client_ip::{ClientIp, TrustedProxies},
    ratelimit::{Bucket, Quota, RateInfo, RateLimitConfig, Subject, limit},
};
use freehire_store::testing::TestDb;
use serde_json::{Value, json};

/// A route limited by client IP (the layer).
const BY_IP: &str = "/by-ip";
/// A route limited by client IP and the account in its body (the handler's check).
const BY_ACCOUNT: &str = "/by-account";

async fn answer() -> Json<Value> {
    Json(json!({"ok": true}))
}

async fn by_account(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    account: String,
) -> Result<(Option<RateInfo>, Json<Value>), ApiError> {
    let info = state.limits.check(Bucket::Login, &[Subject::Ip(ip), Subject::account(account)])?;
    Ok((info, answer().await))
}

struct Limited {
    base: String,
    http: reqwest::Client,
    _db: TestDb,
}

/// The answer's status, `X-RateLimit-*` headers (`limit`, `remaining`, `reset`), `Retry-After`
/// and body.
#[derive(Debug)]
struct Answer {
    status: u16,
    rate: Option<(u64, u64, u64)>,
    retry_after: Option<u64>,
    body: Value,
}

impl Limited {
    async fn start(config: RateLimitConfig, proxies: &str) -> Self {
        let db = TestDb::sqlite().await;
        let mail = tempfile::tempdir().unwrap().keep();
        let accounts = freehire_app::accounts::Accounts::ephemeral(db.store.clone(), &mail);
        let state = AppState::new(db.store.clone(), accounts)
            .with_rate_limits(&config.with_quota(Bucket::Login, Quota::new(3, MINUTE)))
            .with_trusted_proxies(proxies.parse::<TrustedProxies>().unwrap());
        let app = Router::new()
            .route(BY_IP, get(answer).layer(limit(&state, Bucket::Login)))
            .route(BY_ACCOUNT, post(by_account))
            .with_state(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(freehire_api::serve_router(
            listener,
            app,
            ServerLimits::default(),
            std::future::pending(),
        ));
        Self { base, http: reqwest::Client::new(), _db: db }
    }

    /// `GET /by-ip`, forwarded for `xff` when given.
    async fn by_ip(&self, xff: Option<&str>) -> Answer {
        let mut request = self.http.get(format!("{}{BY_IP}", self.base));
        if let Some(xff) = xff {
            request = request.header("x-forwarded-for", xff);
        }
        read(request.send().await.unwrap()).await
    }

    /// `POST /by-account` for `account`, forwarded for `xff`.
    async fn login(&self, account: &str, xff: &str) -> Answer {
        let request = self
            .http
            .post(format!("{}{BY_ACCOUNT}", self.base))
            .header("x-forwarded-for", xff)
            .body(account.to_owned());
        read(request.send().await.unwrap()).await
    }
}

const MINUTE: Duration = Duration::from_secs(60);

async fn read(res: reqwest::Response) -> Answer {
    let number = |name: &str| -> Option<u64> {
        res.headers().get(name).map(|v| v.to_str().unwrap().parse().unwrap())
    };
    let rate = match (
        number("x-ratelimit-limit"),
        number("x-ratelimit-remaining"),
        number("x-ratelimit-reset"),
    ) {
        (Some(limit), Some(remaining), Some(reset)) => Some((limit, remaining, reset)),
        (None, None, None) => None,
        partial => panic!("some rate-limit headers only: {partial:?}"),
    };
    let retry_after = number("retry-after");
    let status = res.status().as_u16();
    assert_eq!(
        res.headers().get("content-type").and_then(|v| v.to_str().ok()),
        Some("application/json")
    );
    Answer { status, rate, retry_after, body: res.json().await.unwrap() }
}

/// Asserts a counted answer: 200 with `remaining` left and a reset within a second under
/// `reset` (the real clock runs between the check and the assertion).
fn counted(answer: &Answer, remaining: u64, reset: u64) {
    assert_eq!(answer.status, 200, "{answer:?}");
    let (limit, left, until) = answer.rate.unwrap_or_else(|| panic!("no headers: {answer:?}"));
    assert_eq!((limit, left), (3, remaining), "{answer:?}");
    assert!((reset - 1..=reset).contains(&until), "reset {until}, expected ~{reset}");
    assert_eq!(answer.retry_after, None);
}

/// Asserts a refusal: 429 `rate_limited` with `Retry-After` about `retry` and the headers.
fn refused(answer: &Answer, retry: u64) {
    assert_eq!(answer.status, 429, "{answer:?}");
    assert_eq!(answer.body["code"], json!("rate_limited"), "{answer:?}");
    assert!(answer.body["error"].as_str().unwrap().starts_with("too many requests"));
    let after = answer.retry_after.unwrap_or_else(|| panic!("no Retry-After: {answer:?}"));
    assert!((retry - 1..=retry).contains(&after), "Retry-After {after}, expected ~{retry}");
    let (limit, left, _) = answer.rate.unwrap_or_else(|| panic!("no headers: {answer:?}"));
    assert_eq!((limit, left), (3, 0));
}

#[tokio::test]
async fn the_request_over_the_limit_is_refused_with_retry_after() {
    let s = Limited::start(RateLimitConfig::on(), "").await;
    // The headers count down: 3 per minute is one back every 20 s.
    for (remaining, reset) in [(2, 20), (1, 40), (0, 60)] {
        counted(&s.by_ip(None).await, remaining, reset);
    }
    let answer = s.by_ip(None).await;
    refused(&answer, 20);
    assert_eq!(answer.rate.map(|(_, _, reset)| (59..=60).contains(&reset)), Some(true));
    // Still refused: a refusal counts nothing, and does not push the wait back.
    refused(&s.by_ip(None).await, 20);
}

#[tokio::test]
async fn clients_behind_a_trusted_proxy_count_separately() {
    let s = Limited::start(RateLimitConfig::on(), "127.0.0.1").await;
    for remaining in [2, 1, 0] {
        counted(&s.by_ip(Some("203.0.113.1")).await, remaining, 60 - 20 * remaining);
    }
    refused(&s.by_ip(Some("203.0.113.1")).await, 20);
    // Another client behind the same proxy has its own bucket.
    counted(&s.by_ip(Some("203.0.113.2")).await, 2, 20);
    // What a client writes left of the address its proxy appended is ignored.
    refused(&s.by_ip(Some("198.51.100.7, 203.0.113.1")).await, 20);
    // The proxy itself, without the header, is a client of its own.
    counted(&s.by_ip(None).await, 2, 20);
}

#[tokio::test]
async fn an_untrusted_peers_forwarded_for_is_ignored() {
    let s = Limited::start(RateLimitConfig::on(), "10.0.0.0/8").await;
    for (remaining, client) in [(2, "203.0.113.1"), (1, "203.0.113.2"), (0, "203.0.113.3")] {
        counted(&s.by_ip(Some(client)).await, remaining, 60 - 20 * remaining);
    }
    refused(&s.by_ip(Some("203.0.113.4")).await, 20);
}

#[tokio::test]
async fn an_account_is_limited_across_addresses() {
    let s = Limited::start(RateLimitConfig::on(), "127.0.0.1").await;
    for (remaining, client) in [(2, "203.0.113.1"), (1, "203.0.113.2"), (0, "203.0.113.3")] {
        counted(&s.login("ada@example.org", client).await, remaining, 60 - 20 * remaining);
    }
    refused(&s.login("ada@example.org", "203.0.113.4").await, 20);
    // The refusal cost the fourth address nothing: another account from it has its whole
    // burst but one (its first request), as has the address.
    counted(&s.login("grace@example.org", "203.0.113.4").await, 2, 20);
    // And an exhausted address cannot spend a fresh account's requests.
    for _ in 0..2 {
        s.login("grace@example.org", "203.0.113.4").await;
    }
    refused(&s.login("linus@example.org", "203.0.113.4").await, 20);
    counted(&s.login("linus@example.org", "203.0.113.5").await, 2, 20);
}

#[tokio::test]
async fn off_sends_no_header_and_never_limits() {
    let s = Limited::start(RateLimitConfig::off(), "127.0.0.1").await;
    for _ in 0..10 {
        let answer = s.by_ip(None).await;
        assert_eq!((answer.status, answer.rate, answer.retry_after), (200, None, None));
        let answer = s.login("ada@example.org", "203.0.113.1").await;
        assert_eq!((answer.status, answer.rate, answer.retry_after), (200, None, None));
    }
}
