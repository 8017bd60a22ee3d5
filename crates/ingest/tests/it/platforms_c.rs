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
    let lists = server.requests().iter().filter(|r| r.method == "POST").count();
    assert_eq!(lists, 2, "two pages until totalCount");

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
