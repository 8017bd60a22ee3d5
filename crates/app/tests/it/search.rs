//! `freehire search`'s service: flags as the HTTP grammar's parameters, over a real index.

use std::collections::BTreeMap;

use freehire_app::{
    AppError,
    search::{SearchArgs, search},
};
use freehire_search::{
    CompanyDocument, CompanyHits, CompanySearch, EmbeddedIndex, Endpoint, Facet, IndexError,
    JobQuery, SearchDocument, SearchIndex, SearchRequest, SearchResults,
};

use crate::support::t;

fn doc(id: i64, title: &str, work_mode: &str, country: &str) -> SearchDocument {
    let mut facets = BTreeMap::new();
    facets.insert("work_mode".to_owned(), vec![work_mode.to_owned()]);
    facets.insert("countries".to_owned(), vec![country.to_owned()]);
    facets.insert("skills".to_owned(), vec!["rust".to_owned()]);
    SearchDocument {
        id,
        public_slug: format!("job-{id}-aaaaaaaa"),
        external_id: format!("b:{id}"),
        title: title.to_owned(),
        company: "Acme".to_owned(),
        company_slug: "acme".to_owned(),
        location: "Somewhere".to_owned(),
        description: format!("{title} wanted."),
        url: format!("https://acme.example/{id}"),
        facets,
        posted_ts: t(1, 0).timestamp() + id,
        created_ts: t(1, 0).timestamp() + id,
        updated_ts: t(1, 0).timestamp() + id,
        salary_min: None,
        salary_max: None,
        experience_years_min: None,
        visa_sponsorship: None,
        view_count: 0,
    }
}

async fn index() -> (tempfile::TempDir, EmbeddedIndex) {
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    index
        .upsert(vec![
            doc(1, "Rust Engineer", "remote", "de"),
            doc(2, "Rust Engineer", "onsite", "de"),
            doc(3, "Rust Engineer", "remote", "fr"),
            doc(4, "Go Engineer", "remote", "de"),
        ])
        .await
        .unwrap();
    (dir, index)
}

fn args(text: &str, filters: &[(&str, &[&str])]) -> SearchArgs {
    SearchArgs {
        text: Some(text.to_owned()),
        filters: filters
            .iter()
            .map(|(k, vs)| ((*k).to_owned(), vs.iter().map(|v| (*v).to_owned()).collect()))
            .collect(),
        ..SearchArgs::default()
    }
}

