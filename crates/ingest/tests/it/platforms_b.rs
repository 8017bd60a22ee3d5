//! Eightfold, Phenom, Paylocity, NEOGOV and HRMDirect against their recorded careerkit
//! responses, served by the replay server. Where a test needs a page or a detail the
//! recording lacks, it is derived from the recorded shape (field names as recorded) and the
//! test says so.

use freehire_domain::{BoardKey, Provider};
use freehire_ingest::replay::{Reply, Route};
use freehire_ingest::{IngestError, RawDate, board_identity, recognize, validate_board};
use serde_json::json;

use crate::support::{careerkit, fetch, fetch_new, read, setup, target};

/// `(provider, board, canonical URL)` of a recognised URL, checked by the board rule.
fn rec(url: &str) -> (String, String, String) {
    let r = recognize(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    validate_board(&r.key().unwrap()).unwrap_or_else(|e| panic!("{url}: {e}"));
    assert_eq!(r.region, "", "{url}");
    (r.provider.to_string(), r.board, r.canonical_url)
}

fn three(p: &str, b: &str, c: &str) -> (String, String, String) {
    (p.into(), b.into(), c.into())
}

fn unrecognised(url: &str) {
    let err = recognize(url).unwrap_err();
    assert!(matches!(err, IngestError::Unrecognised { .. }), "{url}: {err}");
}

fn identity(p: &str, b: &str) -> (String, String, String) {
    board_identity(&BoardKey::new(Provider::parse(p).unwrap(), b, "").unwrap())
}

// ---------------------------------------------------------------------------------------------
// Eightfold

const EF_HOST: &str = "https://albemarle.eightfold.ai";
const EF_BOARD: &str = "albemarle.eightfold.ai/albemarle.com";

fn ef_pcsx_query(start: usize) -> String {
    format!("domain=albemarle.com&query=&start={start}&num=10&sort_by=relevance")
}

/// A detail document in the apply/v2 position shape (derived from the recorded listing item).
fn ef_detail(id: u64, html: &str) -> Reply {
    Reply::json(
        json!({"id": id, "job_description": html,
            "canonicalPositionUrl": format!("https://albemarle.eightfold.ai/careers/job/{id}")})
        .to_string(),
    )
}

/// The recorded apply/v2 listing (the site has no PCSX search: its first page is 404, so the
/// adapter falls back), then one detail per position.
#[tokio::test]
async fn eightfold_recorded_listing_with_details() {
    let routes = vec![
        Route::get(EF_HOST, "/api/apply/v2/jobs")
            .query("domain=albemarle.com&start=0&num=10")
            .reply(Reply::file(careerkit("eightfold.json")).unwrap()),
        Route::get(EF_HOST, "/api/apply/v2/jobs/1099555326551")
            .query("domain=albemarle.com")
            .reply(ef_detail(1099555326551, "<p>Plan bromine supply.</p>")),
        Route::get(EF_HOST, "/api/apply/v2/jobs/1099555208188")
            .query("domain=albemarle.com")
            .reply(ef_detail(1099555208188, "<p>Lead media relations.</p>")),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("eightfold", EF_BOARD, "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "1099555326551");
    assert_eq!(a.title, "Supply Planner, Bromine S&OP");
    assert_eq!(a.url, "https://albemarle.eightfold.ai/careers/job/1099555326551");
    assert_eq!(
        a.location,
        "Charlotte, North Carolina, United States of America; Magnolia, Arkansas, United States of America"
    );
    assert_eq!(a.posted_at, Some(RawDate::UnixMillis(1_785_801_600_000)));
    assert_eq!(a.departments, ["Supply Chain"]);
    assert_eq!(a.description_html, "<p>Plan bromine supply.</p>");
    assert_eq!(a.work_mode, None);
    assert!(a.countries.is_empty(), "no structured country field");
    let b = &listing.postings[1];
    assert_eq!(b.native_id, "1099555208188");
    assert_eq!(b.title, "Director, Media Relations and U.S. Public Affairs");
    assert_eq!(b.departments, ["Policy, Government, and Public Affairs"]);
    assert_eq!(b.description_html, "<p>Lead media relations.</p>");
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths[..2], ["/api/pcsx/search", "/api/apply/v2/jobs"]);
    // Hydrating: a seen id is re-listed without its detail.
    let before = server.requests().len();
    let again = fetch_new(&reg, &t, &["1099555326551"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["1099555326551"]);
    assert_eq!(again.postings.len(), 1);
    let paths: Vec<String> = server.requests()[before..].iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        paths,
        ["/api/pcsx/search", "/api/apply/v2/jobs", "/api/apply/v2/jobs/1099555208188"]
    );
}

/// A PCSX page of `count` positions from `from`, derived from the recorded item (ids changed;
/// PCSX nests the page under `data`).
fn ef_pcsx_page(from: u64, n: u64, count: u64) -> Reply {
    let recorded: serde_json::Value = serde_json::from_str(&read("eightfold.json")).unwrap();
    let item = recorded["positions"][0].clone();
    let positions: Vec<_> = (from..from + n)
        .map(|i| {
            let mut it = item.clone();
            it["id"] = json!(i);
            it
        })
        .collect();
    Reply::json(
        json!({"status": 200, "data": {"positions": positions, "count": count}}).to_string(),
    )
}

#[tokio::test]
async fn eightfold_pages_the_pcsx_search_until_count() {
    let routes = vec![
        Route::get(EF_HOST, "/api/pcsx/search")
            .query(&ef_pcsx_query(0))
            .reply(ef_pcsx_page(1, 10, 12)),
        Route::get(EF_HOST, "/api/pcsx/search")
            .query(&ef_pcsx_query(10))
            .reply(ef_pcsx_page(11, 2, 12)),
    ];
    let (server, reg) = setup(routes).await;
    let seen: Vec<String> = (1..=12).map(|i| i.to_string()).collect();
    let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
    let listing = fetch_new(&reg, &target("eightfold", EF_BOARD, ""), &seen).await.unwrap();
    assert_eq!(listing.seen_refresh.len(), 12);
    assert!(listing.postings.is_empty());
    assert_eq!(server.requests().len(), 2, "two pages, no detail for seen ids");
}

// scenario: A failed page fails the board
#[tokio::test]
async fn eightfold_failed_second_page_fails_the_board() {
    let routes = vec![
        Route::get(EF_HOST, "/api/pcsx/search")
            .query(&ef_pcsx_query(0))
            .reply(ef_pcsx_page(1, 10, 12)),
        Route::get(EF_HOST, "/api/pcsx/search").query(&ef_pcsx_query(10)).reply(Reply::status(500)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &target("eightfold", EF_BOARD, "")).await.unwrap_err();
    assert_eq!(err.status(), Some(500), "{err}");
}

#[tokio::test]
async fn eightfold_unknown_board_is_gone() {
    let (_s, reg) = setup(vec![]).await;
    let err = fetch(&reg, &target("eightfold", EF_BOARD, "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
}

#[test]
fn eightfold_recognition_and_identity() {
    let canonical = "https://albemarle.eightfold.ai/careers?domain=albemarle.com";
    for url in [
        "https://albemarle.eightfold.ai/careers?domain=albemarle.com",
        "https://albemarle.eightfold.ai/careers/job/1099555326551?domain=Albemarle.com",
        "https://albemarle.eightfold.ai/api/apply/v2/jobs?domain=albemarle.com&start=0",
        "albemarle.eightfold.ai/api/pcsx/search?domain=albemarle.com",
    ] {
        assert_eq!(rec(url), three("eightfold", EF_BOARD, canonical), "{url}");
    }
    for url in [
        "https://albemarle.eightfold.ai/careers",
        "https://app.eightfold.ai/careers?domain=albemarle.com",
        "https://eightfold.ai/careers?domain=albemarle.com",
        "https://albemarle.eightfold.ai/careers?domain=not%20a%20host",
    ] {
        unrecognised(url);
    }
    assert_eq!(
        identity("eightfold", "Albemarle.Eightfold.ai/ALBEMARLE.com/"),
        identity("eightfold", EF_BOARD)
    );
    let bad = BoardKey::new(Provider::parse("eightfold").unwrap(), "albemarle.eightfold.ai", "");
    assert!(validate_board(&bad.unwrap()).is_err());
}
