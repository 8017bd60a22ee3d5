//! The Meilisearch form of a [`SearchDocument`]: every attribute under exactly the name the
//! query model filters and sorts on (reference §5.2, §5.5), and back.
//!
//! - Facets sit at their [`Facet::attribute`] path (`skills`, `enrichment.seniority`,
//!   `reality.class`, …), always as an array of strings, empty when the job has no value, so
//!   `regions IS EMPTY` holds for a job without a region (Meilisearch's `IS EMPTY` does not match
//!   a missing attribute). `company_slug` is the one scalar: the hit's field and the facet.
//! - The salary and experience bounds and visa sponsorship sit in `enrichment` when known.
//! - `posted_ts` / `created_ts` (filters, ranking) and `posted_at` / `created_at` (the `sort=`
//!   names) hold the same Unix seconds; `updated_ts`, `view_count` are carried for the hit.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::document::SearchDocument;
use crate::facet::Facet;
use crate::index::{Context, IndexError};

/// The numeric `enrichment` attributes: filters, sorts and stats.
pub(crate) const SALARY_MIN: &str = "enrichment.salary_min";
/// See [`SALARY_MIN`].
pub(crate) const SALARY_MAX: &str = "enrichment.salary_max";
/// See [`SALARY_MIN`].
pub(crate) const EXPERIENCE_MIN: &str = "enrichment.experience_years_min";
/// The visa flag.
pub(crate) const VISA: &str = "enrichment.visa_sponsorship";

/// Sets `value` at a dotted `path`, creating the objects on the way.
fn put(doc: &mut Map<String, Value>, path: &str, value: Value) {
    match path.split_once('.') {
        None => {
            doc.insert(path.to_owned(), value);
        }
        Some((head, rest)) => {
            let child = doc.entry(head.to_owned()).or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(map) = child {
                put(map, rest, value);
            }
        }
    }
}

/// The value at a dotted `path`.
fn get<'a>(doc: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    match path.split_once('.') {
        None => doc.get(path),
        Some((head, rest)) => match doc.get(head)? {
            Value::Object(map) => get(map, rest),
            _ => None,
        },
    }
}

/// The JSON document Meilisearch stores for `doc`.
pub(crate) fn to_meili(doc: &SearchDocument) -> Value {
    let mut out = Map::new();
    let fixed = json!({
        "id": doc.id,
        "public_slug": doc.public_slug,
        "external_id": doc.external_id,
        "title": doc.title,
        "company": doc.company,
        "company_slug": doc.company_slug,
        "location": doc.location,
        "description": doc.description,
        "url": doc.url,
        "posted_ts": doc.posted_ts,
        "created_ts": doc.created_ts,
        "updated_ts": doc.updated_ts,
        "posted_at": doc.posted_ts,
        "created_at": doc.created_ts,
        "view_count": doc.view_count,
        "enrichment": {},
    });
    if let Value::Object(fixed) = fixed {
        out.extend(fixed);
    }
    for facet in Facet::ALL.iter().filter(|f| **f != Facet::CompanySlug) {
        put(&mut out, facet.attribute(), json!(doc.values(*facet)));
    }
    for (path, value) in [
        (SALARY_MIN, doc.salary_min),
        (SALARY_MAX, doc.salary_max),
        (EXPERIENCE_MIN, doc.experience_years_min),
    ] {
        if let Some(v) = value {
            put(&mut out, path, json!(v));
        }
    }
    if let Some(visa) = doc.visa_sponsorship {
        put(&mut out, VISA, json!(visa));
    }
    Value::Object(out)
}

/// The fields read back as they are.
#[derive(Deserialize)]
struct Fixed {
    id: i64,
    public_slug: String,
    external_id: String,
    title: String,
    company: String,
    company_slug: String,
    location: String,
    description: String,
    url: String,
    posted_ts: i64,
    created_ts: i64,
    updated_ts: i64,
    #[serde(default)]
    view_count: i64,
}

