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

// ---------------------------------------------------------------------------------------------
// paycom

const PAYCOM_KEY: &str = "23D9610C7FF62DF6DF80223B0B1ED6E3";
const PAYCOM_PORTAL: &str = "https://www.paycomonline.net";
const MANTLE: &str = "https://portal-applicant-tracking.us-cent.paycomonline.net";
const SEARCH_PATH: &str = "/api/ats/job-posting-previews/search";

fn paycom_portal(reply: Reply) -> Route {
    Route::get(PAYCOM_PORTAL, &format!("/v4/ats/web.php/portal/{PAYCOM_KEY}/jobs/1")).reply(reply)
}

fn paycom_search(skip: usize, reply: Reply) -> Route {
    Route::post(MANTLE, SEARCH_PATH).body_field("/skip", json!(skip)).reply(reply)
}

fn paycom_detail(id: u64) -> Route {
    Route::get(MANTLE, &format!("/api/ats/job-postings/{id}"))
        .reply(Reply::file(fixture("paycom", &format!("fvcc.detail.{id}.json"))).unwrap())
}

/// The recorded answer's ids, in order.
fn fvcc_ids() -> Vec<String> {
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("paycom", "fvcc.search.json")).unwrap())
            .unwrap();
    doc["jobPostingPreviews"].as_array().unwrap().iter().map(|p| p["jobId"].to_string()).collect()
}

#[tokio::test]
async fn paycom_recorded_search_with_detail() {
    let routes = vec![
        paycom_portal(Reply::file(fixture("paycom", "fvcc.portal.html")).unwrap()),
        paycom_search(0, Reply::file(fixture("paycom", "fvcc.search.json")).unwrap()),
        paycom_detail(75716),
        paycom_detail(74763),
        paycom_detail(71661),
    ];
    let (server, reg) = setup(routes).await;
    // Every recorded posting but the first three is already stored: only those get a detail.
    let ids = fvcc_ids();
    assert_eq!(ids.len(), 29);
    let seen: Vec<&str> = ids[3..].iter().map(String::as_str).collect();
    let t = target("paycom", PAYCOM_KEY, "");
    let listing = fetch_new(&reg, &t, &seen).await.unwrap();
    assert!(listing.unreadable.is_empty(), "{:?}", listing.unreadable);
    assert_eq!(listing.seen_refresh.len(), 26);
    assert_eq!(listing.seen_refresh[0], "67909");
    let got: Vec<&str> = listing.postings.iter().map(|p| p.native_id.as_str()).collect();
    assert_eq!(got, ["75716", "74763", "71661"]);

    let a = &listing.postings[0];
    assert_eq!(a.title, "Adjunct Instructor, Music");
    assert_eq!(
        a.url,
        format!("https://www.paycomonline.net/v4/ats/web.php/portal/{PAYCOM_KEY}/jobs/75716")
    );
    assert_eq!(a.location, "KALISPELL, MT 59901");
    assert_eq!(a.employment_type, Some(EmploymentType::PartTime));
    assert_eq!(a.work_mode, None, "remoteType is empty");
    assert_eq!(crate::support::codes(&a.countries), ["us"]);
    assert_eq!(a.posted_at, Some(freehire_ingest::RawDate::Text("2026-07-20".into())));
    assert_eq!(a.description_html, "<p>DEPARTMENT: Academic Affairs, Music</p>", "one section");
    assert_eq!(a.departments, ["Academic Affairs"]);
    assert_eq!(a.salary, None);

    let b = &listing.postings[1];
    assert_eq!(b.title, "Temp, Barista, Common Grounds");
    assert_eq!(b.location, "KALISPELL, MT 59901; Libby, MT 59923");
    let s = b.salary.as_ref().unwrap();
    assert_eq!(
        (s.min, s.max, s.currency.as_str(), s.period),
        (Some(16), Some(18), "USD", freehire_domain::SalaryPeriod::Hour)
    );
    assert_eq!(
        b.description_html,
        "<h3>Description</h3><p>PAY RANGE: $16.00 - $18.00 per hour</p>\
         <h3>Qualifications</h3><ul><li>Food handler card.</li></ul>"
    );

    let c = &listing.postings[2];
    assert_eq!((c.work_mode, c.remote), (Some(WorkMode::Remote), Some(true)));
    assert_eq!(c.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(c.posted_at, None, "undecodable googleJobJson, and postedOn is empty");
    assert!(c.countries.is_empty());

    // The portal page, one search page (29 < 50) and three details; the page's session JWT
    // goes to the Mantle API only.
    let reqs = server.requests();
    assert_eq!(reqs.len(), 5);
    let jwt = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJjbGllbnRjb2RlIjoiQ09OU1RSVUNURUQifQ.constructed-placeholder-signature";
    assert_eq!(reqs[0].authorization, None);
    assert!(reqs[1..].iter().all(|r| r.authorization.as_deref() == Some(jwt)), "{reqs:?}");
    let body: serde_json::Value = serde_json::from_str(&reqs[1].body).unwrap();
    assert_eq!((body["skip"].as_u64(), body["take"].as_u64()), (Some(0), Some(50)));
    assert_eq!(body["filtersForQuery"]["keywordSearchText"], "");
}

/// A board of `total` postings served `count` at a time from `skip`, derived from the recorded
/// answer's first posting (ids changed).
fn paycom_page(skip: usize, count: usize, total: usize) -> Reply {
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("paycom", "fvcc.search.json")).unwrap())
            .unwrap();
    let item = doc["jobPostingPreviews"][0].clone();
    let rows: Vec<_> = (skip..skip + count)
        .map(|i| {
            let mut it = item.clone();
            it["jobId"] = json!(1000 + i);
            it
        })
        .collect();
    Reply::json(json!({"jobPostingPreviews": rows, "jobPostingPreviewsCount": total}).to_string())
}

