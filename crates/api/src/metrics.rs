//! The Prometheus side of [`freehire_app::telemetry`]: one recorder per process
//! ([`handle`], `metrics-exporter-prometheus`, installed on first use, with fixed latency
//! buckets), the route layer that records every API request by route template, method and
//! status ([`track`]), and the scrape itself (`GET /metrics`, [`render`]), which first reads
//! the database's own state as gauges:
//!
//! - `freehire_boards{provider, state}`: live boards `healthy`, `failing`, `cooling`,
//!   `never_crawled` (and `total`);
//! - `freehire_open_jobs{provider}`;
//! - `freehire_outbox_depth{outbox}` and `freehire_outbox_lag_seconds{outbox}` (`upsert`,
//!   `delete`): rows waiting for the search drain and the oldest one's age.
//!
//! `FREEHIRE_METRICS_TOKEN`, when set, is the bearer token a scrape must send (else 401).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::{
    extract::{MatchedPath, Request},
    middleware::Next,
    response::Response,
};
use chrono::{DateTime, Utc};
use freehire_store::Store;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use freehire_app::telemetry::BUCKETS;

/// How often the recorder folds recorded samples into its histograms (also done on scrape).
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed on first call; `None` when another recorder was
/// installed first (then nothing is exported).
pub fn handle() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new().set_buckets(&BUCKETS).ok()?;
            let handle = builder.install_recorder().ok()?;
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                let upkeep = handle.clone();
                runtime.spawn(async move {
                    let mut every = tokio::time::interval(UPKEEP_EVERY);
                    loop {
                        every.tick().await;
                        upkeep.run_upkeep();
                    }
                });
            }
            Some(handle)
        })
        .as_ref()
}

/// The route layer: records the request under its route template.
pub async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let method = request.method().as_str().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    freehire_app::telemetry::http_request(
        &route,
        &method,
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

/// The text exposition of everything recorded, after reading the database's gauges; a
/// database that cannot answer leaves its gauges as last read.
pub async fn render(store: &dyn Store, now: DateTime<Utc>) -> Option<String> {
    let handle = handle()?;
    match store.fleet_status(now).await {
        Ok(fleet) => {
            for p in &fleet.providers {
                let states = [
                    ("total", p.boards),
                    ("healthy", p.healthy),
                    ("failing", p.failing),
                    ("cooling", p.cooling),
                    ("never_crawled", p.never_crawled),
                ];
                for (state, n) in states {
                    metrics::gauge!("freehire_boards", "provider" => p.provider.clone(), "state" => state)
                        .set(n as f64);
                }
                metrics::gauge!("freehire_open_jobs", "provider" => p.provider.clone())
                    .set(p.open_jobs as f64);
            }
        }
        Err(e) => tracing::warn!(error = %e, "metrics: cannot read the fleet"),
    }
    match store.outbox_backlog().await {
        Ok((upserts, deletes)) => {
            for (outbox, depth) in [("upsert", upserts), ("delete", deletes)] {
                let lag = depth.oldest.map_or(0.0, |at| (now - at).as_seconds_f64().max(0.0));
                metrics::gauge!("freehire_outbox_depth", "outbox" => outbox).set(depth.rows as f64);
                metrics::gauge!("freehire_outbox_lag_seconds", "outbox" => outbox).set(lag);
            }
        }
        Err(e) => tracing::warn!(error = %e, "metrics: cannot read the outboxes"),
    }
    handle.run_upkeep();
    Some(handle.render())
}
