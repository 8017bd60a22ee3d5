//! Tracking over HTTP on both backends: a job saved, applied and moved through its stages with
//! a key and with the cookie, the cards, slug sets, pipeline, detail, follow-ups and the CSV
//! round trip; the §16.6 expectations (an unknown stage is a 400 before the database is
//! touched, an empty PATCH is a 400, `applied_on` in the future or over a year old is a 400,
//! `applied_count` moves once per user, the follow-up draft only when silent); an application
//! addressed by id after its posting is pruned.

use chrono::Duration;
use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    accounts::{Answer, Client, verified_user},
    jobs::posting,
    server::{Server, now},
};

both_backends! {
    a_job_is_saved_applied_and_moved_through_its_stages,
    bad_input_is_refused_before_the_database_is_touched,
    applying_again_does_not_count_again,
    the_followup_draft_is_only_for_silent_applications,
    an_application_is_addressed_by_id_after_its_posting_is_pruned,
    the_csv_exports_and_imports_once,
}

/// Stores a posting and returns its slug.
pub async fn job(server: &Server, id: &str, title: &str) -> String {
    let store = server.db.store();
    let written =
        store.upsert_jobs(&[posting(id, title)], now() - Duration::days(60)).await.unwrap();
    store.jobs_by_ids(&[written[0].id]).await.unwrap()[0].public_slug.as_str().to_owned()
}

#[track_caller]
fn refused(a: &Answer, status: u16, code: &str, param: Option<&str>) {
    assert_eq!(a.status, status, "{a:?}");
    assert_eq!(a.body["code"], code, "{a:?}");
    if let Some(p) = param {
        assert_eq!(a.body["param"], p, "{a:?}");
    }
}

async fn call(c: &Client<'_>, method: &str, path: &str, body: Option<Value>) -> Answer {
    c.call(method.parse::<Method>().unwrap(), path, body).await
}

async fn ok(c: &Client<'_>, method: &str, path: &str, body: Option<Value>) -> Value {
    let a = call(c, method, path, body).await;
    assert_eq!(a.status, 200, "{method} {path}: {a:?}");
    a.body["data"].clone()
}

