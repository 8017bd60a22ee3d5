//! Parse + render throughput of the query model on a mixed set of query strings.
//! Run with `cargo bench -p freehire-search --bench query`; prints figures, asserts nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Instant;

use chrono::Utc;
use freehire_search::{Endpoint, FacetsRequest, JobQuery};

const QUERIES: &[&str] = &[
    "q=rust+engineer",
    "q=go&countries=de&work_mode=remote&seniority=senior,lead",
    "skills=go,rust,python&skills_mode=and&regions=eu,uk&countries=de,fr,nl&cities=Berlin",
    "category=backend&seniority_exclude=junior,intern&salary_min=60000&salary_currency=EUR&posted_within_days=30&sort=salary_max&order=desc&limit=50&offset=100",
    "regions=none&requires_clearance=false&visa_sponsorship=true&experience_years_max=3&country=de&skill=go&bogus=1",
    "q=data+scientist&q_fields=title,description&domains=fintech,ai&company_size=51-200,201-500&english_level=b2,c1&employment_type=full_time",
];

fn main() {
    let now = Utc::now();
    let rounds = 50_000;
    let start = Instant::now();
    let mut groups = 0usize;
    for i in 0..rounds {
        let qs = QUERIES[i % QUERIES.len()];
        let q = JobQuery::from_query_str(black_box(qs), Endpoint::Search).unwrap();
        let f = q.filter(now);
        groups += f.groups().len();
        black_box(f.expression());
        black_box(q.sort_directives());
    }
    let elapsed = start.elapsed();
    println!(
        "search parse+render: {rounds} queries in {:.1} ms = {:.2} µs/query ({groups} groups)",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_secs_f64() * 1e6 / rounds as f64
    );

    let start = Instant::now();
    for i in 0..rounds {
        let qs = QUERIES[i % QUERIES.len()];
        let r = FacetsRequest::from_query_str(black_box(qs)).unwrap();
        for facet in &r.facets {
            black_box(r.query.without_selection_of(*facet).filter(now));
        }
    }
    let elapsed = start.elapsed();
    println!(
        "facets parse + 24 disjunctive filters: {:.2} µs/request",
        elapsed.as_secs_f64() * 1e6 / rounds as f64
    );
}
