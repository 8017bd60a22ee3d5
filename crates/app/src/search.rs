//! Search as a use case, one path for the HTTP routes, `freehire search` and the assistant's
//! tools:
//!
//! - [`hits`] runs a [`JobQuery`] for its page of hits. When the engine refuses the query
//!   (Meilisearch answers 400 on a filter its live settings do not allow yet), the search is
//!   run again without any filter and every filter parameter is reported in `ignored_params`
//!   (reference §5.3); the query actually answered comes back with the results;
//! - [`agent_hits`] is the same search with each hit hydrated: the full job re-read from the
//!   store, its description rendered as the request asks ([`crate::describe`]);
//! - [`facets`] counts facet values and numeric stats over the matches;
//! - [`search`] is the command line's search: flags become query parameters
//!   ([`SearchArgs::params`]) parsed by [`JobQuery`], so a flag means exactly what the
//!   parameter means over HTTP, and a bad value is refused with the same message.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use freehire_domain::{Job, JobId};
use freehire_search::{
    AgentSearchRequest, Endpoint, FacetCounts, FacetsRequest, IgnoredParam, IndexError, JobQuery,
    SearchIndex, SearchRequest, SearchResults, facet_counts,
};
use freehire_store::Store;

use crate::{AppError, describe};

/// The agent search's answer: the query actually answered (its page and ignored parameters
/// describe the answer), the hydrated jobs and the index's total.
#[derive(Debug, Clone)]
pub struct AgentHits {
    /// The query answered.
    pub query: JobQuery,
    /// The page of jobs, in hit order.
    pub jobs: Vec<Job>,
    /// How many documents match in all (the index's count).
    pub total: u64,
    /// Each job's reality signals, in job order ([`crate::signals`]).
    pub realities: Vec<freehire_domain::reality::Reality>,
}

/// Runs `query` for its page of hits, without its filters when the engine refuses them;
/// returns the results and the query they answer.
pub async fn hits(
    index: &dyn SearchIndex,
    query: &JobQuery,
    now: DateTime<Utc>,
) -> Result<(SearchResults, JobQuery), AppError> {
    let started = std::time::Instant::now();
    let answer = hits_once(index, query, now).await;
    crate::telemetry::search(index.engine(), "search", started.elapsed());
    answer
}

/// [`hits`] with each hit's reality signals (in hit order), read from the store's role
/// histories in one query ([`crate::signals::of_hits`]).
pub async fn hits_with_reality(
    store: &dyn Store,
    index: &dyn SearchIndex,
    query: &JobQuery,
    now: DateTime<Utc>,
) -> Result<(SearchResults, JobQuery, Vec<freehire_domain::reality::Reality>), AppError> {
    let (results, query) = hits(index, query, now).await?;
    let realities = crate::signals::of_hits(store, &results.hits, now).await?;
    Ok((results, query, realities))
}

async fn hits_once(
    index: &dyn SearchIndex,
    query: &JobQuery,
    now: DateTime<Utc>,
) -> Result<(SearchResults, JobQuery), AppError> {
    match index.search(SearchRequest::new(query, now)).await {
        Ok(results) => Ok((results, query.clone())),
        Err(IndexError::Rejected(reason)) if !query.active_filter_params().is_empty() => {
            tracing::warn!(%reason, "search engine refused the filter; searching without it");
            let degraded = without_filters(query);
            let results = index.search(SearchRequest::new(&degraded, now)).await?;
            Ok((results, degraded))
        }
        Err(e) => Err(e.into()),
    }
}

/// `query` without any filter, every filter parameter reported as ignored (sorted, once each).
fn without_filters(query: &JobQuery) -> JobQuery {
    let mut degraded = query.clone();
    degraded.facets.clear();
    degraded.scalars = Default::default();
    degraded.ignored_params.extend(
        query
            .active_filter_params()
            .into_iter()
            .map(|param| IgnoredParam { param, did_you_mean: None }),
    );
    degraded.ignored_params.sort_by(|a, b| a.param.cmp(&b.param));
    degraded.ignored_params.dedup_by(|a, b| a.param == b.param);
    degraded
}

