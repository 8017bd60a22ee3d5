//! Derivation throughput over the evaluation set (postings per second, one core), and the
//! evaluation figures (precision and recall per facet).
//!
//! Run: `cargo bench -p freehire-normalize --bench derive`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../tests/it/evaluation.rs"]
#[allow(dead_code)]
mod evaluation;

use freehire_normalize::{Draft, derive, role_fingerprint};

/// How long each measurement runs.
const WINDOW: Duration = Duration::from_secs(3);

/// CPU time this thread has used (Linux `/proc/thread-self/schedstat`), so the rate is not
/// skewed by other processes competing for the cores. `None` elsewhere.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn main() {
    let drafts: Vec<Draft> = evaluation::load().into_iter().map(|(p, _)| p.draft()).collect();
    let bytes: usize =
        drafts.iter().map(|d| d.description.len() + d.title.len() + d.location.len()).sum();

    // Warm-up: builds every dictionary once (LazyLock), outside the measurement.
    let start = Instant::now();
    for d in &drafts {
        black_box(derive(d));
    }
    let first = start.elapsed();

    let (mut postings, start, cpu0) = (0usize, Instant::now(), thread_cpu());
    while start.elapsed() < WINDOW {
        for d in &drafts {
            black_box(derive(black_box(d)));
        }
        postings += drafts.len();
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = thread_cpu().zip(cpu0).map(|(b, a)| (b - a).as_secs_f64());
    let rate = postings as f64 / secs;
    let cpu_rate = cpu.map(|c| postings as f64 / c);

    let (mut fps, start) = (0usize, Instant::now());
    while start.elapsed() < WINDOW {
        for d in &drafts {
            black_box(role_fingerprint(&d.title, &d.company, &d.description));
        }
        fps += drafts.len();
    }
    let fp_rate = fps as f64 / start.elapsed().as_secs_f64();

    println!(
        "derive: {} postings in the set, {:.1} KiB of text (mean {:.0} B/posting)",
        drafts.len(),
        bytes as f64 / 1024.0,
        bytes as f64 / drafts.len() as f64
    );
    println!("derive: first pass incl. dictionary build {:.1} ms", first.as_secs_f64() * 1e3);
    println!(
        "derive: {rate:.0} postings/s wall clock, single thread ({:.1} µs/posting)",
        1e6 / rate
    );
    if let Some(cpu_rate) = cpu_rate {
        println!(
            "derive: {cpu_rate:.0} postings/s per CPU-second of this thread ({:.1} µs/posting, {:.1} MiB/s) — target ≥ 20000/s",
            1e6 / cpu_rate,
            cpu_rate * bytes as f64 / drafts.len() as f64 / (1024.0 * 1024.0)
        );
    }
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!(
            "derive: machine load average while measuring: {}",
            load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
        );
    }
    println!("role_fingerprint: {fp_rate:.0} postings/s");
    println!();
    let report = evaluation::evaluate();
    println!("the first set (the dictionaries were tuned on it):");
    print!("{}", report.table());
    println!();
    println!("the second set (350 postings of 90 unseen Ashby boards), text only, no adapter:");
    print!("{}", evaluation::evaluate_new().table());
}
