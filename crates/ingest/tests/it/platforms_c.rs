//! UKG Pro, UKG Ready, Dayforce, SuccessFactors and Taleo against the test fixtures in
//! `tests/fixtures/<key>/` (see each directory's `ATTRIBUTION.md`: constructed from the
//! platforms' documented shapes where no recorded real response under a compatible licence
//! was found), served by the replay server.

use freehire_domain::EmploymentType;
use freehire_ingest::replay::{Reply, Route};
use freehire_ingest::{IngestError, RawDate, recognize};
use serde_json::json;

use crate::support::{codes, fetch, fetch_new, setup, target};

fn fixture(key: &str, name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(key).join(name)
}

fn recognized(url: &str) -> Option<(String, String, String)> {
    recognize(url).ok().map(|r| (r.provider.to_string(), r.board, r.canonical_url))
}

fn identity(provider: &str, board: &str) -> (String, String, String) {
    freehire_ingest::board_identity(
        &freehire_domain::BoardKey::new(
            freehire_domain::Provider::parse(provider).unwrap(),
            board,
            "",
        )
        .unwrap(),
    )
}

// ---------------------------------------------------------------------------------------
// UKG Pro

const UKG_HOST: &str = "https://recruiting2.ultipro.com";
const UKG_BOARD: &str = "recruiting2.ultipro.com/ACM1001ACME/0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d";
const UKG_PREFIX: &str = "/ACM1001ACME/JobBoard/0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d";

fn ukg_list(skip: usize) -> Route {
    Route::post(UKG_HOST, &format!("{UKG_PREFIX}/JobBoardView/LoadSearchResults"))
        .body_field("/opportunitySearch/Skip", json!(skip))
        .body_field("/opportunitySearch/Top", json!(50))
}

fn ukg_detail(id: &str) -> Route {
    Route::get(UKG_HOST, &format!("{UKG_PREFIX}/OpportunityDetail"))
        .query(&format!("opportunityId={id}"))
}

