//! A small hand-written catalogue of realistic jobs, as stored rows.

use chrono::{DateTime, TimeZone, Utc};
use freehire_domain::{
    Category, CountryCode, Facets, Job, JobId, JobPosting, Provider, Region, Salary, SalaryPeriod,
    Seniority, Structured, WorkMode,
};
use freehire_search::SearchDocument;

/// 2025-MM-DD at noon UTC.
pub fn day(month: u32, d: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, month, d, 12, 0, 0).unwrap()
}

/// The shape of one catalogue entry.
pub struct Spec {
    pub id: i64,
    pub title: &'static str,
    pub company: &'static str,
    pub location: &'static str,
    pub description: &'static str,
    pub countries: &'static [&'static str],
    pub regions: &'static [&'static str],
    pub cities: &'static [&'static str],
    pub work_mode: WorkMode,
    pub seniority: Seniority,
    pub category: Category,
    pub skills: &'static [&'static str],
    pub salary: Option<(i64, i64, &'static str)>,
    pub posted: Option<DateTime<Utc>>,
    pub created: DateTime<Utc>,
    pub clearance: bool,
}

/// A stored, open, canonical job from a spec.
pub fn job(s: &Spec) -> Job {
    let mut facets = Facets {
        countries: s.countries.iter().map(|c| CountryCode::parse(c).unwrap()).collect(),
        regions: s.regions.iter().map(|r| Region::parse(r).unwrap()).collect(),
        cities: s.cities.iter().map(|c| (*c).to_owned()).collect(),
        work_mode: Some(s.work_mode),
        seniority: Some(s.seniority),
        category: Some(s.category),
        is_tech: Some(!matches!(s.category, Category::Design | Category::Marketing)),
        skills: s.skills.iter().map(|c| (*c).to_owned()).collect(),
        requires_clearance: s.clearance.then_some(true),
        posting_language: Some("en".into()),
        ..Facets::default()
    };
    facets.canonicalize();
    let posting = JobPosting {
        source: Provider::parse("ashby").unwrap(),
        external_id: format!("board:{}", s.id),
        url: format!("https://jobs.example.com/{}", s.id),
        title: s.title.into(),
        company: s.company.into(),
        location: s.location.into(),
        description: s.description.into(),
        remote: s.work_mode == WorkMode::Remote,
        posted_at: s.posted,
        facets,
        salary: s
            .salary
            .map(|(lo, hi, cur)| Salary::new(Some(lo), Some(hi), cur, SalaryPeriod::Year).unwrap()),
        role_fingerprint: String::new(),
        structured: Structured::default(),
    };
    Job {
        id: JobId::new(s.id).unwrap(),
        public_slug: posting.public_slug(),
        company_slug: posting.company_slug(),
        content_hash: posting.content_hash(),
        posting,
        created_at: s.created,
        updated_at: s.created,
        last_seen_at: s.created,
        closed_at: None,
        closed_reason: None,
        duplicate_of: None,
    }
}

/// The six open jobs of the catalogue.
pub fn specs() -> Vec<Spec> {
    vec![
        Spec {
            id: 1,
            title: "Senior Rust Engineer",
            company: "Acme GmbH",
            location: "Berlin, Germany",
            description: "<p>Build our trading core in <b>Rust</b>; some Go services.</p>",
            countries: &["de"],
            regions: &["eu"],
            cities: &["Berlin"],
            work_mode: WorkMode::Hybrid,
            seniority: Seniority::Senior,
            category: Category::Backend,
            skills: &["go", "rust"],
            salary: Some((80_000, 100_000, "EUR")),
            posted: Some(day(12, 20)),
            created: day(12, 20),
            clearance: false,
        },
        Spec {
            id: 2,
            title: "Backend Developer",
            company: "Globex",
            location: "Remote",
            description: "<p>Go and Python APIs. We are migrating hot paths to Rust, and Rust \
                          experience is a plus; Rust tooling matters to us.</p>",
            countries: &[],
            regions: &[],
            cities: &[],
            work_mode: WorkMode::Remote,
            seniority: Seniority::Middle,
            category: Category::Backend,
            skills: &["go", "python"],
            salary: Some((60_000, 70_000, "USD")),
            posted: Some(day(12, 25)),
            created: day(12, 25),
            clearance: false,
        },
        Spec {
            id: 3,
            title: "Product Designer",
            company: "Initech",
            location: "London, United Kingdom",
            description: "<p>Own the design system in Figma.</p>",
            countries: &["gb"],
            regions: &["uk"],
            cities: &["London"],
            work_mode: WorkMode::Hybrid,
            seniority: Seniority::Senior,
            category: Category::Design,
            skills: &["figma"],
            salary: None,
            posted: Some(day(12, 10)),
            created: day(12, 10),
            clearance: false,
        },
        Spec {
            id: 4,
            title: "Data Engineer",
            company: "Acme GmbH",
            location: "Paris, France",
            description: "<p>Pipelines in Python and SQL on our warehouse.</p>",
            countries: &["fr"],
            regions: &["eu"],
            cities: &["Paris"],
            work_mode: WorkMode::Onsite,
            seniority: Seniority::Junior,
            category: Category::DataEngineering,
            skills: &["python", "sql"],
            salary: Some((50_000, 60_000, "EUR")),
            posted: Some(day(11, 1)),
            created: day(11, 1),
            clearance: false,
        },
        Spec {
            id: 5,
            title: "Staff Software Engineer, Platform",
            company: "Umbrella",
            location: "New York, NY",
            description: "<p>Kubernetes platform work in Go and Rust. Secret clearance required.</p>",
            countries: &["us"],
            regions: &["north_america"],
            cities: &["New York"],
            work_mode: WorkMode::Remote,
            seniority: Seniority::Staff,
            category: Category::Devops,
            skills: &["go", "kubernetes", "rust"],
            salary: None,
            posted: Some(day(12, 28)),
            created: day(12, 28),
            clearance: true,
        },
        Spec {
            id: 6,
            title: "Marketing Manager",
            company: "Globex",
            location: "Worldwide",
            description: "<p>Lead our brand campaigns across every market.</p>",
            countries: &[],
            regions: &["global"],
            cities: &[],
            work_mode: WorkMode::Remote,
            seniority: Seniority::Lead,
            category: Category::Marketing,
            skills: &[],
            salary: None,
            // No posted date: the effective date falls back to first seen.
            posted: None,
            created: day(12, 15),
            clearance: false,
        },
    ]
}

/// The catalogue's search documents.
pub fn documents() -> Vec<SearchDocument> {
    specs().iter().map(|s| SearchDocument::from_job(&job(s), crate::now())).collect()
}
