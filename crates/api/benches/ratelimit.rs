//! The public reads' rate limiter, per request: `cargo xtask bench` (or
//! `cargo bench -p freehire-api --bench ratelimit`).
//!
//! - **The check** ([`RateLimits::check`], in-process GCRA): one caller sending every request
//!   (its cell hot), and 100,000 callers in turn (a cell each, the bucket's sweeps included);
//!   nanoseconds per check, the mean over 1,000,000 checks (target ≤ 20 µs).
//! - **The layer** over the real router: `GET /api/v1/jobs/facets` with no search index (a 503
//!   that reads nothing, so the database's noise stays out) through `tower::ServiceExt::oneshot`
//!   with the limits on and off (the peer address set as the server sets it), in ten
//!   alternating rounds; the difference of the two fastest rounds is what the limit adds to a
//!   request.
//! - **On PostgreSQL** ([`SharedLimits::check`], the buckets every API process shares: one
//!   upsert on the coordination pool): the latency of one check, p50 and p99 over 5,000 checks
//!   one after another, and with 32 checks in flight at once over 10,000 callers (target
//!   p99 ≤ 1 ms); and the layer's cost over the real router as above, on PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use axum::{body::Body, extract::ConnectInfo, http::Request};
use freehire_api::ratelimit::{Bucket, Quota, RateLimitConfig, RateLimits, SharedLimits, Subject};
use freehire_app::accounts::Accounts;
use freehire_store::testing::TestDb;
use tower::ServiceExt;

const CHECKS: u32 = 1_000_000;
const REQUESTS: u32 = 5_000;

fn main() {
    check_cost();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        layer_cost(TestDb::sqlite().await, "in-process").await;
        shared_cost().await;
        layer_cost(TestDb::postgres().await, "shared, PostgreSQL").await;
    });
}

/// A quota nothing in the bench exhausts.
fn roomy() -> RateLimitConfig {
    RateLimitConfig::on()
        .with_quota(Bucket::PublicRead, Quota::new(u32::MAX / 2, Duration::from_secs(60)))
}

/// The `p`-th percentile of sorted `samples`, in microseconds.
fn percentile(samples: &[Duration], p: f64) -> f64 {
    let at = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[at].as_secs_f64() * 1e6
}

async fn shared_cost() {
    const SEQUENTIAL: usize = 5_000;
    const IN_FLIGHT: usize = 32;
    const EACH: usize = 300;
    let db = TestDb::postgres().await;
    let shared = SharedLimits::new(db.store.clone(), &roomy()).unwrap();
    let caller = |n: usize| {
        let [a, b, c, d] = (u32::try_from(n % 10_000).unwrap() + 0x0a00_0000).to_be_bytes();
        Subject::Ip(IpAddr::V4(Ipv4Addr::new(a, b, c, d)))
    };
    // Warm the pool and the statement cache.
    for n in 0..200 {
        shared.check(Bucket::PublicRead, &caller(n)).await.unwrap().unwrap();
    }
    let mut one_by_one = Vec::with_capacity(SEQUENTIAL);
    for n in 0..SEQUENTIAL {
        let started = Instant::now();
        shared.check(Bucket::PublicRead, &caller(n)).await.unwrap().unwrap();
        one_by_one.push(started.elapsed());
    }
    one_by_one.sort_unstable();
    let tasks = (0..IN_FLIGHT).map(|t| {
        let shared = shared.clone();
        tokio::spawn(async move {
            let mut took = Vec::with_capacity(EACH);
            for n in 0..EACH {
                let started = Instant::now();
                let subject = caller(t * EACH + n);
                shared.check(Bucket::PublicRead, &subject).await.unwrap().unwrap();
                took.push(started.elapsed());
            }
            took
        })
    });
    let started = Instant::now();
    let mut together: Vec<Duration> = Vec::with_capacity(IN_FLIGHT * EACH);
    for task in tasks.collect::<Vec<_>>() {
        together.extend(task.await.unwrap());
    }
    let rate = together.len() as f64 / started.elapsed().as_secs_f64();
    together.sort_unstable();
    println!(
        "ratelimit/shared (PostgreSQL): one at a time p50 {:.0} us p99 {:.0} us; {IN_FLIGHT} in \
         flight p50 {:.0} us p99 {:.0} us, {rate:.0} checks/s (target p99 <= 1000 us)",
        percentile(&one_by_one, 0.50),
        percentile(&one_by_one, 0.99),
        percentile(&together, 0.50),
        percentile(&together, 0.99),
    );
    db.teardown().await;
}

fn check_cost() {
    // Large enough that nothing is refused: the figure is the counting, not the 429.
    let limits = RateLimits::new(&roomy());
    let one = [Subject::Ip(IpAddr::V4(Ipv4Addr::new(203, 0, 113, 7)))];
    let started = Instant::now();
    for _ in 0..CHECKS {
        std::hint::black_box(limits.check(Bucket::PublicRead, &one).unwrap());
    }
    let hot = started.elapsed() / CHECKS;
    let started = Instant::now();
    for n in 0..CHECKS {
        let [a, b, c, d] = (n % 100_000 + 0x0a00_0000).to_be_bytes();
        let subject = [Subject::Ip(IpAddr::V4(Ipv4Addr::new(a, b, c, d)))];
        std::hint::black_box(limits.check(Bucket::PublicRead, &subject).unwrap());
    }
    let spread = started.elapsed() / CHECKS;
    println!(
        "ratelimit/check: one caller {} ns, 100000 callers in turn {} ns per check (target <= 20000)",
        hot.as_nanos(),
        spread.as_nanos()
    );
}

async fn layer_cost(db: TestDb, kind: &str) {
    let mail = tempfile::tempdir().unwrap();
    let state = freehire_api::AppState::new(
        db.store.clone(),
        Accounts::ephemeral(db.store.clone(), mail.path()),
    );
    let on = freehire_api::router(state.clone().with_rate_limits(&roomy()));
    let off = freehire_api::router(state.with_rate_limits(&RateLimitConfig::off()));
    let peer: SocketAddr = "198.51.100.4:40000".parse().unwrap();
    let round = |router: axum::Router| async move {
        let request = || {
            let mut r = Request::get("/api/v1/jobs/facets").body(Body::empty()).unwrap();
            r.extensions_mut().insert(ConnectInfo(peer));
            r
        };
        let started = Instant::now();
        for _ in 0..REQUESTS {
            let answer = router.clone().oneshot(request()).await.unwrap();
            assert_eq!(answer.status(), 503);
        }
        started.elapsed() / REQUESTS
    };
    round(on.clone()).await;
    round(off.clone()).await;
    let (mut limited, mut unlimited) = (Duration::MAX, Duration::MAX);
    for _ in 0..10 {
        limited = limited.min(round(on.clone()).await);
        unlimited = unlimited.min(round(off.clone()).await);
    }
    println!(
        "ratelimit/layer: GET /api/v1/jobs/facets {:.2} us limited, {:.2} us unlimited: {:.2} us \
         per request for the limit ({kind})",
        limited.as_secs_f64() * 1e6,
        unlimited.as_secs_f64() * 1e6,
        (limited.as_secs_f64() - unlimited.as_secs_f64()) * 1e6
    );
    db.teardown().await;
}