// scenario: A job is tracked from save to interview
async fn a_job_is_saved_applied_and_moved_through_its_stages(server: &Server) {
    let browser = verified_user(server, "ada@example.com").await;
    let minted = browser.post("/me/api-keys", json!({"name": "cli"})).await;
    let cli = Client::with_key(server, minted.body["data"]["token"].as_str().unwrap());
    let a = job(server, "1", "Rust Engineer").await;
    let b = job(server, "2", "Go Engineer").await;

    let t = ok(&cli, "POST", &format!("/jobs/{a}/view"), None).await;
    assert_eq!(t["job_slug"], a.as_str());
    assert_eq!(t["viewed_at"], "2026-11-20T12:00:00Z");
    assert_eq!(t["application"], Value::Null);
    let t = ok(&cli, "POST", &format!("/jobs/{a}/save"), None).await;
    assert!(t["saved_at"].is_string());
    ok(&browser, "POST", &format!("/jobs/{b}/dismiss"), None).await;

    // Move it to interview: it applies and lands in the interview column.
    let t = ok(
        &cli,
        "PATCH",
        &format!("/jobs/{a}/track"),
        Some(json!({"stage": "interview", "notes": "panel"})),
    )
    .await;
    let app = &t["application"];
    assert_eq!(
        (app["stage"].as_str(), app["group"].as_str()),
        (Some("interview"), Some("interview"))
    );
    assert_eq!(app["applied_at"], "2026-11-20T12:00:00Z");
    assert_eq!(app["notes"], "panel");
    assert_eq!(
        (app["days_silent"].as_u64(), app["silence_state"].as_str()),
        (Some(0), Some("waiting"))
    );
    assert_eq!(app["company"], "Acme");
    assert_eq!(app["job_closed"], false);
    assert!(app["id"].as_i64().unwrap() > 0);

    let list = call(&browser, "GET", "/me/tracking?filter=board", None).await;
    assert_eq!(list.status, 200, "{list:?}");
    assert_eq!(list.body["total"], 1);
    let card = &list.body["data"][0];
    assert_eq!(
        (card["job_slug"].as_str(), card["title"].as_str()),
        (Some(a.as_str()), Some("Rust Engineer"))
    );
    assert_eq!(card["url"], "https://boards.greenhouse.io/acme/jobs/1");
    assert!(card.get("description_html").is_none(), "cards carry no description");
    let all = call(&browser, "GET", "/me/tracking", None).await;
    assert_eq!(all.body["total"], 2);

    assert_eq!(ok(&cli, "GET", "/me/tracking/saved", None).await, json!([a]));
    assert_eq!(ok(&cli, "GET", "/me/tracking/viewed", None).await, json!([a]));
    assert_eq!(ok(&cli, "GET", "/me/tracking/dismissed", None).await, json!([b]));
    let p = ok(&cli, "GET", "/me/tracking/pipeline", None).await;
    assert_eq!(p["stages"].as_object().unwrap().len(), 10);
    assert_eq!(p["groups"].as_object().unwrap().len(), 5);
    assert_eq!(
        (p["stages"]["interview"].as_u64(), p["groups"]["interview"].as_u64(), p["total"].as_u64()),
        (Some(1), Some(1), Some(1))
    );

    let d = ok(&cli, "GET", &format!("/me/tracking/{a}"), None).await;
    assert_eq!(d["description_html"], "<p>Hello</p>");
    let kinds: Vec<_> =
        d["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["viewed", "saved", "applied", "stage_set", "note"]);

    // Clear the stage (keeps save and notes), then the whole track (keeps the view).
    let t = ok(&cli, "DELETE", &format!("/jobs/{a}/stage"), None).await;
    assert_eq!(
        (t["application"]["stage"].clone(), t["application"]["notes"].clone()),
        (Value::Null, json!("panel"))
    );
    assert!(t["saved_at"].is_string());
    let t = ok(&cli, "DELETE", &format!("/jobs/{a}/track"), None).await;
    assert_eq!((t["saved_at"].clone(), t["application"].clone()), (Value::Null, Value::Null));
    assert!(t["viewed_at"].is_string());
    let t = ok(&cli, "DELETE", &format!("/jobs/{b}/dismiss"), None).await;
    assert_eq!(t["dismissed_at"], Value::Null);
    let t = ok(&cli, "DELETE", &format!("/jobs/{a}/save"), None).await;
    assert_eq!(t["saved_at"], Value::Null);

    // Nobody signed in: 401.
    let anonymous = Client::new(server);
    refused(
        &call(&anonymous, "POST", &format!("/jobs/{a}/save"), None).await,
        401,
        "unauthorized",
        None,
    );
    refused(&call(&anonymous, "GET", "/me/tracking", None).await, 401, "unauthorized", None);
}

// scenario: An unknown stage is refused before the database is touched
// scenario: A patch with neither stage nor notes is refused
// scenario: applied_on outside its window is refused over HTTP
async fn bad_input_is_refused_before_the_database_is_touched(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    // The slug names no job, yet the stage is judged first: 400, not 404.
    let ghost = "ghost-role-zzzzzzzz";
    let a = call(&ada, "PATCH", &format!("/jobs/{ghost}/track"), Some(json!({"stage": "ghosted"})))
        .await;
    refused(&a, 400, "invalid_parameter", Some("stage"));
    for stage in ["preparing", "interview", "expired"] {
        assert!(a.body["error"].as_str().unwrap().contains(stage), "{a:?}");
    }
    let a = call(&ada, "PATCH", &format!("/jobs/{ghost}/track"), Some(json!({}))).await;
    refused(&a, 400, "invalid_parameter", Some("body"));
    let a = call(&ada, "PATCH", "/me/applications/999999", Some(json!({"stage": "nope"}))).await;
    refused(&a, 400, "invalid_parameter", Some("stage"));
    let a =
        call(&ada, "PATCH", &format!("/jobs/{ghost}/track"), Some(json!({"stage": "offer"}))).await;
    refused(&a, 404, "not_found", None);

    let slug = job(server, "1", "Rust Engineer").await;
    let tomorrow = (now() + Duration::days(1)).date_naive().to_string();
    let old = (now() - Duration::days(366)).date_naive().to_string();
    for bad in [tomorrow.as_str(), old.as_str(), "20-11-2026"] {
        let a =
            call(&ada, "POST", &format!("/jobs/{slug}/apply"), Some(json!({"applied_on": bad})))
                .await;
        refused(&a, 400, "invalid_parameter", Some("applied_on"));
    }
    assert_eq!(server.db.scalar("SELECT count(*) FROM applications").await, 0, "nothing written");
    let a = call(&ada, "GET", "/me/tracking?filter=everything", None).await;
    refused(&a, 400, "invalid_parameter", Some("filter"));
    let a = call(&ada, "GET", "/me/tracking?limit=501", None).await;
    refused(&a, 400, "invalid_parameter", Some("limit"));
    let a = call(&ada, "GET", "/me/tracking?limit=500", None).await;
    assert_eq!(a.status, 200);
    let a = call(&ada, "GET", "/me/tracking/not-tracked-zzzzzzzz", None).await;
    refused(&a, 404, "not_found", None);
    let a = call(&ada, "POST", "/jobs/NOT A SLUG/save", None).await;
    refused(&a, 400, "invalid_parameter", Some("slug"));
}

// scenario: applied_count moves once per user
async fn applying_again_does_not_count_again(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let grace = verified_user(server, "grace@example.com").await;
    let slug = job(server, "1", "Rust Engineer").await;
    for _ in 0..3 {
        ok(&ada, "POST", &format!("/jobs/{slug}/apply"), None).await;
    }
    let on = (now() - Duration::days(3)).date_naive().to_string();
    let t = ok(&ada, "POST", &format!("/jobs/{slug}/apply"), Some(json!({"applied_on": on}))).await;
    assert_eq!(t["application"]["applied_at"], format!("{on}T12:00:00Z"));
    ok(&grace, "POST", &format!("/jobs/{slug}/apply"), Some(json!({}))).await;
    let count = server
        .db
        .scalar(&format!("SELECT applied_count FROM jobs WHERE public_slug = '{slug}'"))
        .await;
    assert_eq!(count, 2);
}

// scenario: The follow-up draft answers only when silent
async fn the_followup_draft_is_only_for_silent_applications(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let silent = job(server, "1", "Rust Engineer").await;
    let waiting = job(server, "2", "Go Engineer").await;
    let untracked = job(server, "3", "Zig Engineer").await;
    let on = (now() - Duration::days(30)).date_naive().to_string();
    ok(&ada, "POST", &format!("/jobs/{silent}/apply"), Some(json!({"applied_on": on}))).await;
    ok(&ada, "POST", &format!("/jobs/{waiting}/apply"), None).await;

    let d = ok(&ada, "GET", &format!("/me/tracking/{silent}/followup"), None).await;
    assert_eq!(d["subject"], "Following up: Rust Engineer application");
    assert_eq!(d["days_silent"], 30);
    assert!(d["body"].as_str().unwrap().contains("at Acme four weeks ago"), "{d}");
    let a = call(&ada, "GET", &format!("/me/tracking/{waiting}/followup"), None).await;
    refused(&a, 409, "not_silent", None);
    let a = call(&ada, "GET", &format!("/me/tracking/{untracked}/followup"), None).await;
    refused(&a, 404, "not_found", None);

    let list = ok(&ada, "GET", "/me/tracking/followups", None).await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["card"]["job_slug"], silent.as_str());
    assert_eq!(list[0]["card"]["silence_state"], "silent");
    assert_eq!(list[0]["draft"]["subject"], d["subject"]);

    let t = ok(&ada, "POST", &format!("/me/tracking/{silent}/followup"), None).await;
    assert_eq!(t["application"]["followed_up_at"], "2026-11-20T12:00:00Z");
    let a = call(&ada, "POST", &format!("/me/tracking/{untracked}/followup"), None).await;
    refused(&a, 404, "not_found", None);
}

