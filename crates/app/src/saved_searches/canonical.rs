//! The canonical form of a saved search's query: the parsed [`JobQuery`] written back as a
//! query string with its parameters in one fixed order (`q`, `q_fields`, the facets in the
//! reference's table order, each with its `_exclude` and `_mode` forms, the scalar bounds,
//! `sort` and `order`) and each facet's values sorted and de-duplicated. Two searches that mean
//! the same thing (`skills=rust,go&countries=de` and `countries=DE&skills=go&skills=rust`)
//! are stored as the same string, so the notify engine groups them and runs each distinct
//! query once. Paging (`limit`, `offset`) is not part of a saved search and is dropped.
//!
//! Parsing the canonical form gives the query back (a property test below checks it).

use freehire_search::{FacetValue, JobQuery, Mode, NO_REGION, SCALAR_PARAMS, Scalars};
use url::form_urlencoded;

/// `query` as its canonical query string (empty for a query that selects nothing).
pub fn canonical_query(query: &JobQuery) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    if let Some(q) = &query.q {
        out.append_pair("q", q);
    }
    if !query.q_fields.is_empty() {
        let mut fields = query.q_fields.clone();
        fields.sort();
        fields.dedup();
        out.append_pair("q_fields", &join(fields.iter().map(|f| f.as_str().to_owned())));
    }
    for (facet, selection) in &query.facets {
        if !selection.include.is_empty() {
            out.append_pair(facet.param(), &values(&selection.include));
            if selection.mode == Mode::And {
                out.append_pair(&format!("{}_mode", facet.param()), "and");
            }
        }
        if !selection.exclude.is_empty() {
            out.append_pair(&format!("{}_exclude", facet.param()), &values(&selection.exclude));
        }
    }
    for (name, value) in SCALAR_PARAMS.iter().zip(scalar_values(&query.scalars)) {
        if let Some(value) = value {
            out.append_pair(name, &value);
        }
    }
    if let Some(sort) = query.sort {
        out.append_pair("sort", sort.field.as_str());
        out.append_pair("order", sort.order.as_str());
    }
    out.finish()
}

/// The scalar values in [`SCALAR_PARAMS`] order.
fn scalar_values(s: &Scalars) -> [Option<String>; 7] {
    [
        s.visa_sponsorship.map(|b| b.to_string()),
        s.salary_min.map(|n| n.to_string()),
        s.salary_max.map(|n| n.to_string()),
        s.experience_years_min.map(|n| n.to_string()),
        s.experience_years_max.map(|n| n.to_string()),
        s.posted_within_days.map(|n| n.to_string()),
        s.open_within_days.map(|n| n.to_string()),
    ]
}

/// A facet's values as the grammar reads them, sorted, comma-joined (no value holds a comma:
/// the parser split on them).
fn values(values: &[FacetValue]) -> String {
    join(values.iter().map(|v| match v {
        FacetValue::Text(text) => text.clone(),
        FacetValue::Empty => NO_REGION.to_owned(),
        FacetValue::Flag(flag) => flag.to_string(),
    }))
}

fn join(values: impl Iterator<Item = String>) -> String {
    let mut values: Vec<String> = values.collect();
    values.sort();
    values.dedup();
    values.join(",")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use freehire_search::{Endpoint, Page};
    use proptest::prelude::*;

    use super::*;

    fn parse(raw: &str) -> JobQuery {
        JobQuery::from_query_str(raw, Endpoint::Search).unwrap()
    }

    /// The query with its selections' values in sorted order and without paging: what a
    /// canonical form stands for.
    fn meaning(mut q: JobQuery) -> JobQuery {
        q.page = Page::default();
        q.ignored_params.clear();
        q.q_fields.sort();
        for sel in q.facets.values_mut() {
            if sel.include.is_empty() {
                sel.mode = Mode::Or;
            }
            let key = |v: &FacetValue| format!("{v:?}");
            sel.include.sort_by_key(key);
            sel.exclude.sort_by_key(key);
        }
        q
    }

    #[test]
    fn searches_that_mean_the_same_have_one_form() {
        let a = canonical_query(&parse("skills=rust,go&countries=de&limit=5"));
        let b = canonical_query(&parse("countries=DE&skills=go&skills=rust&skills=go"));
        assert_eq!(a, b);
        assert_eq!(a, "countries=de&skills=go%2Crust");
        assert_eq!(canonical_query(&parse("")), "");
        assert_eq!(canonical_query(&parse("limit=50&offset=10")), "", "paging is dropped");
        let all = "q=rust+dev&q_fields=title,company&regions=none,eu&seniority_mode=and\
                   &seniority=senior,staff&work_mode_exclude=onsite&requires_clearance=false\
                   &salary_min=50000&visa_sponsorship=true&posted_within_days=7&sort=posted_at";
        let canonical = canonical_query(&parse(all));
        assert_eq!(
            canonical,
            "q=rust+dev&q_fields=company%2Ctitle&regions=eu%2Cnone&work_mode_exclude=onsite\
             &seniority=senior%2Cstaff&seniority_mode=and&requires_clearance=false\
             &visa_sponsorship=true&salary_min=50000&posted_within_days=7&sort=posted_at&order=desc"
        );
        assert_eq!(meaning(parse(&canonical)), meaning(parse(all)));
    }

    fn param() -> impl Strategy<Value = String> {
        let pairs = prop_oneof![
            Just("q=rust"),
            Just("q=data%20engineer"),
            Just("skills=rust"),
            Just("skills=go,python"),
            Just("countries=de"),
            Just("countries=FR"),
            Just("regions=eu"),
            Just("regions=none"),
            Just("seniority=senior"),
            Just("seniority_mode=and"),
            Just("seniority_exclude=junior"),
            Just("work_mode=remote"),
            Just("cities=Berlin"),
            Just("salary_min=40000"),
            Just("salary_max=90000"),
            Just("open_within_days=30"),
            Just("requires_clearance=true"),
            Just("q_fields=title"),
            Just("sort=salary_min"),
            Just("order=asc"),
            Just("limit=3"),
        ];
        pairs.prop_map(str::to_owned)
    }

    proptest! {
        #[test]
        fn the_canonical_form_parses_back_to_the_same_search(
            params in proptest::collection::vec(param(), 0..8)
        ) {
            let raw = params.join("&");
            let query = parse(&raw);
            let canonical = canonical_query(&query);
            let again = parse(&canonical);
            prop_assert_eq!(meaning(again.clone()), meaning(query));
            prop_assert_eq!(canonical_query(&again), canonical);
        }
    }
}
