//! The ashbygraphql, gem, paycom and zohorecruit adapters against their fixtures (see each
//! `tests/fixtures/<key>/ATTRIBUTION.md`: recorded, or constructed from documentation), served
//! by the replay server: mapping, pagination, failing closed, board-gone, recognition and
//! identity folds.

use std::path::PathBuf;

use freehire_domain::{BoardKey, EmploymentType, Provider, WorkMode};
use freehire_ingest::replay::{Reply, Route};
use freehire_ingest::{IngestError, board_identity, recognize};
use serde_json::json;

use crate::support::{fetch, fetch_new, setup, target};

fn fixture(key: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(key).join(name)
}

fn provider_of(url: &str) -> Option<(String, String)> {
    recognize(url).ok().map(|r| (r.provider.to_string(), r.board))
}

fn identity(p: &str, b: &str) -> (String, String, String) {
    board_identity(&BoardKey::new(Provider::parse(p).unwrap(), b, "").unwrap())
}

// ---------------------------------------------------------------------------------------------
// ashbygraphql

const ASHBY_GQL: &str = "https://jobs.ashbyhq.com";
const GQL_PATH: &str = "/api/non-user-graphql";
const REEDSY_IDS: [&str; 3] = [
    "9b29b6b9-1360-46f2-8c77-60be5bc49102",
    "04567d02-02da-465d-9a4d-99dfb2810d44",
    "92886128-af2c-46e0-9cc4-d03068ac0229",
];

fn ashby_list(reply: Reply) -> Route {
    Route::post(ASHBY_GQL, GQL_PATH).query("op=ApiJobBoardWithTeams").reply(reply)
}

fn ashby_detail(id: &str) -> Route {
    Route::post(ASHBY_GQL, GQL_PATH)
        .query("op=ApiJobPosting")
        .body_field("/variables/jobPostingId", json!(id))
        .reply(Reply::file(fixture("ashbygraphql", &format!("reedsy.{}.json", &id[..8]))).unwrap())
}

fn ashby_routes() -> Vec<Route> {
    let mut routes =
        vec![ashby_list(Reply::file(fixture("ashbygraphql", "reedsy.listing.json")).unwrap())];
    routes.extend(REEDSY_IDS.iter().map(|id| ashby_detail(id)));
    routes
}

#[tokio::test]
async fn ashbygraphql_lists_and_reads_each_posting() {
    let (server, reg) = setup(ashby_routes()).await;
    let listing = fetch(&reg, &target("ashbygraphql", "reedsy", "")).await.unwrap();
    assert!(listing.unreadable.is_empty(), "{:?}", listing.unreadable);
    let ids: Vec<&str> = listing.postings.iter().map(|p| p.native_id.as_str()).collect();
    assert_eq!(ids, REEDSY_IDS);
    let a = &listing.postings[0];
    assert_eq!(a.title, "Customer Happiness Manager - Remote South East Asia");
    assert_eq!(a.url, format!("https://jobs.ashbyhq.com/reedsy/{}", REEDSY_IDS[0]));
    assert_eq!(a.location, "Philippines; India; Thailand; Vietnam; Remote");
    assert_eq!(a.work_mode, Some(WorkMode::Remote));
    assert_eq!(a.remote, Some(true));
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(a.departments, ["Operations", "Customer Support"]);
    assert!(a.description_html.contains("South East Asia-based candidates only"));
    assert_eq!(a.salary, None, "the tier summary is free text");
    assert!(a.countries.is_empty(), "no structured country on this endpoint");
    let c = &listing.postings[2];
    assert_eq!(c.title, "Learning Course Instructor (part-time) - Remote");
    assert_eq!(c.employment_type, Some(EmploymentType::PartTime));
    assert_eq!(c.location, "United States; Canada; Remote");
    assert_eq!(c.departments, ["Marketing", "Learning"]);
    // Every request is a POST of the named operation with the board in its variables.
    let reqs = server.requests();
    assert_eq!(reqs.len(), 4);
    let list: serde_json::Value = serde_json::from_str(&reqs[0].body).unwrap();
    assert_eq!(list["operationName"], "ApiJobBoardWithTeams");
    assert_eq!(list["variables"]["organizationHostedJobsPageName"], "reedsy");
    assert!(list["query"].as_str().unwrap().contains("jobBoardWithTeams"));
}

#[tokio::test]
async fn ashbygraphql_hydrates_only_unseen_postings() {
    let (server, reg) = setup(ashby_routes()).await;
    let t = target("ashbygraphql", "reedsy", "");
    let listing = fetch_new(&reg, &t, &[REEDSY_IDS[0], REEDSY_IDS[2]]).await.unwrap();
    assert_eq!(listing.seen_refresh, [REEDSY_IDS[0], REEDSY_IDS[2]]);
    assert_eq!(listing.postings.len(), 1);
    assert_eq!(listing.postings[0].native_id, REEDSY_IDS[1]);
    assert_eq!(server.requests().len(), 2, "the listing and one detail");
}

