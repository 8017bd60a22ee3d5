//! The conformance suite on the embedded (tantivy) engine, plus what is specific to it.

use freehire_search::{EmbeddedIndex, SearchIndex};

use super::{catalogue, conformance};

async fn loaded(dir: &std::path::Path) -> EmbeddedIndex {
    let index = EmbeddedIndex::open(dir).unwrap();
    index.upsert(catalogue::documents()).await.unwrap();
    index
}

/// One test per conformance check, each on a freshly loaded index.
macro_rules! conformance {
    ($($check:ident),* $(,)?) => {$(
        #[tokio::test]
        async fn $check() {
            let dir = tempfile::tempdir().unwrap();
            let index = loaded(dir.path()).await;
            conformance::$check(&index).await;
        }
    )*};
}

conformance!(
    text_match_and_title_boost,
    prefix_and_typos,
    facet_filters,
    geography_and_flags,
    scalar_bounds,
    sorts,
    paging_and_total,
    facet_distributions,
    facets_requests,
    writes,
);

#[tokio::test]
async fn whole_suite_on_one_index() {
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
    conformance::facet_distributions(&index).await;
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
