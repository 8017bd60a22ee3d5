//! The search route on Meilisearch, when a server is given (`MEILI_URL`, `MEILI_MASTER_KEY`
//! optional): a filter the live index's settings do not allow yet (settings rolled out after
//! the binary, reference §5.3) is dropped, the search answers without it and the filter
//! parameters are reported in `ignored_params`. Without `MEILI_URL` the test says so and
//! returns.

use std::sync::Arc;

use freehire_search::{MeiliConfig, MeiliIndex, SearchIndex};
use freehire_store::testing::TestDb;
use serde_json::json;

use crate::catalogue::stored;
use crate::server::Server;

/// Waits for a Meilisearch task to succeed.
async fn wait(http: &reqwest::Client, url: &str, key: Option<&str>, task: &serde_json::Value) {
    let task_url = format!("{url}/tasks/{}", task["taskUid"]);
    for _ in 0..400 {
        let mut request = http.get(&task_url);
        if let Some(k) = key {
            request = request.bearer_auth(k);
        }
        let state: serde_json::Value = request.send().await.unwrap().json().await.unwrap();
        if state["status"] == "succeeded" {
            return;
        }
        assert_ne!(state["status"], "failed", "{state}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("Meilisearch task {task} did not finish");
}

#[tokio::test]
async fn a_refused_filter_degrades_to_a_search_without_it() {
    let Some(url) = freehire_app::config::var("FREEHIRE_MEILI_URL") else {
        eprintln!(
            "FREEHIRE_MEILI_URL (or MEILI_URL) is not set; the Meilisearch route test did not run"
        );
        return;
    };
    let key = freehire_app::config::var("FREEHIRE_MEILI_MASTER_KEY");
    let uid = format!("api_degrade_{}", std::process::id());
    let index = Arc::new(
        MeiliIndex::new(
            MeiliConfig::new(url.clone())
                .with_api_key(key.clone().map(Into::into))
                .with_index_uid(uid),
        )
        .unwrap(),
    );
    let db = TestDb::sqlite().await;
    let docs = stored(&db).await;
    let all = docs.len();
    index.upsert(docs).await.unwrap();

    // The live settings lose every filterable attribute behind the adapter's back.
    let http = reqwest::Client::new();
    let mut patch = http
        .patch(format!("{url}/indexes/{}/settings", index.uid()))
        .json(&json!({"filterableAttributes": []}));
    if let Some(k) = &key {
        patch = patch.bearer_auth(k);
    }
    let task: serde_json::Value = patch.send().await.unwrap().json().await.unwrap();
    wait(&http, &url, key.as_deref(), &task).await;

    let search: Arc<dyn SearchIndex> = index.clone();
    let s = Server::start_with(db, Some(search)).await;
    let (status, body) = s.get("/api/v1/jobs/search?skills=go&work_mode=remote&senority=x").await;
    let (_, agent) = s.get("/api/v1/agent/jobs/search?skills=go").await;
    let (text_status, _) = s.get("/api/v1/jobs/search?q=rust").await;
    s.db.teardown().await;
    index.drop_index().await.unwrap();

    assert_eq!(status, 200, "{body}");
    assert_eq!(body["meta"]["total"], all, "answered without the filter: {body}");
    assert_eq!(
        body["meta"]["ignored_params"],
        json!([{"param": "senority"}, {"param": "skills"}, {"param": "work_mode"}]),
        "every filter parameter reported, sorted, with the unknown one"
    );
    assert_eq!(agent["meta"]["ignored_params"], json!([{"param": "skills"}]));
    assert_eq!(text_status, 200, "a search without a filter is unaffected");
}
