//! The `jobs` index settings (reference §5.3), applied before an index is first used and to
//! every rebuild index before it is filled.

use std::collections::BTreeMap;

use meilisearch_sdk::settings::{FacetSortValue, FacetingSettings, PaginationSetting, Settings};

use super::document::{EXPERIENCE_MIN, SALARY_MAX, SALARY_MIN, VISA};
use crate::facet::Facet;
use crate::index::MAX_FACET_VALUES;
use crate::sort::SortField;

/// The searched attributes, in ranking order (the `attribute` rule prefers earlier ones).
pub(crate) const SEARCHABLE: [&str; 4] = ["title", "company", "description", "location"];

/// The reference's ranking rules, then the rest of the freshness tie-break every engine keeps
/// (first seen, then id, newest first), so equal documents come in one defined order.
pub(crate) const RANKING_RULES: [&str; 9] = [
    "words",
    "sort",
    "typo",
    "proximity",
    "attribute",
    "exactness",
    "posted_ts:desc",
    "created_ts:desc",
    "id:desc",
];

/// `pagination.maxTotalHits`: high enough that the total of any search is exact.
pub(crate) const MAX_TOTAL_HITS: usize = 10_000_000;

/// Every filterable attribute: the id, every facet's attribute, the time windows and the
/// numeric enrichment bounds.
pub(crate) fn filterable() -> Vec<&'static str> {
    let mut attrs = vec!["id"];
    attrs.extend(Facet::ALL.iter().map(|f| f.attribute()));
    attrs.extend(["posted_ts", "created_ts", SALARY_MIN, SALARY_MAX, EXPERIENCE_MIN, VISA]);
    attrs
}

/// Every sortable attribute: what [`SortField::attribute`] renders, plus the tie-break
/// attributes of [`RANKING_RULES`].
pub(crate) fn sortable() -> Vec<&'static str> {
    let mut attrs: Vec<&str> = SortField::ALL.iter().map(|f| f.attribute()).collect();
    attrs.extend(["posted_ts", "created_ts", "id"]);
    attrs
}

/// The settings of a `jobs` index.
pub(crate) fn settings() -> Settings {
    Settings::new()
        .with_searchable_attributes(SEARCHABLE)
        .with_filterable_attributes(filterable())
        .with_sortable_attributes(sortable())
        .with_ranking_rules(RANKING_RULES)
        .with_proximity_precision("byAttribute")
        .with_pagination(PaginationSetting { max_total_hits: MAX_TOTAL_HITS })
        .with_faceting(FacetingSettings {
            max_values_per_facet: MAX_FACET_VALUES,
            sort_facet_values_by: Some(BTreeMap::from([("*".to_owned(), FacetSortValue::Count)])),
        })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn settings_follow_the_reference() {
        let v = serde_json::to_value(settings()).unwrap();
        assert_eq!(
            v["searchableAttributes"],
            serde_json::json!(["title", "company", "description", "location"])
        );
        let rules = v["rankingRules"].as_array().unwrap();
        let reference =
            ["words", "sort", "typo", "proximity", "attribute", "exactness", "posted_ts:desc"];
        assert_eq!(rules[..7], reference.map(serde_json::Value::from));
        assert_eq!(v["proximityPrecision"], "byAttribute");
        assert_eq!(v["pagination"]["maxTotalHits"], 10_000_000);
        assert_eq!(v["faceting"]["maxValuesPerFacet"], 1200);
        assert_eq!(v["faceting"]["sortFacetValuesBy"]["*"], "count");
        let filterable = v["filterableAttributes"].as_array().unwrap();
        for attr in ["enrichment.seniority", "reality.class", "posted_ts", "enrichment.salary_min"]
        {
            assert!(filterable.contains(&serde_json::json!(attr)), "{attr}");
        }
        let sortable = v["sortableAttributes"].as_array().unwrap();
        for attr in ["posted_at", "created_at", "view_count", "enrichment.salary_max"] {
            assert!(sortable.contains(&serde_json::json!(attr)), "{attr}");
        }
    }
}
