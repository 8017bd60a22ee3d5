//! The product's metrics (reference search-ingest §11.1; issue 17), recorded through the
//! `metrics` facade: each process that installs a recorder (the API server's `/metrics`, the
//! worker's listener) exports what it recorded; without one every call is a no-op. One
//! function per event, so names and labels are spelt once:
//!
//! | metric | kind | labels | recorded by |
//! |---|---|---|---|
//! | `freehire_http_requests_total` | counter | `route`, `method`, `status` | the API's layer |
//! | `freehire_http_request_duration_seconds` | histogram | `route`, `method` | the API's layer |
//! | `freehire_search_duration_seconds` | histogram | `engine`, `kind` (`search`, `facets`) | [`crate::search`] |
//! | `freehire_assistant_turns_total` | counter | `preset`, `stop_reason` | a turn's terminal event |
//! | `freehire_assistant_turn_duration_seconds` | histogram | `preset` | a turn's terminal event |
//! | `freehire_assistant_tokens_total` | counter | `preset`, `kind` (`input`, `output`) | a turn's usage event |
//! | `freehire_model_call_duration_seconds` | histogram | `feature` (a spend tag), `outcome` (`ok`, `error`) | every call of a bound model |
//! | `freehire_ingest_runs_total` | counter | `provider`, `outcome` (`ok`, `interrupted`, `failed`) | a provider run |
//! | `freehire_ingest_postings_total` | counter | `provider`, `outcome` (`inserted`, `changed`, `touched`, `skipped`, `unreadable`) | a provider run |
//! | `freehire_ingest_boards_total` | counter | `provider`, `outcome` (`crawled`, `failed`, `cooled`) | a provider run |
//! | `freehire_ingest_closed_total` | counter | `provider`, `how` (`board`, `swept`) | a provider run |
//! | `freehire_deliveries_total` | counter | `outcome` (`sent`, `failed`) | the delivery pass |
//!
//! The database's own state (board health, the search outboxes) is read when `/metrics` is
//! scraped, as gauges: see the API's `metrics` module.

use std::time::Duration;

/// The latency buckets of every histogram, in seconds (the exporters install them).
pub const BUCKETS: [f64; 14] =
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

/// An API request answered.
pub fn http_request(route: &str, method: &str, status: u16, took: Duration) {
    let (route, method) = (route.to_owned(), method.to_owned());
    metrics::counter!("freehire_http_requests_total", "route" => route.clone(), "method" => method.clone(), "status" => status.to_string())
        .increment(1);
    metrics::histogram!("freehire_http_request_duration_seconds", "route" => route, "method" => method)
        .record(took.as_secs_f64());
}

/// A search answered by `engine` (`embedded`, `meilisearch`).
pub fn search(engine: &str, kind: &'static str, took: Duration) {
    metrics::histogram!("freehire_search_duration_seconds", "engine" => engine.to_owned(), "kind" => kind)
        .record(took.as_secs_f64());
}

/// A turn ended with `stop_reason` after `took`.
pub fn turn_ended(preset: &'static str, stop_reason: &'static str, took: Duration) {
    metrics::counter!("freehire_assistant_turns_total", "preset" => preset, "stop_reason" => stop_reason)
        .increment(1);
    metrics::histogram!("freehire_assistant_turn_duration_seconds", "preset" => preset)
        .record(took.as_secs_f64());
}

/// A turn's model calls used these tokens.
pub fn turn_tokens(preset: &'static str, input: u64, output: u64) {
    metrics::counter!("freehire_assistant_tokens_total", "preset" => preset, "kind" => "input")
        .increment(input);
    metrics::counter!("freehire_assistant_tokens_total", "preset" => preset, "kind" => "output")
        .increment(output);
}

/// The label of a call's feature spend tag: one of the plan's features, else `other` (a
/// label never carries a value a client chose).
pub fn feature_label(tag: &str) -> &'static str {
    freehire_domain::plan::Feature::parse(tag).map_or("other", |f| f.as_str())
}

/// One model call answered (or failed) after `took`.
pub fn model_call(feature: &'static str, ok: bool, took: Duration) {
    let outcome = if ok { "ok" } else { "error" };
    metrics::histogram!("freehire_model_call_duration_seconds", "feature" => feature, "outcome" => outcome)
        .record(took.as_secs_f64());
}

/// A provider run's outcome and counts.
pub fn ingest_run(provider: &str, outcome: &'static str, stats: &crate::ingest::RunStats) {
    let p = provider.to_owned();
    metrics::counter!("freehire_ingest_runs_total", "provider" => p.clone(), "outcome" => outcome)
        .increment(1);
    let postings = [
        ("inserted", stats.inserted),
        ("changed", stats.changed),
        ("touched", stats.touched),
        ("skipped", stats.skipped),
        ("unreadable", stats.unreadable),
    ];
    for (outcome, n) in postings {
        metrics::counter!("freehire_ingest_postings_total", "provider" => p.clone(), "outcome" => outcome)
            .increment(n);
    }
    for (outcome, n) in
        [("crawled", stats.crawled), ("failed", stats.failed), ("cooled", stats.cooled)]
    {
        metrics::counter!("freehire_ingest_boards_total", "provider" => p.clone(), "outcome" => outcome)
            .increment(n);
    }
    for (how, n) in [("board", stats.closed_board), ("swept", stats.closed_swept)] {
        metrics::counter!("freehire_ingest_closed_total", "provider" => p.clone(), "how" => how)
            .increment(n);
    }
}

/// A provider run that failed before it finished.
pub fn ingest_run_failed(provider: &str) {
    metrics::counter!("freehire_ingest_runs_total", "provider" => provider.to_owned(), "outcome" => "failed")
        .increment(1);
}

/// A delivery pass sent and failed these.
pub fn deliveries(sent: u64, failed: u64) {
    metrics::counter!("freehire_deliveries_total", "outcome" => "sent").increment(sent);
    metrics::counter!("freehire_deliveries_total", "outcome" => "failed").increment(failed);
}
