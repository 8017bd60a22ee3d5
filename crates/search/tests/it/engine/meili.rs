//! Meilisearch, when a server is given: `MEILI_URL` (and `MEILI_MASTER_KEY` when it has one):
//! the conformance suite's harness and what is specific to the adapter. Each test works on its
//! own uniquely named index and deletes it afterwards, pass or fail. Without `MEILI_URL` the tests return
//! at once, saying so on stderr: Meilisearch is optional, the embedded engine is not.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use freehire_search::{
    Endpoint, IndexError, JobQuery, MeiliConfig, MeiliIndex, SearchIndex, SearchRequest,
};
use futures::FutureExt;
use secrecy::ExposeSecret;

use super::{catalogue, conformance};

/// The server `MEILI_URL` names, if any.
fn server() -> Option<String> {
    std::env::var("MEILI_URL").ok().filter(|u| !u.is_empty())
}

/// The configuration for index `name` on the server at `url`, or `None` (saying so) without one.
fn config(name: &str, url: Option<String>) -> Option<MeiliConfig> {
    let Some(url) = url else {
        eprintln!("{name}: MEILI_URL is not set; the Meilisearch conformance test did not run");
        return None;
    };
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let uid = format!(
        "freehire_test_{name}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    Some(
        MeiliConfig::new(url)
            .with_api_key(std::env::var("MEILI_MASTER_KEY").ok().map(Into::into))
            .with_index_uid(uid),
    )
}

/// Sends `request` and reads its JSON answer.
async fn answer(request: reqwest::RequestBuilder) -> serde_json::Value {
    request.send().await.unwrap().json().await.unwrap()
}

/// Runs `body`, then `cleanup` whether `body` panicked or not, then passes a panic on.
async fn finally<T>(body: impl Future<Output = T>, cleanup: impl Future<Output = ()>) -> T {
    let outcome = AssertUnwindSafe(body).catch_unwind().await;
    cleanup.await;
    outcome.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Runs `check` with an adapter on a fresh, empty index of its own (uid from `name`) on the
/// server `MEILI_URL` names and its configuration, then deletes the index, pass or fail.
async fn on_fresh<F>(name: &str, check: F)
where
    F: AsyncFnOnce(Arc<MeiliIndex>, MeiliConfig),
{
    on_server(server(), name, check).await;
}

/// [`on_fresh`] on the server at `url`; without one, returns at once.
async fn on_server<F>(url: Option<String>, name: &str, check: F)
where
    F: AsyncFnOnce(Arc<MeiliIndex>, MeiliConfig),
{
    let Some(config) = config(name, url) else { return };
    let index = Arc::new(MeiliIndex::new(config.clone()).unwrap());
    finally(check(index.clone(), config), async { index.drop_index().await.unwrap() }).await;
}

/// Runs `check` on a fresh index loaded with the catalogue, then deletes the index (the
/// conformance suite's harness).
pub async fn on_catalogue<F>(name: &str, check: F)
where
    F: for<'a> AsyncFnOnce(&'a dyn SearchIndex),
{
    on_fresh(name, async move |index: Arc<MeiliIndex>, _| {
        index.upsert(catalogue::documents()).await.unwrap();
        check(index.as_ref()).await;
    })
    .await;
}

/// Without a server the Meilisearch tests return at once, saying so on stderr, and their check
/// never runs.
// scenario: Suite without a server
#[tokio::test]
async fn without_a_server_nothing_runs() {
    on_server(None, "no_server", async |_: Arc<MeiliIndex>, _| panic!("ran without a server"))
        .await;
}

/// A rebuild leaves no `<uid>_rebuild` index behind, and a second adapter on the same uid
/// (another process: the API beside the worker) sees the writes.
// scenario: Rebuild seen by another process
#[tokio::test]
async fn rebuild_swaps_and_a_second_adapter_sees_it() {
    on_fresh("rebuild_swap", async |writer: Arc<MeiliIndex>, config| {
        let reader = MeiliIndex::new(config).unwrap();
        writer.rebuild(catalogue::documents()).await.unwrap();
        assert_eq!(conformance::run(&reader, "").await.total, 6);
        writer.rebuild(catalogue::documents().into_iter().skip(4).collect()).await.unwrap();
        assert_eq!(conformance::set(&reader, "").await, vec![5, 6]);
    })
    .await;
}