/// The [`SearchDocument`] of a stored Meilisearch document (a hit).
pub(crate) fn from_meili(doc: Map<String, Value>) -> Result<SearchDocument, IndexError> {
    let bad =
        |what: &str| IndexError::Document(format!("{what} (document {:?})", doc.get("id")).into());
    let mut facets = std::collections::BTreeMap::new();
    for facet in Facet::ALL.iter().filter(|f| **f != Facet::CompanySlug) {
        let values: Vec<String> = match get(&doc, facet.attribute()) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or_else(|| bad(facet.attribute()))?,
            Some(_) => return Err(bad(facet.attribute())),
        };
        if !values.is_empty() {
            facets.insert(facet.param().to_owned(), values);
        }
    }
    let number = |path: &str| -> Result<Option<i64>, IndexError> {
        match get(&doc, path) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v.as_i64().map(Some).ok_or_else(|| bad(path)),
        }
    };
    let salary_min = number(SALARY_MIN)?;
    let salary_max = number(SALARY_MAX)?;
    let experience_years_min = number(EXPERIENCE_MIN)?;
    let visa_sponsorship = match get(&doc, VISA) {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_bool().ok_or_else(|| bad(VISA))?),
    };
    let id = doc.get("id").cloned();
    let fixed: Fixed = serde_json::from_value(Value::Object(doc))
        .map_err(|e| IndexError::Document(Context::boxed(format!("document {id:?}"), e)))?;
    facets.insert(Facet::CompanySlug.param().to_owned(), vec![fixed.company_slug.clone()]);
    Ok(SearchDocument {
        id: fixed.id,
        public_slug: fixed.public_slug,
        external_id: fixed.external_id,
        title: fixed.title,
        company: fixed.company,
        company_slug: fixed.company_slug,
        location: fixed.location,
        description: fixed.description,
        url: fixed.url,
        facets,
        posted_ts: fixed.posted_ts,
        created_ts: fixed.created_ts,
        updated_ts: fixed.updated_ts,
        salary_min,
        salary_max,
        experience_years_min,
        visa_sponsorship,
        view_count: fixed.view_count,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn doc() -> SearchDocument {
        let mut facets = std::collections::BTreeMap::new();
        for (k, v) in [
            ("source", vec!["ashby"]),
            ("company_slug", vec!["acme"]),
            ("regions", vec!["eu"]),
            ("seniority", vec!["senior"]),
            ("skills", vec!["go", "rust"]),
            ("requires_clearance", vec!["true"]),
            ("reality", vec!["fresh"]),
            ("posting_language", vec!["en"]),
        ] {
            facets.insert(k.to_owned(), v.into_iter().map(str::to_owned).collect());
        }
        SearchDocument {
            id: 7,
            public_slug: "rust-engineer-acme-abc123".into(),
            external_id: "board:7".into(),
            title: "Rust Engineer".into(),
            company: "Acme".into(),
            company_slug: "acme".into(),
            location: "Berlin".into(),
            description: "Build things.".into(),
            url: "https://example.com/7".into(),
            facets,
            posted_ts: 1_700_000_000,
            created_ts: 1_690_000_000,
            updated_ts: 1_700_000_100,
            salary_min: Some(80_000),
            salary_max: None,
            experience_years_min: Some(3),
            visa_sponsorship: Some(false),
            view_count: 0,
        }
    }

    #[test]
    fn attributes_are_where_the_filter_looks() {
        let v = to_meili(&doc());
        assert_eq!(v["enrichment"]["seniority"], json!(["senior"]));
        assert_eq!(v["enrichment"]["salary_min"], json!(80_000));
        assert_eq!(v["enrichment"]["posting_language"], json!(["en"]));
        assert_eq!(v["enrichment"]["visa_sponsorship"], json!(false));
        assert!(v["enrichment"].get("salary_max").is_none(), "unknown bounds are absent");
        assert_eq!(v["reality"]["class"], json!(["fresh"]));
        assert_eq!(v["skills"], json!(["go", "rust"]));
        assert_eq!(v["countries"], json!([]), "a facet without values is an empty array");
        assert_eq!(v["company_slug"], json!("acme"));
        assert_eq!(v["posted_at"], v["posted_ts"]);
        assert_eq!(v["created_at"], json!(1_690_000_000));
    }

    #[test]
    fn a_document_comes_back_unchanged() {
        let d = doc();
        let Value::Object(map) = to_meili(&d) else { panic!("an object") };
        assert_eq!(from_meili(map).unwrap(), d);
    }

    #[test]
    fn a_malformed_hit_is_a_document_error() {
        let Value::Object(mut map) = to_meili(&doc()) else { panic!("an object") };
        map.insert("skills".into(), json!("rust"));
        assert!(matches!(from_meili(map), Err(IndexError::Document(_))));
        let Value::Object(mut map) = to_meili(&doc()) else { panic!("an object") };
        map.remove("title");
        assert!(matches!(from_meili(map), Err(IndexError::Document(_))));
    }
}
