//! The public reads' rate limits over the real router, on both backends (the key lookup reads
//! the database): a shared bucket for the catalogue's reads and its own for agent search, the
//! headers on every counted answer, 429 with `Retry-After`, a bucket per API key, a made-up key
//! refused, `X-Forwarded-For` ignored from a peer that is not a trusted proxy, nothing on the
//! other routes, and no header at all when the limits are off.

use std::time::Duration;

use freehire_api::ratelimit::{Bucket, Quota, RateLimitConfig};
use freehire_app::accounts::{KeyRequest, OperatorAccount, Operators, password::PasswordHasher};
use freehire_domain::{ApiKeyName, ApiKeyScope, Email, Role};
use freehire_store::testing::TestDb;
use serde_json::Value;

use crate::server::Server;

const MINUTE: Duration = Duration::from_secs(60);

/// A server whose public reads allow 3 a minute and agent search 2.
async fn tight(db: TestDb) -> Server {
    let config = RateLimitConfig::on()
        .with_quota(Bucket::PublicRead, Quota::new(3, MINUTE))
        .with_quota(Bucket::AgentSearch, Quota::new(2, MINUTE));
    Server::start_mapped(db, |state| state.with_rate_limits(&config)).await
}

/// Status, `X-RateLimit-Limit` / `-Remaining`, `Retry-After` and body of `GET path`.
async fn get(
    server: &Server,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Option<(u64, u64)>, Option<u64>, Value) {
    get_at(&server.http, &server.base, path, headers).await
}

