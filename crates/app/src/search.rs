//! `freehire search`: the command line's search, on the same grammar as
//! `GET /api/v1/jobs/search`. Flags become query parameters ([`SearchArgs::params`]) and are
//! parsed by [`JobQuery`], so a flag means exactly what the parameter means over HTTP, and a
//! bad value is refused with the same message.

use chrono::{DateTime, Utc};
use freehire_search::{
    Endpoint, FacetCounts, FacetsRequest, JobQuery, SearchIndex, SearchRequest, SearchResults,
    facet_counts,
};

use crate::AppError;

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

/// A search's answer: the parsed query (its page and ignored parameters), the hits, and the
/// facet counts when asked for.
#[derive(Debug, Clone)]
pub struct Found {
    /// The query as parsed.
    pub query: JobQuery,
    /// Hits and total.
    pub results: SearchResults,
    /// Value counts of every facet with a distribution, over every match.
    pub facets: Option<FacetCounts>,
}

/// Parses the arguments with the search grammar and runs them on `index`.
pub async fn search(
    index: &dyn SearchIndex,
    args: &SearchArgs,
    now: DateTime<Utc>,
) -> Result<Found, AppError> {
    let params = args.params();
    let query = JobQuery::parse(&params, Endpoint::Search)?;
    let results = index.search(SearchRequest::new(&query, now)).await?;
    let facets = if args.facets {
        // The same filter and text; the page and order mean nothing to counts.
        let counted: Vec<(String, String)> = params
            .into_iter()
            .filter(|(k, _)| !matches!(k.as_str(), "limit" | "offset" | "sort" | "order"))
            .collect();
        Some(facet_counts(index, &FacetsRequest::parse(&counted)?, now).await?)
    } else {
        None
    };
    Ok(Found { query, results, facets })
}