// scenario: Unknown parameter
// scenario: Flags are parameters
#[tokio::test]
async fn flags_mean_what_the_parameters_mean() {
    let (_dir, index) = index().await;
    let mut a = args("rust engineer", &[("countries", &["de"]), ("work_mode", &["remote"])]);
    a.extra = vec![("countri".into(), "x".into())];
    a.limit = Some(500);
    assert_eq!(
        a.params(),
        [
            ("q", "rust engineer"),
            ("countries", "de"),
            ("work_mode", "remote"),
            ("countri", "x"),
            ("limit", "500")
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    let http = JobQuery::from_query_str(
        "q=rust+engineer&countries=de&work_mode=remote&countri=x&limit=500",
        Endpoint::Search,
    )
    .unwrap();
    let found = search(&index, &a, t(10, 0)).await.unwrap();
    assert_eq!(found.query, http, "the command line and HTTP parse alike");
    assert_eq!(found.query.page.limit, 100, "clamped like HTTP");
    assert_eq!(found.results.total, 1);
    assert_eq!(found.results.hits[0].id, 1);
    assert_eq!(found.query.ignored_params[0].param, "countri");
    assert!(found.facets.is_none());

    let a = args("rust", &[("countries", &["de,fr"])]);
    let found = search(&index, &a, t(10, 0)).await.unwrap();
    assert_eq!(found.results.total, 3, "comma-joined values as over HTTP");
}

#[tokio::test]
async fn facets_count_every_match_not_the_page() {
    let (_dir, index) = index().await;
    let mut a = args("engineer", &[("countries", &["de"])]);
    a.limit = Some(1);
    a.facets = true;
    a.extra = vec![("sort".into(), "posted_at".into())];
    let found = search(&index, &a, t(10, 0)).await.unwrap();
    assert_eq!(found.results.hits.len(), 1);
    let counts = found.facets.unwrap();
    assert_eq!(counts.total, 3);
    assert_eq!(
        counts.facets[&Facet::WorkMode],
        [("remote".to_owned(), 2), ("onsite".to_owned(), 1)]
    );
    assert!(!counts.facets.contains_key(&Facet::CompanySlug));
}

#[tokio::test]
async fn bad_values_are_refused_naming_the_parameter() {
    let (_dir, index) = index().await;
    let a = args("rust", &[("work_mode", &["office"])]);
    let err = search(&index, &a, t(10, 0)).await.unwrap_err();
    assert!(matches!(err, AppError::Query(_)));
    assert!(err.to_string().starts_with("invalid work_mode \"office\""), "{err}");
    let mut a = args("rust", &[]);
    a.offset = Some(9_999);
    let err = search(&index, &a, t(10, 0)).await.unwrap_err();
    assert!(err.to_string().contains("offset + limit"), "{err}");
}

/// An engine whose live settings allow no filter yet (Meilisearch answers 400 on one).
struct RefusesFilters(EmbeddedIndex);

#[async_trait::async_trait]
impl SearchIndex for RefusesFilters {
    async fn upsert(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.0.upsert(docs).await
    }
    async fn delete(&self, ids: &[i64]) -> Result<(), IndexError> {
        self.0.delete(ids).await
    }
    async fn rebuild(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.0.rebuild(docs).await
    }
    async fn upsert_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError> {
        self.0.upsert_companies(docs).await
    }
    async fn delete_companies(&self, slugs: &[String]) -> Result<(), IndexError> {
        self.0.delete_companies(slugs).await
    }
    async fn rebuild_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError> {
        self.0.rebuild_companies(docs).await
    }
    async fn search_companies(&self, search: &CompanySearch) -> Result<CompanyHits, IndexError> {
        self.0.search_companies(search).await
    }
    async fn search(&self, request: SearchRequest<'_>) -> Result<SearchResults, IndexError> {
        if request.query.active_filter_params().is_empty() {
            self.0.search(request).await
        } else {
            Err(IndexError::Rejected("attribute `countries` is not filterable".into()))
        }
    }
}

#[tokio::test]
async fn a_refused_filter_is_dropped_and_reported() {
    let (_dir, index) = index().await;
    let index = RefusesFilters(index);
    let a = args("rust", &[("countries", &["de"]), ("work_mode", &["remote"])]);
    let found = search(&index, &a, t(10, 0)).await.unwrap();
    assert_eq!(found.results.total, 3, "the text alone");
    let ignored: Vec<&str> = found.query.ignored_params.iter().map(|p| p.param.as_str()).collect();
    assert_eq!(ignored, ["countries", "work_mode"], "every filter parameter, sorted");
    assert!(found.query.facets.is_empty(), "the query answered has no filter");

    // Without a filter to drop, the refusal is the answer.
    let err = search(&RefusesEverything, &args("rust", &[]), t(10, 0)).await.unwrap_err();
    assert!(matches!(err, AppError::Search(IndexError::Rejected(_))), "{err}");
}

/// An engine that refuses every query.
struct RefusesEverything;

#[async_trait::async_trait]
impl SearchIndex for RefusesEverything {
    async fn upsert(&self, _: Vec<SearchDocument>) -> Result<(), IndexError> {
        Ok(())
    }
    async fn delete(&self, _: &[i64]) -> Result<(), IndexError> {
        Ok(())
    }
    async fn rebuild(&self, _: Vec<SearchDocument>) -> Result<(), IndexError> {
        Ok(())
    }
    async fn upsert_companies(&self, _: Vec<CompanyDocument>) -> Result<(), IndexError> {
        Ok(())
    }
    async fn delete_companies(&self, _: &[String]) -> Result<(), IndexError> {
        Ok(())
    }
    async fn rebuild_companies(&self, _: Vec<CompanyDocument>) -> Result<(), IndexError> {
        Ok(())
    }
    async fn search_companies(&self, _: &CompanySearch) -> Result<CompanyHits, IndexError> {
        Err(IndexError::Rejected("no".into()))
    }
    async fn search(&self, _: SearchRequest<'_>) -> Result<SearchResults, IndexError> {
        Err(IndexError::Rejected("no".into()))
    }
}
