//! The embedded (tantivy) engine: the conformance suite's harness, and what is specific to it.

use freehire_search::{EmbeddedIndex, SearchIndex};

use super::{catalogue, conformance};

async fn loaded(dir: &std::path::Path) -> EmbeddedIndex {
    let index = EmbeddedIndex::open(dir).unwrap();
    index.upsert(catalogue::documents()).await.unwrap();
    index
}

/// Runs `check` on a fresh index in a temporary directory, loaded with the catalogue (the
/// conformance suite's harness; `_name` is for the Meilisearch harness's index uid).
pub async fn on_catalogue<F>(_name: &str, check: F)
where
    F: for<'a> AsyncFnOnce(&'a dyn SearchIndex),
{
    let dir = tempfile::tempdir().unwrap();
    let index = loaded(dir.path()).await;
    check(&index).await;
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

// scenario: Reopen
#[tokio::test]
async fn the_index_survives_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    drop(loaded(dir.path()).await);
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    assert_eq!(conformance::ids(&index, "q=rust+berlin").await, vec![1]);
    assert_eq!(conformance::run(&index, "").await.total, 6);
}

/// The API opens the index read-only while the worker writes: it sees the worker's commits and
/// refuses writes itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_open_follows_the_writer() {
    use freehire_search::SearchIndex as _;
    let dir = tempfile::tempdir().unwrap();
    let writer = freehire_search::EmbeddedIndex::open(dir.path()).unwrap();
    let reader = freehire_search::EmbeddedIndex::open_read_only(dir.path()).unwrap();
    assert!(
        reader.upsert(super::catalogue::documents()).await.is_err(),
        "read-only refuses writes"
    );
    writer.upsert(super::catalogue::documents()).await.unwrap();
    let expected = super::catalogue::documents().len();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let got = super::conformance::ids(&reader, "").await.len();
        if got == expected {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the reader never saw the commit ({got})");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Documents whose titles are `words`, ids from 100.
fn titled(words: &[String]) -> Vec<freehire_search::SearchDocument> {
    let template = catalogue::documents().remove(0);
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let mut doc = template.clone();
            doc.id = 100 + i as i64;
            doc.title = w.clone();
            doc.description = "plain text".into();
            doc
        })
        .collect()
}

/// A prefix or a typo standing for more words than are scored one by one still finds every
/// job: past the cap, that kind of derivation matches through one automaton query.
// scenario: A prefix standing for many words
// scenario: A typo standing for many words
#[tokio::test]
async fn derivations_past_the_cap_still_match_every_word() {
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    // 100 words starting with "zorb", and 72 words one substitution away from "kwyxq".
    let mut words: Vec<String> = (0..100).map(|i| format!("zorb{i:03}x")).collect();
    for c in ('a'..='z').chain('0'..='9') {
        words.push(format!("kw{c}xq"));
        words.push(format!("kwy{c}q"));
    }
    words.sort();
    words.dedup();
    let typo_words = words.iter().filter(|w| w.starts_with("kw")).count();
    index.upsert(titled(&words)).await.unwrap();
    assert_eq!(conformance::run(&index, "q=zorb&limit=100").await.total, 100);
    // The 18 words one digit away and "zorb005x" (a transposition) match too, the exact
    // word first.
    let exact = 100 + words.iter().position(|w| w == "zorb050x").unwrap() as i64;
    let found = conformance::run(&index, "q=zorb050x").await;
    assert_eq!((found.total, found.hits[0].id), (20, exact));
    // A non-last word takes typos but no prefixes; the last word takes both.
    assert_eq!(conformance::run(&index, "q=kwyxq+plain").await.total, typo_words as u64);
    assert_eq!(conformance::run(&index, "q=kwyxq").await.total, typo_words as u64);
    // Below the cap the same rules hold: "kwaxq" is one edit from the 36 words "kw?xq".
    assert_eq!(conformance::run(&index, "q=kwaxq+plain").await.total, 36);
}

/// An engine failure keeps the engine's error as its source and does not repeat it in its own
/// message (an error chain prints it once).
#[test]
fn an_engine_error_keeps_its_source() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let Err(err) = EmbeddedIndex::open(file.path()) else { panic!("a file is not an index") };
    assert!(matches!(err, freehire_search::IndexError::Engine(_)), "{err}");
    assert_eq!(err.to_string(), "search engine error");
    let source = std::error::Error::source(&err).expect("the engine's error");
    assert!(!source.to_string().is_empty());
    assert!(!err.to_string().contains(&source.to_string()));
}

/// An index built by an earlier version (here: a schema without the folded free-text
/// fields, or any other) is refused with the fix in the message; `freehire reindex` (a
/// rebuild through a writable open) replaces it.
// scenario: An index built by another version
#[tokio::test]
async fn a_stale_index_is_refused_until_a_rebuild_replaces_it() {
    use tantivy::schema::{STORED, Schema, TEXT};
    let dir = tempfile::tempdir().unwrap();
    {
        let mut b = Schema::builder();
        let title = b.add_text_field("title", TEXT | STORED);
        let old = tantivy::Index::create_in_dir(dir.path(), b.build()).unwrap();
        let mut w: tantivy::IndexWriter = old.writer(15_000_000).unwrap();
        w.add_document(tantivy::doc!(title => "an old job")).unwrap();
        w.commit().unwrap();
    }
    let Err(err) = EmbeddedIndex::open_read_only(dir.path()) else { panic!("stale opened") };
    assert!(matches!(err, freehire_search::IndexError::Stale { .. }), "{err}");
    let message = err.to_string();
    assert!(message.contains("run `freehire reindex`"), "{message}");
    assert!(message.contains(&dir.path().display().to_string()), "{message}");

    let writer = EmbeddedIndex::open(dir.path()).unwrap();
    let query = freehire_search::JobQuery::default();
    let request = freehire_search::SearchRequest::new(&query, crate::now());
    let refused = writer.search(request).await.unwrap_err();
    assert!(refused.to_string().contains("freehire reindex"), "{refused}");
    assert!(writer.upsert(catalogue::documents()).await.is_err(), "writes refused too");

    writer.rebuild(catalogue::documents()).await.unwrap();
    assert_eq!(conformance::run(&writer, "").await.total, 6);
    assert_eq!(conformance::ids(&writer, "cities=BERLIN&q=rust").await, vec![1]);
    drop(writer);
    let reopened = EmbeddedIndex::open_read_only(dir.path()).unwrap();
    assert_eq!(conformance::run(&reopened, "").await.total, 6);
}

/// Companies written one commit each (one segment each, until merged) page in the same total
/// order as companies written at once: the slug tie-break is global, not per segment.
// scenario: Companies page alike across segments
#[tokio::test]
async fn companies_in_many_segments_page_in_one_order() {
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    for company in conformance::companies().into_iter().rev() {
        index.upsert_companies(vec![company]).await.unwrap();
    }
    let page = |offset: u64| freehire_search::CompanySearch {
        offset,
        limit: 2,
        ..freehire_search::CompanySearch::default()
    };
    let mut paged = Vec::new();
    for offset in (0..10).step_by(2) {
        let found = index.search_companies(&page(offset)).await.unwrap();
        assert_eq!(found.total, 10);
        paged.extend(found.hits.into_iter().map(|h| h.slug));
    }
    assert_eq!(paged, conformance::COMPANY_ORDER);
    // A reopened index (a read-only one, as the API opens it) answers the same.
    drop(index);
    let reader = EmbeddedIndex::open_read_only(dir.path()).unwrap();
    assert_eq!(reader.search_companies(&page(0)).await.unwrap().hits[0].slug, "globez-tools");
}
