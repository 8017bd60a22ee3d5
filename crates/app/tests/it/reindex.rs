//! `freehire reindex` on the embedded engine: the rebuilt index holds exactly the indexable
//! jobs (stale documents gone), and the outbox rows queued before the run are purged.

use freehire_app::reindex::reindex;
use freehire_search::{EmbeddedIndex, Endpoint, JobQuery, SearchIndex, SearchRequest};
use freehire_store::{OutboxKind, Store};

use crate::support::{add_cartesia, ashby_board, crawl_cartesia, t};

async fn ids(index: &dyn SearchIndex) -> Vec<i64> {
    let query = JobQuery::from_query_str("limit=100", Endpoint::Search).unwrap();
    let request = SearchRequest::new(&query, t(10, 0));
    let mut ids: Vec<i64> =
        index.search(request).await.unwrap().hits.iter().map(|h| h.id).collect();
    ids.sort_unstable();
    ids
}

// scenario: Outbox purge
// scenario: Stale documents go
pub async fn rebuilds_from_the_store_and_purges_the_outbox(s: &dyn Store) {
    add_cartesia(s, t(1, 0)).await;
    let crawl = |body, at| crawl_cartesia(s, body, at);
    let full = ashby_board("cartesia");
    let first = crawl(full.clone(), t(2, 0)).await;
    assert!(first.inserted > 2);
    // One job leaves the board (closed), so the store holds one job that is not indexable.
    let mut fewer = full.clone();
    fewer["jobs"].as_array_mut().unwrap().remove(0);
    crawl(fewer, t(3, 0)).await;

    // The index holds something the store does not: a rebuild drops it.
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    let some = s.jobs_after(None, 1).await.unwrap();
    let mut stale = freehire_search::SearchDocument::from_job(&some[0], t(2, 0));
    stale.id = 987_654;
    index.upsert(vec![stale]).await.unwrap();

    // Rows queued at the cut itself stay.
    let depth = s.outbox_depth(OutboxKind::Index).await.unwrap();
    assert_eq!(depth, first.inserted - 1, "the closed job's index row went with its close");
    let at_cut = reindex(s, &index, t(2, 0)).await.unwrap();
    assert_eq!(at_cut.purged, 0);
    assert_eq!(at_cut.scanned, first.inserted);
    assert_eq!(at_cut.indexed, first.inserted - 1, "every open job, not the closed one");

    let stats = reindex(s, &index, t(4, 0)).await.unwrap();
    assert_eq!((stats.indexed, stats.purged), (first.inserted - 1, depth));
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap(), 0);
    let indexed = ids(&index).await;
    assert_eq!(indexed.len() as u64, stats.indexed);
    assert!(!indexed.contains(&987_654), "the stale document is gone");
    let open = s.list_open_jobs(freehire_store::ListPage::new(100, 0)).await.unwrap();
    let mut open_ids: Vec<i64> = open.jobs.iter().map(|j| j.id.get()).collect();
    open_ids.sort_unstable();
    assert_eq!(indexed, open_ids, "the index holds exactly the open jobs");

    // The companies index is rebuilt from the companies table too, and holds nothing else.
    index
        .upsert_companies(vec![freehire_search::CompanyDocument {
            slug: "gone-company".into(),
            name: "Gone Company".into(),
            job_count: 3,
            latest_posted_ts: 0,
            regions: vec![],
            countries: vec![],
            work_modes: vec![],
            top_skills: vec![],
            sources: vec![],
        }])
        .await
        .unwrap();
    let again = reindex(s, &index, t(5, 0)).await.unwrap();
    assert_eq!(again.companies, 1);
    let all = freehire_search::CompanySearch { limit: 10, ..Default::default() };
    let found = index.search_companies(&all).await.unwrap();
    let slugs: Vec<(&str, u64)> =
        found.hits.iter().map(|h| (h.slug.as_str(), h.job_count)).collect();
    assert_eq!(slugs, [("cartesia", first.inserted - 1)]);
    assert!(s.company_index_pending(10).await.unwrap().is_empty(), "nothing left to sync");
}
