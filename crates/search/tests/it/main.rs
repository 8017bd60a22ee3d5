//! Integration tests of the query model and the search engine (`engine`: documents and the
//! conformance suite on the embedded engine). Query model: the reference's test expectations (§16.2, §16.3),
//! the grammar rule by rule, and property tests (no panic, no filter injection).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod engine;
mod grammar;
mod percolate;
mod props;
mod reference;
mod requests;

use chrono::{DateTime, TimeZone, Utc};
use freehire_search::{Endpoint, JobQuery, SearchError};

/// A fixed "now" for the within-days windows.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

/// Parses a search query string.
pub fn parse(qs: &str) -> Result<JobQuery, SearchError> {
    JobQuery::from_query_str(qs, Endpoint::Search)
}

/// The rendered filter expression of a search query string ("" for no filter).
pub fn filter(qs: &str) -> String {
    parse(qs).unwrap().filter(now()).expression().unwrap_or_default()
}
