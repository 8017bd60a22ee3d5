//! Oracle Recruiting Cloud, iCIMS, Jobvite, JazzHR and Breezy against recorded responses
//! (careerkit where it has them, else the fixtures under `tests/fixtures/<key>/`), served by
//! the replay server: listing mapping, pagination, failing closed, a gone board, recognition
//! and identity folds.

use freehire_domain::{EmploymentType, WorkMode};
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

/// The recorded listing of site `CX` and the recorded detail of its job 26876, on `host`.
fn orc_recorded(host: &str) -> Vec<Route> {
    vec![
        Route::get(host, ORC_LIST)
            .query(&orc_list_query("CX", 0))
            .reply(Reply::file(careerkit("oracle_orc.json")).unwrap()),
        Route::get(host, ORC_DETAIL)
            .query(&orc_detail_query("CX", "26876"))
            .reply(Reply::file(careerkit("oracle_orc_detail.json")).unwrap()),
    ]
}

#[tokio::test]
async fn oracle_recorded_listing_and_detail() {
    let mut routes = orc_recorded(ORC_HOST);
    routes.push(
        Route::get(ORC_HOST, ORC_DETAIL)
            .query(&orc_detail_query("CX", "25587"))
            .reply(Reply::status(403)),
    );
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

/// An answer without `requisitionList` (the expand not applied) is not an empty board; an
/// answer with a zero total and no list is.
#[tokio::test]
async fn oracle_unexpanded_answer_fails_and_a_zero_total_is_empty() {
    let unexpanded = json!({"items": [{"SearchId": 1, "TotalJobsCount": 2270}]}).to_string();
    let empty = json!({"items": [{"SearchId": 1, "TotalJobsCount": 0}]}).to_string();
    let routes = vec![
        Route::get("https://a.fa.us2.oraclecloud.com", ORC_LIST).reply(Reply::json(unexpanded)),
        Route::get("https://b.fa.us2.oraclecloud.com", ORC_LIST).reply(Reply::json(empty)),
    ];
    let (_s, reg) = setup(routes).await;
    let err =
        fetch(&reg, &target("oracle", "a.fa.us2.oraclecloud.com/CX_1", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Incomplete { .. }), "{err}");
    let listing =
        fetch(&reg, &target("oracle", "b.fa.us2.oraclecloud.com/CX_1", "")).await.unwrap();
    assert!(listing.postings.is_empty() && listing.unreadable.is_empty());
}

/// A custom careers domain is crawled on that domain: the same REST paths, the job links on it.
// scenario: An Oracle custom careers domain
#[tokio::test]
async fn oracle_custom_domain_is_crawled_on_that_domain() {
    const CUSTOM: &str = "https://careers.acme.com";
    let mut routes = orc_recorded(CUSTOM);
    routes.push(
        Route::get(CUSTOM, ORC_DETAIL)
            .query(&orc_detail_query("CX", "25587"))
            .reply(Reply::file(careerkit("oracle_orc_detail.json")).unwrap()),
    );
    let (_server, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("oracle", "careers.acme.com/CX", "")).await.unwrap();
    assert!(listing.unreadable.is_empty());
    assert_eq!(listing.postings.len(), 2);
    for p in &listing.postings {
        assert!(
            p.url
                .starts_with("https://careers.acme.com/hcmUI/CandidateExperience/en/sites/CX/job/"),
            "{}",
            p.url
        );
    }
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
    assert_eq!(
        rec("https://hdpc.fa.us2.oraclecloud.com/hcmUI/CandidateExperience/fr-FR/sites/CX_1/job/7")
            .1,
        "hdpc.fa.us2.oraclecloud.com/CX_1"
    );
    for url in [
        "https://ejov.fa.ca2.oraclecloud.com/hcmUI/CandidateExperience/en/",
        "https://ejov.fa.ca2.oraclecloud.com/hcmRestApi/resources/latest/recruitingCEJobRequisitions",
        "https://www.oracle.com/careers/",
        "https://127.0.0.1/hcmUI/CandidateExperience/en/sites/CX",
        "https://careers.acme.com/jobs/CandidateExperience/en/sites/CX",
    ] {
        unrecognised(url);
    }
    // A custom careers domain fronting the Oracle pod: the board is that domain.
    let custom = rec("https://careers.acme.com/hcmUI/CandidateExperience/en/sites/CX/job/7");
    assert_eq!(custom.1, "careers.acme.com/CX");
    assert_eq!(custom.2, "https://careers.acme.com/hcmUI/CandidateExperience/en/sites/CX");
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

// ---------------------------------------------------------------- icims

const ICIMS: &str = "https://careers-wipfli.icims.com";

/// A job page carrying a schema.org JobPosting block, as iCIMS job pages do (derived: the
/// shape of the standard, with iCIMS's "UNAVAILABLE" placeholder).
fn job_page(job_posting: serde_json::Value) -> Reply {
    Reply::html(format!(
        "<!doctype html><html><head><script type=\"application/ld+json\">{job_posting}</script></head><body></body></html>"
    ))
}

#[tokio::test]
async fn icims_recorded_search_page_and_job_pages() {
    let tax = json!({"@context": "https://schema.org", "@type": "JobPosting",
        "title": "Payroll Tax Specialist", "description": "<p>File payroll taxes.</p>",
        "datePosted": "2026-08-03T05:00:00.000Z", "employmentType": "FULL_TIME",
        "jobLocation": [{"@type": "Place", "address": {"@type": "PostalAddress",
            "addressLocality": "UNAVAILABLE", "addressRegion": "WI", "addressCountry": "US"}}]});
    let routes = vec![
        Route::get(ICIMS, "/sitemap.xml").reply(Reply::status(404)),
        Route::get(ICIMS, "/jobs/search")
            .query("pr=0&in_iframe=1")
            .reply(Reply::file(careerkit("icims.html")).unwrap()),
        // Past the last page the portal lists no job card.
        Route::get(ICIMS, "/jobs/search")
            .query("pr=1&in_iframe=1")
            .reply(Reply::html("<!doctype html><html><body><ul></ul></body></html>")),
        Route::get(ICIMS, "/jobs/8214/payroll-tax-specialist/job")
            .query("in_iframe=1")
            .reply(job_page(tax)),
        // A job page without a JobPosting: the card's title and location stand.
        Route::get(ICIMS, "/jobs/8212/payroll-support-specialist/job")
            .query("in_iframe=1")
            .reply(Reply::html("<!doctype html><html><body><h1>x</h1></body></html>")),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("icims", "wipfli", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2, "{:?}", listing.unreadable);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "8214");
    assert_eq!(a.url, "https://careers-wipfli.icims.com/jobs/8214/payroll-tax-specialist/job");
    assert_eq!(a.title, "Payroll Tax Specialist");
    assert_eq!(a.location, "WI, US", "the UNAVAILABLE locality is blank");
    assert_eq!(codes(&a.countries), ["us"]);
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(a.posted_at, Some(RawDate::Text("2026-08-03T05:00:00.000Z".into())));
    assert_eq!(a.description_html, "<p>File payroll taxes.</p>");
    let b = &listing.postings[1];
    assert_eq!(b.native_id, "8212");
    assert_eq!(b.title, "Payroll Support Specialist");
    assert_eq!(b.location, "US");
    assert!(b.countries.is_empty(), "a card's text is not a structured country");
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(&paths[..3], ["/sitemap.xml", "/jobs/search", "/jobs/search"]);
}

#[tokio::test]
async fn icims_search_pages_fail_closed() {
    let routes = vec![
        Route::get(ICIMS, "/sitemap.xml").reply(Reply::status(404)),
        Route::get(ICIMS, "/jobs/search")
            .query("pr=0&in_iframe=1")
            .reply(Reply::file(careerkit("icims.html")).unwrap()),
        Route::get(ICIMS, "/jobs/search").query("pr=1&in_iframe=1").reply(Reply::status(500)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch_new(&reg, &target("icims", "wipfli", ""), &["8214", "8212"]).await.unwrap_err();
    assert!(matches!(err, IngestError::Status { status: 500, .. }), "{err}");
}

/// A sitemap index and its job sitemap, derived from the recorded page's job URLs.
fn icims_sitemaps() -> (Reply, Reply) {
    let index = r#"<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://careers-wipfli.icims.com/sitemap-jobs.xml</loc></sitemap>
</sitemapindex>"#;
    let jobs = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://careers-wipfli.icims.com/jobs/search</loc></url>
<url><loc>https://careers-wipfli.icims.com/jobs/8214/payroll-tax-specialist/job</loc><lastmod>2026-08-03</lastmod></url>
<url><loc>https://careers-wipfli.icims.com/jobs/8212/payroll-support-specialist/job</loc></url>
<url><loc>https://careers-other.icims.com/jobs/1/elsewhere/job</loc></url>
</urlset>"#;
    (Reply::xml(index), Reply::xml(jobs))
}

#[tokio::test]
async fn icims_sitemap_with_sub_sitemaps_and_failing_closed() {
    let (index, jobs) = icims_sitemaps();
    let routes = vec![
        Route::get(ICIMS, "/sitemap.xml").reply(index.clone()),
        Route::get(ICIMS, "/sitemap-jobs.xml").reply(jobs),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("icims", "careers-wipfli.icims.com", "");
    let listing = fetch_new(&reg, &t, &["8214", "8212"]).await.unwrap();
    assert_eq!(listing.seen_refresh, ["8214", "8212"]);
    assert_eq!(server.requests().len(), 2);

    let routes = vec![
        Route::get(ICIMS, "/sitemap.xml").reply(index),
        Route::get(ICIMS, "/sitemap-jobs.xml").reply(Reply::status(500)),
    ];
    let (_s, reg) = setup(routes).await;
    assert!(fetch_new(&reg, &t, &["8214", "8212"]).await.is_err(), "a failed sub-sitemap fails");
}

/// A sitemap that names no job does not prove an empty board: the search pages are read.
#[tokio::test]
async fn icims_empty_sitemap_falls_back_to_the_search_pages() {
    let empty = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://careers-wipfli.icims.com/jobs/intro</loc></url>
</urlset>"#;
    let routes = vec![
        Route::get(ICIMS, "/sitemap.xml").reply(Reply::xml(empty)),
        Route::get(ICIMS, "/jobs/search")
            .query("pr=0&in_iframe=1")
            .reply(Reply::file(careerkit("icims.html")).unwrap()),
        Route::get(ICIMS, "/jobs/search")
            .query("pr=1&in_iframe=1")
            .reply(Reply::file(careerkit("icims.html")).unwrap()),
    ];
    let (server, reg) = setup(routes).await;
    let listing = fetch_new(&reg, &target("icims", "wipfli", ""), &["8214", "8212"]).await.unwrap();
    assert_eq!(listing.seen_refresh, ["8214", "8212"]);
    // The second page repeats the first: it adds nothing, so the walk ends there.
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn icims_missing_portal_is_board_gone() {
    let routes = vec![
        Route::get(ICIMS, "/sitemap.xml").reply(Reply::status(404)),
        Route::get(ICIMS, "/jobs/search").reply(Reply::status(404)),
        Route::get("https://careers.acme.com", "/sitemap.xml").reply(Reply::status(404)),
    ];
    let (_s, reg) = setup(routes).await;
    for board in ["wipfli", "careers.acme.com"] {
        let err = fetch(&reg, &target("icims", board, "")).await.unwrap_err();
        assert!(matches!(err, IngestError::BoardGone { .. }), "{board}: {err}");
    }
}

#[test]
fn icims_recognition_and_fold() {
    assert_eq!(
        rec("https://careers-wipfli.icims.com/jobs/8214/payroll-tax-specialist/job?in_iframe=1"),
        ("icims".into(), "wipfli".into(), "https://careers-wipfli.icims.com/jobs".into())
    );
    assert_eq!(rec("careers-wipfli.icims.com/jobs/search?pr=1").1, "wipfli");
    assert_eq!(
        rec("https://uscareers-acme.icims.com/jobs/intro"),
        (
            "icims".into(),
            "uscareers-acme.icims.com".into(),
            "https://uscareers-acme.icims.com/jobs".into()
        )
    );
    for url in [
        "https://www.icims.com/",
        "https://icims.com/jobs/1/job",
        "https://community.icims.com/",
        "https://careers-.icims.com/jobs",
        "https://careers-wipfli.icims.com.evil.com/jobs",
    ] {
        unrecognised(url);
    }
    let key = |b: &str| {
        freehire_domain::BoardKey::new(freehire_domain::Provider::parse("icims").unwrap(), b, "")
            .unwrap()
    };
    assert_eq!(board_identity(&key("careers-wipfli.icims.com")), board_identity(&key("WIPFLI")));
    assert_eq!(board_identity(&key("careers-wipfli.icims.com/")), board_identity(&key("wipfli")));
    assert_ne!(board_identity(&key("jobs-wipfli.icims.com")), board_identity(&key("wipfli")));
}

// ---------------------------------------------------------------- jobvite

const JOBVITE: &str = "https://jobs.jobvite.com";

#[tokio::test]
async fn jobvite_recorded_list_and_job_pages() {
    let dev = json!({"@context": "http://schema.org", "@type": "JobPosting",
        "title": "Manager, Development (Chicago/Hybrid)", "description": "&lt;p&gt;Grow giving.&lt;/p&gt;",
        "datePosted": "2026-07-28", "employmentType": "Full-Time",
        "jobLocation": {"@type": "Place", "address": {"addressLocality": "Chicago",
            "addressRegion": "IL", "addressCountry": "United States"}},
        "baseSalary": {"@type": "MonetaryAmount", "currency": "USD",
            "value": {"@type": "QuantitativeValue", "minValue": 70000, "maxValue": 85000, "unitText": "YEAR"}}});
    let routes = vec![
        Route::get(JOBVITE, "/feedingamerica/jobs")
            .reply(Reply::file(careerkit("jobvite.html")).unwrap()),
        Route::get(JOBVITE, "/feedingamerica/job/octxAfww").reply(job_page(dev)),
        Route::get(JOBVITE, "/feedingamerica/job/ohAzAfwK")
            .reply(Reply::html("<!doctype html><html><body>no ld+json</body></html>")),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("jobvite", "feedingamerica", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2, "{:?}", listing.unreadable);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "octxAfww");
    assert_eq!(a.url, "https://jobs.jobvite.com/feedingamerica/job/octxAfww");
    assert_eq!(a.title, "Manager, Development (Chicago/Hybrid)");
    assert_eq!(a.location, "Chicago, IL, United States");
    assert_eq!(codes(&a.countries), ["us"]);
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(a.posted_at, Some(RawDate::Text("2026-07-28".into())));
    assert_eq!(a.description_html, "<p>Grow giving.</p>");
    let s = a.salary.as_ref().unwrap();
    assert_eq!((s.min, s.max, s.currency.as_str()), (Some(70000), Some(85000), "USD"));
    assert_eq!(a.work_mode, None, "a title saying Hybrid is the normaliser's to read");
    // No JobPosting on the page: the recorded row's title and location cell stand.
    let b = &listing.postings[1];
    assert_eq!(b.native_id, "ohAzAfwK");
    assert_eq!(b.title, "Manager, Technology Vendor Management (Chicago/Hybrid)");
    assert_eq!(b.location, "Chicago, Illinois");
    assert!(b.countries.is_empty());
    assert_eq!(server.requests().len(), 3);
    // Hydrating: seen codes get no job page.
    let again = fetch_new(&reg, &t, &["octxAfww", "ohAzAfwK"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["octxAfww", "ohAzAfwK"]);
    assert_eq!(server.requests().len(), 4);
}

/// Jobvite's list is one page (reference §13.2): there is no later page to fail, so the one
/// page failing (or cut short) fails the board, and a missing company is a gone board.
// scenario: A single-page listing in foreign markup fails the board
#[tokio::test]
async fn jobvite_failed_listing_fails_and_404_is_gone() {
    let routes = vec![
        Route::get(JOBVITE, "/broken/jobs").reply(Reply::status(500)),
        Route::get(JOBVITE, "/cut/jobs").reply(Reply::html(read("jobvite.html")).truncated()),
        Route::get(JOBVITE, "/nosuch/jobs").reply(Reply::status(404)),
        Route::get(JOBVITE, "/quiet/jobs").reply(Reply::html(
            "<html><body><div class=\"jv-page-body\"><p class=\"jv-no-jobs\">There are \
             currently no open jobs.</p></div></body></html>",
        )),
        Route::get(JOBVITE, "/redesigned/jobs")
            .reply(Reply::html("<html><body><div id=\"app\"></div></body></html>")),
    ];
    let (_s, reg) = setup(routes).await;
    // An empty board in Jobvite's markup is empty; a page without it proves nothing.
    let quiet = fetch(&reg, &target("jobvite", "quiet", "")).await.unwrap();
    assert!(quiet.postings.is_empty());
    let err = fetch(&reg, &target("jobvite", "redesigned", "")).await.unwrap_err();
    let chain = freehire_ingest::error_chain(&err);
    assert!(chain.contains("no job and has none of the platform's markup"), "{chain}");
    assert_eq!(err.class(), freehire_domain::FailureClass::Parse);
    let err = fetch(&reg, &target("jobvite", "broken", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Status { status: 500, .. }), "{err}");
    assert!(fetch(&reg, &target("jobvite", "cut", "")).await.is_err());
    let err = fetch(&reg, &target("jobvite", "nosuch", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
}

#[test]
fn jobvite_recognition() {
    let want = (
        "jobvite".to_owned(),
        "feedingamerica".to_owned(),
        "https://jobs.jobvite.com/feedingamerica/jobs".to_owned(),
    );
    for url in [
        "https://jobs.jobvite.com/feedingamerica",
        "https://jobs.jobvite.com/feedingamerica/jobs",
        "https://jobs.jobvite.com/feedingamerica/search?q=&l=",
        "https://jobs.jobvite.com/feedingamerica/job/octxAfww",
    ] {
        assert_eq!(rec(url), want, "{url}");
    }
    for url in [
        "https://jobs.jobvite.com/",
        "https://www.jobvite.com/careers/",
        "https://jobs.jobvite.com/api/job",
        "https://jobs.jobvite.com.evil.com/feedingamerica",
    ] {
        unrecognised(url);
    }
}

// ---------------------------------------------------------------- jazzhr

/// A fixture of this crate's own (`tests/fixtures/<key>/`; see its ATTRIBUTION.md).
fn local(key: &str, name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(key).join(name)
}

fn board_key(provider: &str, board: &str) -> freehire_domain::BoardKey {
    freehire_domain::BoardKey::new(freehire_domain::Provider::parse(provider).unwrap(), board, "")
        .unwrap()
}

const JAZZ: &str = "https://acmerobotics.applytojob.com";

/// Constructed fixtures (unproven; `tests/fixtures/jazzhr/ATTRIBUTION.md`).
#[tokio::test]
async fn jazzhr_careers_page_and_job_pages() {
    let routes = vec![
        Route::get(JAZZ, "/apply").reply(Reply::file(local("jazzhr", "listing.html")).unwrap()),
        Route::get(JAZZ, "/apply/Xb3kLp9QzA/Senior-Firmware-Engineer")
            .reply(Reply::file(local("jazzhr", "job.html")).unwrap()),
        Route::get(JAZZ, "/apply/7uTr2WqM1c/Field-Service-Technician").reply(Reply::status(403)),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("jazzhr", "acmerobotics", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 1);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "Xb3kLp9QzA");
    assert_eq!(
        p.url,
        "https://acmerobotics.applytojob.com/apply/Xb3kLp9QzA/Senior-Firmware-Engineer"
    );
    assert_eq!(p.title, "Senior Firmware Engineer");
    assert_eq!(p.location, "Pittsburgh, PA, US");
    assert_eq!(codes(&p.countries), ["us"]);
    assert_eq!(p.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-07-30".into())));
    assert_eq!(
        p.description_html,
        "<p>Write firmware for warehouse robots.</p><ul><li>Embedded C</li></ul>"
    );
    let s = p.salary.as_ref().unwrap();
    assert_eq!(
        (s.min, s.max, s.currency.as_str(), s.period),
        (Some(120000), Some(150000), "USD", freehire_domain::SalaryPeriod::Year)
    );
    // The second job's page failed: listed as unreadable, never dropped.
    assert_eq!(listing.unreadable.len(), 1);
    assert_eq!(listing.unreadable[0].native_id, "7uTr2WqM1c");
    assert_eq!(server.requests().len(), 3);
    let again = fetch_new(&reg, &t, &["Xb3kLp9QzA", "7uTr2WqM1c"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["Xb3kLp9QzA", "7uTr2WqM1c"]);
    assert_eq!(server.requests().len(), 4);
}

/// Without a JobPosting on the job page the listing row's title and location stand; the
/// one-page listing failing fails the board; a 404 is a gone board.
#[tokio::test]
async fn jazzhr_row_fallback_failure_and_gone() {
    let routes = vec![
        Route::get(JAZZ, "/apply").reply(Reply::file(local("jazzhr", "listing.html")).unwrap()),
        Route::get(JAZZ, "/apply/7uTr2WqM1c/Field-Service-Technician")
            .reply(Reply::html("<!doctype html><html><body>no ld+json</body></html>")),
        Route::get("https://broken.applytojob.com", "/apply").reply(Reply::status(500)),
        Route::get("https://gone.applytojob.com", "/apply").reply(Reply::status(404)),
        Route::get("https://parked.applytojob.com", "/apply")
            .reply(Reply::html("<html><body>This domain is for sale</body></html>")),
    ];
    let (_s, reg) = setup(routes).await;
    let listing =
        fetch_new(&reg, &target("jazzhr", "acmerobotics", ""), &["Xb3kLp9QzA"]).await.unwrap();
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "7uTr2WqM1c");
    assert_eq!(
        p.url,
        "https://acmerobotics.applytojob.com/apply/7uTr2WqM1c/Field-Service-Technician"
    );
    assert_eq!(p.title, "Field Service Technician");
    assert_eq!(p.location, "Remote");
    assert_eq!(p.work_mode, None, "the row's text is the normaliser's to read");
    let err = fetch(&reg, &target("jazzhr", "broken", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Status { status: 500, .. }), "{err}");
    let err = fetch(&reg, &target("jazzhr", "gone", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
    // A page that is not JazzHR's fails the board instead of reading as empty.
    let err = fetch(&reg, &target("jazzhr", "parked", "")).await.unwrap_err();
    let chain = freehire_ingest::error_chain(&err);
    assert!(chain.contains("resumator"), "{chain}");
}

#[test]
fn jazzhr_recognition_and_fold() {
    let want = (
        "jazzhr".to_owned(),
        "acmerobotics".to_owned(),
        "https://acmerobotics.applytojob.com/apply".to_owned(),
    );
    for url in [
        "https://acmerobotics.applytojob.com/apply/Xb3kLp9QzA/Senior-Firmware-Engineer",
        "acmerobotics.applytojob.com",
        "https://acmerobotics.applytojob.com/apply",
    ] {
        assert_eq!(rec(url), want, "{url}");
    }
    for url in [
        "https://www.applytojob.com/",
        "https://applytojob.com/apply",
        "https://app.applytojob.com/apply",
        "https://a.b.applytojob.com/apply",
        "https://acmerobotics.applytojob.com.evil.com/apply",
    ] {
        unrecognised(url);
    }
    assert_eq!(
        board_identity(&board_key("jazzhr", "acmerobotics.applytojob.com")),
        board_identity(&board_key("jazzhr", "AcmeRobotics"))
    );
}

// ---------------------------------------------------------------- breezy

const BREEZY: &str = "https://northwind.breezy.hr";

/// Constructed fixtures (unproven; `tests/fixtures/breezy/ATTRIBUTION.md`).
#[tokio::test]
async fn breezy_list_and_position_pages() {
    let routes = vec![
        Route::get(BREEZY, "/json").reply(Reply::file(local("breezy", "positions.json")).unwrap()),
        Route::get(BREEZY, "/p/4f2a9c81d0e7-senior-backend-engineer")
            .reply(Reply::file(local("breezy", "position.html")).unwrap()),
        Route::get(BREEZY, "/p/b7e3104c55aa-customer-success-manager")
            .reply(Reply::html("<!doctype html><html><body>no ld+json</body></html>")),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("breezy", "northwind", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2, "{:?}", listing.unreadable);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "4f2a9c81d0e7");
    assert_eq!(a.url, "https://northwind.breezy.hr/p/4f2a9c81d0e7-senior-backend-engineer");
    assert_eq!(a.title, "Senior Backend Engineer");
    assert_eq!(a.location, "Berlin, Germany");
    assert_eq!(codes(&a.countries), ["de"]);
    assert_eq!((a.remote, a.work_mode), (None, None), "is_remote false states no work mode");
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(a.departments, ["Engineering"]);
    assert_eq!(a.posted_at, Some(RawDate::Text("2026-08-02T09:15:00.000Z".into())));
    assert_eq!(a.description_html, "<p>Build the order service in Rust.</p>");
    let s = a.salary.as_ref().unwrap();
    assert_eq!(
        (s.min, s.max, s.currency.as_str(), s.period),
        (Some(70000), Some(85000), "EUR", freehire_domain::SalaryPeriod::Year)
    );
    let b = &listing.postings[1];
    assert_eq!(b.native_id, "b7e3104c55aa");
    assert_eq!(b.location, "Lisbon, Portugal (Remote)");
    assert_eq!(codes(&b.countries), ["pt"]);
    assert_eq!((b.remote, b.work_mode), (Some(true), Some(WorkMode::Remote)));
    assert_eq!(b.employment_type, Some(EmploymentType::Contract));
    assert_eq!(b.salary, None, "the list's salary is free text");
    assert_eq!(b.description_html, "", "a page without a JobPosting leaves no description");
    assert_eq!(server.requests().len(), 3);
    let again = fetch_new(&reg, &t, &["4f2a9c81d0e7", "b7e3104c55aa"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["4f2a9c81d0e7", "b7e3104c55aa"]);
    assert_eq!(server.requests().len(), 4);
}

/// The list is one document: its failure, a cut body or a block page fails the board; a 404
/// is a gone board; a failed position page leaves the posting unreadable, not dropped.
#[tokio::test]
async fn breezy_failures() {
    let list = read_local("breezy", "positions.json");
    let routes = vec![
        Route::get("https://broken.breezy.hr", "/json").reply(Reply::status(500)),
        Route::get("https://cut.breezy.hr", "/json").reply(Reply::json(list.clone()).truncated()),
        Route::get("https://blocked.breezy.hr", "/json")
            .reply(Reply::html("<!DOCTYPE html><html><body>Just a moment...</body></html>")),
        Route::get("https://gone.breezy.hr", "/json").reply(Reply::status(404)),
        Route::get(BREEZY, "/json").reply(Reply::json(list)),
        Route::get(BREEZY, "/p/b7e3104c55aa-customer-success-manager").reply(Reply::status(403)),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &target("breezy", "broken", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::Status { status: 500, .. }), "{err}");
    assert!(fetch(&reg, &target("breezy", "cut", "")).await.is_err());
    let err = fetch(&reg, &target("breezy", "blocked", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BlockPage { .. }), "{err}");
    let err = fetch(&reg, &target("breezy", "gone", "")).await.unwrap_err();
    assert!(matches!(err, IngestError::BoardGone { .. }), "{err}");
    let listing =
        fetch_new(&reg, &target("breezy", "northwind", ""), &["4f2a9c81d0e7"]).await.unwrap();
    assert!(listing.postings.is_empty());
    assert_eq!(listing.unreadable.len(), 1);
    assert_eq!(listing.unreadable[0].native_id, "b7e3104c55aa");
}

fn read_local(key: &str, name: &str) -> String {
    std::fs::read_to_string(local(key, name)).unwrap()
}

#[test]
fn breezy_recognition_and_fold() {
    let want =
        ("breezy".to_owned(), "northwind".to_owned(), "https://northwind.breezy.hr".to_owned());
    for url in [
        "https://northwind.breezy.hr/",
        "https://northwind.breezy.hr/p/4f2a9c81d0e7-senior-backend-engineer",
        "northwind.breezy.hr/json",
    ] {
        assert_eq!(rec(url), want, "{url}");
    }
    for url in [
        "https://breezy.hr/",
        "https://www.breezy.hr/pricing",
        "https://app.breezy.hr/signin",
        "https://help.breezy.hr/en/",
        "https://northwind.breezy.hr.evil.com/",
    ] {
        unrecognised(url);
    }
    assert_eq!(
        board_identity(&board_key("breezy", "northwind.breezy.hr")),
        board_identity(&board_key("breezy", "Northwind"))
    );
}