#[tokio::test]
async fn ashbygraphql_failures() {
    // A failed detail keeps the posting listed as unreadable.
    let mut routes = vec![
        ashby_list(Reply::file(fixture("ashbygraphql", "reedsy.listing.json")).unwrap()),
        Route::post(ASHBY_GQL, GQL_PATH)
            .query("op=ApiJobPosting")
            .body_field("/variables/jobPostingId", json!(REEDSY_IDS[1]))
            .reply(Reply::status(500)),
    ];
    routes.extend([REEDSY_IDS[0], REEDSY_IDS[2]].iter().map(|id| ashby_detail(id)));
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("ashbygraphql", "reedsy", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    assert_eq!(listing.unreadable.len(), 1);
    assert_eq!(listing.unreadable[0].native_id, REEDSY_IDS[1]);

    // A failed listing fails the board; an unknown board (`jobBoard: null`) is gone; a GraphQL
    // error answer is a parse failure, never an empty board.
    let (_s, reg) = setup(vec![ashby_list(Reply::status(500))]).await;
    let err = fetch(&reg, &target("ashbygraphql", "reedsy", "")).await.unwrap_err();
    assert_eq!(err.status(), Some(500), "{err}");
    let (_s, reg) = setup(vec![ashby_list(Reply::json(r#"{"data":{"jobBoard":null}}"#))]).await;
    let err = fetch(&reg, &target("ashbygraphql", "nope", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
    let body = r#"{"errors":[{"message":"Cannot query field"}],"data":null}"#;
    let (_s, reg) = setup(vec![ashby_list(Reply::json(body))]).await;
    let err = fetch(&reg, &target("ashbygraphql", "reedsy", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Decode { .. }), "{err}");
    assert!(freehire_ingest::error_chain(&err).contains("Cannot query field"));
    // An empty board is an empty listing.
    let empty = r#"{"data":{"jobBoard":{"teams":[],"jobPostings":[]}}}"#;
    let (_s, reg) = setup(vec![ashby_list(Reply::json(empty))]).await;
    assert!(fetch(&reg, &target("ashbygraphql", "x", "")).await.unwrap().postings.is_empty());
}

#[test]
fn ashbygraphql_recognises_nothing_of_its_own() {
    // The Ashby careers URL belongs to the posting-API adapter; a board moves to the GraphQL
    // variant by hand.
    assert_eq!(
        provider_of("https://jobs.ashbyhq.com/reedsy"),
        Some(("ashby".to_owned(), "reedsy".to_owned()))
    );
    assert_eq!(provider_of("https://jobs.ashbyhq.com/api/non-user-graphql"), None);
    assert!(
        freehire_ingest::validate_board(
            &BoardKey::new(Provider::parse("ashbygraphql").unwrap(), "reedsy", "").unwrap()
        )
        .is_ok()
    );
    assert!(
        freehire_ingest::validate_board(
            &BoardKey::new(Provider::parse("ashbygraphql").unwrap(), "a/b", "").unwrap()
        )
        .is_err()
    );
    assert_eq!(identity("ashbygraphql", "Reedsy"), identity("ashbygraphql", "reedsy"));
}

// ---------------------------------------------------------------------------------------------
// gem

const GEM: &str = "https://jobs.gem.com";
const GEM_PATH: &str = "/api/public/graphql";
const GEM_IDS: [&str; 3] = ["am9icG9zdDqTzm101", "am9icG9zdDqTzm102", "am9icG9zdDqTzm103"];

fn gem_list(reply: Reply) -> Route {
    Route::post(GEM, GEM_PATH).body_field("/operationName", json!("JobBoardList")).reply(reply)
}

fn gem_detail(id: &str, reply: Reply) -> Route {
    Route::post(GEM, GEM_PATH)
        .body_field("/operationName", json!("ExternalJobPostingQuery"))
        .body_field("/variables/extId", json!(id))
        .reply(reply)
}

fn gem_routes() -> Vec<Route> {
    let mut routes = vec![gem_list(Reply::file(fixture("gem", "acme.listing.json")).unwrap())];
    for id in GEM_IDS {
        let file = fixture("gem", &format!("acme.detail.{}.json", &id[id.len() - 3..]));
        routes.push(gem_detail(id, Reply::file(file).unwrap()));
    }
    routes
}

#[tokio::test]
async fn gem_lists_and_reads_each_posting() {
    let (server, reg) = setup(gem_routes()).await;
    let listing = fetch(&reg, &target("gem", "acme", "")).await.unwrap();
    assert!(listing.unreadable.is_empty(), "{:?}", listing.unreadable);
    let ids: Vec<&str> = listing.postings.iter().map(|p| p.native_id.as_str()).collect();
    assert_eq!(ids, GEM_IDS);
    let a = &listing.postings[0];
    assert_eq!(a.title, "Senior Backend Engineer");
    assert_eq!(a.url, "https://jobs.gem.com/acme/am9icG9zdDqTzm101");
    assert_eq!(a.location, "San Francisco, CA; New York, NY");
    assert_eq!(crate::support::codes(&a.countries), ["us"], "alpha-3 USA");
    assert_eq!(a.work_mode, Some(WorkMode::Hybrid));
    assert_eq!(a.remote, None);
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(a.departments, ["Engineering"]);
    assert_eq!(a.description_html, "<p>Build the <strong>core</strong> services.</p>");
    assert_eq!(a.posted_at, Some(freehire_ingest::RawDate::UnixMillis(1_764_547_200_000)));
    let b = &listing.postings[1];
    assert_eq!(b.location, "Remote - Colombia");
    assert_eq!(crate::support::codes(&b.countries), ["co"]);
    assert_eq!((b.remote, b.work_mode), (Some(true), Some(WorkMode::Remote)));
    assert_eq!(b.employment_type, Some(EmploymentType::Contract));
    let c = &listing.postings[2];
    assert_eq!(c.work_mode, Some(WorkMode::Onsite), "IN_OFFICE");
    assert_eq!(c.employment_type, Some(EmploymentType::PartTime));
    assert_eq!(crate::support::codes(&c.countries), ["gb"]);
    assert_eq!(c.departments, ["People"]);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 4);
    let list: serde_json::Value = serde_json::from_str(&reqs[0].body).unwrap();
    assert_eq!(list["variables"], json!({"boardId": "acme"}));
    assert!(list["query"].as_str().unwrap().contains("jobBoardExternal(vanityUrlPath: $boardId)"));

    // Hydrating: seen ids are refreshed without their detail.
    let before = server.requests().len();
    let again = fetch_new(&reg, &target("gem", "acme", ""), &GEM_IDS[..2]).await.unwrap();
    assert_eq!(again.seen_refresh, &GEM_IDS[..2]);
    assert_eq!(again.postings.len(), 1);
    assert_eq!(server.requests().len() - before, 2);
}

#[tokio::test]
async fn gem_failures() {
    // A detail failing keeps the posting as unreadable; the others are read.
    let mut routes = vec![
        gem_list(Reply::file(fixture("gem", "acme.listing.json")).unwrap()),
        gem_detail(GEM_IDS[0], Reply::status(503)),
    ];
    routes.extend(gem_routes().into_iter().skip(2));
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("gem", "acme", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    assert_eq!(listing.unreadable[0].native_id, GEM_IDS[0]);

    // The listing failing fails the board.
    let (_s, reg) = setup(vec![gem_list(Reply::status(500))]).await;
    let err = fetch(&reg, &target("gem", "acme", "")).await.unwrap_err();
    assert_eq!(err.status(), Some(500), "{err}");
    // An unknown board lists nothing but has no `jobBoardExternal`: gone, not empty.
    let unknown =
        r#"{"data":{"oatsExternalJobPostings":{"jobPostings":[]},"jobBoardExternal":null}}"#;
    let (_s, reg) = setup(vec![gem_list(Reply::json(unknown))]).await;
    let err = fetch(&reg, &target("gem", "nope", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
    // A real board with nothing open is an empty listing.
    let empty =
        r#"{"data":{"oatsExternalJobPostings":{"jobPostings":[]},"jobBoardExternal":{"id":"1"}}}"#;
    let (_s, reg) = setup(vec![gem_list(Reply::json(empty))]).await;
    assert!(fetch(&reg, &target("gem", "acme", "")).await.unwrap().postings.is_empty());
    // A GraphQL error is a failure, not an empty board.
    let (_s, reg) =
        setup(vec![gem_list(Reply::json(r#"{"errors":[{"message":"bad"}],"data":null}"#))]).await;
    assert!(matches!(
        fetch(&reg, &target("gem", "acme", "")).await.unwrap_err(),
        IngestError::Decode { .. }
    ));
}

#[test]
fn gem_recognition() {
    let gem = |b: &str| Some(("gem".to_owned(), b.to_owned()));
    assert_eq!(provider_of("https://jobs.gem.com/acme"), gem("acme"));
    assert_eq!(provider_of("jobs.gem.com/acme/am9icG9zdDqTzm101"), gem("acme"));
    assert_eq!(
        recognize("https://jobs.gem.com/acme/x").unwrap().canonical_url,
        "https://jobs.gem.com/acme"
    );
    assert_eq!(provider_of("https://jobs.gem.com/api/public/graphql"), None);
    assert_eq!(provider_of("https://jobs.gem.com/"), None);
    assert_eq!(provider_of("https://www.gem.com/careers"), None);
    assert_eq!(identity("gem", "Acme"), identity("gem", "acme"));
}
