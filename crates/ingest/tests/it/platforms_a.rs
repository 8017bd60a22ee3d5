//! Oracle Recruiting Cloud, iCIMS, Jobvite, JazzHR and Breezy against recorded responses
//! (careerkit where it has them, else the fixtures under `tests/fixtures/<key>/`), served by
//! the replay server: listing mapping, pagination, failing closed, a gone board, recognition
//! and identity folds.

use freehire_domain::WorkMode;
use freehire_ingest::replay::{Reply, Route};
use freehire_ingest::{IngestError, RawDate, board_identity, recognize};
use serde_json::json;

use crate::support::{careerkit, codes, fetch, fetch_new, read, setup, target};

fn rec(url: &str) -> (String, String, String) {
    let r = recognize(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    r.key().unwrap_or_else(|e| panic!("{url}: {e}"));
    (r.provider.to_string(), r.board, r.canonical_url)
}

fn unrecognised(url: &str) {
    let err = recognize(url).unwrap_err();
    assert!(matches!(err, IngestError::Unrecognised { .. }), "{url}: {err}");
}

// ---------------------------------------------------------------- oracle

const ORC_HOST: &str = "https://ejov.fa.ca2.oraclecloud.com";
const ORC_LIST: &str = "/hcmRestApi/resources/latest/recruitingCEJobRequisitions";
const ORC_DETAIL: &str = "/hcmRestApi/resources/latest/recruitingCEJobRequisitionDetails";

fn orc_list_query(site: &str, offset: usize) -> String {
    format!(
        "onlyData=true&expand=requisitionList.secondaryLocations&finder=findReqs;siteNumber={site},limit=25,offset={offset},sortBy=POSTING_DATES_DESC"
    )
}

fn orc_detail_query(site: &str, id: &str) -> String {
    format!("expand=all&onlyData=true&finder=ById;Id=%22{id}%22,siteNumber={site}")
}

#[tokio::test]
async fn oracle_recorded_listing_and_detail() {
    let routes = vec![
        Route::get(ORC_HOST, ORC_LIST)
            .query(&orc_list_query("CX", 0))
            .reply(Reply::file(careerkit("oracle_orc.json")).unwrap()),
        Route::get(ORC_HOST, ORC_DETAIL)
            .query(&orc_detail_query("CX", "26876"))
            .reply(Reply::file(careerkit("oracle_orc_detail.json")).unwrap()),
        Route::get(ORC_HOST, ORC_DETAIL)
            .query(&orc_detail_query("CX", "25587"))
            .reply(Reply::status(403)),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("oracle", "ejov.fa.ca2.oraclecloud.com/CX", "");
    let listing = fetch(&reg, &t).await.unwrap();
    // 25587's detail failed: listed, unreadable, never dropped.
    assert_eq!(listing.unreadable.len(), 1);
    assert_eq!(listing.unreadable[0].native_id, "25587");
    assert_eq!(listing.postings.len(), 1);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "26876");
    assert_eq!(p.title, "Technology and Communications Sector Leader");
    assert_eq!(
        p.url,
        "https://ejov.fa.ca2.oraclecloud.com/hcmUI/CandidateExperience/en/sites/CX/job/26876"
    );
    assert_eq!(
        p.location,
        "SAN FRANCISCO, CA, United States; HOUSTON, TX, United States; ATLANTA, GA, United States; MIAMI, FL, United States; IRVINE, CA, United States"
    );
    assert_eq!(codes(&p.countries), ["us"]);
    assert_eq!(p.work_mode, Some(WorkMode::Hybrid));
    assert_eq!(p.remote, Some(false));
    assert_eq!(p.employment_type, None, "no JobSchedule stated");
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-08-19T00:00:00+00:00".into())));
    assert_eq!(
        p.description_html,
        "<p>Lead enterprise systems delivery.</p><ul><li>Own the implementation roadmap.</li></ul><p>Five years of CRM delivery experience.</p>"
    );
    assert_eq!(server.requests().len(), 3);
    // Hydrating: a seen id gets no detail request.
    let before = server.requests().len();
    let again = fetch_new(&reg, &t, &["25587", "26876"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["25587", "26876"]);
    assert_eq!(server.requests().len(), before + 1);
}

/// Pages derived from the recorded requisition (ids changed; `TotalJobsCount` as the live
/// API reports it inside `items[0]`).
fn orc_page(from: usize, count: usize, total: usize) -> Reply {
    let recorded: serde_json::Value = serde_json::from_str(&read("oracle_orc.json")).unwrap();
    let item = recorded["items"][0]["requisitionList"][0].clone();
    let reqs: Vec<_> = (from..from + count)
        .map(|i| {
            let mut r = item.clone();
            r["Id"] = json!(format!("{}", 1000 + i));
            r
        })
        .collect();
    Reply::json(
        json!({"items": [{"TotalJobsCount": total, "requisitionList": reqs}], "count": 1, "hasMore": false})
            .to_string(),
    )
}

#[tokio::test]
async fn oracle_pages_until_the_total_and_fails_closed() {
    let ok = vec![
        Route::get(ORC_HOST, ORC_LIST).query(&orc_list_query("CX", 0)).reply(orc_page(0, 25, 30)),
        Route::get(ORC_HOST, ORC_LIST).query(&orc_list_query("CX", 25)).reply(orc_page(25, 5, 30)),
    ];
    let (server, reg) = setup(ok).await;
    let t = target("oracle", "ejov.fa.ca2.oraclecloud.com/CX", "");
    let ids: Vec<String> = (0..30).map(|i| format!("{}", 1000 + i)).collect();
    let seen: Vec<&str> = ids.iter().map(String::as_str).collect();
    let listing = fetch_new(&reg, &t, &seen).await.unwrap();
    assert_eq!(listing.seen_refresh.len(), 30);
    assert_eq!(server.requests().len(), 2);

    for bad in [Reply::status(500), Reply::json("{\"items\": [").truncated()] {
        let failing = vec![
            Route::get(ORC_HOST, ORC_LIST)
                .query(&orc_list_query("CX", 0))
                .reply(orc_page(0, 25, 30)),
            Route::get(ORC_HOST, ORC_LIST).query(&orc_list_query("CX", 25)).reply(bad),
        ];
        let (_s, reg) = setup(failing).await;
        assert!(fetch_new(&reg, &t, &seen).await.is_err(), "a failed page fails the board");
    }
}

#[tokio::test]
async fn oracle_missing_site_is_board_gone() {
    let route = Route::get(ORC_HOST, ORC_LIST).reply(Reply::status(404));
    let (_s, reg) = setup(vec![route]).await;
    let err =
        fetch(&reg, &target("oracle", "ejov.fa.ca2.oraclecloud.com/NOPE", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
}

#[test]
fn oracle_recognition() {
    let want = (
        "oracle".to_owned(),
        "ejov.fa.ca2.oraclecloud.com/CX".to_owned(),
        "https://ejov.fa.ca2.oraclecloud.com/hcmUI/CandidateExperience/en/sites/CX".to_owned(),
    );
    for url in [
        "https://ejov.fa.ca2.oraclecloud.com/hcmUI/CandidateExperience/en/sites/CX/",
        "https://ejov.fa.ca2.oraclecloud.com/hcmUI/CandidateExperience/en/sites/CX/requisitions",
        "https://ejov.fa.ca2.oraclecloud.com/hcmUI/CandidateExperience/en/sites/CX/job/26876",
        "https://ejov.fa.ca2.oraclecloud.com/hcmRestApi/resources/latest/recruitingCEJobRequisitions?onlyData=true&finder=findReqs;siteNumber=CX,limit=25",
    ] {
        assert_eq!(rec(url), want, "{url}");
    }
    // A custom careers domain serving the same candidate experience.
    assert_eq!(
        rec("https://careers.acme.com/hcmUI/CandidateExperience/fr-FR/sites/CX_1/job/7").1,
        "careers.acme.com/CX_1"
    );
    for url in [
        "https://ejov.fa.ca2.oraclecloud.com/hcmUI/CandidateExperience/en/",
        "https://ejov.fa.ca2.oraclecloud.com/hcmRestApi/resources/latest/recruitingCEJobRequisitions",
        "https://www.oracle.com/careers/",
        "https://127.0.0.1/hcmUI/CandidateExperience/en/sites/CX",
    ] {
        unrecognised(url);
    }
    let a = recognize("https://EJOV.fa.ca2.oraclecloud.com/hcmUI/CandidateExperience/en/sites/CX")
        .unwrap()
        .key()
        .unwrap();
    let b = freehire_domain::BoardKey::new(
        freehire_domain::Provider::parse("oracle").unwrap(),
        "ejov.fa.ca2.oraclecloud.com/CX/",
        "",
    )
    .unwrap();
    assert_eq!(board_identity(&a), board_identity(&b));
}
