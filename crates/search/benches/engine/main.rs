//! The search engines on a generated catalogue of realistic jobs (`catalogue`: built from the
//! shared fixtures' vocabulary with a long-tailed facet skew): index build rate and size, then
//! search latency p50/p99 for a mixed set of 1,000 queries (`queries`: text only, text + 3
//! facet filters, filters with 6 facet distributions, disjunctive facets), each run twice (the
//! second pass is measured).
//!
//! Two catalogues run, each printed as its own table (`BENCH_CATALOGUE=real|fixtures` runs
//! one): the real-vocabulary one (1,094 recorded Ashby postings, ~41,600 companies at 1 M, one
//! country on 56 % of the jobs, phrases and company distributions among the queries) and the
//! fixture-vocabulary one (93 postings; the first catalogue, kept so regressions show on both).
//!
//! `BENCH_DOCS` sets the catalogue size (default 1,000,000). The embedded engine always runs;
//! when `MEILI_URL` points to a Meilisearch server (`MEILI_MASTER_KEY` optional) the same
//! catalogue and queries run there too and the figures print side by side.
//!
//! Then the companies index: the catalogue's companies aggregated as the companies table does,
//! rebuilt, and 400 company searches (`companies`).
//!
//! `BENCH_ONLY=<kind name part>` keeps one kind of query, `BENCH_QUERIES='q=a|q=b&countries=us'`
//! times the given searches instead (a facets request when one names `disjunctive=true` or
//! `facets=`), `BENCH_SLOWEST=n` prints each kind's n slowest, and
//! `BENCH_INDEX_DIR=<dir>` keeps the embedded index there and reuses it on the next run.
//!
//! Run with `cargo bench -p freehire-search --bench engine`; prints figures, asserts nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod catalogue;
mod companies;
mod queries;

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use freehire_search::{
    EmbeddedIndex, Endpoint, Facet, FacetsRequest, JobQuery, MeiliConfig, MeiliIndex,
    SearchDocument, SearchIndex, SearchRequest, facet_counts,
};

use catalogue::{Rng, Seeds, Vocabulary};
use queries::{BenchQuery, Kind};

/// Documents per write call while building.
const BATCH: usize = 100_000;

fn percentile(v: &mut [Duration], p: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3
}

/// The figures of one engine.
struct Figures {
    engine: &'static str,
    build_rate: f64,
    build_secs: f64,
    size_mb: Option<f64>,
    /// Per kind: p50 and p99 in ms.
    latency: Vec<(Kind, f64, f64)>,
    all: (f64, f64),
    /// A company distribution over every job: the first after a one-job write (a new
    /// segment), then the same again, in ms.
    after_write: (f64, f64),
    /// The companies index.
    companies: companies::CompanyFigures,
}

async fn build(index: &dyn SearchIndex, docs: &[SearchDocument]) -> f64 {
    let start = Instant::now();
    let mut batches = docs.chunks(BATCH);
    if let Some(first) = batches.next() {
        index.rebuild(first.to_vec()).await.unwrap();
    }
    for batch in batches {
        index.upsert(batch.to_vec()).await.unwrap();
    }
    start.elapsed().as_secs_f64()
}

async fn run_one(index: &dyn SearchIndex, q: &BenchQuery) -> Duration {
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let start = Instant::now();
    match q.kind {
        Kind::TextOnly | Kind::TextAndFilters => {
            let query = JobQuery::from_query_str(&q.query_string, Endpoint::Search).unwrap();
            index.search(SearchRequest::new(&query, now)).await.unwrap();
        }
        Kind::FiltersAndFacets | Kind::Disjunctive => {
            let request = FacetsRequest::from_query_str(&q.query_string).unwrap();
            facet_counts(index, &request, now).await.unwrap();
        }
        Kind::CompanyDistribution => {
            let mut query = JobQuery::from_query_str(&q.query_string, Endpoint::Search).unwrap();
            query.page.limit = 1;
            let facets = [Facet::CompanySlug, Facet::Skills, Facet::Countries, Facet::Seniority];
            index.search(SearchRequest::new(&query, now).with_facets(&facets)).await.unwrap();
        }
    }
    start.elapsed()
}