// scenario: A pruned posting's application is addressed by id
async fn an_application_is_addressed_by_id_after_its_posting_is_pruned(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let slug = job(server, "1", "Rust Engineer").await;
    let t = ok(&ada, "POST", &format!("/jobs/{slug}/apply"), None).await;
    let id = t["application"]["id"].as_i64().unwrap();
    assert_eq!(
        server.db.execute(&format!("DELETE FROM jobs WHERE public_slug = '{slug}'")).await,
        1
    );

    // The slug routes no longer find a job; the tracking view and the id routes still work.
    refused(&call(&ada, "POST", &format!("/jobs/{slug}/save"), None).await, 404, "not_found", None);
    let d = ok(&ada, "GET", &format!("/me/tracking/{slug}"), None).await;
    assert_eq!(d["job_closed"], true);
    assert_eq!(d["description_html"], "<p>Hello</p>", "the snapshot taken when applying");
    let a =
        ok(&ada, "PATCH", &format!("/me/applications/{id}"), Some(json!({"stage": "rejected"})))
            .await;
    assert_eq!(
        (a["stage"].as_str(), a["group"].as_str(), a["silence_state"].clone()),
        (Some("rejected"), Some("closed"), Value::Null)
    );
    let a = ok(&ada, "DELETE", &format!("/me/applications/{id}/stage"), None).await;
    assert_eq!(a["stage"], Value::Null);
    let gone = call(&ada, "DELETE", &format!("/me/applications/{id}"), None).await;
    assert_eq!(gone.status, 204, "{gone:?}");
    refused(
        &call(&ada, "DELETE", &format!("/me/applications/{id}"), None).await,
        404,
        "not_found",
        None,
    );
    refused(
        &call(&ada, "PATCH", "/me/applications/abc", Some(json!({"notes": "x"}))).await,
        400,
        "invalid_parameter",
        Some("id"),
    );
}