/// A filter on an attribute the live settings do not allow (settings changed behind the
/// adapter's back, as in a rollout out of order) is refused as the query's fault, and
/// searches without a filter still work.
// scenario: Filter refused
#[tokio::test]
async fn a_filter_the_settings_do_not_allow_is_rejected() {
    on_fresh("rejected", async |index: Arc<MeiliIndex>, config: MeiliConfig| {
        let (url, key) = (config.url, config.api_key.map(|k| k.expose_secret().to_owned()));
        index.upsert(catalogue::documents()).await.unwrap();
        let http = reqwest::Client::new();
        let with_key = |r: reqwest::RequestBuilder| match &key {
            Some(k) => r.bearer_auth(k),
            None => r,
        };
        let task = answer(with_key(
            http.patch(format!("{url}/indexes/{}/settings", index.uid()))
                .json(&serde_json::json!({"filterableAttributes": []})),
        ))
        .await;
        let task_url = format!("{url}/tasks/{}", task["taskUid"]);
        for _ in 0..200 {
            let state = answer(with_key(http.get(&task_url))).await;
            if state["status"] == "succeeded" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let query = JobQuery::from_query_str("skills=go", Endpoint::Search).unwrap();
        let request = SearchRequest::new(&query, crate::now());
        let err = index.search(request).await.unwrap_err();
        assert!(matches!(err, IndexError::Rejected(_)), "{err}");
        assert_eq!(conformance::run(index.as_ref(), "").await.total, 6);
    })
    .await;
}

/// The first call on a server without the index creates it with the settings: a search
/// answers (no hits) instead of failing on a missing index, and a filter works at once.
// scenario: Settings before first use
#[tokio::test]
async fn a_missing_index_is_created_on_first_use() {
    on_fresh("first_use", async |index: Arc<MeiliIndex>, _| {
        let empty = conformance::run(index.as_ref(), "skills=go&sort=salary_min").await;
        assert_eq!((empty.total, empty.hits.len()), (0, 0));
    })
    .await;
}

/// The database size the bench compares index sizes with is read from the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_size_is_read_from_the_server() {
    on_fresh("size", async |index: Arc<MeiliIndex>, _| {
        index.upsert(catalogue::documents()).await.unwrap();
        assert!(index.database_size().await.unwrap() > 0);
    })
    .await;
}

/// The random filter queries of the oracle test select the same jobs on Meilisearch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_filters_select_what_the_model_means() {
    on_fresh("oracle", async |index: Arc<MeiliIndex>, _| {
        index.upsert(catalogue::documents()).await.unwrap();
        super::oracle::random_filters_match_the_oracle(index).await;
    })
    .await;
}

/// The oracle's random filter queries count every facet on Meilisearch as a direct count does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_filters_count_facets_as_the_model_does() {
    on_fresh("oracle_counts", async |index: Arc<MeiliIndex>, _| {
        let docs = super::oracle::load_in_batches(index.as_ref()).await;
        super::oracle::random_filters_count_what_the_model_counts(index, docs).await;
    })
    .await;
}

/// Random filters restrict Meilisearch's text matches without reordering them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_filtered_text_ranks_as_text_alone() {
    on_fresh("oracle_text", async |index: Arc<MeiliIndex>, _| {
        let docs = super::oracle::varied_documents(300);
        index.upsert(docs.clone()).await.unwrap();
        super::oracle::filtered_text_ranks_as_text_alone(index, docs).await;
    })
    .await;
}

/// Text, sorts and pages drawn on top of the oracle's random filters.
const EXTRA: &[&str] = &[
    "",
    "q=engineer",
    "q=go",
    "q=rust",
    "q=senior+rust",
    "q=acme&q_fields=company",
    "sort=salary_min&order=asc",
    "sort=salary_max",
    "sort=created_at&order=asc",
    "sort=posted_at",
    "q=engineer&sort=salary_min",
    "limit=2&offset=1",
];

