//! The scale-out run in the test command (issue 17): two `freehire-api` and two
//! `freehire-worker` processes on one PostgreSQL database, on the embedded index (and on
//! Meilisearch too when `MEILI_URL` is set), fed by the replay server with recorded boards on
//! three platforms. What it checks is in `support/scale.rs`; `cargo xtask scale` runs the same
//! with one and two process pairs and more boards, in release, and prints the throughput.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::scale::{ScaleConfig, run};

fn meili() -> Option<(String, Option<String>)> {
    let url = std::env::var("MEILI_URL").ok().filter(|u| !u.trim().is_empty())?;
    Some((url, std::env::var("MEILI_MASTER_KEY").ok().filter(|k| !k.is_empty())))
}

// scenario: Two process pairs on one PostgreSQL database write nothing twice
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_process_pairs_share_one_database_and_write_nothing_twice() {
    let mut config = ScaleConfig {
        boards: 300,
        pairs: 2,
        search_secs: 2.0,
        search_clients: 4,
        subscribers: 3,
        meili: None,
    };
    let report = run(&config).await;
    eprintln!("scale-out run: {}", report.line());
    if let Some(meili) = meili() {
        config.meili = Some(meili);
        let report = run(&config).await;
        eprintln!("scale-out run: {}", report.line());
    }
}
