//! The conformance suite on Meilisearch, when a server is given: `MEILI_URL` (and
//! `MEILI_MASTER_KEY` when it has one). Each test loads the catalogue into its own uniquely
//! named index and deletes it afterwards, pass or fail. Without `MEILI_URL` the tests return
//! at once, saying so on stderr: Meilisearch is optional, the embedded engine is not.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU32, Ordering};

use freehire_search::{MeiliConfig, MeiliIndex, SearchIndex};
use futures::FutureExt;

use super::{catalogue, conformance};

/// The server's configuration for index `name`, or `None` when `MEILI_URL` is unset.
fn config(name: &str) -> Option<MeiliConfig> {
    let url = std::env::var("MEILI_URL").ok().filter(|u| !u.is_empty());
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
            .with_api_key(std::env::var("MEILI_MASTER_KEY").ok())
            .with_index_uid(uid),
    )
}

/// Runs `check` on a fresh index loaded with the catalogue, then deletes the index.
pub async fn on_meili<F>(name: &str, check: F)
where
    F: for<'a> AsyncFnOnce(&'a dyn SearchIndex),
{
    let Some(config) = config(name) else { return };
    let index = MeiliIndex::new(config).unwrap();
    let outcome = AssertUnwindSafe(async {
        index.upsert(catalogue::documents()).await.unwrap();
        check(&index).await;
    })
    .catch_unwind()
    .await;
    index.drop_index().await.unwrap();
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// One test per conformance check, each on its own index.
macro_rules! conformance {
    ($($check:ident),* $(,)?) => {$(
        #[tokio::test]
        async fn $check() {
            on_meili(stringify!($check), async |index: &dyn SearchIndex| {
                conformance::$check(index).await
            })
            .await;
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
    on_meili("whole_suite", async |index: &dyn SearchIndex| conformance::all(index).await).await;
}

/// A rebuild leaves no `<uid>_rebuild` index behind, and a second adapter on the same uid
/// (another process: the API beside the worker) sees the writes.
#[tokio::test]
async fn rebuild_swaps_and_a_second_adapter_sees_it() {
    let Some(config) = config("rebuild_swap") else { return };
    let writer = MeiliIndex::new(config.clone()).unwrap();
    let reader = MeiliIndex::new(config).unwrap();
    let outcome = AssertUnwindSafe(async {
        writer.rebuild(catalogue::documents()).await.unwrap();
        assert_eq!(conformance::run(&reader, "").await.total, 6);
        writer.rebuild(catalogue::documents().into_iter().skip(4).collect()).await.unwrap();
        assert_eq!(conformance::set(&reader, "").await, vec![5, 6]);
    })
    .catch_unwind()
    .await;
    writer.drop_index().await.unwrap();
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// A filter on an attribute the live settings do not allow (settings changed behind the
/// adapter's back, as in a rollout out of order) is refused as the query's fault, and
/// searches without a filter still work.
#[tokio::test]
async fn a_filter_the_settings_do_not_allow_is_rejected() {
    let Some(config) = config("rejected") else { return };
    let (url, key) = (config.url.clone(), config.api_key.clone());
    let index = MeiliIndex::new(config).unwrap();
    let outcome = AssertUnwindSafe(async {
        index.upsert(catalogue::documents()).await.unwrap();
        let http = reqwest::Client::new();
        let with_key = |r: reqwest::RequestBuilder| match &key {
            Some(k) => r.bearer_auth(k),
            None => r,
        };
        let task: serde_json::Value = with_key(
            http.patch(format!("{url}/indexes/{}/settings", index.uid()))
                .json(&serde_json::json!({"filterableAttributes": []})),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        let task_url = format!("{url}/tasks/{}", task["taskUid"]);
        for _ in 0..200 {
            let state: serde_json::Value =
                with_key(http.get(&task_url)).send().await.unwrap().json().await.unwrap();
            if state["status"] == "succeeded" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let query = freehire_search::JobQuery::from_query_str(
            "skills=go",
            freehire_search::Endpoint::Search,
        )
        .unwrap();
        let request = freehire_search::SearchRequest {
            query: &query,
            facets: &[],
            stats: false,
            now: crate::now(),
        };
        let err = index.search(request).await.unwrap_err();
        assert!(matches!(err, freehire_search::IndexError::Rejected(_)), "{err}");
        assert_eq!(conformance::run(&index, "").await.total, 6);
    })
    .catch_unwind()
    .await;
    index.drop_index().await.unwrap();
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// The first call on a server without the index creates it with the settings: a search
/// answers (no hits) instead of failing on a missing index, and a filter works at once.
#[tokio::test]
async fn a_missing_index_is_created_on_first_use() {
    let Some(config) = config("first_use") else { return };
    let index = MeiliIndex::new(config).unwrap();
    let outcome = AssertUnwindSafe(async {
        let empty = conformance::run(&index, "skills=go&sort=salary_min").await;
        assert_eq!((empty.total, empty.hits.len()), (0, 0));
    })
    .catch_unwind()
    .await;
    index.drop_index().await.unwrap();
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}
