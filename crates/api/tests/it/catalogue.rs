//! A small, varied catalogue stored and indexed the way the worker does it, for the search,
//! facets, agent and companies routes.

use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use freehire_domain::{CountryCode, JobPosting, Region, Salary, SalaryPeriod, Seniority, WorkMode};
use freehire_search::{EmbeddedIndex, SearchDocument, SearchIndex, indexable};
use freehire_store::{ListPage, testing::TestDb};

use crate::{jobs::posting, server::Server};

pub fn day(d: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, d, 9, 0, 0).unwrap()
}

/// The long description of the Rust job: markup, an entity, a link, and more than 1,000
/// visible characters, so the index holds a cut text.
pub fn rust_description() -> String {
    let filler = "<p>".to_owned() + &"We ship reliable software every week. ".repeat(40) + "</p>";
    format!(
        "<h2>About the role</h2><p>Build <strong>fast</strong> services in Rust &amp; SQL.</p>\
         <ul><li>Tokio</li><li>PostgreSQL</li></ul>{filler}\
         <p>Apply at <a href=\"https://acme.example/apply\">our site</a>.</p>"
    )
}

fn at(mut p: JobPosting, company: &str) -> JobPosting {
    p.company = company.to_owned();
    p
}

fn salary(min: i64, max: i64) -> Option<Salary> {
    Some(Salary::new(Some(min), Some(max), "EUR", SalaryPeriod::Year).unwrap())
}

/// Four open jobs at three companies (first seen on days 11–14):
/// - Acme "Rust Engineer": remote, EU, rust + postgresql, senior, 80–100k EUR, long description;
/// - Acme "Go Engineer": remote, EU, go + postgresql, middle, 60–70k EUR;
/// - Globex "Staff Rust Engineer": hybrid, Germany, rust, staff, 8 years;
/// - Initech "Product Designer": onsite, US, non-tech.
pub fn postings() -> Vec<JobPosting> {
    let mut rust = posting("1", "Rust Engineer");
    rust.description = rust_description();
    rust.facets.skills = vec!["postgresql".into(), "rust".into()];
    rust.facets.seniority = Some(Seniority::Senior);
    rust.salary = salary(80_000, 100_000);

    let mut go = posting("2", "Go Engineer");
    go.facets.skills = vec!["go".into(), "postgresql".into()];
    go.facets.seniority = Some(Seniority::Middle);
    go.salary = salary(60_000, 70_000);

    let mut staff = at(posting("3", "Staff Rust Engineer"), "Globex");
    staff.location = "Berlin, Germany".into();
    staff.remote = false;
    staff.facets.regions = vec![Region::Eu];
    staff.facets.countries = vec![CountryCode::parse("de").unwrap()];
    staff.facets.cities = vec!["Berlin".into()];
    staff.facets.work_mode = Some(WorkMode::Hybrid);
    staff.facets.skills = vec!["rust".into()];
    staff.facets.seniority = Some(Seniority::Staff);
    staff.facets.experience_years_min = Some(8);

    let mut designer = at(posting("4", "Product Designer"), "Initech");
    designer.location = "Austin, TX".into();
    designer.remote = false;
    designer.facets.regions = vec![Region::NorthAmerica];
    designer.facets.countries = vec![CountryCode::parse("us").unwrap()];
    designer.facets.work_mode = Some(WorkMode::Onsite);
    designer.facets.skills = vec![];
    designer.facets.is_tech = Some(false);
    vec![rust, go, staff, designer]
}

/// Stores the catalogue (one job a day from day 11) and returns its search documents, built
/// the way the drain builds them.
pub async fn stored(db: &TestDb) -> Vec<SearchDocument> {
    for (i, p) in postings().into_iter().enumerate() {
        db.store().upsert_jobs(&[p], day(11 + i as u32)).await.unwrap();
    }
    let jobs = db.store().list_open_jobs(ListPage::default()).await.unwrap().jobs;
    jobs.iter().filter(|j| indexable(j)).map(|j| SearchDocument::from_job(j, day(20))).collect()
}

/// Stores the catalogue, indexes it like the drain does (the companies index too), and starts
/// the server with the index. The tempdir holds the index.
pub async fn indexed(db: TestDb) -> (Server, tempfile::TempDir, Arc<EmbeddedIndex>) {
    let docs = stored(&db).await;
    let dir = tempfile::tempdir().unwrap();
    let index = Arc::new(EmbeddedIndex::open(dir.path()).unwrap());
    index.upsert(docs).await.unwrap();
    freehire_app::company_index::rebuild(db.store(), index.as_ref(), day(20)).await.unwrap();
    let search: Arc<dyn SearchIndex> = index.clone();
    (Server::start_with(db, Some(search)).await, dir, index)
}
