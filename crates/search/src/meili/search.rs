//! A [`SearchRequest`] as one Meilisearch search, and its answer as [`SearchResults`].
//!
//! Text: `q` with `matchingStrategy: all` (every word must match, as on every engine) and
//! `attributesToSearchOn` for `q_fields`. Filter and sort: the query model's own rendering.
//! Facets: the requested facets' attributes, plus the numeric bounds when stats are asked for
//! (their `facetStats` give the min/max). `total` is `estimatedTotalHits`, exact here because
//! every word must match and `maxTotalHits` is 10 M.

use std::collections::{BTreeMap, HashMap};

use meilisearch_sdk::indexes::Index;
use meilisearch_sdk::search::{FacetStats, MatchingStrategies, SearchQuery, Selectors};
use serde_json::{Map, Value};

use super::document::{EXPERIENCE_MIN, SALARY_MAX, SALARY_MIN, from_meili};
use super::http::MeiliHttp;
use crate::facet::Facet;
use crate::index::{
    Bounds, Distribution, IndexError, MAX_FACET_VALUES, NumericStats, SearchRequest, SearchResults,
};

/// Runs `request` on `index`.
pub(crate) async fn search(
    index: &Index<MeiliHttp>,
    request: SearchRequest<'_>,
) -> Result<SearchResults, IndexError> {
    let query = request.query;
    let filter = query.filter(request.now).expression();
    let sort = query.sort_directives();
    let sort: Vec<&str> = sort.iter().map(String::as_str).collect();
    let search_on = query.attributes_to_search_on();
    let mut facets: Vec<&str> = request.facets.iter().map(|f| f.attribute()).collect();
    if request.stats {
        facets.extend([SALARY_MIN, SALARY_MAX, EXPERIENCE_MIN]);
    }

    let mut q = SearchQuery::new(index);
    q.with_matching_strategy(MatchingStrategies::ALL)
        .with_offset(query.page.offset as usize)
        .with_limit(query.page.limit as usize);
    if let Some(text) = &query.q {
        q.with_query(text);
    }
    if let Some(filter) = &filter {
        q.with_filter(filter);
    }
    if !sort.is_empty() {
        q.with_sort(&sort);
    }
    if let Some(fields) = &search_on {
        q.with_attributes_to_search_on(fields);
    }
    if !facets.is_empty() {
        q.with_facets(Selectors::Some(&facets));
    }
    let answer = q.execute::<Map<String, Value>>().await.map_err(super::search_error)?;

    let hits =
        answer.hits.into_iter().map(|h| from_meili(h.result)).collect::<Result<Vec<_>, _>>()?;
    let total = answer.estimated_total_hits.or(answer.total_hits).unwrap_or_default() as u64;
    let mut distribution = answer.facet_distribution.unwrap_or_default();
    let facets: BTreeMap<Facet, Distribution> = request
        .facets
        .iter()
        .map(|f| (*f, counts(distribution.remove(f.attribute()).unwrap_or_default())))
        .collect();
    let stats = if request.stats {
        let s = answer.facet_stats.unwrap_or_default();
        NumericStats {
            salary_min: bounds(s.get(SALARY_MIN)),
            salary_max: bounds(s.get(SALARY_MAX)),
            experience_years_min: bounds(s.get(EXPERIENCE_MIN)),
        }
    } else {
        NumericStats::default()
    };
    Ok(SearchResults { hits, total, facets, stats })
}

/// One facet's counts in the port's order: count descending, then value; at most
/// [`MAX_FACET_VALUES`].
fn counts(values: HashMap<String, usize>) -> Distribution {
    let mut out: Distribution = values.into_iter().map(|(v, n)| (v, n as u64)).collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out.truncate(MAX_FACET_VALUES);
    out
}

/// Integer bounds from Meilisearch's float stats (the values are integers).
fn bounds(stats: Option<&FacetStats>) -> Option<Bounds> {
    stats.map(|s| Bounds { min: s.min.round() as i64, max: s.max.round() as i64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_ordered_by_count_then_value() {
        let values = HashMap::from([("b".to_owned(), 2), ("a".to_owned(), 2), ("c".to_owned(), 5)]);
        assert_eq!(
            counts(values),
            vec![("c".to_owned(), 5), ("a".to_owned(), 2), ("b".to_owned(), 2)]
        );
    }

    #[test]
    fn float_stats_become_integer_bounds() {
        assert_eq!(
            bounds(Some(&FacetStats { min: 50_000.0, max: 80_000.0 })),
            Some(Bounds { min: 50_000, max: 80_000 })
        );
        assert_eq!(bounds(None), None);
    }
}