#[tokio::test]
async fn ukg_pages_and_reads_the_embedded_detail() {
    let detail = |title: &str| {
        Reply::html(format!(
            "<html><script>var o = new US.Opportunity.CandidateOpportunityDetail({{\"Title\":\"{title}\",\"Description\":\"<p>{title} role</p>\",\"FullTime\":false,\"Locations\":[]}});</script></html>"
        ))
    };
    let routes = vec![
        ukg_list(0).reply(Reply::file(fixture("ukg", "listing.json")).unwrap()),
        ukg_list(2).reply(Reply::file(fixture("ukg", "listing_page2.json")).unwrap()),
        ukg_detail("3f2a9c1e-5b7d-4e2a-9c61-0d8e4f2b7a10")
            .reply(Reply::file(fixture("ukg", "detail.html")).unwrap()),
        ukg_detail("8c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f").reply(detail("Payroll Specialist")),
        ukg_detail("c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f").reply(detail("Data Analyst")),
    ];
    let (server, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("ukg", UKG_BOARD, "")).await.unwrap();
    assert_eq!(listing.postings.len(), 3, "{:?}", listing.unreadable);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "3f2a9c1e-5b7d-4e2a-9c61-0d8e4f2b7a10");
    assert_eq!(p.title, "Senior Software Engineer");
    assert_eq!(
        p.url,
        format!(
            "{UKG_HOST}{UKG_PREFIX}/OpportunityDetail?opportunityId=3f2a9c1e-5b7d-4e2a-9c61-0d8e4f2b7a10"
        )
    );
    assert_eq!(p.location, "Weston HQ; Toronto, ON, CAN");
    assert_eq!(codes(&p.countries), ["ca", "us"]);
    assert_eq!(p.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-11-20T15:04:05.123Z".into())));
    assert_eq!(p.departments, ["Engineering"]);
    assert!(
        p.description_html.starts_with("<p>Build the platform. Braces { and } and a \"quote\"")
    );
    assert!(p.description_html.ends_with("<ul><li>Rust</li></ul>"));
    let q = &listing.postings[1];
    assert_eq!(q.title, "Payroll Specialist");
    assert_eq!(q.location, "Remote - US");
    assert_eq!(codes(&q.countries), ["us"]);
    // The detail's FullTime (false) is the posting's.
    assert_eq!(q.employment_type, Some(EmploymentType::PartTime));
    assert_eq!(q.description_html, "<p>Payroll Specialist role</p>");
    // No locations in the detail: the listing's stand.
    assert_eq!(listing.postings[2].location, "Atlanta, GA");
    assert_eq!(listing.postings[2].employment_type, Some(EmploymentType::PartTime));
    let lists: Vec<_> = server.requests().into_iter().filter(|r| r.method == "POST").collect();
    assert_eq!(lists.len(), 2, "two pages until totalCount");
    let body: serde_json::Value = serde_json::from_str(&lists[0].body).unwrap();
    assert_eq!(body["opportunitySearch"]["QueryString"], "");
    assert_eq!(body["opportunitySearch"]["OrderBy"][0]["Value"], "postedDateDesc");
    let filters = body["opportunitySearch"]["Filters"].as_array().unwrap();
    assert_eq!(filters.len(), 3);
    assert!(filters.iter().all(|f| f["values"] == json!([])));
    assert_eq!(body["matchCriteria"]["Skills"], json!([]));

    // Hydrating: seen ids get no detail request.
    let (server, reg) = setup(vec![
        ukg_list(0).reply(Reply::file(fixture("ukg", "listing.json")).unwrap()),
        ukg_list(2).reply(Reply::file(fixture("ukg", "listing_page2.json")).unwrap()),
    ])
    .await;
    let seen = [
        "3f2a9c1e-5b7d-4e2a-9c61-0d8e4f2b7a10",
        "8c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f",
        "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
    ];
    let listing = fetch_new(&reg, &target("ukg", UKG_BOARD, ""), &seen).await.unwrap();
    assert_eq!(listing.seen_refresh.len(), 3);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn ukg_fails_closed_and_404_is_gone() {
    let routes = vec![
        ukg_list(0).reply(Reply::file(fixture("ukg", "listing.json")).unwrap()),
        ukg_list(2).reply(Reply::status(503)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &target("ukg", UKG_BOARD, "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Status { status: 503, .. }), "{err}");

    let (_s, reg) = setup(vec![ukg_list(0).reply(Reply::status(404))]).await;
    let err = fetch(&reg, &target("ukg", UKG_BOARD, "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");

    // An empty page before totalCount is a truncated listing, not the end of the board.
    let routes = vec![
        ukg_list(0).reply(Reply::file(fixture("ukg", "listing.json")).unwrap()),
        ukg_list(2).reply(Reply::json(r#"{"opportunities":[],"totalCount":3}"#)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &target("ukg", UKG_BOARD, "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Incomplete { .. }), "{err}");
    // So is a page without totalCount (the search body not understood answers nothing).
    let (_s, reg) = setup(vec![ukg_list(0).reply(Reply::json(r#"{"opportunities":[]}"#))]).await;
    let err = fetch(&reg, &target("ukg", UKG_BOARD, "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Incomplete { .. }), "{err}");
    // An empty board says so.
    let (_s, reg) =
        setup(vec![ukg_list(0).reply(Reply::json(r#"{"opportunities":[],"totalCount":0}"#))]).await;
    assert!(fetch(&reg, &target("ukg", UKG_BOARD, "")).await.unwrap().postings.is_empty());

    // A detail page without the embedded posting is unreadable, not a board failure.
    let routes = vec![
        ukg_list(0).reply(Reply::json(
            r#"{"opportunities":[{"Id":"3f2a9c1e-5b7d-4e2a-9c61-0d8e4f2b7a10","Title":"X"}],"totalCount":1}"#,
        )),
        ukg_detail("3f2a9c1e-5b7d-4e2a-9c61-0d8e4f2b7a10").reply(Reply::html("<html>shell</html>")),
    ];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("ukg", UKG_BOARD, "")).await.unwrap();
    assert!(listing.postings.is_empty());
    assert_eq!(listing.unreadable.len(), 1);
}

#[test]
fn ukg_recognition() {
    let want = |host: &str| {
        Some((
            "ukg".to_owned(),
            format!("{host}/ACM1001ACME/0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d"),
            format!("https://{host}/ACM1001ACME/JobBoard/0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d/"),
        ))
    };
    assert_eq!(
        recognized(
            "https://recruiting2.ultipro.com/ACM1001ACME/JobBoard/0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d/"
        ),
        want("recruiting2.ultipro.com")
    );
    assert_eq!(
        recognized(
            "https://recruiting.ultipro.ca/ACM1001ACME/JobBoard/0B4BD7F6-1C3E-4F5A-9D1B-2E3F4A5B6C7D/OpportunityDetail?opportunityId=3f2a9c1e-5b7d-4e2a-9c61-0d8e4f2b7a10"
        ),
        want("recruiting.ultipro.ca")
    );
    assert_eq!(
        recognized(
            "acme.rec.pro.ukg.net/ACM1001ACME/JobBoard/0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d/JobBoardView/LoadSearchResults"
        ),
        want("acme.rec.pro.ukg.net")
    );
    for no in [
        "https://recruiting.ultipro.com/ACM1001ACME/",
        "https://recruiting.ultipro.com/ACM1001ACME/JobBoard/not-a-guid/",
        "https://www.ukg.com/ACM1001ACME/JobBoard/0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d/",
    ] {
        assert_eq!(recognized(no), None, "{no}");
    }
    // The GUID's case is not part of the board.
    assert_eq!(
        identity("ukg", "recruiting.ultipro.com/ACM/0B4BD7F6-1C3E-4F5A-9D1B-2E3F4A5B6C7D"),
        identity("ukg", "recruiting.ultipro.com/acm/0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d")
    );
}

// ---------------------------------------------------------------------------------------
// UKG Ready

const READY_HOST: &str = "https://secure6.saashr.com";
const READY_API: &str = "/ta/rest/ui/recruitment/companies/%7C6098626/job-requisitions";

fn ready_page(page: usize) -> Route {
    Route::get(READY_HOST, READY_API).query(&format!("offset={page}&size=200&sort=desc&lang=en-US"))
}

fn ready_detail(id: &str) -> Route {
    Route::get(READY_HOST, &format!("{READY_API}/{id}")).query("lang=en-US")
}

#[tokio::test]
async fn ukgready_pages_hydrates_and_maps() {
    let routes = vec![
        ready_page(1).reply(Reply::file(fixture("ukgready", "listing.json")).unwrap()),
        ready_page(2).reply(Reply::file(fixture("ukgready", "listing_page2.json")).unwrap()),
        ready_detail("587696937").reply(Reply::file(fixture("ukgready", "detail.json")).unwrap()),
        ready_detail("587687244").reply(Reply::status(500)),
        ready_detail("587600001")
            .reply(Reply::json(r#"{"id": 587600001, "job_description": "<p>Cook.</p>"}"#)),
    ];
    let (server, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("ukgready", "secure6.saashr.com/6098626", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "587696937");
    assert_eq!(p.title, "Registered Nurse - Emergency Department");
    assert_eq!(p.url, "https://secure6.saashr.com/ta/6098626.careers?ShowJob=587696937");
    assert_eq!(p.location, "Springfield, IL, USA");
    assert_eq!(codes(&p.countries), ["us"]);
    assert_eq!(p.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(p.remote, Some(false));
    assert_eq!(p.work_mode, None);
    assert_eq!(
        p.description_html,
        "<p>Join our emergency team.</p>\n<p>Provide emergency nursing care to patients of all ages.</p>\n<ul><li>Current RN license</li><li>BLS</li></ul>"
    );
    // Pay is stated without a currency: no salary.
    assert_eq!(p.salary, None);
    let cook = &listing.postings[1];
    assert_eq!(cook.title, "Line Cook");
    assert_eq!(cook.employment_type, Some(EmploymentType::PartTime));
    assert_eq!(cook.description_html, "<p>Cook.</p>");
    // A failed detail is unreadable, not a board failure.
    assert_eq!(listing.unreadable.len(), 1);
    assert_eq!(listing.unreadable[0].native_id, "587687244");
    let lists = server.requests().iter().filter(|r| r.path == READY_API).count();
    assert_eq!(lists, 2);

    // Hydrating: the remote billing job, seen, is only refreshed.
    let routes = vec![
        ready_page(1).reply(Reply::file(fixture("ukgready", "listing.json")).unwrap()),
        ready_page(2).reply(Reply::file(fixture("ukgready", "listing_page2.json")).unwrap()),
    ];
    let (server, reg) = setup(routes).await;
    let seen = ["587696937", "587687244", "587600001"];
    let t = target("ukgready", "secure6.saashr.com/6098626", "");
    let listing = fetch_new(&reg, &t, &seen).await.unwrap();
    assert_eq!(listing.seen_refresh, seen);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn ukgready_fails_closed_and_404_is_gone() {
    let routes = vec![
        ready_page(1).reply(Reply::file(fixture("ukgready", "listing.json")).unwrap()),
        ready_page(2).reply(Reply::json("{\"job_requisitions\": [").truncated()),
    ];
    let (_s, reg) = setup(routes).await;
    let t = target("ukgready", "secure6.saashr.com/6098626", "");
    assert!(fetch(&reg, &t).await.is_err());
    let (_s, reg) = setup(vec![ready_page(1).reply(Reply::status(404))]).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
    // The remote flag maps to the work mode.
    let routes = vec![ready_page(1).reply(Reply::json(
        r#"{"job_requisitions":[{"id":7,"job_title":"Remote Biller","is_remote_job":true}],"_paging":{"total":1}}"#,
    )), ready_detail("7").reply(Reply::json(r#"{"id":7}"#))];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings[0].work_mode, Some(freehire_domain::WorkMode::Remote));
    assert_eq!(listing.postings[0].remote, Some(true));
}

#[test]
fn ukgready_recognition_and_pod_fold() {
    let want = |host: &str, t: &str| {
        Some((
            "ukgready".to_owned(),
            format!("{host}/{t}"),
            format!("https://{host}/ta/{t}.careers?CareersSearch"),
        ))
    };
    assert_eq!(
        recognized("https://secure6.saashr.com/ta/6098626.careers?CareersSearch=&lang=en-US"),
        want("secure6.saashr.com", "6098626")
    );
    assert_eq!(
        recognized(
            "https://prd01-hcm01.prd.mykronos.com/ta/6059921.careers?CareersSearch=&ShowJob=2151532804"
        ),
        want("prd01-hcm01.prd.mykronos.com", "6059921")
    );
    assert_eq!(
        recognized(
            "https://secure3.entertimeonline.com/ta/rest/ui/recruitment/companies/%7C6138037/job-requisitions?offset=1"
        ),
        want("secure3.entertimeonline.com", "6138037")
    );
    assert_eq!(
        recognized("https://secure.workforceready.eu/ta/6189861.careers"),
        want("secure.workforceready.eu", "6189861")
    );
    for no in [
        "https://secure6.saashr.com/ta/",
        "https://secure6.saashr.com/login",
        "https://saashr.com/ta/6098626.careers",
        "https://secure6.saashr.com.evil.com/ta/6098626.careers",
    ] {
        assert_eq!(recognized(no), None, "{no}");
    }
    assert_eq!(
        identity("ukgready", "secure6.saashr.com/6098626"),
        identity("ukgready", "secure7.saashr.com/6098626")
    );
    assert_ne!(
        identity("ukgready", "secure6.saashr.com/6098626"),
        identity("ukgready", "secure6.saashr.com/6098627")
    );
    assert_ne!(
        identity("ukgready", "secure.workforceready.eu/6098626"),
        identity("ukgready", "secure6.saashr.com/6098626")
    );
}

// ---------------------------------------------------------------------------------------
// Dayforce

const DF_HOST: &str = "https://jobs.dayforcehcm.com";

fn df_csrf() -> Route {
    Route::get(DF_HOST, "/api/auth/csrf").reply(
        Reply::json(r#"{"csrfToken":"tok-123"}"#)
            .set_cookie("__Host-next-auth.csrf-token=tok-123%7Chash; Path=/; Secure; HttpOnly")
            .set_cookie("__cf_bm=bm1; Path=/"),
    )
}

fn df_search(start: usize) -> Route {
    Route::post(DF_HOST, "/api/geo/acme/jobposting/search")
        .body_field("/paginationStart", json!(start))
}

#[tokio::test]
async fn dayforce_csrf_session_pages_and_maps() {
    let routes = vec![
        df_csrf(),
        df_search(0).reply(Reply::file(fixture("dayforce", "search_page1.json")).unwrap()),
        df_search(2).reply(Reply::file(fixture("dayforce", "search_page2.json")).unwrap()),
    ];
    let (server, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("dayforce", "acme/CANDIDATEPORTAL", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 3);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "24907");
    assert_eq!(p.title, "Principal Platform Engineer");
    assert_eq!(p.url, "https://jobs.dayforcehcm.com/en-US/acme/CANDIDATEPORTAL/jobs/24907");
    assert_eq!(p.location, "Reston, VA, United States; Winnipeg, MB, CA");
    assert_eq!(codes(&p.countries), ["ca", "us"]);
    assert_eq!(p.remote, Some(false));
    assert_eq!(p.work_mode, None);
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-11-02T14:00:00Z".into())));
    assert_eq!(p.description_html, "<p>Build reliable platforms.</p><ul><li>Kubernetes</li></ul>");
    let q = &listing.postings[1];
    assert_eq!(q.remote, Some(true));
    assert_eq!(q.work_mode, Some(freehire_domain::WorkMode::Remote));
    assert_eq!(listing.postings[2].title, "Warehouse Associate");
    assert!(listing.unreadable.is_empty() && listing.seen_refresh.is_empty());

    let reqs = server.requests();
    assert_eq!(reqs.len(), 3, "csrf, then two pages");
    assert_eq!(reqs[0].path, "/api/auth/csrf");
    for post in &reqs[1..] {
        assert_eq!(post.header("x-csrf-token"), Some("tok-123"));
        assert_eq!(
            post.header("cookie"),
            Some("__Host-next-auth.csrf-token=tok-123%7Chash; __cf_bm=bm1")
        );
        let body: serde_json::Value = serde_json::from_str(&post.body).unwrap();
        assert_eq!(body["clientNamespace"], "acme");
        assert_eq!(body["jobBoardCode"], "CANDIDATEPORTAL");
        assert_eq!(body["cultureCode"], "en-US");
    }

    // A board carrying its culture asks in it.
    let routes =
        vec![df_csrf(), df_search(0).reply(Reply::json(r#"{"jobPostings":[],"maxCount":0}"#))];
    let (server, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("dayforce", "fr-CA/acme/CANDIDATEPORTAL", "")).await.unwrap();
    assert!(listing.postings.is_empty());
    let body: serde_json::Value = serde_json::from_str(&server.requests()[1].body).unwrap();
    assert_eq!(body["cultureCode"], "fr-CA");
}

#[tokio::test]
async fn dayforce_fails_closed_and_404_is_gone() {
    let routes = vec![
        df_csrf(),
        df_search(0).reply(Reply::file(fixture("dayforce", "search_page1.json")).unwrap()),
        df_search(2).reply(Reply::status(403)),
    ];
    let (_s, reg) = setup(routes).await;
    let t = target("dayforce", "acme/CANDIDATEPORTAL", "");
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::Status { status: 403, .. }), "{err}");
    let (_s, reg) = setup(vec![df_csrf(), df_search(0).reply(Reply::status(404))]).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
    // No CSRF token, no listing.
    let (_s, reg) = setup(vec![
        Route::get(DF_HOST, "/api/auth/csrf").reply(Reply::html("<html>blocked</html>")),
    ])
    .await;
    assert!(fetch(&reg, &t).await.is_err());
}

#[test]
fn dayforce_recognition_and_culture_fold() {
    assert_eq!(
        recognized("https://jobs.dayforcehcm.com/en-US/acme/CANDIDATEPORTAL"),
        Some((
            "dayforce".into(),
            "acme/CANDIDATEPORTAL".into(),
            "https://jobs.dayforcehcm.com/en-US/acme/CANDIDATEPORTAL".into()
        ))
    );
    assert_eq!(
        recognized("jobs.dayforcehcm.com/fr-CA/acme/CANDIDATEPORTAL/jobs/24907"),
        Some((
            "dayforce".into(),
            "acme/CANDIDATEPORTAL".into(),
            "https://jobs.dayforcehcm.com/fr-CA/acme/CANDIDATEPORTAL".into()
        ))
    );
    for no in [
        "https://jobs.dayforcehcm.com/api/geo/acme/jobposting/search",
        "https://jobs.dayforcehcm.com/en-US/acme",
        "https://www.dayforcehcm.com/en-US/acme/CANDIDATEPORTAL",
    ] {
        assert_eq!(recognized(no), None, "{no}");
    }
    assert_eq!(
        identity("dayforce", "en-US/acme/CANDIDATEPORTAL"),
        identity("dayforce", "acme/candidateportal")
    );
    assert_eq!(
        identity("dayforce", "fr-CA/acme/CANDIDATEPORTAL"),
        identity("dayforce", "en-US/acme/CANDIDATEPORTAL")
    );
    assert_ne!(identity("dayforce", "acme/CANDIDATEPORTAL"), identity("dayforce", "acme/OTHER"));
}

// ---------------------------------------------------------------------------------------
// SuccessFactors

const SF_HOST: &str = "https://careers.acme-example.com";
const SF_JOB1: &str = "/job/Walldorf-Senior-Cloud-Engineer-69190/1187654301/";
const SF_JOB2: &str = "/job/Austin-Account-Executive-TX-78701/1187654302/";

fn sf_routes() -> Vec<Route> {
    vec![
        Route::get(SF_HOST, SF_JOB1)
            .reply(Reply::file(fixture("successfactors", "job_1187654301.html")).unwrap()),
        Route::get(SF_HOST, SF_JOB2)
            .reply(Reply::file(fixture("successfactors", "job_1187654302.html")).unwrap()),
    ]
}

#[tokio::test]
async fn successfactors_sitemap_and_microdata() {
    let mut routes = vec![
        Route::get(SF_HOST, "/job_sitemap.xml")
            .reply(Reply::file(fixture("successfactors", "job_sitemap.xml")).unwrap()),
    ];
    routes.extend(sf_routes());
    let (server, reg) = setup(routes).await;
    let t = target("successfactors", "careers.acme-example.com", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2, "{:?}", listing.unreadable);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "1187654301");
    assert_eq!(p.url, format!("{SF_HOST}{SF_JOB1}"));
    assert_eq!(p.title, "Senior Cloud Engineer");
    assert_eq!(p.location, "Walldorf, BW, DE");
    assert_eq!(codes(&p.countries), ["de"]);
    assert_eq!(p.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-11-25".into())));
    assert_eq!(
        p.description_html,
        "<p><b>About the role</b></p><p>Run our cloud &amp; keep it up.</p><ul><li><span>Kubernetes</span></li><li>Terraform</li></ul>"
    );
    let q = &listing.postings[1];
    assert_eq!(q.native_id, "1187654302");
    // No itemprop title: og:title.
    assert_eq!(q.title, "Account Executive");
    assert_eq!(q.location, "Austin, TX, US");
    assert_eq!(codes(&q.countries), ["us"]);
    assert_eq!(q.employment_type, None);
    assert_eq!(q.description_html, "<div>Sell the product.</div>");
    // The benefits page and the other host's job are not postings, and are never requested.
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths.len(), 3, "{paths:?}");

    // Hydrating: a seen posting is only refreshed.
    let (server, reg) = setup(vec![
        Route::get(SF_HOST, "/job_sitemap.xml")
            .reply(Reply::file(fixture("successfactors", "job_sitemap.xml")).unwrap()),
    ])
    .await;
    let listing = fetch_new(&reg, &t, &["1187654301", "1187654302"]).await.unwrap();
    assert_eq!(listing.seen_refresh, ["1187654301", "1187654302"]);
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn successfactors_sitemap_index_fails_closed_and_404_is_gone() {
    let index = r#"<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://careers.acme-example.com/job_sitemap1.xml</loc></sitemap>
  <sitemap><loc>https://careers.acme-example.com/job_sitemap2.xml</loc></sitemap>
</sitemapindex>"#;
    let part = |job: &str| {
        Reply::xml(format!(
            r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{SF_HOST}{job}</loc><lastmod>2026-11-01</lastmod></url></urlset>"#
        ))
    };
    let t = target("successfactors", "careers.acme-example.com", "");
    let mut routes = vec![
        Route::get(SF_HOST, "/job_sitemap.xml").reply(Reply::xml(index)),
        Route::get(SF_HOST, "/job_sitemap1.xml").reply(part(SF_JOB1)),
        Route::get(SF_HOST, "/job_sitemap2.xml").reply(part(SF_JOB2)),
    ];
    routes.extend(sf_routes());
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &t).await.unwrap();
    let ids: Vec<&str> = listing.postings.iter().map(|p| p.native_id.as_str()).collect();
    assert_eq!(ids, ["1187654301", "1187654302"]);
    assert_eq!(listing.postings[0].posted_at, Some(RawDate::Text("2026-11-01".into())));

    // One sub-sitemap failing fails the board.
    let routes = vec![
        Route::get(SF_HOST, "/job_sitemap.xml").reply(Reply::xml(index)),
        Route::get(SF_HOST, "/job_sitemap1.xml").reply(part(SF_JOB1)),
        Route::get(SF_HOST, "/job_sitemap2.xml").reply(Reply::status(500)),
    ];
    let (_s, reg) = setup(routes).await;
    assert!(fetch(&reg, &t).await.is_err());

    // Another XML document, or a sitemap without a job page, never reads as an empty board.
    for doc in [
        "<error><code>NoSuchKey</code></error>",
        r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://careers.acme-example.com/content/About/</loc></url></urlset>"#,
    ] {
        let (_s, reg) =
            setup(vec![Route::get(SF_HOST, "/job_sitemap.xml").reply(Reply::xml(doc))]).await;
        assert!(fetch(&reg, &t).await.is_err(), "{doc}");
    }
    // An empty sitemap is an empty board.
    let (_s, reg) = setup(vec![Route::get(SF_HOST, "/job_sitemap.xml").reply(Reply::xml(
        r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>"#,
    ))])
    .await;
    assert!(fetch(&reg, &t).await.unwrap().postings.is_empty());

    let (_s, reg) =
        setup(vec![Route::get(SF_HOST, "/job_sitemap.xml").reply(Reply::status(404))]).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");

    // A job page that is gone drops the posting; one that fails is unreadable.
    let routes = vec![
        Route::get(SF_HOST, "/job_sitemap.xml")
            .reply(Reply::file(fixture("successfactors", "job_sitemap.xml")).unwrap()),
        Route::get(SF_HOST, SF_JOB1).reply(Reply::status(404)),
        Route::get(SF_HOST, SF_JOB2).reply(Reply::status(503)),
    ];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &t).await.unwrap();
    assert!(listing.postings.is_empty());
    assert_eq!(listing.unreadable.len(), 1);
    assert_eq!(listing.unreadable[0].native_id, "1187654302");
}

#[test]
fn successfactors_recognition() {
    assert_eq!(
        recognized("https://acme.jobs2web.com/job/Walldorf-Engineer/1187654301/"),
        Some((
            "successfactors".into(),
            "acme.jobs2web.com".into(),
            "https://acme.jobs2web.com/".into()
        ))
    );
    assert_eq!(
        recognized("https://acme.sapsf.eu/search/?q=engineer"),
        Some(("successfactors".into(), "acme.sapsf.eu".into(), "https://acme.sapsf.eu/".into()))
    );
    for no in [
        "https://career5.successfactors.eu/career?company=ACME",
        "https://performancemanager4.successfactors.com/sf/start",
        "https://www.successfactors.com/",
        "https://jobs2web.com/",
        "https://careers.acme-example.com/job/x/1/",
    ] {
        assert_eq!(recognized(no), None, "{no}");
    }
    // A custom career host is a valid board, added by host.
    assert!(
        freehire_ingest::validate_board(
            &freehire_domain::BoardKey::new(
                freehire_domain::Provider::parse("successfactors").unwrap(),
                "careers.acme-example.com",
                ""
            )
            .unwrap()
        )
        .is_ok()
    );
}

// ---------------------------------------------------------------------------------------
// Taleo

const TALEO_HOST: &str = "https://acme.taleo.net";
const TALEO_SEARCH: &str = "/careersection/rest/jobboard/searchjobs";

fn taleo_section() -> Route {
    Route::get(TALEO_HOST, "/careersection/2/jobsearch.ftl").query("lang=en").reply(
        Reply::file(fixture("taleo", "jobsearch.html"))
            .unwrap()
            .set_cookie("JSESSIONID=abc123; Path=/careersection; Secure"),
    )
}

fn taleo_job(contest: &str) -> Route {
    Route::get(TALEO_HOST, "/careersection/2/jobdetail.ftl")
        .query(&format!("job={contest}&lang=en"))
}

fn taleo_page(page: usize) -> Route {
    Route::post(TALEO_HOST, TALEO_SEARCH)
        .query("lang=en&portal=101430233")
        .body_field("/pageNo", json!(page))
}

#[tokio::test]
async fn taleo_section_session_pages_and_maps() {
    let routes = vec![
        taleo_section(),
        taleo_page(1).reply(Reply::file(fixture("taleo", "searchjobs_page1.json")).unwrap()),
        taleo_page(2).reply(Reply::file(fixture("taleo", "searchjobs_page2.json")).unwrap()),
        taleo_job("2602892")
            .reply(Reply::file(fixture("taleo", "jobdetail_2602892.html")).unwrap()),
        // A page without the description keeps the listing's fields.
        taleo_job("2602950").reply(Reply::html("<html><body>Job</body></html>")),
        taleo_job("2603011").reply(Reply::status(404)),
    ];
    let (server, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("taleo", "acme.taleo.net/2", "")).await.unwrap();
    // The third job's page is gone: the posting is dropped.
    assert_eq!(listing.postings.len(), 2, "{:?}", listing.unreadable);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "264858");
    assert_eq!(p.title, "Junior Sales Representative");
    assert_eq!(p.url, "https://acme.taleo.net/careersection/2/jobdetail.ftl?job=2602892&lang=en");
    assert_eq!(
        p.description_html,
        "<p><b>About the role</b></p><p>Sell homes &amp; help buyers – café included.</p><ul><li>C++ not required</li></ul>"
    );
    assert_eq!(p.location, "United States-Texas-Richmond; United States-Texas-Houston");
    // Places are free text here: no structured country.
    assert!(p.countries.is_empty());
    assert_eq!(p.posted_at, Some(RawDate::Text("Nov 17, 2026".into())));
    assert_eq!(listing.postings[1].title, "Construction Manager");
    assert_eq!(listing.postings[1].description_html, "");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 6, "section page, two pages, three job pages");
    for post in &reqs[1..3] {
        assert_eq!(post.header("cookie"), Some("JSESSIONID=abc123"));
        assert!(post.header("tz").is_some());
        let body: serde_json::Value = serde_json::from_str(&post.body).unwrap();
        assert_eq!(body["fieldData"], json!({"fields": {}, "valid": true}));
    }
}

#[tokio::test]
async fn taleo_fails_closed_and_gone_boards() {
    let t = target("taleo", "acme.taleo.net/2", "");
    let routes = vec![
        taleo_section(),
        taleo_page(1).reply(Reply::file(fixture("taleo", "searchjobs_page1.json")).unwrap()),
        taleo_page(2).reply(Reply::status(500)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::Status { status: 500, .. }), "{err}");

    let routes =
        vec![Route::get(TALEO_HOST, "/careersection/2/jobsearch.ftl").reply(Reply::status(404))];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");

    let routes = vec![
        taleo_section(),
        taleo_page(1).reply(Reply::json(
            r#"{"requisitionList":[],"pagingData":{"totalCount":0},"careerSectionUnAvailable":true}"#,
        )),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");

    // A wrong portal answers `requisitionList: null`: an error, never an empty board.
    let routes = vec![
        taleo_section(),
        taleo_page(1).reply(Reply::json(r#"{"requisitionList":null,"pagingData":null}"#)),
    ];
    let (_s, reg) = setup(routes).await;
    assert!(fetch(&reg, &t).await.is_err());

    // A page adding nothing before totalCount is a truncated listing.
    let routes = vec![
        taleo_section(),
        taleo_page(1).reply(Reply::file(fixture("taleo", "searchjobs_page1.json")).unwrap()),
        taleo_page(2).reply(Reply::json(
            r#"{"requisitionList":[],"pagingData":{"currentPageNo":2,"pageSize":2,"totalCount":3}}"#,
        )),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &t).await.unwrap_err();
    assert!(matches!(err, IngestError::Incomplete { .. }), "{err}");

    // An empty section is an empty board.
    let routes = vec![
        taleo_section(),
        taleo_page(1).reply(Reply::json(
            r#"{"requisitionList":[],"pagingData":{"currentPageNo":1,"pageSize":25,"totalCount":0},"careerSectionUnAvailable":false}"#,
        )),
    ];
    let (_s, reg) = setup(routes).await;
    assert!(fetch(&reg, &t).await.unwrap().postings.is_empty());

    // Hydrating: seen postings get no job page request.
    let routes = vec![
        taleo_section(),
        taleo_page(1).reply(Reply::file(fixture("taleo", "searchjobs_page1.json")).unwrap()),
        taleo_page(2).reply(Reply::file(fixture("taleo", "searchjobs_page2.json")).unwrap()),
    ];
    let (server, reg) = setup(routes).await;
    let listing = fetch_new(&reg, &t, &["264858", "264901", "265010"]).await.unwrap();
    assert_eq!(listing.seen_refresh, ["264858", "264901", "265010"]);
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn taleo_recognition() {
    let want = Some((
        "taleo".to_owned(),
        "acme.taleo.net/2".to_owned(),
        "https://acme.taleo.net/careersection/2/jobsearch.ftl".to_owned(),
    ));
    assert_eq!(recognized("https://acme.taleo.net/careersection/2/jobsearch.ftl?lang=en"), want);
    assert_eq!(
        recognized("https://acme.taleo.net/careersection/2/jobdetail.ftl?job=264858&lang=en"),
        want
    );
    assert_eq!(
        recognized("acme.taleo.net/careersection/ex/moresearch.ftl").map(|r| r.1),
        Some("acme.taleo.net/ex".to_owned())
    );
    for no in [
        "https://acme.taleo.net/careersection/rest/jobboard/searchjobs?portal=1",
        "https://acme.tbe.taleo.net/acme/ats/careers/searchResults.jsp",
        "https://www.taleo.net/careersection/2/jobsearch.ftl",
        "https://acme.taleo.net/",
    ] {
        assert_eq!(recognized(no), None, "{no}");
    }
}
