//! The outbox drain: after ingest a job is searchable within one drain; a closed job leaves
//! within one.

use freehire_app::search_sync::drain;
use freehire_domain::ClosedReason;
use freehire_search::{
    CompanyDocument, CompanyHits, CompanySearch, EmbeddedIndex, Endpoint, IndexError, JobQuery,
    SearchDocument, SearchIndex, SearchRequest, SearchResults,
};
use freehire_store::{ClaimOptions, JobKey, OutboxKind, Store};

use crate::support::{add_cartesia, ashby_board, crawl_cartesia, t};

async fn total(index: &dyn SearchIndex, q: &str) -> u64 {
    let query = JobQuery::from_query_str(q, Endpoint::Search).unwrap();
    let request = SearchRequest::new(&query, t(10, 0));
    index.search(request).await.unwrap().total
}

// scenario: A closed job leaves within one drain
// scenario: Searchable within one drain
pub async fn ingested_jobs_become_searchable_and_closed_ones_leave(s: &dyn Store) {
    add_cartesia(s, t(1, 0)).await;
    let full = ashby_board("cartesia");
    let crawl = |body, at| crawl_cartesia(s, body, at);
    let first = crawl(full.clone(), t(2, 0)).await;

    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    let stats = drain(s, &index, ClaimOptions { limit: 5, ..ClaimOptions::default() }, t(2, 1))
        .await
        .unwrap();
    assert_eq!(stats.indexed, first.inserted, "every job is indexed, in waves of 5");
    assert_eq!(total(&index, "").await, first.inserted);
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap(), 0, "the outbox is drained");

    let mut fewer = full.clone();
    fewer["jobs"].as_array_mut().unwrap().remove(0);
    crawl(fewer, t(3, 0)).await;
    let stats = drain(s, &index, ClaimOptions::default(), t(3, 1)).await.unwrap();
    assert_eq!((stats.indexed, stats.removed), (0, 1));
    assert_eq!(total(&index, "").await, first.inserted - 1);
    assert_eq!(
        drain(s, &index, ClaimOptions::default(), t(3, 2)).await.unwrap(),
        Default::default()
    );
}

// scenario: A role posted per city
/// A role posted once per city is one search hit that every city finds; when that posting
/// closes, the next one takes the role over in the index.
// scenario: Per-city copies
pub async fn a_role_cluster_is_one_hit_found_in_every_city(s: &dyn Store) {
    add_cartesia(s, t(1, 0)).await;
    let mut body = ashby_board("cartesia");
    let jobs = body["jobs"].as_array_mut().unwrap();
    let original = jobs[0].clone();
    jobs.truncate(1);
    let mut paris = original.clone();
    paris["id"] = "paris-copy-of-the-first-role".into();
    paris["location"] = "Paris, France".into();
    paris["address"] = serde_json::json!({"postalAddress": {
        "addressCountry": "France", "addressLocality": "Paris"}});
    jobs.push(paris);
    let crawl = |body, at| crawl_cartesia(s, body, at);
    assert_eq!(crawl(body.clone(), t(2, 0)).await.inserted, 2);
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    drain(s, &index, ClaimOptions::default(), t(2, 1)).await.unwrap();
    assert_eq!(total(&index, "").await, 1, "the repost is not a second hit");
    assert_eq!(total(&index, "countries=us").await, 1);
    assert_eq!(total(&index, "countries=fr").await, 1, "the cluster's cities all find it");
    assert_eq!(total(&index, "cities=Paris").await, 1);

    // The first posting disappears: the Paris one is the role now, alone.
    body["jobs"].as_array_mut().unwrap().remove(0);
    crawl(body, t(3, 0)).await;
    drain(s, &index, ClaimOptions::default(), t(3, 1)).await.unwrap();
    assert_eq!(total(&index, "").await, 1);
    assert_eq!(total(&index, "countries=fr").await, 1);
    assert_eq!(total(&index, "countries=us").await, 0);
}