/// [`get`] on the server at `base`.
async fn get_at(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Option<(u64, u64)>, Option<u64>, Value) {
    let mut request = http.get(format!("{base}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let res = request.send().await.unwrap();
    let number = |name: &str| -> Option<u64> {
        res.headers().get(name).map(|v| v.to_str().unwrap().parse().unwrap())
    };
    let rate = number("x-ratelimit-limit").zip(number("x-ratelimit-remaining"));
    let retry = number("retry-after");
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (status, rate, retry, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A new account's full API key, made through the operators' service.
async fn key(server: &Server, address: &str) -> String {
    let operators = Operators::new(server.db.store.clone(), PasswordHasher::owasp());
    let email = Email::parse(address).unwrap();
    let account =
        OperatorAccount { email: email.clone(), password: None, role: Role::User, verified: true };
    operators.create_account(&account).await.unwrap();
    let request = KeyRequest {
        name: ApiKeyName::parse("cli").unwrap(),
        scope: ApiKeyScope::Full,
        expires_at: None,
    };
    operators.create_key(&email, &request).await.unwrap().token
}

async fn the_public_reads_share_a_bucket_per_caller(server: &Server) {
    // The catalogue's reads count together: 3 a minute from this IP.
    let (status, rate, retry, _) = get(server, "/api/v1/jobs", &[]).await;
    assert_eq!((status, rate, retry), (200, Some((3, 2)), None));
    let (status, rate, _, _) = get(server, "/api/v1/companies/acme", &[]).await;
    assert_eq!((status, rate), (404, Some((3, 1))), "no such company yet: still counted");
    // Counted before the handler: a malformed slug costs one too.
    let (status, rate, _, _) = get(server, "/api/v1/jobs/no-such-job", &[]).await;
    assert_eq!((status, rate), (400, Some((3, 0))));
    let (status, rate, retry, body) = get(server, "/api/v1/jobs", &[]).await;
    assert_eq!((status, rate), (429, Some((3, 0))), "{body}");
    assert_eq!(body["code"], "rate_limited", "{body}");
    assert!(retry.is_some_and(|s| (1..=60).contains(&s)), "{retry:?}");

    // A client-set X-Forwarded-For is not believed from an untrusted peer: still refused.
    let (status, ..) = get(server, "/api/v1/jobs", &[("x-forwarded-for", "203.0.113.9")]).await;
    assert_eq!(status, 429);

    // Agent search has a bucket of its own (the search is unavailable here: still counted).
    let (status, rate, ..) = get(server, "/api/v1/agent/jobs/search?q=rust", &[]).await;
    assert_eq!((status, rate), (503, Some((2, 1))));

    // A valid API key is a caller of its own, whatever the IP.
    let token = key(server, "ann@example.com").await;
    let bearer = format!("Bearer {token}");
    let (status, rate, ..) = get(server, "/api/v1/jobs", &[("authorization", &bearer)]).await;
    assert_eq!((status, rate), (200, Some((3, 2))));
    // A made-up key buys no bucket: it is refused, uncounted.
    let forged = "Bearer fhk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let (status, rate, _, body) = get(server, "/api/v1/jobs", &[("authorization", forged)]).await;
    assert_eq!((status, rate), (401, None), "{body}");
    assert_eq!(body["code"], "unauthorized", "{body}");

    // The other routes are not limited by these buckets.
    let (status, rate, ..) = get(server, "/health", &[]).await;
    assert_eq!((status, rate), (200, None));
}

/// A second API process on the same database (its own pool, its own in-process limits) with
/// `tight`'s quotas: the base URL it serves.
async fn second_process(db: &TestDb) -> (String, tempfile::TempDir) {
    let config = RateLimitConfig::on().with_quota(Bucket::PublicRead, Quota::new(3, MINUTE));
    let mail = tempfile::tempdir().unwrap();
    let state =
        crate::server::state(db.second_store().await, mail.path()).with_rate_limits(&config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let limits = freehire_api::ServerLimits::default();
    tokio::spawn(freehire_api::serve_with(listener, state, limits, std::future::pending()));
    (base, mail)
}

async fn no_header_when_the_limits_are_off(db: TestDb) {
    let server =
        Server::start_mapped(db, |state| state.with_rate_limits(&RateLimitConfig::off())).await;
    for _ in 0..5 {
        let (status, rate, retry, _) = get(&server, "/api/v1/jobs", &[]).await;
        assert_eq!((status, rate, retry), (200, None, None));
    }
    server.db.teardown().await;
}

mod sqlite {
    use super::*;

    // scenario: Public reads are limited per caller
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_public_reads_share_a_bucket_per_caller() {
        let server = tight(TestDb::sqlite().await).await;
        super::the_public_reads_share_a_bucket_per_caller(&server).await;
        server.db.teardown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_header_when_the_limits_are_off() {
        super::no_header_when_the_limits_are_off(TestDb::sqlite().await).await;
    }
}

mod postgres {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_public_reads_share_a_bucket_per_caller() {
        let server = tight(TestDb::postgres().await).await;
        super::the_public_reads_share_a_bucket_per_caller(&server).await;
        server.db.teardown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_header_when_the_limits_are_off() {
        super::no_header_when_the_limits_are_off(TestDb::postgres().await).await;
    }

    // scenario: Every API process on one PostgreSQL database counts a caller together
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_processes_share_the_public_buckets() {
        let server = tight(TestDb::postgres().await).await;
        let (other, _mail) = second_process(&server.db).await;
        // Two reads on the first process, one on the second: the caller's bucket is empty.
        assert_eq!(get(&server, "/api/v1/jobs", &[]).await.1, Some((3, 2)));
        assert_eq!(get(&server, "/api/v1/companies/acme", &[]).await.1, Some((3, 1)));
        assert_eq!(get_at(&server.http, &other, "/api/v1/jobs", &[]).await.1, Some((3, 0)));
        // Refused on either process.
        let (status, rate, retry, _) = get_at(&server.http, &other, "/api/v1/jobs", &[]).await;
        assert_eq!((status, rate), (429, Some((3, 0))));
        assert!(retry.is_some_and(|s| (1..=20).contains(&s)), "{retry:?}");
        assert_eq!(get(&server, "/api/v1/jobs", &[]).await.0, 429);
        server.db.teardown().await;
    }
}