/// Both engines, loaded with the catalogue, answer random queries alike: the same hits in the
/// same order, the same total, every facet's distribution and the stats. Text queries without
/// a sort compare their hits as a set: within one field the engines order matches differently
/// (Meilisearch by word position, the embedded engine by BM25), which the conformance suite
/// leaves open (`q=go`: all three matches are in the description).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_engines_answer_random_queries_alike() {
    use freehire_search::{EmbeddedIndex, Facet};
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};

    on_fresh("engines_agree", async |meili: Arc<MeiliIndex>, _| {
        let dir = tempfile::tempdir().unwrap();
        let embedded = Arc::new(EmbeddedIndex::open(dir.path()).unwrap());
        embedded.upsert(catalogue::documents()).await.unwrap();
        meili.upsert(catalogue::documents()).await.unwrap();
        let engines = (meili, embedded);
        let handle = tokio::runtime::Handle::current();
        tokio::task::spawn_blocking(move || {
            let facets: Vec<Facet> = Facet::ALL.to_vec();
            let strategy =
                (proptest::collection::vec(super::oracle::param(), 0..4), 0..EXTRA.len());
            let mut runner = TestRunner::new(Config { cases: 128, ..Config::default() });
            runner
                .run(&strategy, |(drawn, extra)| {
                    let mut qs = super::oracle::query_string(&drawn);
                    qs = qs.replace("limit=100", "");
                    qs.push_str(EXTRA[extra]);
                    let query = JobQuery::from_query_str(&qs, Endpoint::Search).unwrap();
                    let request =
                        SearchRequest::new(&query, crate::now()).with_facets(&facets).with_stats();
                    let m = handle.block_on(engines.0.search(request)).unwrap();
                    let e = handle.block_on(engines.1.search(request)).unwrap();
                    let ids = |r: &freehire_search::SearchResults| {
                        r.hits.iter().map(|h| h.id).collect::<Vec<_>>()
                    };
                    let (mut mi, mut ei) = (ids(&m), ids(&e));
                    prop_assert_eq!(m.total, e.total, "total of {}", qs);
                    if query.q.is_some() && query.sort.is_none() {
                        mi.sort_unstable();
                        ei.sort_unstable();
                    }
                    prop_assert_eq!(mi, ei, "hits of {}", qs);
                    prop_assert_eq!(&m.facets, &e.facets, "facets of {}", qs);
                    prop_assert_eq!(m.stats, e.stats, "stats of {}", qs);
                    Ok(())
                })
                .unwrap();
        })
        .await
        .unwrap();
    })
    .await;
}

/// The API may hold a key that can only search: its adapter cannot apply settings, and still
/// searches the index the writer prepared (and refuses writes).
// scenario: Search-only key
#[tokio::test]
async fn a_search_only_key_searches() {
    on_fresh("search_key", async |writer: Arc<MeiliIndex>, config: MeiliConfig| {
        let Some(master) = config.api_key.as_ref().map(|k| k.expose_secret().to_owned()) else {
            eprintln!("a_search_only_key_searches: MEILI_MASTER_KEY is not set; did not run");
            return;
        };
        let http = reqwest::Client::new();
        let key = answer(http.post(format!("{}/keys", config.url)).bearer_auth(&master).json(
            &serde_json::json!({
                "actions": ["search"], "indexes": [config.index_uid], "expiresAt": null
            }),
        ))
        .await;
        let (search_key, key_uid) = (key["key"].as_str().unwrap(), key["uid"].as_str().unwrap());
        let reader = MeiliIndex::new(config.clone().with_api_key(Some(search_key.into()))).unwrap();
        let delete_key = async {
            http.delete(format!("{}/keys/{key_uid}", config.url))
                .bearer_auth(&master)
                .send()
                .await
                .unwrap();
        };
        finally(
            async {
                writer.upsert(catalogue::documents()).await.unwrap();
                assert_eq!(conformance::set(&reader, "skills=go").await, vec![1, 2, 5]);
                assert_eq!(conformance::ids(&reader, "q=rust+berlin").await, vec![1]);
                assert!(
                    reader.upsert(catalogue::documents()).await.is_err(),
                    "the key cannot write"
                );
            },
            delete_key,
        )
        .await;
    })
    .await;
}

/// An adapter without a URL is refused before anything is sent, the reason as the source.
#[test]
fn an_empty_url_is_refused_with_its_reason_as_the_source() {
    let err = MeiliIndex::new(MeiliConfig::new("/")).unwrap_err();
    assert_eq!(err.to_string(), "search engine error");
    let source = std::error::Error::source(&err).map(ToString::to_string);
    assert_eq!(source.as_deref(), Some("the Meilisearch URL is empty"));
}
