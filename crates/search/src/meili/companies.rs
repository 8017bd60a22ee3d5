//! The Meilisearch companies index (reference §5.4): its settings, and a [`CompanySearch`] as
//! one Meilisearch search.
//!
//! Settings: searchable `name, slug` (Meilisearch splits the slug at its hyphens), the
//! facets filterable, `job_count` and `slug` sortable, ranking rules `words, sort, typo,
//! proximity, attribute, exactness, job_count:desc, slug:asc` (the reference's, with the slug
//! as the last tie-break so the order is total), `maxTotalHits` 10 M so totals are exact.
//! A search without text sorts by `job_count:desc, slug:asc`.

use meilisearch_sdk::indexes::Index;
use meilisearch_sdk::search::{MatchingStrategies, SearchQuery};
use meilisearch_sdk::settings::{PaginationSetting, Settings};

use super::http::MeiliHttp;
use super::settings::MAX_TOTAL_HITS;
use crate::company::{CompanyDocument, CompanyFacet, CompanyHits, CompanySearch};
use crate::index::IndexError;

/// The primary key.
pub(crate) const KEY: &str = "slug";

/// The ranking rules.
pub(crate) const RANKING_RULES: [&str; 8] =
    ["words", "sort", "typo", "proximity", "attribute", "exactness", "job_count:desc", "slug:asc"];

/// The default order (no text).
const ORDER: [&str; 2] = ["job_count:desc", "slug:asc"];

/// The settings of a companies index.
pub(crate) fn settings() -> Settings {
    Settings::new()
        .with_searchable_attributes(["name", "slug"])
        .with_filterable_attributes(CompanyFacet::ALL.map(CompanyFacet::attribute))
        .with_sortable_attributes(["job_count", "slug"])
        .with_ranking_rules(RANKING_RULES)
        .with_pagination(PaginationSetting { max_total_hits: MAX_TOTAL_HITS })
}

/// Runs `search` on `index`.
pub(crate) async fn search(
    index: &Index<MeiliHttp>,
    search: &CompanySearch,
) -> Result<CompanyHits, IndexError> {
    let filter = search.meili_filter();
    let mut q = SearchQuery::new(index);
    q.with_matching_strategy(MatchingStrategies::ALL)
        .with_offset(usize::try_from(search.offset).unwrap_or(usize::MAX))
        .with_limit(search.limit as usize);
    match search.text() {
        Some(text) => {
            q.with_query(text);
        }
        None => {
            q.with_sort(&ORDER);
        }
    }
    if let Some(filter) = &filter {
        q.with_filter(filter);
    }
    let answer = q.execute::<CompanyDocument>().await.map_err(super::search_error)?;
    let total = answer.estimated_total_hits.or(answer.total_hits).unwrap_or_default() as u64;
    Ok(CompanyHits { hits: answer.hits.into_iter().map(|h| h.result).collect(), total })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn settings_follow_the_reference() {
        let v = serde_json::to_value(settings()).unwrap();
        assert_eq!(v["searchableAttributes"], serde_json::json!(["name", "slug"]));
        assert_eq!(v["rankingRules"][6], "job_count:desc");
        assert_eq!(v["pagination"]["maxTotalHits"], 10_000_000);
        let filterable = v["filterableAttributes"].as_array().unwrap();
        for attr in ["regions", "countries", "work_modes", "sources", "top_skills"] {
            assert!(filterable.contains(&serde_json::json!(attr)), "{attr}");
        }
    }
}
