//! `user_said` over a long transcript (issue target: ≤ 5 ms for 10,000 messages).
//!
//! Run: `cargo bench -p freehire-domain --bench said`. The transcript alternates user and
//! assistant messages of ordinary chat prose (about 180 bytes each, a few non-ASCII); the
//! figures are the median and p99 of repeated calls for a quote that is found only in the last
//! message (the worst case: every message is read), one that is found nowhere, and one whose
//! longest word is in most messages (so the prefilter passes and they are normalised).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use freehire_domain::{Speaker, Utterance, user_said};

const MESSAGES: usize = 10_000;

fn transcript() -> Vec<(Speaker, String)> {
    let lines = [
        "I spent three years at a logistics company, mostly on the routing service and its data pipeline.",
        "We moved from cron jobs to a queue, which cut the nightly batch from four hours to forty minutes.",
        "Honestly I didn't own the Kafka cluster, the platform team did; I just wrote the consumers.",
        "Before that I was at a small agency — lots of Django, some React, a café-ordering app.",
        "The hardest part was convincing people to add tests before the rewrite, not after it.",
    ];
    (0..MESSAGES)
        .map(|i| {
            let speaker = if i % 2 == 0 { Speaker::User } else { Speaker::Assistant };
            let text = format!(
                "{} (message {i}) {}",
                lines[i % lines.len()],
                lines[(i + 2) % lines.len()]
            );
            (speaker, text)
        })
        .chain(std::iter::once((
            Speaker::User,
            "In the end I led the migration to Kubernetes for 40 services.".to_owned(),
        )))
        .collect()
}

fn measure(name: &str, messages: &[(Speaker, String)], quote: &str, want: bool) {
    let run = || user_said(messages.iter().map(|(s, t)| Utterance { speaker: *s, text: t }), quote);
    assert_eq!(run(), want, "{name}");
    let mut times = Vec::new();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) || times.len() < 20 {
        let t = Instant::now();
        black_box(run());
        times.push(t.elapsed());
    }
    times.sort();
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize];
    println!(
        "user_said {name:<28} {MESSAGES} messages: p50 {:.3} ms, p99 {:.3} ms ({} calls)",
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        times.len()
    );
}

fn main() {
    let messages = transcript();
    let bytes: usize = messages.iter().map(|(_, t)| t.len()).sum();
    println!("user_said transcript: {} messages, {:.1} MB", messages.len(), bytes as f64 / 1e6);
    measure("found in the last message", &messages, "led the migration to Kubernetes", true);
    measure("found nowhere", &messages, "designed the payments ledger", false);
    measure("common words, never found", &messages, "the routing pipeline was", false);
}
