//! Search documents built from stored jobs, and which jobs are indexed.

use freehire_domain::{ClosedReason, JobId};
use freehire_search::{Facet, MAX_DESCRIPTION_CHARS, SearchDocument, indexable};

use super::catalogue::{day, job, specs};
use crate::now;

// scenario: No posted date
#[test]
fn a_document_carries_the_hit_fields_and_facets() {
    let specs = specs();
    let doc = SearchDocument::from_job(&job(&specs[0]), now());
    assert_eq!(doc.id, 1);
    assert_eq!(doc.title, "Senior Rust Engineer");
    assert_eq!(doc.company_slug, "acme");
    assert_eq!(doc.external_id, "board:1");
    assert_eq!(doc.url, "https://jobs.example.com/1");
    assert_eq!(doc.updated_ts, day(12, 20).timestamp());
    assert!(doc.public_slug.starts_with("senior-rust-engineer-acme-gmbh-"), "{}", doc.public_slug);
    assert_eq!(doc.description, "Build our trading core in Rust ; some Go services.");
    assert_eq!(doc.values(Facet::Skills), ["go", "rust"]);
    assert_eq!(doc.values(Facet::Regions), ["eu"]);
    assert_eq!(doc.values(Facet::Source), ["ashby"]);
    assert_eq!(doc.values(Facet::IsTech), ["tech"]);
    assert_eq!(doc.values(Facet::SalaryPeriod), ["year"]);
    assert!(doc.values(Facet::RequiresClearance).is_empty());
    assert_eq!((doc.salary_min, doc.salary_max), (Some(80_000), Some(100_000)));
    assert_eq!(doc.posted_ts, day(12, 20).timestamp());
    // No posted date: the effective date is the first-seen date.
    let doc = SearchDocument::from_job(&job(&specs[5]), now());
    assert_eq!(doc.posted_ts, day(12, 15).timestamp());
    assert_eq!(doc.values(Facet::Regions), ["global"]);
    // A posted date in the future is not believed either.
    let mut future = job(&specs[0]);
    future.posting.posted_at = Some(day(12, 31) + chrono::Duration::days(30));
    assert_eq!(SearchDocument::from_job(&future, now()).posted_ts, day(12, 20).timestamp());
}

// scenario: Long description
#[test]
fn long_descriptions_are_cut_at_a_word() {
    let mut j = job(&specs()[1]);
    j.posting.description = format!("<p>{}</p>", "lorem ipsum ".repeat(200));
    let doc = SearchDocument::from_job(&j, now());
    assert!(doc.description.chars().count() <= MAX_DESCRIPTION_CHARS);
    assert!(doc.description.chars().count() > MAX_DESCRIPTION_CHARS - 10);
    assert!(doc.description.ends_with("lorem") || doc.description.ends_with("ipsum"));
}

// scenario: Closed, duplicate or empty
#[test]
fn closed_duplicate_and_empty_jobs_are_not_indexed() {
    let open = job(&specs()[0]);
    assert!(indexable(&open));
    let mut closed = open.clone();
    closed.closed_at = Some(now());
    closed.closed_reason = Some(ClosedReason::Removed);
    assert!(!indexable(&closed));
    let mut duplicate = open.clone();
    duplicate.duplicate_of = Some(JobId::new(9).unwrap());
    assert!(!indexable(&duplicate));
    let mut empty = open.clone();
    empty.posting.description = "<p> &nbsp; </p><br>".into();
    assert!(!indexable(&empty));
}