/// The agent search: [`hits`], each hit the full job read from the store with its
/// description in the requested format. A hit whose job the store no longer has (deleted
/// between the index read and the store read) is skipped; `total` stays the index's count,
/// since the next drain corrects the index. A job closed since it was indexed is returned with
/// its `closed_at`.
pub async fn agent_hits(
    store: &dyn Store,
    index: &dyn SearchIndex,
    request: &AgentSearchRequest,
    now: DateTime<Utc>,
) -> Result<AgentHits, AppError> {
    let (results, query) = hits(index, &request.query, now).await?;
    let ids: Vec<JobId> = results.hits.iter().filter_map(|h| JobId::new(h.id).ok()).collect();
    let mut jobs: HashMap<i64, Job> =
        store.jobs_by_ids(&ids).await?.into_iter().map(|j| (j.id.get(), j)).collect();
    let jobs: Vec<Job> = results
        .hits
        .iter()
        .filter_map(|hit| jobs.remove(&hit.id))
        .map(|mut job| {
            job.posting.description =
                describe::render(&job.posting.description, request.description_format);
            job
        })
        .collect();
    let realities = crate::signals::of_jobs(store, &jobs, now).await?;
    Ok(AgentHits { query, jobs, total: results.total, realities })
}

/// Value counts per facet and numeric stats over the request's matches. Every requested facet
/// is in the answer, with no values when nothing has one.
pub async fn facets(
    index: &dyn SearchIndex,
    request: &FacetsRequest,
    now: DateTime<Utc>,
) -> Result<FacetCounts, AppError> {
    let started = std::time::Instant::now();
    let counts = facet_counts(index, request, now).await;
    crate::telemetry::search(index.engine(), "facets", started.elapsed());
    let mut counts = counts?;
    for facet in &request.facets {
        counts.facets.entry(*facet).or_default();
    }
    Ok(counts)
}

/// What the user asked for, before parsing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchArgs {
    /// The text query (`q`).
    pub text: Option<String>,
    /// Facet filters as `(parameter, values)`: `("countries", ["de", "fr"])`; each value may
    /// itself be comma-joined, as over HTTP.
    pub filters: Vec<(String, Vec<String>)>,
    /// Any other parameter, verbatim (`--param sort=salary_min`).
    pub extra: Vec<(String, String)>,
    /// `limit`, if given.
    pub limit: Option<u32>,
    /// `offset`, if given.
    pub offset: Option<u32>,
    /// Also count facet values over every match.
    pub facets: bool,
}

impl SearchArgs {
    /// The query parameters these arguments stand for, in the order given.
    pub fn params(&self) -> Vec<(String, String)> {
        let mut params = Vec::new();
        if let Some(text) = &self.text {
            params.push(("q".to_owned(), text.clone()));
        }
        for (name, values) in &self.filters {
            params.extend(values.iter().map(|v| (name.clone(), v.clone())));
        }
        params.extend(self.extra.iter().cloned());
        if let Some(limit) = self.limit {
            params.push(("limit".to_owned(), limit.to_string()));
        }
        if let Some(offset) = self.offset {
            params.push(("offset".to_owned(), offset.to_string()));
        }
        params
    }
}

/// A search's answer: the query answered (its page and ignored parameters), the hits, and the
/// facet counts when asked for.
#[derive(Debug, Clone)]
pub struct Found {
    /// The query answered: as parsed, or without its filters when the engine refused them.
    pub query: JobQuery,
    /// Hits and total.
    pub results: SearchResults,
    /// Value counts of every facet with a distribution, over every match.
    pub facets: Option<FacetCounts>,
}

/// Parses the arguments with the search grammar and runs them on `index` through [`hits`].
pub async fn search(
    index: &dyn SearchIndex,
    args: &SearchArgs,
    now: DateTime<Utc>,
) -> Result<Found, AppError> {
    let params = args.params();
    let (results, query) = hits(index, &JobQuery::parse(&params, Endpoint::Search)?, now).await?;
    let facets = if args.facets {
        // The same filter and text; the page and order mean nothing to counts.
        let counted: Vec<(String, String)> = params
            .into_iter()
            .filter(|(k, _)| !matches!(k.as_str(), "limit" | "offset" | "sort" | "order"))
            .collect();
        Some(facets(index, &FacetsRequest::parse(&counted)?, now).await?)
    } else {
        None
    };
    Ok(Found { query, results, facets })
}
