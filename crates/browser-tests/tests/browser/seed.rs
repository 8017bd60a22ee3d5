//! The catalogue the suite browses: postings written the way an ingest run writes them (drafts
//! normalised by `freehire-normalize`, stored with `upsert_jobs`), then indexed by the real
//! `reindex` into the embedded index the server reads.

use chrono::{DateTime, TimeZone, Utc};
use freehire_app::startup::Services;
use freehire_domain::Provider;
use freehire_normalize::{Draft, SalaryParts};

/// When the catalogue was crawled.
pub fn crawled() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 9, 0, 0).unwrap()
}

struct Role {
    id: &'static str,
    title: &'static str,
    company: &'static str,
    location: &'static str,
    remote: bool,
    body: &'static str,
    salary: Option<(i64, i64)>,
}

const ROLES: &[Role] = &[
    Role {
        id: "1",
        title: "Senior Rust Engineer",
        company: "Acme",
        location: "Remote - Europe",
        remote: true,
        body: "<p>Build fast services in <strong>Rust</strong> and PostgreSQL on Kubernetes.</p>\
               <ul><li>5+ years of backend work</li><li>Tokio, SQL</li></ul>",
        salary: Some((90_000, 120_000)),
    },
    Role {
        id: "2",
        title: "Go Engineer",
        company: "Acme",
        location: "Remote - Europe",
        remote: true,
        body: "<p>Write Go microservices with PostgreSQL and Kafka.</p>",
        salary: Some((70_000, 90_000)),
    },
    Role {
        id: "3",
        title: "Staff Rust Engineer",
        company: "Globex",
        location: "Berlin, Germany",
        remote: false,
        body: "<p>Lead our Rust platform team. Hybrid: three days a week in the Berlin office.</p>",
        salary: None,
    },
    Role {
        id: "4",
        title: "Data Engineer",
        company: "Globex",
        location: "Remote - United States",
        remote: true,
        body: "<p>Python, Airflow and Spark pipelines over a PostgreSQL warehouse.</p>",
        salary: Some((120_000, 150_000)),
    },
    Role {
        id: "5",
        title: "Frontend Developer",
        company: "Initech",
        location: "Amsterdam, Netherlands",
        remote: false,
        body: "<p>TypeScript and React on our customer dashboard, on site in Amsterdam.</p>",
        salary: None,
    },
    Role {
        id: "6",
        title: "Product Designer",
        company: "Initech",
        location: "Austin, TX",
        remote: false,
        body: "<p>Design the flows of our product with Figma, on site in Austin.</p>",
        salary: None,
    },
];

/// Writes and indexes the catalogue; returns how many jobs it holds.
pub async fn catalogue(services: &Services) -> usize {
    let greenhouse = Provider::parse("greenhouse").unwrap();
    let postings: Vec<_> = ROLES
        .iter()
        .map(|r| {
            let salary = match r.salary {
                Some((min, max)) => SalaryParts {
                    min: Some(min),
                    max: Some(max),
                    currency: Some("USD".into()),
                    period: Some("year".into()),
                },
                None => SalaryParts::default(),
            };
            let draft = Draft {
                title: r.title.into(),
                company: r.company.into(),
                location: r.location.into(),
                description: r.body.into(),
                remote: r.remote,
                salary,
                posted_at: Some("2026-11-18T08:00:00Z".into()),
                ..Draft::default()
            };
            let key = r.company.to_ascii_lowercase();
            freehire_normalize::posting(
                &draft,
                greenhouse.clone(),
                &format!("{key}:{}", r.id),
                &format!("https://boards.greenhouse.io/{key}/jobs/{}", r.id),
            )
        })
        .collect();
    services.store.upsert_jobs(&postings, crawled()).await.unwrap();
    let index = services.writer().await.unwrap();
    let stats = freehire_app::reindex::reindex(services.store.as_ref(), index.as_ref(), crawled())
        .await
        .unwrap();
    assert_eq!(stats.indexed as usize, ROLES.len(), "every seeded job is searchable");
    ROLES.len()
}
