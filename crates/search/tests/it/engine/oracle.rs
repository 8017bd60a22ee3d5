//! The engines against an oracle: random filter queries, answered by the engine and by
//! a direct evaluation of the query model's semantics over the documents, must select the same
//! jobs.

use freehire_search::{
    EmbeddedIndex, Endpoint, Facet, FacetValue, JobQuery, MAX_FACET_VALUES, Mode, SearchDocument,
    SearchIndex, SearchRequest,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use super::{catalogue, conformance};
use crate::now;

/// Parameters and the values drawn for them.
const POOL: &[(&str, &[&str])] = &[
    ("skills", &["go", "rust", "python", "sql", "figma", "kubernetes", "java"]),
    ("countries", &["de", "us", "fr", "gb", "nl"]),
    ("regions", &["eu", "uk", "north_america", "global", "none", "apac"]),
    ("cities", &["Berlin", "London", "New York", "Paris"]),
    ("work_mode", &["remote", "hybrid", "onsite"]),
    ("seniority", &["senior", "middle", "junior", "staff", "lead"]),
    ("company_slug", &["acme", "globex", "initech", "umbrella"]),
    ("is_tech", &["tech", "non_tech"]),
    ("requires_clearance", &["true", "false"]),
    ("salary_currency", &["EUR", "USD"]),
    ("salary_min", &["0", "55000", "60000", "90000"]),
    ("salary_max", &["60000", "70000", "100000"]),
    ("posted_within_days", &["1", "10", "20", "60"]),
    ("open_within_days", &["5", "40", "90"]),
];

/// Whether one facet value holds for a document.
fn holds(doc: &SearchDocument, facet: freehire_search::Facet, value: &FacetValue) -> bool {
    let values = doc.values(facet);
    match value {
        FacetValue::Text(v) => values.contains(v),
        FacetValue::Empty => values.is_empty(),
        FacetValue::Flag(b) => values.iter().any(|v| v == "true") == *b,
    }
}

/// The query model's filter semantics, evaluated directly.
fn selects(q: &JobQuery, doc: &SearchDocument) -> bool {
    let geo: Vec<_> = q.facets.iter().filter(|(f, _)| f.is_geography()).collect();
    let geo_values = geo.iter().flat_map(|(f, s)| s.include.iter().map(move |v| (**f, v)));
    let mut geo_values = geo_values.peekable();
    if geo_values.peek().is_some() && !geo_values.any(|(f, v)| holds(doc, f, v)) {
        return false;
    }
    for (facet, sel) in &q.facets {
        if !facet.is_geography() && !sel.include.is_empty() {
            let ok = match sel.mode {
                Mode::Or => sel.include.iter().any(|v| holds(doc, *facet, v)),
                Mode::And => sel.include.iter().all(|v| holds(doc, *facet, v)),
            };
            if !ok {
                return false;
            }
        }
        if sel.exclude.iter().any(|v| holds(doc, *facet, v)) {
            return false;
        }
    }
    let s = &q.scalars;
    let at_least = |v: Option<i64>, n: Option<i64>| n.is_none_or(|n| v.is_some_and(|v| v >= n));
    let at_most = |v: Option<i64>, n: Option<i64>| n.is_none_or(|n| v.is_some_and(|v| v <= n));
    let since = |d: Option<u32>| d.map(|d| now().timestamp() - i64::from(d) * 86_400);
    at_least(doc.salary_min, s.salary_min)
        && at_most(doc.salary_max, s.salary_max)
        && at_least(Some(doc.posted_ts), since(s.posted_within_days))
        && at_least(Some(doc.created_ts), since(s.open_within_days))
}

/// One drawn parameter: which, which value, and its form (plain, `_exclude`, plain + `_mode=and`).
pub fn param() -> impl Strategy<Value = (usize, usize, u8)> {
    (0..POOL.len(), 0..16usize, 0..3u8)
}

pub fn query_string(drawn: &[(usize, usize, u8)]) -> String {
    let mut parts = Vec::new();
    for (p, v, form) in drawn {
        let (name, values) = POOL[*p];
        let value = values[v % values.len()].replace(' ', "+");
        let facet = !matches!(
            name,
            "salary_min" | "salary_max" | "posted_within_days" | "open_within_days"
        );
        match form {
            1 if facet => parts.push(format!("{name}_exclude={value}")),
            2 if facet => {
                parts.push(format!("{name}={value}"));
                // The geography facets always combine with OR (their `_mode` takes `or` only).
                let geography = matches!(name, "regions" | "countries" | "cities");
                parts.push(format!("{name}_mode={}", if geography { "or" } else { "and" }));
            }
            _ => parts.push(format!("{name}={value}")),
        }
    }
    parts.push("limit=100".into());
    parts.join("&")
}

/// 256 random filter queries on `index` (already loaded with the catalogue) select what a
/// direct evaluation of the model's semantics selects.
pub async fn random_filters_match_the_oracle(index: std::sync::Arc<dyn SearchIndex>) {
    let docs = catalogue::documents();
    let handle = tokio::runtime::Handle::current();
    check_random_queries(256, 1..5, move |qs, q| {
        let mut expected: Vec<i64> = docs.iter().filter(|d| selects(q, d)).map(|d| d.id).collect();
        expected.sort_unstable();
        let got = handle.block_on(conformance::set(index.as_ref(), qs));
        prop_assert_eq!(&got, &expected, "query {}", qs);
        Ok(())
    })
    .await;
}

/// Runs `check` on `cases` random filter queries of `params` parameters, off the async threads
/// (the check blocks on the engine), and asserts that every case ran.
async fn check_random_queries(
    cases: u32,
    params: std::ops::Range<usize>,
    check: impl Fn(&str, &JobQuery) -> Result<(), TestCaseError> + Send + 'static,
) {
    let ran = tokio::task::spawn_blocking(move || {
        let mut runner = TestRunner::new(Config { cases, ..Config::default() });
        let checked = std::sync::atomic::AtomicU32::new(0);
        runner
            .run(&proptest::collection::vec(param(), params), |drawn| {
                let qs = query_string(&drawn);
                let q = JobQuery::from_query_str(&qs, Endpoint::Search).unwrap();
                check(&qs, &q)?;
                checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Ok(())
            })
            .unwrap();
        checked.into_inner()
    })
    .await
    .unwrap();
    assert_eq!(ran, cases);
}

/// The distribution of `facet` over the documents `q` selects, as the port orders it.
fn distribution(docs: &[SearchDocument], q: &JobQuery, facet: Facet) -> Vec<(String, u64)> {
    let mut counts = std::collections::BTreeMap::<String, u64>::new();
    for doc in docs.iter().filter(|d| selects(q, d)) {
        let values: std::collections::BTreeSet<&String> = doc.values(facet).iter().collect();
        for value in values {
            *counts.entry(value.clone()).or_default() += 1;
        }
    }
    let mut list: Vec<(String, u64)> = counts.into_iter().collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    list.truncate(MAX_FACET_VALUES);
    list
}

/// 128 random filter queries on `index` (loaded with `docs`, written in several batches so
/// that the values are spread over segments) count every facet's values as a direct count
/// over the selected documents does.
pub async fn random_filters_count_what_the_model_counts(
    index: std::sync::Arc<dyn SearchIndex>,
    docs: Vec<SearchDocument>,
) {
    let handle = tokio::runtime::Handle::current();
    check_random_queries(128, 0..4, move |qs, q| {
        let request = SearchRequest::new(q, crate::now()).with_facets(Facet::ALL);
        let got = handle.block_on(index.search(request)).unwrap();
        for facet in Facet::ALL {
            let expected = distribution(&docs, q, *facet);
            let counted = got.facets.get(facet).cloned().unwrap_or_default();
            prop_assert_eq!(&counted, &expected, "{} in query {}", facet.param(), qs);
        }
        Ok(())
    })
    .await;
}

/// Text drawn beside the random filters: words, phrases, a prefix, a typo.
const TEXTS: &[&str] = &[
    "engineer",
    "software+engineer",
    "senior+rust+engineer",
    "eng",
    "enginer",
    "manager",
    "data",
    "platform+engineer",
    "product",
    "rust",
];

/// Every hit id of a search (`qs` without a page), in order, page by page.
async fn every_id(index: &dyn SearchIndex, qs: &str) -> Vec<i64> {
    let base: String =
        qs.split('&').filter(|p| !p.starts_with("limit=")).collect::<Vec<_>>().join("&");
    let mut ids = Vec::new();
    loop {
        let page = conformance::run(index, &format!("{base}&limit=100&offset={}", ids.len())).await;
        let n = page.hits.len();
        ids.extend(page.hits.iter().map(|h| h.id));
        if n < 100 || ids.len() as u64 >= page.total {
            return ids;
        }
    }
}

/// Words the varied catalogue's texts are drawn from: the searched words, their plurals and
/// longer forms (prefix matches) and near spellings (typo matches).
const POOL_WORDS: &[&str] = &[
    "engineer",
    "engineers",
    "engineering",
    "enginer",
    "software",
    "softwares",
    "senior",
    "rust",
    "rusty",
    "manager",
    "managers",
    "management",
    "data",
    "platform",
    "platforms",
    "product",
    "products",
    "design",
    "team",
    "remote",
];

/// `n` jobs cycling through the catalogue's facets, with titles, companies, descriptions and
/// locations drawn from [`POOL_WORDS`]: a word and its derived words meet in one job and in
/// several fields, so a job's score sums many alternatives.
pub fn varied_documents(n: usize) -> Vec<SearchDocument> {
    let templates = catalogue::documents();
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut draw = |k: usize| -> String {
        let mut words = Vec::with_capacity(k);
        for _ in 0..k {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            words.push(POOL_WORDS[(state >> 33) as usize % POOL_WORDS.len()]);
        }
        words.join(" ")
    };
    (0..n)
        .map(|i| {
            let mut doc = templates[i % templates.len()].clone();
            doc.id = i as i64 + 1;
            doc.public_slug = format!("varied-{i}");
            doc.title = draw(1 + i % 3);
            doc.company = draw(1);
            doc.description = draw(4 + i % 9);
            doc.location = draw(1);
            doc
        })
        .collect()
}

/// 128 random text searches with random filters rank the jobs of `docs` (loaded in `index`)
/// as the same text alone ranks them, less the jobs a direct evaluation of the filter leaves
/// out: a filter selects, it never reorders.
pub async fn filtered_text_ranks_as_text_alone(
    index: std::sync::Arc<dyn SearchIndex>,
    docs: Vec<SearchDocument>,
) {
    let handle = tokio::runtime::Handle::current();
    check_random_queries(128, 1..4, move |qs, q| {
        // The text follows from the drawn filter, so that a failing case replays as it ran.
        let words = TEXTS[qs.len() % TEXTS.len()];
        let alone = handle.block_on(every_id(index.as_ref(), &format!("q={words}")));
        let kept: std::collections::HashSet<i64> =
            docs.iter().filter(|d| selects(q, d)).map(|d| d.id).collect();
        let expected: Vec<i64> = alone.into_iter().filter(|id| kept.contains(id)).collect();
        let filtered = handle.block_on(every_id(index.as_ref(), &format!("q={words}&{qs}")));
        prop_assert_eq!(&filtered, &expected, "q={} with {}", words, qs);
        Ok(())
    })
    .await;
}

// scenario: A filter never reorders text matches
#[tokio::test]
async fn random_filtered_text_ranks_as_text_alone() {
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    let docs = varied_documents(300);
    for batch in docs.chunks(100) {
        index.upsert(batch.to_vec()).await.unwrap();
    }
    filtered_text_ranks_as_text_alone(std::sync::Arc::new(index), docs).await;
}

/// The catalogue written in batches of seven, less every fifth job deleted afterwards: values
/// spread over segments, some segments without a facet's values, and deleted documents.
pub async fn load_in_batches(index: &dyn SearchIndex) -> Vec<SearchDocument> {
    let docs = catalogue::documents();
    for batch in docs.chunks(7) {
        index.upsert(batch.to_vec()).await.unwrap();
    }
    let gone: Vec<i64> = docs.iter().map(|d| d.id).filter(|id| id % 5 == 0).collect();
    index.delete(&gone).await.unwrap();
    docs.into_iter().filter(|d| d.id % 5 != 0).collect()
}

// scenario: Facet counts are exact across segments
#[tokio::test]
async fn random_filters_count_facets_across_segments_as_the_model_does() {
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    // Counted after every batch too: each commit adds a segment, whose values join the
    // previous numbering.
    let all = JobQuery::from_query_str("", Endpoint::Search).unwrap();
    let mut so_far = Vec::new();
    for batch in catalogue::documents().chunks(5) {
        index.upsert(batch.to_vec()).await.unwrap();
        so_far.extend_from_slice(batch);
        let request = SearchRequest::new(&all, crate::now()).with_facets(Facet::ALL);
        let got = index.search(request).await.unwrap();
        for facet in Facet::ALL {
            let counted = got.facets.get(facet).cloned().unwrap_or_default();
            assert_eq!(counted, distribution(&so_far, &all, *facet), "{}", facet.param());
        }
    }
    index.rebuild(Vec::new()).await.unwrap();
    let docs = load_in_batches(&index).await;
    random_filters_count_what_the_model_counts(std::sync::Arc::new(index), docs).await;
}

#[tokio::test]
async fn random_filters_select_what_the_model_means() {
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    index.upsert(catalogue::documents()).await.unwrap();
    random_filters_match_the_oracle(std::sync::Arc::new(index)).await;
}