// scenario: The tracking CSV is exported and imported over HTTP
async fn the_csv_exports_and_imports_once(server: &Server) {
    let ada = verified_user(server, "ada@example.com").await;
    let grace = verified_user(server, "grace@example.com").await;
    let slug = job(server, "1", "Rust Engineer").await;
    ok(
        &ada,
        "PATCH",
        &format!("/jobs/{slug}/track"),
        Some(json!({"stage": "offer", "notes": "a, \"b\""})),
    )
    .await;

    let token = ada.session().unwrap();
    let res = server
        .http
        .get(format!("{}/api/v1/me/tracking/export.csv", server.base))
        .header("cookie", format!("freehire_session={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let csv = res.text().await.unwrap();
    assert!(
        csv.starts_with("application_id,job_slug,company,company_slug,role_title,stage,"),
        "{csv}"
    );
    assert!(csv.contains("\"a, \"\"b\"\"\""), "{csv}");

    let grace_token = grace.session().unwrap();
    let import = |body: String| {
        server
            .http
            .post(format!("{}/api/v1/me/tracking/import", server.base))
            .header("cookie", format!("freehire_session={grace_token}"))
            .header("content-type", "text/csv")
            .body(body)
            .send()
    };
    let first: Value = import(csv.clone()).await.unwrap().json().await.unwrap();
    assert_eq!(first["data"]["applications_created"], 1, "{first}");
    assert_eq!(first["data"]["events_created"], 3, "{first}");
    let again: Value = import(csv.clone()).await.unwrap().json().await.unwrap();
    assert_eq!(
        (again["data"]["applications_created"].clone(), again["data"]["events_created"].clone()),
        (json!(0), json!(0))
    );
    let bad = import("nothing,useful\n1,2\n".to_owned()).await.unwrap();
    assert_eq!(bad.status(), 400);
    let bad: Value = bad.json().await.unwrap();
    assert_eq!(bad["param"], "csv");
}