async fn measure(
    engine: &'static str,
    index: &dyn SearchIndex,
    docs: &[SearchDocument],
    queries: &[BenchQuery],
    size: impl Fn() -> Option<u64>,
) -> Figures {
    // `BENCH_INDEX_DIR` (profiling): an index that already holds the catalogue is reused.
    let kept = std::env::var_os("BENCH_INDEX_DIR").is_some();
    let all = JobQuery::from_query_str("", Endpoint::Search).unwrap();
    let held = index.search(SearchRequest::new(&all, Utc::now())).await.map_or(0, |r| r.total);
    let build_secs = if kept && held == docs.len() as u64 { 0.0 } else { build(index, docs).await };
    let size_mb = size().map(|b| b as f64 / 1e6);
    // Warm-up pass (page cache, lazily built automata), then the measured pass.
    for q in queries {
        run_one(index, q).await;
    }
    let mut times: Vec<(Kind, Duration)> = Vec::with_capacity(queries.len());
    for q in queries {
        times.push((q.kind, run_one(index, q).await));
    }
    // A write lands (the embedded engine renumbers the facets' values once for the new
    // segment set): the first request that counts companies pays for it.
    let mut edited = docs[0].clone();
    edited.title.push_str(" (edited)");
    index.upsert(vec![edited]).await.unwrap();
    let everything = BenchQuery { kind: Kind::CompanyDistribution, query_string: String::new() };
    let after_write = run_one(index, &everything).await.as_secs_f64() * 1e3;
    let again = run_one(index, &everything).await.as_secs_f64() * 1e3;
    // The slowest queries of each kind, for whoever tunes the engine.
    let slowest: usize =
        std::env::var("BENCH_SLOWEST").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    for &k in &Kind::ALL {
        let mut of_kind: Vec<(Duration, &str)> = times
            .iter()
            .zip(queries)
            .filter(|((kind, _), _)| *kind == k)
            .map(|((_, d), q)| (*d, q.query_string.as_str()))
            .collect();
        of_kind.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (d, q) in of_kind.iter().take(slowest) {
            println!("{engine} slow {}: {:.1} ms  {q}", k.name(), d.as_secs_f64() * 1e3);
        }
    }
    let latency = Kind::ALL
        .iter()
        .filter(|&&k| times.iter().any(|(kind, _)| *kind == k))
        .map(|&k| {
            let mut v: Vec<Duration> =
                times.iter().filter(|(kind, _)| *kind == k).map(|(_, d)| *d).collect();
            (k, percentile(&mut v, 0.5), percentile(&mut v, 0.99))
        })
        .collect();
    let mut all: Vec<Duration> = times.iter().map(|(_, d)| *d).collect();
    let all = (percentile(&mut all, 0.5), percentile(&mut all, 0.99));
    let companies = companies::measure(index, docs).await;
    Figures {
        engine,
        build_rate: docs.len() as f64 / build_secs,
        build_secs,
        size_mb,
        latency,
        all,
        after_write: (after_write, again),
        companies,
    }
}

/// Bytes per file extension (tantivy's file kinds: `store`, `idx`, `term`, `fast`, ...),
/// largest first.
fn size_by_kind(path: &std::path::Path) -> Vec<(String, u64)> {
    let mut kinds: std::collections::HashMap<String, u64> = Default::default();
    for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            // The companies index (its own directory): reported with the companies.
            continue;
        }
        let ext = path.extension().map_or("other".into(), |e| e.to_string_lossy().into_owned());
        *kinds.entry(ext).or_default() += entry.metadata().map_or(0, |m| m.len());
    }
    let mut kinds: Vec<(String, u64)> = kinds.into_iter().collect();
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
    kinds
}

