//! The outbox drain: after ingest a job is searchable within one drain; a closed job leaves
//! within one.

use freehire_app::{
    ingest::{IngestConfig, run_provider},
    search_sync::drain,
};
use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider};
use freehire_ingest::replay::Reply;
use freehire_search::{EmbeddedIndex, Endpoint, JobQuery, SearchIndex, SearchRequest};
use freehire_store::{ClaimOptions, OutboxKind, Store};
use tokio_util::sync::CancellationToken;

use crate::support::{ashby_board, ashby_server, t};

async fn total(index: &dyn SearchIndex, q: &str) -> u64 {
    let query = JobQuery::from_query_str(q, Endpoint::Search).unwrap();
    let request = SearchRequest { query: &query, facets: &[], stats: false, now: t(10, 0) };
    index.search(request).await.unwrap().total
}

pub async fn ingested_jobs_become_searchable_and_closed_ones_leave(s: &dyn Store) {
    let key = BoardKey::new(Provider::parse("ashby").unwrap(), "cartesia", "").unwrap();
    let board =
        NewBoard { key, company: "Cartesia".into(), url: None, status: BoardStatus::Active };
    s.add_board(&board, t(1, 0)).await.unwrap();
    let full = ashby_board("cartesia");
    let crawl = |body: serde_json::Value, at| async move {
        let (_server, registry) =
            ashby_server(&[("cartesia", Reply::json(serde_json::to_vec(&body).unwrap()))]).await;
        run_provider(
            s,
            &registry,
            &Provider::parse("ashby").unwrap(),
            &IngestConfig::default(),
            &CancellationToken::new(),
            &move || at,
        )
        .await
        .unwrap()
    };
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
