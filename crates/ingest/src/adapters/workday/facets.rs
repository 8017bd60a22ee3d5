//! Workday's facets, flattened into dimensions, and the choice of the dimension that splits a
//! capped listing.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Facet {
    facet_parameter: Option<String>,
    #[serde(default)]
    values: Vec<FacetValue>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct FacetValue {
    id: Option<String>,
    count: Option<usize>,
    facet_parameter: Option<String>,
    #[serde(default)]
    values: Vec<FacetValue>,
}

/// A facet dimension flattened: its parameter and its values' `(id, count)`.
pub(crate) type Dimension = (String, Vec<(String, usize)>);

/// Flattens facets (and nested sub-facets) into `(parameter, values)` dimensions.
pub(crate) fn flatten_facets(facets: &[Facet]) -> Vec<Dimension> {
    fn walk(param: &str, values: &[FacetValue], out: &mut BTreeMap<String, Vec<(String, usize)>>) {
        for v in values {
            match (&v.facet_parameter, v.values.is_empty()) {
                (Some(sub), false) => walk(sub, &v.values, out),
                _ => {
                    if let (Some(id), Some(count)) = (&v.id, v.count) {
                        out.entry(param.to_owned()).or_default().push((id.clone(), count));
                    }
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    for f in facets {
        if let Some(p) = &f.facet_parameter {
            walk(p, &f.values, &mut out);
        }
    }
    out.into_iter().collect()
}

/// The dimension to split a capped listing on: not yet applied, its values' counts cover the
/// total, and its largest value is the smallest among such dimensions.
pub(crate) fn choose_dimension(
    dims: Vec<Dimension>,
    applied: &BTreeMap<String, Vec<String>>,
    total: usize,
) -> Option<Dimension> {
    dims.into_iter()
        .filter(|(p, vals)| {
            !applied.contains_key(p)
                && vals.len() > 1
                && vals.iter().map(|v| v.1).sum::<usize>() >= total
        })
        .min_by_key(|(_, vals)| vals.iter().map(|v| v.1).max().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_choice() {
        let dims = vec![
            ("a".to_owned(), vec![("x".to_owned(), 1500), ("y".to_owned(), 500)]),
            (
                "b".to_owned(),
                vec![("x".to_owned(), 900), ("y".to_owned(), 900), ("z".to_owned(), 200)],
            ),
            ("c".to_owned(), vec![("x".to_owned(), 100), ("y".to_owned(), 100)]),
        ];
        let chosen = choose_dimension(dims, &BTreeMap::new(), 2000).unwrap();
        assert_eq!(chosen.0, "b");
    }
}
