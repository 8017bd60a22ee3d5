//! The conformance suite on the embedded (tantivy) engine, plus what is specific to it.

use freehire_search::{EmbeddedIndex, SearchIndex};

use super::{catalogue, conformance};

async fn loaded(dir: &std::path::Path) -> EmbeddedIndex {
    let index = EmbeddedIndex::open(dir).unwrap();
    index.upsert(catalogue::documents()).await.unwrap();
    index
}

#[tokio::test]
async fn conformance_suite() {
    let dir = tempfile::tempdir().unwrap();
    let index = loaded(dir.path()).await;
    conformance::all(&index).await;
}

#[tokio::test]
async fn documents_in_several_segments_count_once() {
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    for doc in catalogue::documents() {
        index.upsert(vec![doc]).await.unwrap();
    }
    conformance::facet_counts(&index).await;
    conformance::sorts(&index).await;
}

#[tokio::test]
async fn the_index_survives_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    drop(loaded(dir.path()).await);
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    assert_eq!(conformance::ids(&index, "q=rust+berlin").await, vec![1]);
    assert_eq!(conformance::run(&index, "").await.total, 6);
}
