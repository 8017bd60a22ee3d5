//! Saved searches, subscriptions, notification settings, the notification history and shared
//! boards over HTTP on both backends: every rule of reference §8.3 / §16.6 with the field each
//! refusal names, the SSRF guard on webhook URLs, and the public shared board over a real index.

use freehire_app::saved_searches::WebhookPolicy;
use freehire_domain::{Email, NotificationKind};
use freehire_store::{
    NotifiedJob,
    testing::{TestDb, TestNotification},
};
use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    accounts::{Client, refused, verified_user},
    server::Server,
};

both_backends! {
    a_saved_search_is_created_listed_changed_and_deleted,
    names_and_queries_are_checked_naming_the_field,
    the_fifty_first_search_is_refused,
    subscriptions_need_a_filtered_search_and_a_public_webhook,
    notification_settings_default_and_are_checked,
    the_history_lists_newest_first_and_opening_marks_read,
}

async fn create(c: &Client<'_>, name: &str, query: &str) -> Value {
    let a = c.post("/me/saved-searches", json!({"name": name, "query": query})).await;
    assert_eq!(a.status, 201, "{a:?}");
    a.body["data"].clone()
}

async fn subscribe(c: &Client<'_>, id: &Value, body: Value) -> crate::accounts::Answer {
    c.post(&format!("/me/saved-searches/{id}/subscriptions"), body).await
}

async fn patch(c: &Client<'_>, path: &str, body: Value) -> crate::accounts::Answer {
    c.call(Method::PATCH, path, Some(body)).await
}

async fn delete(c: &Client<'_>, path: &str) -> crate::accounts::Answer {
    c.call(Method::DELETE, path, None).await
}