fn print(figures: &[Figures], docs: usize, vocabulary: Vocabulary) {
    let per_kind = if vocabulary == Vocabulary::Real { 200 } else { 250 };
    println!(
        "\nsearch engines on {docs} generated jobs ({}), 1,000 mixed queries ({per_kind} per kind):",
        vocabulary.name()
    );
    let mut header = format!("{:<52}", "");
    for f in figures {
        header.push_str(&format!("{:>24}", f.engine));
    }
    println!("{header}");
    let row = |label: &str, cell: &dyn Fn(&Figures) -> String| {
        let mut line = format!("{label:<52}");
        for f in figures {
            line.push_str(&format!("{:>24}", cell(f)));
        }
        println!("{line}");
    };
    row("build (docs/s)", &|f| {
        if f.build_secs > 0.0 {
            format!("{:.0} ({:.1} s)", f.build_rate, f.build_secs)
        } else {
            "reused (BENCH_INDEX_DIR)".into()
        }
    });
    row("index size", &|f| f.size_mb.map_or("n/a".into(), |m| format!("{m:.0} MB")));
    for kind in Kind::ALL {
        if !figures.iter().any(|f| f.latency.iter().any(|(k, _, _)| *k == kind)) {
            continue;
        }
        row(&format!("{} p50 / p99", kind.name()), &|f| {
            f.latency
                .iter()
                .find(|(k, _, _)| *k == kind)
                .map_or("n/a".into(), |(_, p50, p99)| format!("{p50:.2} / {p99:.2} ms"))
        });
    }
    row("all 1,000 p50 / p99", &|f| format!("{:.2} / {:.2} ms", f.all.0, f.all.1));
    row("all jobs' companies: after a write / again", &|f| {
        format!("{:.2} / {:.2} ms", f.after_write.0, f.after_write.1)
    });
    row("companies index: companies, rebuild", &|f| {
        format!("{} in {:.2} s", f.companies.companies, f.companies.build_secs)
    });
    for kind in companies::KINDS {
        row(&format!("companies: {kind} p50 / p99"), &|f| {
            f.companies
                .latency
                .iter()
                .find(|(k, _, _)| *k == kind)
                .map_or("n/a".into(), |(_, p50, p99)| format!("{p50:.2} / {p99:.2} ms"))
        });
    }
    if let [ours, theirs] = figures {
        print_ratios(ours, theirs);
    }
    println!(
        "targets (embedded): text + filters p99 <= 25 ms, 6 facet distributions p99 <= 60 ms, build >= 20,000 docs/s"
    );
}

/// The embedded engine's figures over Meilisearch's: below 1 is faster (or smaller).
fn print_ratios(ours: &Figures, theirs: &Figures) {
    let ratio = |a: f64, b: f64| if b > 0.0 { format!("{:.2}", a / b) } else { "n/a".into() };
    println!("\nembedded / {} (below 1: embedded faster or smaller):", theirs.engine);
    println!("{:<52}{:>24}", "build time", ratio(ours.build_secs, theirs.build_secs));
    let size = match (ours.size_mb, theirs.size_mb) {
        (Some(a), Some(b)) => ratio(a, b),
        _ => "n/a".into(),
    };
    println!("{:<52}{size:>24}", "index size");
    for (kind, p50, p99) in &ours.latency {
        if let Some((_, t50, t99)) = theirs.latency.iter().find(|(k, _, _)| k == kind) {
            let cell = format!("{} / {}", ratio(*p50, *t50), ratio(*p99, *t99));
            println!("{:<52}{cell:>24}", format!("{} p50 / p99", kind.name()));
        }
    }
    let all = format!("{} / {}", ratio(ours.all.0, theirs.all.0), ratio(ours.all.1, theirs.all.1));
    println!("{:<52}{all:>24}", "all 1,000 p50 / p99");
    let rebuild = ratio(ours.companies.build_secs, theirs.companies.build_secs);
    println!("{:<52}{rebuild:>24}", "companies index rebuild");
    for (kind, p50, p99) in &ours.companies.latency {
        if let Some((_, t50, t99)) = theirs.companies.latency.iter().find(|(k, _, _)| k == kind) {
            let cell = format!("{} / {}", ratio(*p50, *t50), ratio(*p99, *t99));
            println!("{:<52}{cell:>24}", format!("companies: {kind} p50 / p99"));
        }
    }
}

