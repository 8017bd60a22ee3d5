//! Batch write throughput on both backends: `cargo xtask bench` (or
//! `cargo bench -p freehire-store --bench upsert` with PostgreSQL reachable).
//!
//! 100,000 realistic postings (2–4 KB descriptions, full facets, salary) written in batches
//! of 2,000 (one transaction each, as ingest writes a board):
//! - insert: first sighting of every posting;
//! - refresh: `refresh_unchanged` of every posting (the re-crawl fast path);
//! - upsert-unchanged: `upsert_jobs` of identical postings (the re-crawl slow path);
//! - upsert-changed: every posting's description edited.
//!
//! Set `BENCH_JOBS` to change the catalogue size, `BENCH_BACKEND=sqlite|postgres` to run one.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use chrono::{Duration, TimeZone, Utc};
use freehire_domain::{
    Category, CountryCode, EmploymentType, Facets, JobPosting, Provider, Region, Salary,
    SalaryPeriod, Seniority, WorkMode,
};
use freehire_store::{JobKey, SeenPosting, Store, testing::TestDb};

const BATCH: usize = 2000;

const TITLES: &[&str] = &[
    "Senior Backend Engineer",
    "Staff Software Engineer, Infrastructure",
    "Product Designer",
    "Data Engineer",
    "Machine Learning Engineer",
    "Engineering Manager, Payments",
    "Frontend Engineer (React)",
    "Site Reliability Engineer",
    "Account Executive, EMEA",
    "Customer Success Manager",
    "Security Engineer",
    "iOS Engineer",
    "Technical Writer",
];
const COMPANIES: &[&str] =
    &["Windsurf", "Cartesia", "Diagrid", "Mobbin", "Reedsy", "Anara", "Hiverge", "Acme Labs, Inc."];
const LOCATIONS: &[(&str, &str, Region)] = &[
    ("San Francisco, CA", "us", Region::NorthAmerica),
    ("Berlin, Germany", "de", Region::Eu),
    ("London, UK", "gb", Region::Uk),
    ("Remote - EMEA", "nl", Region::Eu),
    ("Toronto, Canada", "ca", Region::NorthAmerica),
];
const PARAGRAPH: &str = "<p>We are looking for an engineer who cares about reliability, \
    clear interfaces and the people who use what we build. You will own services end to end, \
    from design documents to on-call, and work closely with product and design.</p>\
    <ul><li>5+ years building production systems</li><li>Experience with PostgreSQL and \
    Kubernetes</li><li>Comfortable with Go, Rust or Python</li></ul>";

fn posting(i: usize) -> JobPosting {
    let (location, country, region) = LOCATIONS[i % LOCATIONS.len()];
    let company = COMPANIES[i % COMPANIES.len()];
    let paragraphs = 6 + i % 6;
    JobPosting {
        source: Provider::parse("ashby").unwrap(),
        external_id: format!(
            "{}:{:08x}-{i}",
            company.to_lowercase().replace([' ', ',', '.'], ""),
            i * 2_654_435_761 % (1 << 32)
        ),
        url: format!("https://jobs.ashbyhq.com/{company}/{i}"),
        title: TITLES[i % TITLES.len()].to_owned(),
        company: company.to_owned(),
        location: location.to_owned(),
        description: PARAGRAPH.repeat(paragraphs),
        remote: location.starts_with("Remote"),
        posted_at: Some(
            Utc.with_ymd_and_hms(2026, 10, 1, 0, 0, 0).unwrap() + Duration::minutes(i as i64),
        ),
        facets: Facets {
            countries: vec![CountryCode::parse(country).unwrap()],
            regions: vec![region],
            cities: vec![location.split(',').next().unwrap_or_default().to_owned()],
            work_mode: Some(if location.starts_with("Remote") {
                WorkMode::Remote
            } else {
                WorkMode::Hybrid
            }),
            seniority: Some(Seniority::Senior),
            category: Some(Category::Backend),
            is_tech: Some(true),
            skills: vec![
                "go".into(),
                "kubernetes".into(),
                "postgresql".into(),
                "python".into(),
                "rust".into(),
            ],
            employment_type: Some(EmploymentType::FullTime),
            experience_years_min: Some(5),
            posting_language: Some("en".into()),
            ..Facets::default()
        },
        salary: Some(Salary::new(Some(120_000), Some(180_000), "USD", SalaryPeriod::Year).unwrap()),
        role_fingerprint: format!("{i:x}"),
        structured: Default::default(),
    }
}

fn rate(n: usize, secs: f64) -> String {
    format!("{:>9.0} jobs/s ({n} in {secs:.2} s)", n as f64 / secs)
}

async fn run(name: &str, db: TestDb, postings: &[JobPosting]) {
    let store: &dyn Store = db.store();
    let t0 = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
    let n = postings.len();

    let start = Instant::now();
    for chunk in postings.chunks(BATCH) {
        store.upsert_jobs(chunk, t0).await.unwrap();
    }
    let insert = start.elapsed().as_secs_f64();

    let seen: Vec<SeenPosting> = postings
        .iter()
        .map(|p| SeenPosting {
            key: JobKey { source: p.source.clone(), external_id: p.external_id.clone() },
            content_hash: p.content_hash(),
        })
        .collect();
    // The hashes are computed outside the timed loops, as ingest computes them while parsing.
    // The first pass after a bulk insert also pays PostgreSQL's one-time hint-bit writes; the
    // second is the steady state of hourly re-crawls.
    let start = Instant::now();
    for chunk in seen.chunks(BATCH) {
        store.refresh_unchanged(chunk, t0 + Duration::hours(1)).await.unwrap();
    }
    let refresh_first = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for chunk in seen.chunks(BATCH) {
        store.refresh_unchanged(chunk, t0 + Duration::minutes(90)).await.unwrap();
    }
    let refresh = start.elapsed().as_secs_f64();

    let start = Instant::now();
    for chunk in postings.chunks(BATCH) {
        store.upsert_jobs(chunk, t0 + Duration::hours(2)).await.unwrap();
    }
    let unchanged = start.elapsed().as_secs_f64();

    let changed: Vec<JobPosting> = postings
        .iter()
        .map(|p| JobPosting {
            description: format!("{}<p>Updated.</p>", p.description),
            ..p.clone()
        })
        .collect();
    let start = Instant::now();
    for chunk in changed.chunks(BATCH) {
        store.upsert_jobs(chunk, t0 + Duration::hours(3)).await.unwrap();
    }
    let change = start.elapsed().as_secs_f64();

    println!("{name:<10} insert           {}", rate(n, insert));
    println!("{name:<10} refresh (1st)    {}", rate(n, refresh_first));
    println!("{name:<10} refresh          {}", rate(n, refresh));
    println!("{name:<10} upsert-unchanged {}", rate(n, unchanged));
    println!("{name:<10} upsert-changed   {}", rate(n, change));
    db.teardown().await;
}

#[tokio::main]
async fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported.
    let n: usize = std::env::var("BENCH_JOBS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let postings: Vec<JobPosting> = (0..n).map(posting).collect();
    let bytes: usize = postings.iter().map(|p| p.description.len()).sum();
    println!(
        "store bench: {n} postings, {} MB of descriptions, batches of {BATCH}",
        bytes / 1_000_000
    );
    let only = std::env::var("BENCH_BACKEND").unwrap_or_default();
    if only.is_empty() || only == "sqlite" {
        run("sqlite", TestDb::sqlite().await, &postings).await;
    }
    if only.is_empty() || only == "postgres" {
        run("postgres", TestDb::postgres().await, &postings).await;
    }
}
