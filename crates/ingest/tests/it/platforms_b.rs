//! Eightfold, Phenom, Paylocity, NEOGOV and HRMDirect against their recorded careerkit
//! responses, served by the replay server. Where a test needs a page or a detail the
//! recording lacks, it is derived from the recorded shape (field names as recorded) and the
//! test says so.

use freehire_domain::{BoardKey, EmploymentType, Provider, SalaryPeriod};
use freehire_ingest::replay::{Reply, Route};
use freehire_ingest::{IngestError, RawDate, board_identity, recognize, validate_board};
use serde_json::json;

use crate::support::{careerkit, codes, fetch, fetch_new, read, setup, target};

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

// ---------------------------------------------------------------------------------------------
// Phenom

const PH_HOST: &str = "https://careers.phenom.com";
const PH_BOARD: &str = "careers.phenom.com/global/en";
const PH_RESULTS: &str = "/global/en/search-results";

/// The recorded page's `phApp.ddo` value.
fn ph_recorded_ddo() -> serde_json::Value {
    let page = read("phenom.html");
    let start = page.find("phApp.ddo = ").unwrap() + "phApp.ddo = ".len();
    let end = page.find("; phApp.experimentData").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

/// A search-results page holding `ddo`, as the recorded page embeds it.
fn ph_page(ddo: &serde_json::Value) -> Reply {
    Reply::html(format!(
        "<!doctype html>\n<html><body><script>\nvar phApp = {{}};\nphApp.ddo = {ddo}; phApp.experimentData = {{}};\n</script></body></html>"
    ))
}

/// A page of `n` jobs from `from` of a `total`-job board, derived from the recorded job.
fn ph_jobs_page(from: usize, n: usize, total: usize) -> Reply {
    let mut ddo = ph_recorded_ddo();
    let job = ddo["eagerLoadRefineSearch"]["data"]["jobs"][0].clone();
    let jobs: Vec<_> = (from..from + n)
        .map(|i| {
            let mut j = job.clone();
            j["jobId"] = json!(format!("P-{i}"));
            j
        })
        .collect();
    ddo["eagerLoadRefineSearch"]["data"]["jobs"] = json!(jobs);
    ddo["eagerLoadRefineSearch"]["totalHits"] = json!(total);
    ph_page(&ddo)
}

/// The recorded first page (2 of the board's jobs kept by the recording, which states 52);
/// the next page is derived as an empty page whose total is the 2 read (a stated total that
/// is unmet fails the walk: `phenom_fails_closed_short_of_its_total`). The job pages are
/// derived: one carries a schema.org JobPosting, the other Phenom's embedded `jobDetail`.
#[tokio::test]
async fn phenom_recorded_search_results_with_job_pages() {
    let mut empty = ph_recorded_ddo();
    empty["eagerLoadRefineSearch"]["data"]["jobs"] = json!([]);
    empty["eagerLoadRefineSearch"]["totalHits"] = json!(2);
    let ld_page = r#"<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"JobPosting","title":"Senior Project Manager(German Speaker)","description":"&lt;p&gt;Lead transformation programs.&lt;/p&gt;"}</script></head></html>"#;
    let ddo_detail = json!({"jobDetail": {"status": 200, "data": {"job": {"jobId": "P-104504", "description": "<p>Generate new business.</p>"}}}});
    let routes = vec![
        Route::get(PH_HOST, PH_RESULTS)
            .query("from=0&s=1")
            .reply(Reply::file(careerkit("phenom.html")).unwrap()),
        Route::get(PH_HOST, PH_RESULTS).query("from=2&s=1").reply(ph_page(&empty)),
        Route::get(PH_HOST, "/global/en/job/P-104461").reply(Reply::html(ld_page)),
        Route::get(PH_HOST, "/global/en/job/P-104504").reply(ph_page(&ddo_detail)),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("phenom", PH_BOARD, "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "P-104461");
    assert_eq!(a.title, "Senior Project Manager(German Speaker)");
    assert_eq!(a.url, "https://careers.phenom.com/global/en/job/P-104461");
    assert_eq!(a.location, "Rotterdam, South Holland, Netherlands");
    assert_eq!(codes(&a.countries), ["nl"]);
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(a.posted_at, Some(RawDate::Text("2026-04-09T09:54:06.573+0000".into())));
    assert!(a.departments.is_empty(), "an empty department is none");
    assert_eq!(a.description_html, "<p>Lead transformation programs.</p>");
    let b = &listing.postings[1];
    assert_eq!(b.native_id, "P-104504");
    assert_eq!(b.title, "Revenue Development Representative");
    assert_eq!(b.location, "Sydney, New South Wales, Australia");
    assert_eq!(codes(&b.countries), ["au"]);
    assert_eq!(b.description_html, "<p>Generate new business.</p>");
    // Hydrating: seen ids are re-listed without their job page.
    let before = server.requests().len();
    let again = fetch_new(&reg, &t, &["P-104461", "P-104504"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["P-104461", "P-104504"]);
    assert_eq!(server.requests().len() - before, 2, "two search pages, no job page");
}

/// A job page without a description keeps the listing's teaser (derived page).
#[tokio::test]
async fn phenom_job_page_without_description_keeps_the_teaser() {
    let mut ddo = ph_recorded_ddo();
    ddo["eagerLoadRefineSearch"]["totalHits"] = json!(2);
    let routes = vec![
        Route::get(PH_HOST, PH_RESULTS).query("from=0&s=1").reply(ph_page(&ddo)),
        Route::get(PH_HOST, "/global/en/job/P-104461").reply(Reply::html("<html></html>")),
        Route::get(PH_HOST, "/global/en/job/P-104504").reply(Reply::status(404)),
    ];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("phenom", PH_BOARD, "")).await.unwrap();
    assert_eq!(listing.postings.len(), 1, "a 404 job page is gone");
    assert!(
        listing.postings[0]
            .description_html
            .starts_with("<p>We are looking for a Senior Project Manager who is fluent")
    );
}

#[tokio::test]
async fn phenom_pages_until_total_hits() {
    let routes = vec![
        Route::get(PH_HOST, PH_RESULTS).query("from=0&s=1").reply(ph_jobs_page(0, 10, 12)),
        Route::get(PH_HOST, PH_RESULTS).query("from=10&s=1").reply(ph_jobs_page(10, 2, 12)),
    ];
    let (server, reg) = setup(routes).await;
    let seen: Vec<String> = (0..12).map(|i| format!("P-{i}")).collect();
    let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
    let listing = fetch_new(&reg, &target("phenom", PH_BOARD, ""), &seen).await.unwrap();
    assert_eq!(listing.seen_refresh.len(), 12);
    assert_eq!(server.requests().len(), 2);
}

// scenario: A page short of the stated total fails the board
#[tokio::test]
async fn phenom_fails_closed_short_of_its_total() {
    // The second page repeats the first, or is empty, while 12 are stated and 10 read.
    for second in [ph_jobs_page(0, 10, 12), ph_jobs_page(10, 0, 12)] {
        let routes = vec![
            Route::get(PH_HOST, PH_RESULTS).query("from=0&s=1").reply(ph_jobs_page(0, 10, 12)),
            Route::get(PH_HOST, PH_RESULTS).query("from=10&s=1").reply(second),
        ];
        let (_s, reg) = setup(routes).await;
        let err = fetch(&reg, &target("phenom", PH_BOARD, "")).await.unwrap_err();
        assert!(
            matches!(&err, IngestError::Incomplete { reason, .. }
                if reason.contains("added nothing at 10 of the 12")),
            "{err}"
        );
    }
}

// scenario: A failed page fails the board
#[tokio::test]
async fn phenom_failed_or_unreadable_second_page_fails_the_board() {
    for second in [Reply::status(500), Reply::html("<html><body>Access denied</body></html>")] {
        let routes = vec![
            Route::get(PH_HOST, PH_RESULTS).query("from=0&s=1").reply(ph_jobs_page(0, 10, 12)),
            Route::get(PH_HOST, PH_RESULTS).query("from=10&s=1").reply(second),
        ];
        let (_s, reg) = setup(routes).await;
        let err = fetch(&reg, &target("phenom", PH_BOARD, "")).await.unwrap_err();
        assert!(matches!(err, IngestError::Status { .. } | IngestError::Decode { .. }), "{err}");
    }
}

#[tokio::test]
async fn phenom_unknown_board_is_gone() {
    let (_s, reg) = setup(vec![]).await;
    let err = fetch(&reg, &target("phenom", PH_BOARD, "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
}

#[test]
fn phenom_recognition_and_identity() {
    let canonical = "https://careers.phenom.com/global/en/search-results";
    for url in [
        "https://careers.phenom.com/global/en/search-results",
        "https://careers.phenom.com/global/en/job/P-104461/Senior-Project-Manager-German-Speaker",
        "careers.phenom.com/Global/EN/home",
    ] {
        assert_eq!(rec(url), three("phenom", PH_BOARD, canonical), "{url}");
    }
    assert_eq!(
        rec("https://acme.phenompeople.com/us/en-us/search-results?keywords=x"),
        three(
            "phenom",
            "acme.phenompeople.com/us/en-us",
            "https://acme.phenompeople.com/us/en-us/search-results"
        )
    );
    for url in [
        "https://careers.phenom.com/",
        "https://careers.phenom.com/global",
        "https://www.phenom.com/global/en/search-results",
        "https://app.phenompeople.com/us/en/search-results",
        "https://careers.phenom.com/global/english/search-results",
    ] {
        unrecognised(url);
    }
    assert_eq!(identity("phenom", "Careers.Phenom.com/Global/EN/"), identity("phenom", PH_BOARD));
}

// ---------------------------------------------------------------------------------------------
// Paylocity

const PL_HOST: &str = "https://recruiting.paylocity.com";
const PL_GUID: &str = "211e692d-c45a-4e3a-ae01-3e497af97929";

/// The recorded board page; the detail pages are derived: one with Paylocity's "Description"
/// header and the div after it, the other with only a schema.org JobPosting.
#[tokio::test]
async fn paylocity_recorded_board_with_details() {
    let header_page = r#"<html><body><div class="job-preview-header">Description</div>
<div class="job-preview-details"><p>Model power systems.</p><div><ul><li>Load flow</li></ul></div></div>
<div class="job-preview-header">Apply</div></body></html>"#;
    let ld_page = r#"<html><head><script type="application/ld+json">{"@type":"JobPosting","title":"Administrative Assistant (Hybrid)","description":"<p>Support the office.</p>"}</script></head><body></body></html>"#;
    let routes = vec![
        Route::get(PL_HOST, &format!("/Recruiting/Jobs/All/{PL_GUID}"))
            .reply(Reply::file(careerkit("paylocity.html")).unwrap()),
        Route::get(PL_HOST, "/Recruiting/Jobs/Details/4141169").reply(Reply::html(header_page)),
        Route::get(PL_HOST, "/Recruiting/Jobs/Details/4401262").reply(Reply::html(ld_page)),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("paylocity", PL_GUID, "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "4141169");
    assert_eq!(a.title, "Engineer/Associate Engineer, Power Systems");
    assert_eq!(a.url, "https://recruiting.paylocity.com/Recruiting/Jobs/Details/4141169");
    assert_eq!(a.company.as_deref(), Some("North Carolina Advanced Energy Corporation"));
    assert_eq!(a.location, "Raleigh, NC, USA");
    assert_eq!(codes(&a.countries), ["us"]);
    assert_eq!(a.remote, Some(false));
    assert_eq!(a.work_mode, None, "IsRemote false says nothing of hybrid or on-site");
    assert_eq!(a.posted_at, Some(RawDate::Text("2026-08-08T11:27:44-05:00".into())));
    assert!(a.departments.is_empty(), "HiringDepartment null");
    assert_eq!(
        a.description_html,
        "<p>Model power systems.</p><div><ul><li>Load flow</li></ul></div>"
    );
    let b = &listing.postings[1];
    assert_eq!(b.native_id, "4401262");
    assert_eq!(b.title, "Administrative Assistant (Hybrid)");
    assert_eq!(b.description_html, "<p>Support the office.</p>");
    // Hydrating: a seen id is re-listed without its detail.
    let before = server.requests().len();
    let again = fetch_new(&reg, &t, &["4141169"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["4141169"]);
    let paths: Vec<String> = server.requests()[before..].iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        paths,
        [format!("/Recruiting/Jobs/All/{PL_GUID}"), "/Recruiting/Jobs/Details/4401262".into()]
    );
}

/// One page holds the whole board; a page that does not (a block page, a cut body) fails it.
#[tokio::test]
async fn paylocity_unreadable_or_cut_board_page_fails_the_board() {
    for reply in [
        Reply::html("<html><body>Something went wrong</body></html>"),
        Reply::file(careerkit("paylocity.html")).unwrap().truncated(),
    ] {
        let route = Route::get(PL_HOST, &format!("/Recruiting/Jobs/All/{PL_GUID}")).reply(reply);
        let (_s, reg) = setup(vec![route]).await;
        let err = fetch(&reg, &target("paylocity", PL_GUID, "")).await.unwrap_err();
        assert!(matches!(err, IngestError::Decode { .. } | IngestError::Network { .. }), "{err}");
    }
}

#[tokio::test]
async fn paylocity_unknown_board_is_gone() {
    let (_s, reg) = setup(vec![]).await;
    let err = fetch(&reg, &target("paylocity", PL_GUID, "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
}

#[test]
fn paylocity_recognition_and_identity() {
    let canonical = format!("https://recruiting.paylocity.com/Recruiting/Jobs/All/{PL_GUID}");
    for url in [
        format!("https://recruiting.paylocity.com/Recruiting/Jobs/All/{PL_GUID}"),
        format!("https://recruiting.paylocity.com/recruiting/jobs/All/{PL_GUID}/North-Carolina"),
        "recruiting.paylocity.com/Recruiting/Jobs/List/211E692D-C45A-4E3A-AE01-3E497AF97929".into(),
    ] {
        assert_eq!(rec(&url), three("paylocity", PL_GUID, &canonical), "{url}");
    }
    for url in [
        "https://recruiting.paylocity.com/Recruiting/Jobs/Details/4141169",
        "https://recruiting.paylocity.com/Recruiting/Jobs/All/not-a-guid",
        "https://www.paylocity.com/careers",
    ] {
        unrecognised(url);
    }
    assert_eq!(
        identity("paylocity", "211E692D-C45A-4E3A-AE01-3E497AF97929"),
        identity("paylocity", PL_GUID)
    );
    let bad = BoardKey::new(Provider::parse("paylocity").unwrap(), "acme", "").unwrap();
    assert!(validate_board(&bad).is_err());
}

// ---------------------------------------------------------------------------------------------
// NEOGOV

const NG_HOST: &str = "https://www.governmentjobs.com";
const NG_FEED: &str = "/SearchEngine/JobsFeed";

#[tokio::test]
async fn neogov_recorded_agency_feed() {
    let route = Route::get(NG_HOST, NG_FEED)
        .query("agency=exampleagency")
        .reply(Reply::file(careerkit("neogov.xml")).unwrap());
    let (_s, reg) = setup(vec![route]).await;
    let listing = fetch(&reg, &target("neogov", "exampleagency", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "410001");
    assert_eq!(a.title, "Enterprise Applications Manager");
    assert_eq!(a.url, "https://www.governmentjobs.com/careers/exampleagency/jobs/410001");
    assert_eq!(a.location, "Atlanta, Georgia");
    assert_eq!(a.departments, ["Information Technology"]);
    assert_eq!(a.posted_at, Some(RawDate::Text("Wed, 19 Aug 2026 23:10:38 GMT".into())));
    let s = a.salary.as_ref().unwrap();
    assert_eq!(
        (s.min, s.max, s.currency.as_str(), s.period),
        (Some(135000), Some(175000), "USD", SalaryPeriod::Year)
    );
    assert_eq!(
        a.description_html,
        "<p>Lead the agency applications portfolio.</p>\
         <h3>Examples of Duties</h3><p>Own architecture and delivery governance.</p>\
         <h3>Qualifications</h3><p>Five years of enterprise systems leadership.</p>\
         <h3>Supplemental Information</h3><p>A background check is required.</p>"
    );
    assert!(a.countries.is_empty() && a.work_mode.is_none() && a.employment_type.is_none());
    let b = &listing.postings[1];
    assert_eq!(b.native_id, "410002");
    assert_eq!(b.title, "CRM Project Consultant");
    assert_eq!(b.location, "Remote", "free text, read by the normaliser");
    assert_eq!(b.work_mode, None);
    assert!(b.departments.is_empty());
    let s = b.salary.as_ref().unwrap();
    assert_eq!((s.min, s.max, s.period), (Some(65), Some(85), SalaryPeriod::Hour));
    assert_eq!(
        b.description_html,
        "<p>Support a time-limited CRM implementation.</p><h3>Qualifications</h3><p>CRM delivery experience.</p>"
    );
}

/// An empty channel (derived from the recorded feed) is an empty board; a block page or a cut
/// document fails the board.
#[tokio::test]
async fn neogov_empty_feed_and_failures() {
    let recorded = read("neogov.xml");
    let start = recorded.find("<item>").unwrap();
    let end = recorded.rfind("</item>").unwrap() + "</item>".len();
    let empty = format!("{}{}", &recorded[..start], &recorded[end..]);
    let route = Route::get(NG_HOST, NG_FEED).query("agency=quiet").reply(Reply::xml(empty));
    let (_s, reg) = setup(vec![route]).await;
    assert!(fetch(&reg, &target("neogov", "quiet", "")).await.unwrap().postings.is_empty());
    for reply in [
        Reply::html("<!DOCTYPE html><html><body>Blocked</body></html>"),
        Reply::xml(recorded[..recorded.len() / 2].to_owned()),
        Reply::file(careerkit("neogov.xml")).unwrap().truncated(),
    ] {
        let route = Route::get(NG_HOST, NG_FEED).reply(reply);
        let (_s, reg) = setup(vec![route]).await;
        let err = fetch(&reg, &target("neogov", "exampleagency", "")).await.unwrap_err();
        assert!(
            matches!(
                err,
                IngestError::BlockPage { .. }
                    | IngestError::Decode { .. }
                    | IngestError::Network { .. }
            ),
            "{err}"
        );
    }
}

#[tokio::test]
async fn neogov_unknown_agency_is_gone() {
    let (_s, reg) = setup(vec![]).await;
    let err = fetch(&reg, &target("neogov", "nowhere", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
}

#[test]
fn neogov_recognition_and_identity() {
    let canonical = "https://www.governmentjobs.com/careers/fulton";
    for url in [
        "https://www.governmentjobs.com/careers/fulton",
        "https://www.governmentjobs.com/careers/fulton/jobs/410001/enterprise-applications-manager",
        "governmentjobs.com/careers/fulton?sort=PostingDate",
        "https://www.governmentjobs.com/SearchEngine/JobsFeed?agency=fulton",
    ] {
        assert_eq!(rec(url), three("neogov", "fulton", canonical), "{url}");
    }
    for url in [
        "https://www.governmentjobs.com/",
        "https://www.governmentjobs.com/jobs/410001",
        "https://www.governmentjobs.com/SearchEngine/JobsFeed",
        "https://www.schooljobs.com/careers/fulton",
    ] {
        unrecognised(url);
    }
    assert_eq!(identity("neogov", "Fulton"), identity("neogov", "fulton"));
}

// ---------------------------------------------------------------------------------------------
// HRMDirect

const HRM_HOST: &str = "https://acme.hrmdirect.com";
const HRM_LIST: &str = "/employment/job-openings.php";

/// The recorded openings page; the job pages are derived (one with a `jobDesc` block, one with
/// only a schema.org JobPosting).
#[tokio::test]
async fn hrmdirect_recorded_openings_with_job_pages() {
    let desc_page = r#"<html><body><table class="viewFields"><tr><td>Department:</td><td>Operations</td></tr></table>
<div class="jobDesc"><p>Own the CRM roadmap.</p><div><ul><li>Salesforce</li></ul></div></div><div class="footer">x</div></body></html>"#;
    let ld_page = r#"<html><head><script type="application/ld+json">{"@type":"JobPosting","title":"Senior Accountant","description":"&lt;p&gt;Close the books.&lt;/p&gt;"}</script></head></html>"#;
    let routes = vec![
        Route::get(HRM_HOST, HRM_LIST)
            .query("search=true")
            .reply(Reply::file(careerkit("hrmdirect.html")).unwrap()),
        Route::get(HRM_HOST, "/employment/job-opening.php")
            .query("req=3762934&req_loc=1393575&")
            .reply(Reply::html(desc_page)),
        Route::get(HRM_HOST, "/employment/job-opening.php")
            .query("req=3779928&req_loc=1419225&")
            .reply(Reply::html(ld_page)),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("hrmdirect", "acme", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "3762934");
    assert_eq!(a.title, "CRM Product Owner");
    assert_eq!(
        a.url,
        "https://acme.hrmdirect.com/employment/job-opening.php?req=3762934&req_loc=1393575&"
    );
    assert_eq!(a.departments, ["Operations"]);
    assert_eq!(a.posted_at, Some(RawDate::Text("07/15/2026".into())));
    assert_eq!(a.location, "", "the recorded page has no location cells");
    assert_eq!(
        a.description_html,
        "<p>Own the CRM roadmap.</p><div><ul><li>Salesforce</li></ul></div>"
    );
    let b = &listing.postings[1];
    assert_eq!(b.native_id, "3779928", "data-req-id, not the custom requisition id");
    assert_eq!(b.title, "Senior Accountant");
    assert_eq!(b.departments, ["Finance"]);
    assert_eq!(b.posted_at, Some(RawDate::Text("08/05/2026".into())));
    assert_eq!(b.description_html, "<p>Close the books.</p>");
    // Hydrating: seen ids are re-listed without their job page.
    let before = server.requests().len();
    let again = fetch_new(&reg, &t, &["3762934", "3779928"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["3762934", "3779928"]);
    assert_eq!(server.requests().len() - before, 1);
}

/// Rows of one requisition in several places merge (derived from the recorded row, with the
/// location cells HRMDirect pages carry); an empty openings page is an empty board; a page
/// that is not the openings page, or a cut one, fails the board.
#[tokio::test]
async fn hrmdirect_merged_rows_empty_board_and_failures() {
    let recorded = read("hrmdirect.html");
    let row_start = recorded.find("<tr class=\"reqitem ReqRowClick\"").unwrap();
    let row_end = recorded.find("</tr>").unwrap() + "</tr>".len();
    let row = &recorded[row_start..row_end];
    let here = row.replace(
        "<td class=\"reqitem\">07/15/2026</td>",
        "<td class=\"cities reqitem\">Cleveland</td><td class=\"state reqitem\">OH</td><td class=\"countries reqitem\">United States</td><td class=\"reqitem\">07/15/2026</td>",
    );
    let there = row.replace(
        "<td class=\"reqitem\">07/15/2026</td>",
        "<td class=\"cities reqitem\">Toronto</td><td class=\"countries reqitem\">Canada</td>",
    );
    let page = format!("<html><body><table>{here}{there}</table></body></html>");
    let seen = ["3762934"];
    let route = Route::get("https://multi.hrmdirect.com", HRM_LIST).reply(Reply::html(page));
    let (_s, reg) = setup(vec![route]).await;
    let listing = fetch_new(&reg, &target("hrmdirect", "multi", ""), &seen).await.unwrap();
    assert_eq!(listing.seen_refresh, ["3762934"]);
    let empty = r#"<html><body><form action="job-openings.php" name="searchReqs"></form><div id="noOpeningsMsg">There are no current openings.</div></body></html>"#;
    let route = Route::get("https://quiet.hrmdirect.com", HRM_LIST).reply(Reply::html(empty));
    let (_s, reg) = setup(vec![route]).await;
    assert!(fetch(&reg, &target("hrmdirect", "quiet", "")).await.unwrap().postings.is_empty());
    for reply in [
        Reply::html("<html><body>Access denied</body></html>"),
        Reply::file(careerkit("hrmdirect.html")).unwrap().truncated(),
    ] {
        let route = Route::get(HRM_HOST, HRM_LIST).reply(reply);
        let (_s, reg) = setup(vec![route]).await;
        let err = fetch(&reg, &target("hrmdirect", "acme", "")).await.unwrap_err();
        assert!(matches!(err, IngestError::Decode { .. } | IngestError::Network { .. }), "{err}");
    }
}

/// The merged posting's locations and countries (derived rows as above, detail read).
#[tokio::test]
async fn hrmdirect_merged_locations_and_countries() {
    let page = r#"<table><tr class="reqitem ReqRowClick" data-req-id="42"><td class="departments reqitem">Data</td><td class="posTitle reqitem"><a href="job-opening.php?req=42&amp;req_loc=1&amp;#job">ML Engineer</td><td class="cities reqitem">Cleveland</td><td class="state reqitem">OH</td><td class="countries reqitem">United States</td></tr>
<tr class="reqitem1 ReqRowClick" data-req-id="42"><td class="departments reqitem1">Data</td><td class="posTitle reqitem1"><a href="job-opening.php?req=42&amp;req_loc=2&amp;#job">ML Engineer</td><td class="cities reqitem1">Toronto</td><td class="countries reqitem1">Canada</td></tr></table>"#;
    let routes = vec![
        Route::get("https://multi.hrmdirect.com", HRM_LIST).reply(Reply::html(page)),
        Route::get("https://multi.hrmdirect.com", "/employment/job-opening.php")
            .reply(Reply::html("<html></html>")),
    ];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("hrmdirect", "multi", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 1);
    let p = &listing.postings[0];
    assert_eq!(p.location, "Cleveland, OH, United States; Toronto, Canada");
    assert_eq!(codes(&p.countries), ["ca", "us"]);
    assert_eq!(p.url, "https://multi.hrmdirect.com/employment/job-opening.php?req=42&req_loc=1&");
    assert_eq!(p.description_html, "", "a job page without a description leaves it empty");
}

#[tokio::test]
async fn hrmdirect_unknown_board_is_gone() {
    let (_s, reg) = setup(vec![]).await;
    let err = fetch(&reg, &target("hrmdirect", "nowhere", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
}

#[test]
fn hrmdirect_recognition_and_identity() {
    let canonical = "https://acme.hrmdirect.com/employment/job-openings.php";
    for url in [
        "https://acme.hrmdirect.com/employment/job-openings.php?search=true&dept=-1",
        "https://acme.hrmdirect.com/employment/job-opening.php?req=3762934&req_loc=1393575&#job",
        "ACME.hrmdirect.com",
    ] {
        assert_eq!(rec(url), three("hrmdirect", "acme", canonical), "{url}");
    }
    for url in [
        "https://www.hrmdirect.com/",
        "https://hrmdirect.com/employment/job-openings.php",
        "https://app.hrmdirect.com/login",
        "https://acme.hrmdirect.com.evil.com/employment/job-openings.php",
    ] {
        unrecognised(url);
    }
    assert_eq!(identity("hrmdirect", "acme.hrmdirect.com"), identity("hrmdirect", "ACME"));
    let bad = BoardKey::new(Provider::parse("hrmdirect").unwrap(), "a.b", "").unwrap();
    assert!(validate_board(&bad).is_err());
}