fn main() {
    let n: usize =
        std::env::var("BENCH_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    // `BENCH_CATALOGUE=real` (or `fixtures`) runs one catalogue; both by default.
    let which = std::env::var("BENCH_CATALOGUE").unwrap_or_else(|_| "real,fixtures".into());
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    for vocabulary in [Vocabulary::Real, Vocabulary::Fixtures] {
        let wanted = match vocabulary {
            Vocabulary::Real => "real",
            Vocabulary::Fixtures => "fixtures",
        };
        if which.contains(wanted) {
            run_catalogue(&rt, vocabulary, n);
        }
    }
}

/// Builds one catalogue, measures it on every engine, prints the table (Meilisearch beside the
/// embedded engine when it ran).
fn run_catalogue(rt: &tokio::runtime::Runtime, vocabulary: Vocabulary, n: usize) {
    let seeds = Seeds::load(vocabulary, n);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start = Instant::now();
    let docs: Vec<SearchDocument> = (1..=n as i64).map(|id| seeds.generate(id, &mut rng)).collect();
    let companies: std::collections::HashSet<&str> =
        docs.iter().map(|d| d.company_slug.as_str()).collect();
    let mut by_country: std::collections::HashMap<&str, usize> = Default::default();
    for d in &docs {
        for c in d.values(Facet::Countries) {
            *by_country.entry(c.as_str()).or_default() += 1;
        }
    }
    let (top, top_n) = by_country.into_iter().max_by_key(|(_, k)| *k).unwrap_or(("-", 0));
    println!(
        "generated {n} jobs ({}) from {} real postings in {:.1} s: {} distinct companies, \
         country {top} on {:.0} % of the jobs",
        vocabulary.name(),
        seeds.docs.len(),
        start.elapsed().as_secs_f64(),
        companies.len(),
        top_n as f64 * 100.0 / n.max(1) as f64
    );
    let mut queries =
        queries::generate(&docs, 0x2545_F491_4F6C_DD1D, vocabulary == Vocabulary::Real);
    // `BENCH_ONLY=text` keeps the queries of the kinds whose name contains "text" (profiling).
    if let Ok(only) = std::env::var("BENCH_ONLY") {
        queries.retain(|q| q.kind.name().contains(only.as_str()));
    }
    // `BENCH_QUERIES='q=a|q=b&countries=us'` times these searches instead (profiling).
    if let Ok(own) = std::env::var("BENCH_QUERIES") {
        queries = own
            .split('|')
            .map(|qs| BenchQuery { kind: queries::kind_of(qs), query_string: qs.to_owned() })
            .collect();
    }
    let mut figures = Vec::new();

    // `BENCH_INDEX_DIR=<dir>` keeps the embedded index under `<dir>` for the next run.
    let scratch = tempfile::tempdir().unwrap();
    let dir = match std::env::var_os("BENCH_INDEX_DIR") {
        Some(kept) => std::path::PathBuf::from(kept).join(format!("{}-{n}", vocabulary.name())),
        None => scratch.path().to_owned(),
    };
    std::fs::create_dir_all(&dir).unwrap();
    let embedded = EmbeddedIndex::open(&dir).unwrap();
    figures.push(rt.block_on(measure("embedded", &embedded, &docs, &queries, || {
        Some(size_by_kind(&dir).iter().map(|(_, b)| b).sum())
    })));
    drop(embedded);
    let kinds: Vec<String> = size_by_kind(&dir)
        .into_iter()
        .map(|(ext, bytes)| format!("{ext} {:.0} MB", bytes as f64 / 1e6))
        .collect();
    println!("embedded index by file kind: {}", kinds.join(", "));

    if let Ok(url) = std::env::var("MEILI_URL") {
        let uid = format!("bench_jobs_{}", std::process::id());
        let config = MeiliConfig::new(url)
            .with_api_key(std::env::var("MEILI_MASTER_KEY").ok().map(Into::into))
            .with_index_uid(uid);
        let meili = MeiliIndex::new(config).unwrap();
        let mut theirs = rt.block_on(measure("meilisearch", &meili, &docs, &queries, || None));
        // The whole database's size: the server is expected to hold only the bench's index.
        theirs.size_mb = rt.block_on(meili.database_size()).ok().map(|b| b as f64 / 1e6);
        figures.push(theirs);
        rt.block_on(meili.drop_index()).unwrap();
    }
    print(&figures, n, vocabulary);
}
