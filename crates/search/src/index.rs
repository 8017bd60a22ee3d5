//! The [`SearchIndex`] port: what the application needs from a search engine, whichever engine
//! it is (the embedded tantivy engine, or Meilisearch). One conformance suite (the
//! crate's integration tests) holds every adapter to the same answers.

use std::collections::BTreeMap;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::JobQuery;
use crate::company::{CompanyDocument, CompanyHits, CompanySearch};
use crate::document::SearchDocument;
use crate::facet::Facet;
use crate::page::Page;
use crate::request::FacetsRequest;

/// At most this many values per facet distribution, by count (reference §5.9).
pub const MAX_FACET_VALUES: usize = 1_200;

/// A search: the parsed query and the facet distributions to compute alongside the hits.
#[derive(Debug, Clone, Copy)]
pub struct SearchRequest<'a> {
    /// Text, filter, sort and page.
    pub query: &'a JobQuery,
    /// Facets whose value counts to compute over all matching documents (empty: none).
    pub facets: &'a [Facet],
    /// Whether to compute the [`NumericStats`] over all matching documents.
    pub stats: bool,
    /// Anchors the `posted_within_days` / `open_within_days` windows.
    pub now: DateTime<Utc>,
}

impl<'a> SearchRequest<'a> {
    /// A search for `query`'s page of hits alone: no facet distributions, no stats.
    pub fn new(query: &'a JobQuery, now: DateTime<Utc>) -> Self {
        Self { query, facets: &[], stats: false, now }
    }

    /// Also computes these facets' value counts over every matching document.
    pub fn with_facets(self, facets: &'a [Facet]) -> Self {
        Self { facets, ..self }
    }

    /// Also computes the [`NumericStats`] over every matching document.
    pub fn with_stats(self) -> Self {
        Self { stats: true, ..self }
    }
}

/// One facet's value counts, most frequent first (ties by value), at most
/// [`MAX_FACET_VALUES`].
pub type Distribution = Vec<(String, u64)>;

/// The smallest and largest value of a numeric field over the matching documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
}

impl Bounds {
    /// Widens `bounds` to include `value`.
    pub fn widen(bounds: Option<Bounds>, value: i64) -> Option<Bounds> {
        Some(match bounds {
            None => Bounds { min: value, max: value },
            Some(b) => Bounds { min: b.min.min(value), max: b.max.max(value) },
        })
    }

    /// The union of two optional bounds.
    pub fn union(a: Option<Bounds>, b: Option<Bounds>) -> Option<Bounds> {
        match (a, b) {
            (Some(a), Some(b)) => Some(Bounds { min: a.min.min(b.min), max: a.max.max(b.max) }),
            (a, b) => a.or(b),
        }
    }
}

/// The numeric stats of the facets response (reference §5.9); `None` when no matching
/// document has the value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NumericStats {
    /// `enrichment.salary_min`.
    pub salary_min: Option<Bounds>,
    /// `enrichment.salary_max`.
    pub salary_max: Option<Bounds>,
    /// `enrichment.experience_years_min`.
    pub experience_years_min: Option<Bounds>,
}

/// The answer to a search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchResults {
    /// The requested page of hits, in order.
    pub hits: Vec<SearchDocument>,
    /// How many documents match in all (exact).
    pub total: u64,
    /// Value counts per requested facet, over every matching document.
    pub facets: BTreeMap<Facet, Distribution>,
    /// Numeric stats over every matching document when requested (default otherwise).
    pub stats: NumericStats,
}

