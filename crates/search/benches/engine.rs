//! The embedded engine on a generated catalogue: build rate and size, and search latency
//! p50/p99 for four query kinds. `BENCH_DOCS` sets the catalogue size (default 100,000).
//! Run with `cargo bench -p freehire-search --bench engine`; prints figures, asserts nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use freehire_search::{
    EmbeddedIndex, Endpoint, Facet, FacetsRequest, JobQuery, SearchDocument, SearchIndex,
    SearchRequest, facet_counts,
};

const TITLES: &[&str] = &[
    "Software Engineer",
    "Senior Backend Engineer",
    "Product Designer",
    "Data Engineer",
    "Frontend Developer",
    "Engineering Manager",
    "Account Executive",
    "Data Scientist",
    "Site Reliability Engineer",
    "Marketing Manager",
    "Machine Learning Engineer",
    "Customer Success Manager",
    "Staff Platform Engineer",
    "Recruiter",
    "Security Engineer",
];
const COMPANIES: &[&str] =
    &["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Cyberdyne", "Tyrell"];
const PLACES: &[(&str, &str, &str)] = &[
    ("San Francisco", "us", "north_america"),
    ("New York", "us", "north_america"),
    ("London", "gb", "uk"),
    ("Berlin", "de", "eu"),
    ("Paris", "fr", "eu"),
    ("Amsterdam", "nl", "eu"),
    ("Toronto", "ca", "north_america"),
    ("Singapore", "sg", "apac"),
    ("Bangalore", "in", "apac"),
    ("Sao Paulo", "br", "latam"),
];
const SKILLS: &[&str] = &[
    "python",
    "go",
    "rust",
    "typescript",
    "react",
    "kubernetes",
    "aws",
    "sql",
    "java",
    "figma",
    "terraform",
    "kafka",
    "postgresql",
    "docker",
    "spark",
];
const WORDS: &[&str] = &[
    "build",
    "scale",
    "platform",
    "customers",
    "team",
    "product",
    "systems",
    "data",
    "design",
    "reliable",
    "distributed",
    "growth",
    "ownership",
    "mission",
    "remote",
    "collaborate",
];
const SENIORITY: &[&str] = &["senior", "middle", "junior", "lead", "staff", "intern"];
const WORK_MODE: &[&str] = &["remote", "hybrid", "onsite"];

/// A tiny deterministic generator (xorshift), skewed picks favour early entries.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn skewed<'a, T>(&mut self, list: &'a [T]) -> &'a T {
        let r = (self.next() % 10_000) as f64 / 10_000.0;
        &list[((r * r) * list.len() as f64) as usize % list.len()]
    }
}

fn document(id: i64, rng: &mut Rng) -> SearchDocument {
    let title = (*rng.skewed(TITLES)).to_owned();
    let company = (*rng.skewed(COMPANIES)).to_owned();
    let (city, country, region) = *rng.skewed(PLACES);
    let mut skills: Vec<String> = (0..3).map(|_| (*rng.skewed(SKILLS)).to_owned()).collect();
    skills.sort();
    skills.dedup();
    let description = (0..60).map(|_| *rng.skewed(WORDS)).collect::<Vec<_>>().join(" ");
    let mut facets = BTreeMap::new();
    let mut put = |f: Facet, v: Vec<String>| {
        facets.insert(f.param().to_owned(), v);
    };
    put(Facet::Countries, vec![country.into()]);
    put(Facet::Regions, vec![region.into()]);
    put(Facet::Cities, vec![city.into()]);
    put(Facet::Skills, skills);
    put(Facet::Seniority, vec![(*rng.skewed(SENIORITY)).into()]);
    put(Facet::WorkMode, vec![(*rng.skewed(WORK_MODE)).into()]);
    put(Facet::Source, vec!["greenhouse".into()]);
    let day = 86_400;
    let created = Utc.with_ymd_and_hms(2025, 6, 1, 0, 0, 0).unwrap().timestamp()
        + (rng.next() % 200) as i64 * day;
    let salary = rng.next().is_multiple_of(3).then(|| 40_000 + (rng.next() % 150) as i64 * 1_000);
    SearchDocument {
        id,
        public_slug: format!("job-{id}"),
        external_id: id.to_string(),
        company_slug: company.to_lowercase(),
        title,
        company,
        location: city.into(),
        description,
        url: format!("https://example.com/{id}"),
        facets,
        posted_ts: created,
        created_ts: created,
        updated_ts: created,
        salary_min: salary,
        salary_max: salary.map(|s| s + 20_000),
        experience_years_min: None,
        visa_sponsorship: None,
        view_count: 0,
    }
}

fn percentile(mut v: Vec<Duration>, p: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3
}

fn main() {
    let n: i64 = std::env::var("BENCH_DOCS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let docs: Vec<_> = (1..=n).map(|id| document(id, &mut rng)).collect();

    let start = Instant::now();
    rt.block_on(index.rebuild(docs)).unwrap();
    let build = start.elapsed().as_secs_f64();
    let size: u64 = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok()?.metadata().ok())
        .map(|m| m.len())
        .sum();
    println!(
        "embedded build: {n} docs in {build:.2} s = {:.0} docs/s, index {:.1} MB",
        n as f64 / build,
        size as f64 / 1e6
    );

    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let six = [
        Facet::Skills,
        Facet::Countries,
        Facet::Seniority,
        Facet::WorkMode,
        Facet::Regions,
        Facet::Cities,
    ];
    let kinds: [(&str, &[&str], &[Facet]); 3] = [
        ("text only", &["q=engineer", "q=data+scien", "q=platfrom", "q=rust+distributed"], &[]),
        (
            "text + 3 filters",
            &[
                "q=engineer&countries=us,de&seniority=senior&work_mode=remote",
                "q=designer&regions=eu&skills=figma&salary_min=60000",
            ],
            &[],
        ),
        (
            "filters + 6 facets",
            &["regions=eu&work_mode=remote", "skills=python,go&seniority_exclude=intern"],
            &six,
        ),
    ];
    let rounds = 200;
    for (name, queries, facets) in kinds {
        let mut times = Vec::with_capacity(rounds);
        for i in 0..rounds {
            let q = JobQuery::from_query_str(queries[i % queries.len()], Endpoint::Search).unwrap();
            let start = Instant::now();
            rt.block_on(index.search(SearchRequest {
                query: &q,
                facets,
                stats: !facets.is_empty(),
                now,
            }))
            .unwrap();
            times.push(start.elapsed());
        }
        println!(
            "embedded {name}: p50 {:.2} ms, p99 {:.2} ms",
            percentile(times.clone(), 0.5),
            percentile(times, 0.99)
        );
    }
    let request = FacetsRequest::from_query_str(
        "countries=us,de&seniority=senior&skills=go&work_mode=remote&disjunctive=true",
    )
    .unwrap();
    let mut times = Vec::with_capacity(rounds / 4);
    for _ in 0..rounds / 4 {
        let start = Instant::now();
        rt.block_on(facet_counts(&index, &request, now)).unwrap();
        times.push(start.elapsed());
    }
    println!(
        "embedded disjunctive facets ({} facets): p50 {:.2} ms, p99 {:.2} ms",
        request.facets.len(),
        percentile(times.clone(), 0.5),
        percentile(times, 0.99)
    );
}
