//! The scale-out run's throughput (issue 17): `cargo xtask scale` (or `cargo xtask bench`, or
//! `cargo bench -p freehire-api-server --bench scale` after `cargo build --release --bin
//! freehire-worker`, with PostgreSQL reachable).
//!
//! The same run as the test command's (`tests/support/scale.rs`: every invariant checked) with
//! one and then two process pairs (`freehire-api` + `freehire-worker`) on one PostgreSQL
//! database, `BENCH_SCALE_BOARDS` recorded boards (default 2,000) on three platforms, and
//! `BENCH_SCALE_SEARCH_SECS` seconds (default 10) of search from `BENCH_SCALE_CLIENTS` clients
//! (default 16). Printed: ingest postings/s and search requests/s (with p50/p99) for each, and
//! the two-pair/one-pair ratios. The embedded index by default; Meilisearch too with
//! `MEILI_URL` (and `MEILI_MASTER_KEY`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use support::scale::{ScaleConfig, ScaleReport, run};

fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn ratios(one: &ScaleReport, two: &ScaleReport) {
    println!(
        "scale ({}): two pairs / one pair: ingest {:.2}x ({:.0} vs {:.0} postings/s), search \
         {:.2}x ({:.0} vs {:.0} requests/s)",
        one.engine,
        two.ingest_rate() / one.ingest_rate(),
        two.ingest_rate(),
        one.ingest_rate(),
        two.search_rate() / one.search_rate(),
        two.search_rate(),
        one.search_rate()
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let base = ScaleConfig {
            boards: env_number("BENCH_SCALE_BOARDS", 2_000),
            pairs: 1,
            search_secs: env_number("BENCH_SCALE_SEARCH_SECS", 10.0),
            search_clients: env_number("BENCH_SCALE_CLIENTS", 16),
            subscribers: 5,
            meili: None,
        };
        let mut engines = vec![None];
        if let Ok(url) = std::env::var("MEILI_URL")
            && !url.trim().is_empty()
        {
            engines.push(Some((url, std::env::var("MEILI_MASTER_KEY").ok())));
        }
        for meili in engines {
            let one = run(&ScaleConfig { pairs: 1, meili: meili.clone(), ..base.clone() }).await;
            println!("scale: {}", one.line());
            let two = run(&ScaleConfig { pairs: 2, meili, ..base.clone() }).await;
            println!("scale: {}", two.line());
            ratios(&one, &two);
        }
    });
}