/// Why an index operation failed. Each variant keeps the engine's error (or, where there is
/// none, a message saying what went wrong) as its source; the variant's own message does not
/// repeat it, so a chain (`{:#}`, `anyhow`) prints it once.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The engine failed (I/O, corrupt index, a lock held elsewhere, …).
    #[error("search engine error")]
    Engine(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The engine refused the query as invalid (Meilisearch's HTTP 400 on a search: a filter
    /// or sort the live index settings do not allow, …; the source is Meilisearch's error).
    /// The API may answer 400, or retry without the filter and report the filter parameters as
    /// ignored (reference §5.3).
    #[error("search engine refused the query")]
    Rejected(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The embedded index in `dir` was built with another schema (by another version of
    /// freehire): it cannot be searched or written until `freehire reindex` rebuilds it.
    #[error(
        "the search index in {} was built by another version of freehire: stop the worker and run `freehire reindex`",
        dir.display()
    )]
    Stale {
        /// The index directory.
        dir: std::path::PathBuf,
    },
    /// A stored document could not be read back (or written as the engine stores it).
    #[error("stored search document is unreadable")]
    Document(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// What was being done when `source` happened (`meilisearch`, `document 42`), as one link of
/// an error chain: its message is the context alone.
#[derive(Debug, thiserror::Error)]
#[error("{context}")]
pub(crate) struct Context {
    context: String,
    #[source]
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl Context {
    /// `source` in `context`, boxed as an [`IndexError`] source.
    pub(crate) fn boxed(
        context: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Box<dyn std::error::Error + Send + Sync> {
        Box::new(Self { context: context.into(), source: source.into() })
    }
}

/// A search engine holding [`SearchDocument`]s, and beside them the companies index of
/// [`CompanyDocument`]s (reference §5.4).
///
/// Writes are visible to searches once the call returns.
#[async_trait]
pub trait SearchIndex: Send + Sync {
    /// Adds the documents, replacing any with the same id.
    async fn upsert(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError>;

    /// Removes the documents with these job ids (unknown ids are ignored).
    async fn delete(&self, ids: &[i64]) -> Result<(), IndexError>;

    /// Replaces the whole content with `docs` in one step: searches see either the old
    /// content or the new, never a mix (the rebuild-and-swap of reference §5.1).
    async fn rebuild(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError>;

    /// Removes every document.
    async fn clear(&self) -> Result<(), IndexError> {
        self.rebuild(Vec::new()).await
    }

    /// Runs a search.
    async fn search(&self, request: SearchRequest<'_>) -> Result<SearchResults, IndexError>;

    /// Adds the companies, replacing any with the same slug.
    async fn upsert_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError>;

    /// Removes the companies with these slugs (unknown slugs are ignored).
    async fn delete_companies(&self, slugs: &[String]) -> Result<(), IndexError>;

    /// Replaces every company with `docs` in one step, as [`SearchIndex::rebuild`] does jobs.
    async fn rebuild_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError>;

    /// Searches the companies (the rules are [`crate::company`]'s).
    async fn search_companies(&self, search: &CompanySearch) -> Result<CompanyHits, IndexError>;

    /// The engine's name in metrics (`embedded`, `meilisearch`).
    fn engine(&self) -> &'static str {
        "other"
    }
}

/// The answer to a facets request (reference §5.9): the number of matching jobs and the
/// requested distributions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FacetCounts {
    /// Jobs matching the full filter and text.
    pub total: u64,
    /// Value counts per facet.
    pub facets: BTreeMap<Facet, Distribution>,
    /// Numeric stats under the full filter and text.
    pub stats: NumericStats,
}

/// Computes a facets request on any engine. Plain counts are one search; disjunctive counts
/// (`disjunctive=true`) count each facet under the filter without that facet's own included
/// values: one search per facet with a selection, plus one (total, stats and every facet
/// without a selection) under the full filter, all sent at once.
pub async fn facet_counts(
    index: &dyn SearchIndex,
    request: &FacetsRequest,
    now: DateTime<Utc>,
) -> Result<FacetCounts, IndexError> {
    let mut query = request.query.clone();
    // Counts only: no hit is read, so no engine ranks the matches for one.
    query.page = Page { limit: 0, offset: 0 };
    if !request.disjunctive {
        let r = index
            .search(SearchRequest::new(&query, now).with_facets(&request.facets).with_stats())
            .await?;
        return Ok(FacetCounts { total: r.total, facets: r.facets, stats: r.stats });
    }
    // A facet without included values counts the same either way: all of those come from the
    // one search under the full filter; each selected facet needs its own relaxed search.
    let (selected, unselected): (Vec<Facet>, Vec<Facet>) = request
        .facets
        .iter()
        .partition(|f| query.facets.get(f).is_some_and(|sel| !sel.include.is_empty()));
    // The full search and each relaxed one are independent: they run at once, so a
    // disjunctive request costs its slowest search, not their sum (on an engine that serves
    // requests concurrently, as both do).
    let relaxed: Vec<(Facet, JobQuery)> =
        selected.iter().map(|f| (*f, query.without_selection_of(*f))).collect();
    let full = SearchRequest::new(&query, now).with_facets(&unselected).with_stats();
    let searches = relaxed.iter().map(|(facet, relaxed)| async move {
        let one = std::slice::from_ref(facet);
        let mut r = index.search(SearchRequest::new(relaxed, now).with_facets(one)).await?;
        Ok::<_, IndexError>((*facet, r.facets.remove(facet).unwrap_or_default()))
    });
    let (full, counted) =
        futures::future::try_join(index.search(full), futures::future::try_join_all(searches))
            .await?;
    let mut facets = full.facets;
    facets.extend(counted);
    Ok(FacetCounts { total: full.total, facets, stats: full.stats })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_link_of_an_index_error_chain_prints_once() {
        let err = IndexError::Engine(Context::boxed("meilisearch", "connection refused"));
        let chain: Vec<String> =
            std::iter::successors(Some(&err as &dyn std::error::Error), |e| e.source())
                .map(ToString::to_string)
                .collect();
        assert_eq!(chain, ["search engine error", "meilisearch", "connection refused"]);
    }
}
