//! The search page's server time and weight, on the search engine bench's generated catalogue
//! (its `catalogue` and `queries` modules, included from `crates/search/benches/engine`, so
//! both benches search the same jobs with the same kind of queries).
//!
//! - Time: 400 varied search-page requests (the front page; text only; text with one to three
//!   facet filters; filters only; sorted; paged), each answered by
//!   [`freehire_web::pages::search::render_anonymous`] (the page handler's path for an
//!   anonymous viewer: parse, the engine calls, the region, the HTML) over the embedded index
//!   behind [`Timed`], which adds up the time spent inside the engine's `search` calls (the
//!   hits, and the disjunctive facet counts' searches). So one call gives both the page's time
//!   and the engine's own part of it. After a warm-up pass, three rounds; per request the
//!   fastest of the three of each figure. Prints p50/p99 of the engine's time, of the page's,
//!   and of the page minus the engine ("server time above the engine").
//! - Weight: the HTML of the 20-hit pages (median and largest), the stylesheet and htmx, each
//!   uncompressed and gzip (level 6, as a reverse proxy would send it).
//!
//! `BENCH_DOCS` sets the catalogue size (default 1,000,000, like the engine bench); the index
//! is built in a temporary directory each run (its build time is printed).
//!
//! Run with `cargo bench -p freehire-web --bench page`; prints figures, asserts nothing beyond
//! every page answering 200.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[allow(dead_code)]
#[path = "../../search/benches/engine/catalogue.rs"]
mod catalogue;
#[allow(dead_code)]
#[path = "../../search/benches/engine/queries.rs"]
mod queries;

use std::io::Write;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use axum::http::StatusCode;
use chrono::{DateTime, TimeZone, Utc};
use flate2::{Compression, write::GzEncoder};
use freehire_search::{
    CompanyDocument, CompanyHits, CompanySearch, EmbeddedIndex, IndexError, SearchDocument,
    SearchIndex, SearchRequest, SearchResults,
};
use freehire_web::assets::{SCRIPT, STYLESHEET};
use freehire_web::pages::search::render_anonymous;

use catalogue::{Rng, Seeds, Vocabulary};

/// Documents per write call while building (as the engine bench).
const BATCH: usize = 100_000;

/// Requests measured.
const REQUESTS: usize = 400;

/// Measured rounds (per request, the fastest counts).
const ROUNDS: usize = 3;

/// The sort choices the page offers.
const SORTS: [&str; 4] = ["posted_at", "created_at", "salary_min", "salary_max"];

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

/// The requests' query strings: request 0 is the front page (no parameters), then by turns
/// text only, text with 1–3 filters, 1–2 filters only, sorted (text or a filter), and paged
/// (text, sometimes a filter, a page among the first ten).
fn requests(docs: &[SearchDocument], seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut out = vec![String::new()];
    for i in 1..REQUESTS {
        let mut parts = Vec::new();
        match i % 5 {
            0 => parts.push(format!("q={}", queries::text(docs, &mut rng, false))),
            1 => {
                parts.push(format!("q={}", queries::text(docs, &mut rng, false)));
                let n = 1 + rng.below(3);
                parts.extend(queries::filters(docs, &mut rng, n));
            }
            2 => {
                let n = 1 + rng.below(2);
                parts.extend(queries::filters(docs, &mut rng, n));
            }
            3 => {
                if rng.chance(0.5) {
                    parts.push(format!("q={}", queries::text(docs, &mut rng, false)));
                } else {
                    parts.extend(queries::filters(docs, &mut rng, 1));
                }
                parts.push(format!("sort={}", SORTS[rng.below(SORTS.len())]));
                if rng.chance(0.3) {
                    parts.push("order=asc".into());
                }
            }
            _ => {
                parts.push(format!("q={}", queries::text(docs, &mut rng, false)));
                if rng.chance(0.5) {
                    parts.extend(queries::filters(docs, &mut rng, 1));
                }
                parts.push(format!("offset={}", 20 * (1 + rng.below(10))));
            }
        }
        out.push(parts.join("&"));
    }
    out
}

/// The embedded index, timing its searches: every `search` call adds its duration to
/// `spent` (the page calls the engine one search at a time).
struct Timed {
    inner: EmbeddedIndex,
    spent: Mutex<Duration>,
}

#[async_trait]
impl SearchIndex for Timed {
    async fn upsert(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.inner.upsert(docs).await
    }

    async fn delete(&self, ids: &[i64]) -> Result<(), IndexError> {
        self.inner.delete(ids).await
    }

    async fn rebuild(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.inner.rebuild(docs).await
    }

    async fn upsert_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError> {
        self.inner.upsert_companies(docs).await
    }
    async fn delete_companies(&self, slugs: &[String]) -> Result<(), IndexError> {
        self.inner.delete_companies(slugs).await
    }
    async fn rebuild_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError> {
        self.inner.rebuild_companies(docs).await
    }
    async fn search_companies(&self, search: &CompanySearch) -> Result<CompanyHits, IndexError> {
        self.inner.search_companies(search).await
    }

    async fn search(&self, request: SearchRequest<'_>) -> Result<SearchResults, IndexError> {
        let start = Instant::now();
        let results = self.inner.search(request).await;
        *self.spent.lock().unwrap() += start.elapsed();
        results
    }
}