// scenario: A search is saved in canonical form
async fn a_saved_search_is_created_listed_changed_and_deleted(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let search = create(&ada, "  Rust in Germany ", "skills=rust,go&countries=DE&limit=5").await;
    assert_eq!(search["name"], "Rust in Germany", "trimmed");
    assert_eq!(search["query"], "countries=de&skills=go%2Crust", "canonical, paging dropped");
    assert_eq!(search["shared_slug"], Value::Null);
    assert_eq!(search["subscriptions"], json!([]));
    assert_eq!(search["created_at"], "2026-11-20T12:00:00Z");
    let id = search["id"].as_i64().unwrap();
    // The same search typed another way has the same query.
    let again = create(&ada, "Same", "countries=de&skills=go&skills=rust").await;
    assert_eq!(again["query"], search["query"]);
    // An empty query is a saved search of every job.
    let all = create(&ada, "Everything", "").await;
    assert_eq!(all["query"], "");

    let list = ada.get("/me/saved-searches").await;
    assert_eq!(list.status, 200);
    let names: Vec<&str> =
        list.body["data"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Rust in Germany", "Same", "Everything"], "oldest first");

    let path = format!("/me/saved-searches/{id}");
    let a = patch(&ada, &path, json!({"name": "Rust, DE", "query": "skills=rust"})).await;
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(
        (a.body["data"]["name"].clone(), a.body["data"]["query"].clone()),
        (json!("Rust, DE"), json!("skills=rust"))
    );
    let a = patch(&ada, &path, json!({})).await;
    refused(&a, 400, "invalid_parameter", Some("body"));
    let a = patch(&ada, &path, json!({"colour": "red"})).await;
    refused(&a, 400, "invalid_parameter", Some("colour"));

    // Signed in with an API key works too (the command line).
    let key = ada.post("/me/api-keys", json!({"name": "cli"})).await.body["data"]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let cli = Client::with_key(server, &key);
    assert_eq!(cli.get("/me/saved-searches").await.body["data"].as_array().unwrap().len(), 3);
    // Nobody at all is refused.
    refused(&Client::new(server).get("/me/saved-searches").await, 401, "unauthorized", None);

    assert_eq!(delete(&ada, &path).await.status, 204);
    refused(&delete(&ada, &path).await, 404, "not_found", None);
    refused(&patch(&ada, &path, json!({"name": "x"})).await, 404, "not_found", None);
    refused(&delete(&ada, "/me/saved-searches/abc").await, 400, "invalid_parameter", Some("id"));
}

// scenario: Saved-search input is refused naming the field
async fn names_and_queries_are_checked_naming_the_field(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let post = |body: Value| ada.post("/me/saved-searches", body);
    // A 100-rune name is fine, a 101-rune one is not.
    create(&ada, &"é".repeat(100), "").await;
    refused(
        &post(json!({"name": "é".repeat(101), "query": ""})).await,
        400,
        "invalid_parameter",
        Some("name"),
    );
    refused(&post(json!({"name": "   "})).await, 400, "invalid_parameter", Some("name"));
    refused(&post(json!({"query": "skills=rust"})).await, 400, "invalid_parameter", Some("name"));
    // A duplicate name, in any case, is a conflict naming it.
    create(&ada, "Rust Jobs", "skills=rust").await;
    refused(&post(json!({"name": "rust jobs", "query": ""})).await, 409, "conflict", Some("name"));
    let other = create(&ada, "Go Jobs", "skills=go").await;
    let path = format!("/me/saved-searches/{}", other["id"]);
    refused(&patch(&ada, &path, json!({"name": "RUST JOBS"})).await, 409, "conflict", Some("name"));
    // Queries: at most 2,000 runes, in the search grammar, no unknown parameter.
    let long = format!("q={}", "a".repeat(2_000));
    refused(
        &post(json!({"name": "long", "query": long})).await,
        400,
        "invalid_parameter",
        Some("query"),
    );
    let a = post(json!({"name": "bad", "query": "seniority=wizard"})).await;
    refused(&a, 400, "invalid_parameter", Some("query"));
    assert!(a.body["error"].as_str().unwrap().contains("seniority"), "{a:?}");
    let a = post(json!({"name": "typo", "query": "skils=rust"})).await;
    refused(&a, 400, "invalid_parameter", Some("query"));
    refused(
        &patch(&ada, &path, json!({"query": "salary_min=lots"})).await,
        400,
        "invalid_parameter",
        Some("query"),
    );
    // Nothing refused was written.
    assert_eq!(ada.get("/me/saved-searches").await.body["data"].as_array().unwrap().len(), 3);
}

// scenario: The 51st saved search is refused
async fn the_fifty_first_search_is_refused(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    for n in 0..50 {
        create(&ada, &format!("search {n}"), "").await;
    }
    let a = ada.post("/me/saved-searches", json!({"name": "one more", "query": ""})).await;
    refused(&a, 409, "conflict", Some("saved_searches"));
    assert_eq!(ada.get("/me/saved-searches").await.body["data"].as_array().unwrap().len(), 50);
    // Another user is not affected.
    let bob = verified_user(server, "bob@example.com").await;
    create(&bob, "one more", "").await;
}

// scenario: An unfiltered search cannot be subscribed to
// scenario: A webhook to a private address is refused
async fn subscriptions_need_a_filtered_search_and_a_public_webhook(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let all = create(&ada, "Everything", "limit=10").await;
    let a = subscribe(&ada, &all["id"], json!({"channel": "email"})).await;
    refused(&a, 400, "unfiltered_search", Some("query"));

    let rust = create(&ada, "Rust", "skills=rust").await;
    let email = subscribe(&ada, &rust["id"], json!({"channel": "email"})).await;
    assert_eq!(email.status, 201, "{email:?}");
    let sub = &email.body["data"];
    assert_eq!(
        (sub["channel"].clone(), sub["url"].clone(), sub["active"].clone()),
        (json!("email"), Value::Null, json!(true))
    );
    assert_eq!(sub["saved_search_id"], rust["id"]);
    assert!(sub.get("secret").is_none(), "email has no secret");
    refused(
        &subscribe(&ada, &rust["id"], json!({"channel": "email"})).await,
        409,
        "conflict",
        Some("channel"),
    );

    // Webhooks: never to an internal address.
    for url in ["http://127.0.0.1/hook", "http://10.0.0.1/", "http://[::1]/", "http://localhost/"] {
        let a = subscribe(&ada, &rust["id"], json!({"channel": "webhook", "url": url})).await;
        refused(&a, 400, "invalid_parameter", Some("url"));
    }
    for body in [
        json!({"channel": "webhook"}),
        json!({"channel": "webhook", "url": "ftp://93.184.216.34/"}),
        json!({"channel": "webhook", "url": "not a url"}),
        json!({"channel": "email", "url": "https://93.184.216.34/"}),
    ] {
        refused(&subscribe(&ada, &rust["id"], body).await, 400, "invalid_parameter", Some("url"));
    }
    let a = subscribe(&ada, &rust["id"], json!({"channel": "sms"})).await;
    refused(&a, 400, "invalid_parameter", Some("channel"));
    // A public address is accepted, and its secret shown this once.
    let hook = subscribe(
        &ada,
        &rust["id"],
        json!({"channel": "webhook", "url": "https://93.184.216.34/hook"}),
    )
    .await;
    assert_eq!(hook.status, 201, "{hook:?}");
    let secret = hook.body["data"]["secret"].as_str().unwrap();
    assert_eq!(secret.len(), 64);
    assert!(secret.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(hook.body["data"]["url"], "https://93.184.216.34/hook");
    let listed = ada.get("/me/saved-searches").await;
    let subs = listed.body["data"][1]["subscriptions"].as_array().unwrap().clone();
    assert_eq!(subs.len(), 2);
    assert!(subs.iter().all(|s| s.get("secret").is_none()), "never listed: {subs:?}");
    // A subscribed search cannot be widened to every job.
    let path = format!("/me/saved-searches/{}", rust["id"]);
    refused(
        &patch(&ada, &path, json!({"query": ""})).await,
        400,
        "unfiltered_search",
        Some("query"),
    );
    // Unsubscribing.
    let sub_path = format!("/me/subscriptions/{}", sub["id"]);
    assert_eq!(delete(&ada, &sub_path).await.status, 204);
    refused(&delete(&ada, &sub_path).await, 404, "not_found", None);
    refused(
        &subscribe(&ada, &json!(999_999), json!({"channel": "email"})).await,
        404,
        "not_found",
        None,
    );
}

/// With `FREEHIRE_WEBHOOK_ALLOW_PRIVATE` (the policy), a webhook may point at this machine.
// scenario: Private webhooks are allowed only when configured
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_webhooks_are_allowed_only_when_configured() {
    let server = Server::start_mapped(TestDb::sqlite().await, |state| {
        state.with_webhooks(WebhookPolicy::AllowPrivate)
    })
    .await;
    let ada = verified_user(&server, "ada@example.com").await;
    let rust = create(&ada, "Rust", "skills=rust").await;
    let path = format!("/me/saved-searches/{}/subscriptions", rust["id"]);
    let a = ada.post(&path, json!({"channel": "webhook", "url": "http://127.0.0.1:9/hook"})).await;
    assert_eq!(a.status, 201, "{a:?}");
    let a = ada.post(&path, json!({"channel": "webhook", "url": "file:///etc/passwd"})).await;
    refused(&a, 400, "invalid_parameter", Some("url"));
    server.db.teardown().await;
}

// scenario: Notification settings are checked naming the field
async fn notification_settings_default_and_are_checked(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let defaults = ada.get("/me/notification-settings").await;
    assert_eq!(defaults.status, 200);
    assert_eq!(
        defaults.body["data"],
        json!({"enabled": true, "digest_frequency": "daily", "digest_hour": 9,
               "quiet_hours_start": null, "quiet_hours_end": null, "timezone": null})
    );
    let mine = json!({"enabled": false, "digest_frequency": "weekly", "digest_hour": 23,
                      "quiet_hours_start": 22, "quiet_hours_end": 7, "timezone": "Europe/Berlin"});
    let put = ada.call(Method::PUT, "/me/notification-settings", Some(mine.clone())).await;
    assert_eq!((put.status, put.body["data"].clone()), (200, mine.clone()));
    assert_eq!(ada.get("/me/notification-settings").await.body["data"], mine);
    let base = json!({"enabled": true, "digest_frequency": "daily", "digest_hour": 9});
    let with = |key: &str, value: Value| {
        let mut body = base.clone();
        body[key] = value;
        body
    };
    for (body, field) in [
        (with("digest_hour", json!(24)), "digest_hour"),
        (with("digest_hour", json!(-1)), "digest_hour"),
        (with("quiet_hours_start", json!(22)), "quiet_hours_end"),
        (with("quiet_hours_end", json!(7)), "quiet_hours_start"),
        (with("timezone", json!("Mars/Olympus")), "timezone"),
        (with("digest_frequency", json!("hourly")), "digest_frequency"),
        (with("enabled", json!("yes")), "enabled"),
    ] {
        let a = ada.call(Method::PUT, "/me/notification-settings", Some(body)).await;
        refused(&a, 400, "invalid_parameter", Some(field));
    }
    assert_eq!(
        ada.get("/me/notification-settings").await.body["data"],
        mine,
        "nothing refused was written"
    );
    // Omitted optional fields clear.
    let put = ada.call(Method::PUT, "/me/notification-settings", Some(base.clone())).await;
    assert_eq!(put.body["data"]["quiet_hours_start"], Value::Null);
}

// scenario: The notification history is read newest first and opening marks read
async fn the_history_lists_newest_first_and_opening_marks_read(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let eve = verified_user(server, "eve@example.com").await;
    let owner = server
        .db
        .store
        .credentials_by_email(&Email::parse("ada@example.com").unwrap())
        .await
        .unwrap()
        .unwrap()
        .user
        .id;
    let jobs = [NotifiedJob {
        slug: "rust-engineer-acme-t35nijto".into(),
        title: "Rust Engineer".into(),
        company: "Acme".into(),
        location: "Berlin".into(),
        url: Some("https://jobs.example.com/1".into()),
    }];
    let mut ids = Vec::new();
    for day in [17, 19, 18] {
        let n = TestNotification {
            kind: NotificationKind::Digest,
            title: "1 new job for Rust",
            body: "Rust Engineer at Acme",
            public_slug: None,
            subscription: None,
            created_at: chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 11, day, 9, 0, 0)
                .unwrap(),
            jobs: &jobs,
            total: 1,
        };
        ids.push(server.db.insert_notification(owner, &n).await.get());
    }
    let list = ada.get("/me/notifications?limit=2").await;
    assert_eq!(list.status, 200, "{list:?}");
    assert_eq!((list.body["total"].clone(), list.body["unread"].clone()), (json!(3), json!(3)));
    let got: Vec<i64> =
        list.body["data"].as_array().unwrap().iter().map(|n| n["id"].as_i64().unwrap()).collect();
    assert_eq!(got, [ids[1], ids[2]], "newest first, one page");
    let first = &list.body["data"][0];
    assert_eq!(
        (first["kind"].clone(), first["read_at"].clone(), first["total"].clone()),
        (json!("digest"), Value::Null, json!(1))
    );
    refused(&ada.get("/me/notifications?limit=ten").await, 400, "invalid_parameter", Some("limit"));

    let path = format!("/me/notifications/{}/jobs", ids[0]);
    refused(&eve.get(&path).await, 404, "not_found", None);
    let opened = ada.get(&path).await;
    assert_eq!(opened.status, 200, "{opened:?}");
    assert_eq!(opened.body["data"]["notification"]["read_at"], "2026-11-20T12:00:00Z");
    assert_eq!(
        opened.body["data"]["jobs"],
        json!([{"slug": "rust-engineer-acme-t35nijto", "title": "Rust Engineer", "company": "Acme",
                "location": "Berlin", "url": "https://jobs.example.com/1"}])
    );
    let list = ada.get("/me/notifications").await;
    assert_eq!((list.body["total"].clone(), list.body["unread"].clone()), (json!(3), json!(2)));
    assert_eq!(eve.get("/me/notifications").await.body["total"], 0);
    refused(&ada.get("/me/notifications/999999/jobs").await, 404, "not_found", None);
}

// scenario: A shared board is public and read-only
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_board_shows_the_first_page_to_anyone() {
    let (server, _dir, _) = crate::catalogue::indexed(TestDb::sqlite().await).await;
    let ada = verified_user(&server, "ada@example.com").await;
    let search = create(&ada, "Rust", "q=rust").await;
    let path = format!("/me/saved-searches/{}", search["id"]);
    let shared = patch(&ada, &path, json!({"shared": true})).await;
    assert_eq!(shared.status, 200, "{shared:?}");
    let slug = shared.body["data"]["shared_slug"].as_str().unwrap().to_owned();
    assert_eq!(slug.len(), 16);
    let again = patch(&ada, &path, json!({"shared": true})).await;
    assert_eq!(again.body["data"]["shared_slug"], slug.as_str(), "the address stays");

    let (status, board) = server.get(&format!("/api/v1/shared-boards/{slug}")).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(
        (board["data"]["name"].clone(), board["data"]["query"].clone()),
        (json!("Rust"), json!("q=rust"))
    );
    let titles: Vec<&str> = board["data"]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Rust Engineer", "Staff Rust Engineer"]);
    assert_eq!(board["data"]["total"], 2);
    assert!(board["data"]["jobs"][0].get("id").is_none(), "internal ids never leave");

    let unshared = patch(&ada, &path, json!({"shared": false})).await;
    assert_eq!(unshared.body["data"]["shared_slug"], Value::Null);
    let (status, body) = server.get(&format!("/api/v1/shared-boards/{slug}")).await;
    assert_eq!((status, body["code"].clone()), (404, json!("not_found")));
    let (status, _) = server.get("/api/v1/shared-boards/nope").await;
    assert_eq!(status, 404);
    server.db.teardown().await;
}
