//! The saved-search percolator against the engine it stands in for: 10,000 subscriptions
//! (1–3 facet filters with values read off a catalogue of 20,000 generated jobs, a third of them
//! with a text query, as the engine bench draws them) over a batch of 5,000 new generated jobs
//! (the engine bench's generator, `engine/catalogue.rs`, shared by path).
//!
//! Prints the percolator's time on one thread (`Percolator::new`, then `matches`, the best of
//! five runs; target ≤ 2 s), the baseline of one engine search per subscription (the first page and the exact
//! total) on an `EmbeddedIndex` holding the 5,000 jobs, timed over a sample of
//! `BENCH_SAMPLE` subscriptions (default 1,000; the time is extrapolated to all of them and the
//! output says so), and the speed-up (target ≥ 50×), by wall clock and by process CPU time
//! (which other work on a shared machine does not inflate). It checks that each sampled search's
//! total equals the percolator's match count for it, and asserts nothing else.
//!
//! Run with `cargo bench -p freehire-search --bench percolate`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "engine/catalogue.rs"]
mod catalogue;
#[allow(dead_code)]
#[path = "engine/queries.rs"]
mod queries;

use std::collections::HashMap;
use std::time::Instant;

use chrono::{TimeZone, Utc};
use freehire_search::{
    EmbeddedIndex, Endpoint, JobQuery, Percolator, SearchDocument, SearchIndex, SearchRequest,
};

use catalogue::{Rng, Seeds, Vocabulary};

const SUBSCRIPTIONS: usize = 10_000;
const NEW_JOBS: usize = 5_000;
/// Jobs the subscriptions' values are read from.
const CATALOGUE: usize = 20_000;
/// Percolator runs (the best is reported: the machine may be shared).
const RUNS: usize = 5;

/// The process's CPU time so far (user + system, all threads), from `/proc/self/stat` in
/// clock ticks of 1/100 s (Linux's `USER_HZ`); `None` where that file is not.
struct Cpu(Option<f64>);

impl Cpu {
    fn now() -> Self {
        let stat = std::fs::read_to_string("/proc/self/stat").ok();
        // Fields after the command name (which may hold spaces) ends with ')'.
        let ticks = stat.as_deref().and_then(|s| {
            let rest = &s[s.rfind(')')? + 1..];
            let fields: Vec<&str> = rest.split_whitespace().collect();
            // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
            Some(fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?)
        });
        Cpu(ticks.map(|t| t / 100.0))
    }

    /// Seconds of CPU time since `self`.
    fn since(&self) -> Option<f64> {
        Some(Cpu::now().0? - self.0?)
    }
}

fn main() {
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let seeds = Seeds::load(Vocabulary::Fixtures, CATALOGUE);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let catalogue: Vec<SearchDocument> =
        (1..=CATALOGUE as i64).map(|id| seeds.generate(id, &mut rng)).collect();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let jobs: Vec<SearchDocument> =
        (1..=NEW_JOBS as i64).map(|i| seeds.generate(CATALOGUE as i64 + i, &mut rng)).collect();

    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut subscriptions: Vec<(i64, JobQuery)> = Vec::with_capacity(SUBSCRIPTIONS);
    while subscriptions.len() < SUBSCRIPTIONS {
        let n = 1 + rng.below(3);
        let mut parts = queries::filters(&catalogue, &mut rng, n);
        if rng.chance(1.0 / 3.0) {
            parts.push(format!("q={}", queries::text(&catalogue, &mut rng, false)));
        }
        if let Ok(q) = JobQuery::from_query_str(&parts.join("&"), Endpoint::Search) {
            subscriptions.push((subscriptions.len() as i64, q));
        }
    }
    let with_text = subscriptions.iter().filter(|(_, q)| q.q.is_some()).count();

    // Best of `RUNS` (wall clock), and the process CPU time over all of them.
    let (mut built, mut matched) = (f64::MAX, f64::MAX);
    let cpu = Cpu::now();
    let mut result = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let percolator = Percolator::new(subscriptions.iter().cloned(), now);
        let b = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let pairs = percolator.matches(&jobs);
        let m = start.elapsed().as_secs_f64();
        if b + m < built + matched {
            (built, matched) = (b, m);
        }
        result = Some((percolator, pairs));
    }
    let percolate_cpu = cpu.since().map(|s| s / RUNS as f64);
    let (percolator, pairs) = result.expect("RUNS > 0");
    let percolate = built + matched;
    let mut counts: HashMap<i64, u64> = HashMap::new();
    for (key, _) in &pairs {
        *counts.entry(*key).or_default() += 1;
    }

    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    rt.block_on(index.rebuild(jobs.clone())).unwrap();
    let sample: usize = std::env::var("BENCH_SAMPLE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000)
        .clamp(1, SUBSCRIPTIONS);
    let search = |q: &JobQuery| {
        let mut q = q.clone();
        q.page.limit = 100;
        rt.block_on(index.search(SearchRequest::new(&q, now))).unwrap().total
    };
    // Warm-up (page cache, lazily built automata).
    for (_, q) in subscriptions.iter().rev().take(200) {
        search(q);
    }
    let start = Instant::now();
    let cpu = Cpu::now();
    let mut disagree = 0;
    for (key, q) in subscriptions.iter().take(sample) {
        if search(q) != counts.get(key).copied().unwrap_or(0) {
            disagree += 1;
        }
    }
    let sampled = start.elapsed().as_secs_f64();
    let scale = SUBSCRIPTIONS as f64 / sample as f64;
    // Only over enough searches for ticks of 10 ms to count.
    let engine_cpu = cpu.since().filter(|s| *s >= 0.2).map(|s| s * scale);
    let engine = sampled * scale;
    assert_eq!(disagree, 0, "sampled searches whose total differs from the percolator's");

    println!(
        "\npercolator: {SUBSCRIPTIONS} subscriptions ({} distinct queries, {with_text} with text) \
         against {NEW_JOBS} new jobs, {} matches",
        percolator.distinct_queries(),
        pairs.len()
    );
    println!(
        "percolator (one thread):      {:>9.1} ms  (new {:.1} ms + matches {:.1} ms)",
        percolate * 1e3,
        built * 1e3,
        matched * 1e3
    );
    let how = if sample == SUBSCRIPTIONS {
        format!("all {SUBSCRIPTIONS} searches")
    } else {
        format!(
            "{sample} searches timed ({:.1} ms), extrapolated to {SUBSCRIPTIONS}",
            sampled * 1e3
        )
    };
    println!(
        "engine, one search each:      {:>9.1} ms  ({how}; {:.3} ms per search)",
        engine * 1e3,
        sampled * 1e3 / sample as f64
    );
    println!("speed-up (wall clock):        {:>9.1}x", engine / percolate);
    if let (Some(p), Some(e)) = (percolate_cpu, engine_cpu) {
        println!(
            "process CPU time:             percolator {:.1} ms, engine {:.1} ms: {:.1}x",
            p * 1e3,
            e * 1e3,
            e / p
        );
    }
    println!("targets: percolator <= 2,000 ms, speed-up >= 50x");
}
