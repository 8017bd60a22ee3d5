//! # freehire-search
//!
//! The pure query model of job search (reference §5.5, §5.6, §5.9): query parameters parsed
//! into a typed [`JobQuery`] and rendered to Meilisearch's filter and sort syntax.
//!
//! - [`JobQuery::parse`] / [`JobQuery::from_query_str`]: the full grammar — every string
//!   [`Facet`] with repeated and comma-joined values, OR within a facet, `<facet>_mode=and`,
//!   `<facet>_exclude`, the geography OR-group, `regions=none`, clearance, the [`Scalars`],
//!   `q`, `q_fields`, `sort`/`order`, the [`Page`] — checking vocabulary values against the
//!   `freehire-domain` enums and reporting unknown parameters in `ignored_params`.
//! - [`JobQuery::filter`] → [`Filter`], [`JobQuery::sort_directives`]: the Meilisearch filter
//!   (every value a quoted, escaped literal) and sort list.
//! - [`FacetsRequest`], [`AgentSearchRequest`]: the facets and agent-search requests.
//! - [`SearchError`]: a refused query, naming the parameter (HTTP 400).
//!
//! ```
//! use chrono::{TimeZone, Utc};
//! use freehire_search::{Endpoint, JobQuery};
//!
//! let q = JobQuery::from_query_str(
//!     "q=rust&skills=go,rust&countries=de&regions=eu&seniority_exclude=junior&limit=500",
//!     Endpoint::Search,
//! )?;
//! let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
//! assert_eq!(
//!     q.filter(now).to_string(),
//!     r#"(regions = "eu" OR countries = "de") AND enrichment.seniority != "junior" AND (skills = "go" OR skills = "rust")"#
//! );
//! assert!(q.sort_directives().is_empty()); // a text query ranks by relevance
//! assert_eq!(q.page.limit, 100); // clamped, not refused
//! # Ok::<(), freehire_search::SearchError>(())
//! ```
//!
//! - [`SearchDocument`], [`indexable`]: the indexed form of a stored job (reference §5.2).
//! - [`SearchIndex`]: the engine port (upsert, delete, rebuild, search with hits, total and
//!   facet counts); [`facet_counts`] answers a facets request on any engine.
//! - [`CompanyDocument`], [`CompanySearch`]: the companies index (reference §5.4) every engine
//!   holds beside the jobs, searched by name and facets.
//! - [`EmbeddedIndex`]: the embedded engine on tantivy, in a directory.
//! - [`MeiliIndex`]: the Meilisearch adapter (index settings, awaited writes,
//!   rebuild-and-swap), configured by [`MeiliConfig`].
//! - [`Percolator`]: which of a batch of new jobs each saved search matches, in memory, with
//!   the embedded engine's semantics (its filter and its text rules).
//!
//! The modules are private: every public item is re-exported at the crate root, the one path
//! callers use. The query model is pure (no IO, no clock: the caller passes `now`). The outbox drain lives
//! in `freehire-app`, the HTTP routes in `freehire-api` and the `freehire search` command in
//! `freehire-app` and the CLI.

mod company;
mod document;
mod embedded;
mod error;
mod facet;
mod filter;
mod ignored;
mod index;
mod meili;
mod page;
mod percolate;
mod query;
mod request;
mod scalars;
mod sort;
mod vocab;

pub use company::{CompanyDocument, CompanyFacet, CompanyHits, CompanySearch};
pub use document::{MAX_DESCRIPTION_CHARS, SearchDocument, indexable, visible_text};
pub use embedded::EmbeddedIndex;
pub use error::SearchError;
pub use facet::{Facet, FacetValue, Mode, NO_REGION, Selection};
pub use filter::{Filter, quote};
pub use ignored::{IgnoredParam, MAX_IGNORED, did_you_mean};
pub use index::{
    Bounds, Distribution, FacetCounts, IndexError, MAX_FACET_VALUES, NumericStats, SearchIndex,
    SearchRequest, SearchResults, facet_counts,
};
pub use meili::{DEFAULT_INDEX_UID, MeiliConfig, MeiliIndex};
pub use page::{DEFAULT_LIMIT, MAX_LIMIT, MAX_WINDOW, Page};
pub use percolate::Percolator;
pub use query::{
    Endpoint, JobQuery, MAX_Q_BYTES, MAX_Q_WORDS, MAX_VALUE_CHARS, MAX_VALUES, QField,
};
pub use request::{AgentSearchRequest, DescriptionFormat, FacetsRequest};
pub use scalars::{MAX_WITHIN_DAYS, MIN_WITHIN_DAYS, SCALAR_PARAMS, Scalars};
pub use sort::{Order, Sort, SortField};