/// One page for `raw`: the page's time, the engine's part of it, and the HTML.
async fn page(index: &Timed, raw: &str) -> (Duration, Duration, String) {
    *index.spent.lock().unwrap() = Duration::ZERO;
    let start = Instant::now();
    let (status, html) = render_anonymous(index, Some(raw), now()).await.unwrap();
    let elapsed = start.elapsed();
    assert_eq!(status, StatusCode::OK, "/jobs?{raw}");
    let engine = *index.spent.lock().unwrap();
    (elapsed, engine, html)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The `p` quantile of `v` (sorts it).
fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn gzip(bytes: &[u8]) -> usize {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap().len()
}

fn kb(bytes: usize) -> String {
    format!("{:.1} KB", bytes as f64 / 1024.0)
}

fn main() {
    let n: usize =
        std::env::var("BENCH_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let seeds = Seeds::load(Vocabulary::Fixtures, n);
    // The engine bench's seed: the same catalogue.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start = Instant::now();
    let docs: Vec<SearchDocument> = (1..=n as i64).map(|id| seeds.generate(id, &mut rng)).collect();
    println!("generated {n} jobs in {:.1} s", start.elapsed().as_secs_f64());
    let requests = requests(&docs, 0x5851_F42D_4C95_7F2D);

    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    let start = Instant::now();
    rt.block_on(async {
        let mut batches = docs.chunks(BATCH);
        if let Some(first) = batches.next() {
            index.rebuild(first.to_vec()).await.unwrap();
        }
        for batch in batches {
            index.upsert(batch.to_vec()).await.unwrap();
        }
    });
    println!("built the embedded index in {:.1} s", start.elapsed().as_secs_f64());
    drop(docs);

    let index = Timed { inner: index, spent: Mutex::new(Duration::ZERO) };
    let (page_times, engine_times, above_times, pages) = rt.block_on(async {
        // Warm-up (page cache, lazily built automata, the templates' first use).
        for raw in &requests {
            page(&index, raw).await;
        }
        let mut page_times = vec![Duration::MAX; requests.len()];
        let mut engine_times = vec![Duration::MAX; requests.len()];
        let mut above_times = vec![Duration::MAX; requests.len()];
        let mut pages = Vec::with_capacity(requests.len());
        for round in 0..ROUNDS {
            for (i, raw) in requests.iter().enumerate() {
                let (total, engine, html) = page(&index, raw).await;
                page_times[i] = page_times[i].min(total);
                engine_times[i] = engine_times[i].min(engine);
                above_times[i] = above_times[i].min(total.saturating_sub(engine));
                if round == 0 {
                    pages.push(html);
                }
            }
        }
        (page_times, engine_times, above_times, pages)
    });

    let mut engine_ms: Vec<f64> = engine_times.iter().copied().map(ms).collect();
    let mut page_ms: Vec<f64> = page_times.iter().copied().map(ms).collect();
    let mut above: Vec<f64> = above_times.iter().copied().map(ms).collect();
    println!(
        "\nsearch page on {n} generated jobs, {} requests (front page, text, text + filters, \
         filters, sorted, paged), fastest of {ROUNDS} rounds each:",
        requests.len()
    );
    let row = |label: &str, v: &mut [f64]| {
        println!("{label:<58}{:>8.2} / {:.2} ms", percentile(v, 0.5), percentile(v, 0.99));
    };
    row("engine's searches (hits + disjunctive facets) p50 / p99", &mut engine_ms);
    row("whole page (parse, engine, region, HTML) p50 / p99", &mut page_ms);
    row("server time above the engine p50 / p99", &mut above);
    println!("target: server time above the engine p99 <= 5 ms");

    let mut full: Vec<(usize, usize)> = pages
        .iter()
        .filter(|html| html.matches(r#"<li class="card">"#).count() == 20)
        .map(|html| (html.len(), gzip(html.as_bytes())))
        .collect();
    full.sort();
    let css = (STYLESHEET.body.len(), gzip(STYLESHEET.body));
    let js = (SCRIPT.body.len(), gzip(SCRIPT.body));
    println!("\nbytes per page ({} of the pages have 20 hits):", full.len());
    println!("{:<58}{:>12}{:>12}", "", "raw", "gzip");
    if let (Some(median), Some(largest)) = (full.get(full.len() / 2), full.last()) {
        println!("{:<58}{:>12}{:>12}", "HTML, 20-hit page, median", kb(median.0), kb(median.1));
        println!("{:<58}{:>12}{:>12}", "HTML, 20-hit page, largest", kb(largest.0), kb(largest.1));
        println!("{:<58}{:>12}{:>12}", "CSS", kb(css.0), kb(css.1));
        println!("{:<58}{:>12}{:>12}", "JS (htmx)", kb(js.0), kb(js.1));
        println!(
            "{:<58}{:>12}{:>12}",
            "median page + CSS + JS",
            kb(median.0 + css.0 + js.0),
            kb(median.1 + css.1 + js.1)
        );
        println!(
            "{:<58}{:>12}{:>12}",
            "largest page + CSS + JS",
            kb(largest.0 + css.0 + js.0),
            kb(largest.1 + css.1 + js.1)
        );
    }
    println!("target: search page (HTML + CSS + JS) <= 100 KB gzip");
}