#[tokio::test]
async fn paycom_pages_until_the_count_and_fails_closed() {
    let portal = || paycom_portal(Reply::file(fixture("paycom", "fvcc.portal.html")).unwrap());
    let all: Vec<String> = (0..60).map(|i| (1000 + i).to_string()).collect();
    let seen: Vec<&str> = all.iter().map(String::as_str).collect();
    let t = target("paycom", PAYCOM_KEY, "");

    // 60 postings: 50 then 10.
    let routes = vec![
        portal(),
        paycom_search(0, paycom_page(0, 50, 60)),
        paycom_search(50, paycom_page(50, 10, 60)),
    ];
    let (server, reg) = setup(routes).await;
    let listing = fetch_new(&reg, &t, &seen).await.unwrap();
    assert_eq!(listing.seen_refresh.len(), 60);
    assert_eq!(server.requests().len(), 3, "the portal and two pages");

    // The second page failing fails the board.
    let routes = vec![
        portal(),
        paycom_search(0, paycom_page(0, 50, 60)),
        paycom_search(50, Reply::status(500)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch_new(&reg, &t, &seen).await.unwrap_err();
    assert_eq!(err.status(), Some(500), "{err}");

    // A second page that ends the walk short of the count fails it too.
    let routes = vec![
        portal(),
        paycom_search(0, paycom_page(0, 50, 60)),
        paycom_search(50, paycom_page(50, 4, 60)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch_new(&reg, &t, &seen).await.unwrap_err();
    assert!(matches!(err, IngestError::Incomplete { .. }), "{err}");

    // A page repeating the first adds nothing: incomplete, not a loop.
    let routes = vec![
        portal(),
        paycom_search(0, paycom_page(0, 50, 60)),
        paycom_search(50, paycom_page(0, 50, 60)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch_new(&reg, &t, &seen).await.unwrap_err();
    assert!(matches!(err, IngestError::Incomplete { .. }), "{err}");
}

#[tokio::test]
async fn paycom_board_gone_and_broken_portal() {
    let t = target("paycom", PAYCOM_KEY, "");
    let gone = "<html><body><h1>Job board does not exist.</h1></body></html>";
    let (_s, reg) = setup(vec![paycom_portal(Reply::html(gone))]).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
    let (_s, reg) = setup(vec![paycom_portal(Reply::status(404))]).await;
    assert!(matches!(fetch(&reg, &t).await.unwrap_err(), IngestError::BoardGone { .. }));
    // A page without a session, or one pointing the API elsewhere, fails the board.
    let (_s, reg) = setup(vec![paycom_portal(Reply::html("<html>maintenance</html>"))]).await;
    assert!(matches!(fetch(&reg, &t).await.unwrap_err(), IngestError::Decode { .. }));
    let evil = std::fs::read_to_string(fixture("paycom", "fvcc.portal.html"))
        .unwrap()
        .replace("portal-applicant-tracking.us-cent.paycomonline.net", "evil.example");
    let (server, reg) = setup(vec![paycom_portal(Reply::html(evil))]).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(freehire_ingest::error_chain(&err).contains("untrusted"), "{err}");
    assert_eq!(server.requests().len(), 1, "nothing sent to the untrusted host");
}

#[test]
fn paycom_recognition_and_identity() {
    let paycom = Some(("paycom".to_owned(), PAYCOM_KEY.to_owned()));
    let lower = PAYCOM_KEY.to_ascii_lowercase();
    for url in [
        format!("https://www.paycomonline.net/v4/ats/web.php/portal/{PAYCOM_KEY}/career-page"),
        format!("https://www.paycomonline.net/v4/ats/web.php/portal/{lower}/jobs/74763?jpt=x"),
        format!("paycomonline.net/v4/ats/web.php/jobs?clientkey={PAYCOM_KEY}"),
        format!(
            "https://www.paycomonline.net/v4/ats/web.php/jobs/ViewJobDetails?job=74763&clientkey={lower}"
        ),
    ] {
        assert_eq!(provider_of(&url), paycom, "{url}");
    }
    assert_eq!(
        recognize(&format!("https://www.paycomonline.net/v4/ats/web.php/portal/{lower}/jobs/1"))
            .unwrap()
            .canonical_url,
        format!("https://www.paycomonline.net/v4/ats/web.php/portal/{PAYCOM_KEY}/career-page")
    );
    for url in [
        "https://www.paycomonline.net/v4/ats/web.php/portal/NOTAKEY/career-page",
        "https://www.paycomonline.net/v4/ats/web.php/jobs",
        "https://www.paycomonline.net/v4/ee/web.php/app/login",
        "https://evil.example/v4/ats/web.php/portal/23D9610C7FF62DF6DF80223B0B1ED6E3/career-page",
    ] {
        assert_eq!(provider_of(url), None, "{url}");
    }
    let key = |b: &str| BoardKey::new(Provider::parse("paycom").unwrap(), b, "").unwrap();
    assert!(freehire_ingest::validate_board(&key(PAYCOM_KEY)).is_ok());
    assert!(freehire_ingest::validate_board(&key("acme")).is_err());
    assert!(freehire_ingest::validate_board(&key(&format!("{PAYCOM_KEY}0"))).is_err());
    assert_eq!(identity("paycom", &lower), identity("paycom", PAYCOM_KEY));
}

// ---------------------------------------------------------------------------------------------
// zohorecruit

const ZOHO: &str = "https://acme.zohorecruit.com";

/// The career page (`None`: the bare URL, which matches any query, so list it after the
/// numbered pages) or its `?page=N`.
fn zoho_page(page: Option<&str>, reply: Reply) -> Route {
    let route = Route::get(ZOHO, "/jobs/Careers");
    match page {
        Some(p) => route.query(&format!("page={p}")),
        None => route,
    }
    .reply(reply)
}

/// A career page listing `ids`, each a copy of the fixture's first posting.
fn zoho_listing(ids: std::ops::Range<usize>) -> Reply {
    let jobs: Vec<_> = ids
        .map(|i| {
            json!({"id": format!("7643730000{i:08}"), "Posting_Title": format!("Engineer {i}"),
                   "City": "Tel Aviv", "Country": "Israel", "Remote_Job": false})
        })
        .collect();
    let value = html_escape::encode_double_quoted_attribute(&serde_json::to_string(&jobs).unwrap())
        .into_owned();
    Reply::html(format!(
        "<html><body><input type=\"hidden\" id=\"jobs\" value=\"{value}\"></body></html>"
    ))
}

#[tokio::test]
async fn zohorecruit_career_page() {
    let page = Reply::file(fixture("zohorecruit", "acme.careers.html")).unwrap();
    let (server, reg) = setup(vec![zoho_page(None, page)]).await;
    let listing = fetch(&reg, &target("zohorecruit", "acme.zohorecruit.com", "")).await.unwrap();
    let ids: Vec<&str> = listing.postings.iter().map(|p| p.native_id.as_str()).collect();
    assert_eq!(ids, ["764373000014002092", "764373000013998001", "764373000013990477"]);
    let a = &listing.postings[0];
    assert_eq!(a.title, "Senior Backend Engineer (Data)");
    assert_eq!(a.url, "https://acme.zohorecruit.com/jobs/Careers/764373000014002092");
    assert_eq!(a.location, "Tel Aviv, Israel");
    assert_eq!(crate::support::codes(&a.countries), ["il"]);
    assert_eq!((a.remote, a.work_mode), (Some(false), None));
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(a.posted_at, Some(freehire_ingest::RawDate::Text("2026-09-12".into())));
    assert_eq!(
        a.description_html,
        "<p>Build the <b>data</b> platform.</p><ul><li>Python</li></ul>"
    );
    assert_eq!(a.salary, None);
    let b = &listing.postings[1];
    assert_eq!(b.location, "United Kingdom");
    assert_eq!((b.remote, b.work_mode), (Some(true), Some(WorkMode::Remote)));
    assert_eq!(b.employment_type, Some(EmploymentType::Contract));
    assert_eq!(b.description_html, "<p>Look after accounts &amp; renewals.</p>");
    assert_eq!(b.salary, None, "the salary is free text");
    let c = &listing.postings[2];
    assert_eq!(c.title, "QA Intern", "Job_Opening_Name when Posting_Title is empty");
    assert_eq!(c.location, "Austin, Texas, United States");
    assert_eq!(c.remote, Some(false), "\"false\" as text");
    assert_eq!(c.employment_type, Some(EmploymentType::Internship));
    assert_eq!((c.posted_at.as_ref(), c.description_html.as_str()), (None, ""));
    assert_eq!(server.requests().len(), 1, "fewer than 50: one page");
}

#[tokio::test]
async fn zohorecruit_full_pages_and_failing_closed() {
    let t = target("zohorecruit", "acme.zohorecruit.com", "");
    // A full page, then a second adding postings: both read.
    let routes =
        vec![zoho_page(Some("2"), zoho_listing(50..57)), zoho_page(None, zoho_listing(0..50))];
    let (server, reg) = setup(routes).await;
    assert_eq!(fetch(&reg, &t).await.unwrap().postings.len(), 57);
    assert_eq!(server.requests().len(), 2);
    // A full page whose next page repeats it: exactly 50, or capped. Read, but partial.
    let routes =
        vec![zoho_page(Some("2"), zoho_listing(0..50)), zoho_page(None, zoho_listing(0..50))];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 50);
    assert!(listing.partial.unwrap().contains("may be capped"));
    // The next page failing fails the board.
    let routes =
        vec![zoho_page(Some("2"), Reply::status(500)), zoho_page(None, zoho_listing(0..50))];
    let (_s, reg) = setup(routes).await;
    assert_eq!(fetch(&reg, &t).await.unwrap_err().status(), Some(500));
    // More than 50 on one page is the whole listing.
    let (_s, reg) = setup(vec![zoho_page(None, zoho_listing(0..80))]).await;
    assert_eq!(fetch(&reg, &t).await.unwrap().postings.len(), 80);
}

#[tokio::test]
async fn zohorecruit_gone_broken_and_empty() {
    let t = target("zohorecruit", "acme.zohorecruit.com", "");
    let (_s, reg) = setup(vec![zoho_page(None, Reply::status(404))]).await;
    assert!(matches!(fetch(&reg, &t).await.unwrap_err(), IngestError::BoardGone { .. }));
    let (_s, reg) =
        setup(vec![zoho_page(None, Reply::html("<html>Site under maintenance</html>"))]).await;
    assert!(matches!(fetch(&reg, &t).await.unwrap_err(), IngestError::Decode { .. }));
    let empty = "<html><input type=\"hidden\" id=\"jobs\" value=\"[]\"></html>";
    let (_s, reg) = setup(vec![zoho_page(None, Reply::html(empty))]).await;
    assert!(fetch(&reg, &t).await.unwrap().postings.is_empty());
}

#[test]
fn zohorecruit_recognition_and_identity() {
    let zoho = |b: &str| Some(("zohorecruit".to_owned(), b.to_owned()));
    assert_eq!(
        provider_of("https://acme.zohorecruit.com/jobs/Careers"),
        zoho("acme.zohorecruit.com")
    );
    assert_eq!(
        provider_of(
            "https://Acme.zohorecruit.eu/jobs/Careers/764373000014002092/Engineer?source=CareerSite"
        ),
        zoho("acme.zohorecruit.eu")
    );
    assert_eq!(provider_of("acme.zohorecruit.in"), zoho("acme.zohorecruit.in"));
    assert_eq!(
        recognize("https://acme.zohorecruit.com/jobs/Careers/1").unwrap().canonical_url,
        "https://acme.zohorecruit.com/jobs/Careers"
    );
    for url in [
        "https://www.zohorecruit.com/",
        "https://zohorecruit.com/jobs/Careers",
        "https://recruit.zoho.com/recruit/Portal.na",
        "https://a.b.zohorecruit.com/jobs/Careers",
        "https://acme.zohorecruit.com.evil.example/jobs/Careers",
    ] {
        assert_eq!(provider_of(url), None, "{url}");
    }
    let key = |b: &str| BoardKey::new(Provider::parse("zohorecruit").unwrap(), b, "").unwrap();
    assert!(freehire_ingest::validate_board(&key("acme.zohorecruit.com")).is_ok());
    assert!(freehire_ingest::validate_board(&key("acme")).is_err());
    assert!(freehire_ingest::validate_board(&key("evil.example")).is_err());
    assert_eq!(
        identity("zohorecruit", "ACME.zohorecruit.com"),
        identity("zohorecruit", "acme.zohorecruit.com")
    );
}

#[tokio::test]
async fn paycom_session_token_never_follows_a_redirect_off_the_api_host() {
    let routes = vec![
        paycom_portal(Reply::file(fixture("paycom", "fvcc.portal.html")).unwrap()),
        paycom_search(0, Reply::file(fixture("paycom", "fvcc.search.json")).unwrap()),
        Route::get(MANTLE, "/api/ats/job-postings/75716")
            .reply(Reply::redirect(302, "https://elsewhere.example/detail/75716")),
        Route::get("https://elsewhere.example", "/detail/75716")
            .reply(Reply::file(fixture("paycom", "fvcc.detail.75716.json")).unwrap()),
    ];
    let (server, reg) = setup(routes).await;
    let ids = fvcc_ids();
    let seen: Vec<&str> = ids[1..].iter().map(String::as_str).collect();
    let listing = fetch_new(&reg, &target("paycom", PAYCOM_KEY, ""), &seen).await.unwrap();
    assert_eq!(listing.postings.len(), 1);
    let reqs = server.requests();
    let hop = reqs.iter().find(|r| r.upstream == "https://elsewhere.example").unwrap();
    assert_eq!(hop.authorization, None, "the JWT stays on the API host");
    let first = reqs.iter().find(|r| r.path == "/api/ats/job-postings/75716").unwrap();
    assert!(first.authorization.is_some());
}