/// The companies index's answer for `q`: (slug, job count) per hit.
async fn companies(index: &dyn SearchIndex, q: &str) -> Vec<(String, u64)> {
    let search = CompanySearch { q: Some(q.into()), limit: 10, ..CompanySearch::default() };
    let found = index.search_companies(&search).await.unwrap();
    found.hits.into_iter().map(|h| (h.slug, h.job_count)).collect()
}

/// An engine whose companies index refuses every write (the job index works).
struct CompaniesDown(EmbeddedIndex);

#[async_trait::async_trait]
impl SearchIndex for CompaniesDown {
    async fn upsert(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.0.upsert(docs).await
    }
    async fn delete(&self, ids: &[i64]) -> Result<(), IndexError> {
        self.0.delete(ids).await
    }
    async fn rebuild(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.0.rebuild(docs).await
    }
    async fn upsert_companies(&self, _: Vec<CompanyDocument>) -> Result<(), IndexError> {
        Err(IndexError::Engine("companies index unreachable".into()))
    }
    async fn delete_companies(&self, _: &[String]) -> Result<(), IndexError> {
        Err(IndexError::Engine("companies index unreachable".into()))
    }
    async fn rebuild_companies(&self, _: Vec<CompanyDocument>) -> Result<(), IndexError> {
        Err(IndexError::Engine("companies index unreachable".into()))
    }
    async fn search_companies(&self, s: &CompanySearch) -> Result<CompanyHits, IndexError> {
        self.0.search_companies(s).await
    }
    async fn search(&self, request: SearchRequest<'_>) -> Result<SearchResults, IndexError> {
        self.0.search(request).await
    }
}

// scenario: The companies index follows the drain
pub async fn the_companies_index_follows_the_drain(s: &dyn Store) {
    add_cartesia(s, t(1, 0)).await;
    let full = ashby_board("cartesia");
    let first = crawl_cartesia(s, full.clone(), t(2, 0)).await;
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();

    // A companies index that cannot be written keeps its marks; the jobs go on.
    let down = CompaniesDown(index.clone());
    let stats = drain(s, &down, ClaimOptions::default(), t(2, 1)).await.unwrap();
    assert_eq!((stats.indexed, stats.companies_indexed), (first.inserted, 0));
    assert!(companies(&index, "cartesia").await.is_empty());
    assert!(!s.company_index_pending(10).await.unwrap().is_empty(), "the marks wait");

    let stats = drain(s, &index, ClaimOptions::default(), t(2, 2)).await.unwrap();
    assert_eq!(stats.companies_indexed, 1);
    assert_eq!(companies(&index, "cartesia").await, [("cartesia".to_owned(), first.inserted)]);
    assert_eq!(companies(&index, "cartesi").await.len(), 1, "a prefix of the name");

    // A closed job lowers the count; closing every job removes the company.
    let mut fewer = full.clone();
    fewer["jobs"].as_array_mut().unwrap().remove(0);
    crawl_cartesia(s, fewer, t(3, 0)).await;
    drain(s, &index, ClaimOptions::default(), t(3, 1)).await.unwrap();
    assert_eq!(companies(&index, "cartesia").await[0].1, first.inserted - 1);
    let open = s.list_open_jobs(freehire_store::ListPage::new(100, 0)).await.unwrap().jobs;
    let keys: Vec<JobKey> = open
        .iter()
        .map(|j| JobKey {
            source: j.posting.source.clone(),
            external_id: j.posting.external_id.clone(),
        })
        .collect();
    assert!(!keys.is_empty());
    s.close_jobs(&keys, ClosedReason::Expired, t(4, 0)).await.unwrap();
    let stats = drain(s, &index, ClaimOptions::default(), t(4, 1)).await.unwrap();
    assert_eq!(stats.companies_indexed, 1);
    assert!(companies(&index, "cartesia").await.is_empty(), "no open job, no company");
}
