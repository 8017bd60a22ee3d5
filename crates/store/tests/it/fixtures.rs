//! Realistic postings for the suite.

use chrono::{DateTime, TimeZone, Utc};
use freehire_domain::{
    Category, CountryCode, EmploymentType, Facets, JobPosting, Provider, Region, Salary,
    SalaryPeriod, Seniority, WorkMode,
};

pub fn t(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0).unwrap()
}

pub fn posting(source: &str, external_id: &str, title: &str) -> JobPosting {
    JobPosting {
        source: Provider::parse(source).unwrap(),
        external_id: external_id.to_owned(),
        url: format!("https://jobs.example.com/{external_id}"),
        title: title.to_owned(),
        company: "Acme Labs, Inc.".to_owned(),
        location: "Berlin, Germany".to_owned(),
        description: format!("<p>{title}: build reliable systems.</p>"),
        remote: false,
        posted_at: Some(t(1, 9)),
        facets: Facets {
            countries: vec![CountryCode::parse("de").unwrap()],
            regions: vec![Region::Eu],
            cities: vec!["Berlin".to_owned()],
            work_mode: Some(WorkMode::Hybrid),
            seniority: Some(Seniority::Senior),
            category: Some(Category::Backend),
            is_tech: Some(true),
            skills: vec!["go".to_owned(), "postgresql".to_owned()],
            employment_type: Some(EmploymentType::FullTime),
            ..Facets::default()
        },
        salary: Some(Salary::new(Some(70_000), Some(90_000), "EUR", SalaryPeriod::Year).unwrap()),
        role_fingerprint: String::new(),
        structured: Default::default(),
    }
}

/// A verified user account with this address (created at day 1, 09:00).
pub async fn user(s: &dyn freehire_store::Store, address: &str) -> freehire_domain::User {
    let email = freehire_domain::Email::parse(address).unwrap();
    let language = freehire_domain::Language::english();
    let new = freehire_store::NewUser {
        email: &email,
        password_hash: None,
        role: freehire_domain::Role::User,
        email_verified: true,
        language: &language,
    };
    s.create_user(&new, t(1, 9)).await.unwrap()
}
