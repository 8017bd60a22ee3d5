//! Every adapter against the recorded responses in `shared/fixtures/ats/`, served by the
//! replay server. Where a platform needs a detail or a page the fixtures lack, the test data
//! is derived from the recorded shape (field names as in the recorded listing / the
//! platform's documented detail document) and the test says so.

use freehire_domain::{EmploymentType, SalaryPeriod, WorkMode};
use freehire_ingest::replay::{Reply, Route};
use freehire_ingest::{IngestError, RawDate, sanitize_html};
use serde_json::json;

use crate::support::{careerkit, codes, fetch, fetch_new, fixtures, read, setup, target};

// scenario: Ashby compensation
#[tokio::test]
async fn ashby_careerkit_with_compensation() {
    let route = Route::get("https://api.ashbyhq.com", "/posting-api/job-board/HighlightTA")
        .query("includeCompensation=true")
        .reply(Reply::file(careerkit("ashby.json")).unwrap());
    let (server, reg) = setup(vec![route]).await;
    let listing = fetch(&reg, &target("ashby", "HighlightTA", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "90fb3621-899e-4b59-925d-25080ec91e18");
    assert_eq!(a.title, "Senior Technical Recruiter");
    assert_eq!(a.location, "Canada");
    assert_eq!(a.url, "https://jobs.ashbyhq.com/HighlightTA/90fb3621-899e-4b59-925d-25080ec91e18");
    assert_eq!(a.remote, Some(true));
    assert_eq!(a.work_mode, Some(WorkMode::Remote));
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    // A remote job's postal address is the company's: its countries come from the location
    // text ("Canada"), which the normaliser reads.
    assert!(a.countries.is_empty(), "{:?}", a.countries);
    assert_eq!(a.salary, None);
    assert_eq!(a.posted_at, Some(RawDate::Text("2026-04-20T22:43:56.531+00:00".into())));
    // The adapter hands over the description as stated; the pipeline sanitises it.
    assert!(a.description_html.contains("style="), "not sanitised by the adapter");
    let clean = sanitize_html(&a.description_html);
    assert!(clean.starts_with("<h2><strong>About HighlightTA</strong></h2><p>"));
    assert!(!clean.contains("style="));
    let b = &listing.postings[1];
    assert_eq!(b.title, "Senior Site Reliability Engineer");
    assert_eq!(b.work_mode, Some(WorkMode::Hybrid));
    let s = b.salary.as_ref().unwrap();
    assert_eq!(
        (s.min, s.max, s.currency.as_str(), s.period),
        (Some(102800), Some(137000), "CAD", SalaryPeriod::Year)
    );
    assert_eq!(b.departments, ["HighlightTA Confidential"]);
    // The request went through replay with the upstream named in the header.
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].upstream, "https://api.ashbyhq.com");
}

#[tokio::test]
async fn ashby_recorded_boards() {
    let dir = fixtures().join("ashby-boards");
    let mut b = freehire_ingest::replay::ReplayServer::builder();
    b = b.directory("https://api.ashbyhq.com", "/posting-api/job-board/", &dir, "json").unwrap();
    let server = b.start().await.unwrap();
    let http =
        freehire_ingest::http::HttpClient::new(crate::support::fast_config(&server)).unwrap();
    let reg = freehire_ingest::Sources::new(&http, freehire_ingest::SourceConfig::default());
    let cartesia = fetch(&reg, &target("ashby", "cartesia", "")).await.unwrap();
    assert_eq!(cartesia.postings.len(), 23);
    let first = &cartesia.postings[0];
    assert_eq!(first.title, "Senior Applied Researcher, Audio Understanding");
    assert_eq!(first.location, "*HQ - San Francisco, CA");
    assert_eq!(codes(&first.countries), ["us"]);
    let s = first.salary.as_ref().unwrap();
    assert_eq!((s.min, s.max, s.currency.as_str()), (Some(200000), Some(350000), "USD"));
    // Empty board: `{"jobs": [], "apiVersion": "1"}` is success with zero postings.
    let anara = fetch(&reg, &target("ashby", "anara", "")).await.unwrap();
    assert!(anara.postings.is_empty());
    let mobbin = fetch(&reg, &target("ashby", "mobbin.com", "")).await.unwrap();
    assert_eq!(mobbin.postings.len(), 5);
}

// scenario: Greenhouse board about text
// scenario: Greenhouse content
#[tokio::test]
async fn greenhouse_unescapes_content() {
    let route = Route::get("https://boards-api.greenhouse.io", "/v1/boards/amplitude/jobs")
        .query("content=true")
        .reply(Reply::file(careerkit("greenhouse.json")).unwrap());
    // The board "about" document is derived from Greenhouse's `/v1/boards/{b}` shape.
    let about =
        Route::get("https://boards-api.greenhouse.io", "/v1/boards/amplitude").reply(Reply::json(
            r#"{"name": "Amplitude", "content": "&lt;p&gt;Amplitude builds analytics.&lt;/p&gt;"}"#,
        ));
    let (_s, reg) = setup(vec![route, about]).await;
    let listing = fetch(&reg, &target("greenhouse", "amplitude", "")).await.unwrap();
    assert_eq!(listing.company_description.as_deref(), Some("<p>Amplitude builds analytics.</p>"));
    assert_eq!(listing.postings.len(), 2);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "8636903002");
    assert_eq!(p.title, "Customer Data Scientist - Experimentation");
    assert_eq!(p.location, "London, UK");
    assert_eq!(p.company.as_deref(), Some("Amplitude"));
    assert_eq!(p.url, "https://job-boards.greenhouse.io/amplitude/jobs/8636903002");
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-07-16T11:55:32-04:00".into())));
    // "Regular" is not one of our employment types: not guessed.
    assert_eq!(p.employment_type, None);
    assert_eq!(p.departments, ["Solutions Consulting"]);
    // Entity-decoded by the adapter, sanitised by the pipeline.
    assert!(!p.description_html.contains("&lt;"));
    assert!(p.description_html.starts_with("<div class="), "not sanitised by the adapter");
    assert!(
        sanitize_html(&p.description_html)
            .starts_with("<div><p>Amplitude is the leading AI analytics platform")
    );
    assert_eq!(listing.postings[1].location, "Bangalore, India");
}

// scenario: Lever EU region
#[tokio::test]
async fn lever_global_and_eu() {
    let global = Route::get("https://api.lever.co", "/v0/postings/idealistconsulting")
        .query("mode=json")
        .reply(Reply::file(careerkit("lever.json")).unwrap());
    let eu = Route::get("https://api.eu.lever.co", "/v0/postings/idealistconsulting")
        .query("mode=json")
        .reply(Reply::json("[]"));
    let (server, reg) = setup(vec![global, eu]).await;
    let listing = fetch(&reg, &target("lever", "idealistconsulting", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "a24ec4e5-5caa-473d-abd4-b71f09a8167b");
    assert_eq!(
        p.title,
        "(1099 Contract) Nonprofit Salesforce Consultant: Enterprise Project Manager"
    );
    assert_eq!(
        p.url,
        "https://jobs.lever.co/idealistconsulting/a24ec4e5-5caa-473d-abd4-b71f09a8167b"
    );
    assert_eq!(p.posted_at, Some(RawDate::UnixMillis(1764205361939)));
    assert_eq!(p.work_mode, Some(WorkMode::Remote));
    assert_eq!(codes(&p.countries), ["us"]);
    assert_eq!(p.employment_type, Some(EmploymentType::Contract));
    assert_eq!(p.location, "Chicago, IL");
    assert_eq!(p.departments, ["Services Team"]);
    assert!(p.description_html.contains("<h3>How You'll Contribute</h3><ul>"));
    assert!(p.description_html.contains("Contractor hourly rates"));
    let eu_listing = fetch(&reg, &target("lever", "idealistconsulting", "eu")).await.unwrap();
    assert!(eu_listing.postings.is_empty());
    assert_eq!(server.requests()[1].upstream, "https://api.eu.lever.co");
}

#[tokio::test]
async fn recruitee_salary_mode_and_apply_form() {
    let route = Route::get("https://acme.recruitee.com", "/api/offers/")
        .reply(Reply::file(careerkit("recruitee.json")).unwrap());
    let (_s, reg) = setup(vec![route]).await;
    let listing = fetch(&reg, &target("recruitee", "acme", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "2700825");
    assert_eq!(
        p.title,
        "(Senior) Financial Accountant (f/m/d) - Berlin/Brandenburg Region, Germany"
    );
    assert_eq!(p.location, "Berlin, Berlin, Germany");
    assert_eq!(p.company.as_deref(), Some("Acme"));
    assert_eq!(p.work_mode, Some(WorkMode::Hybrid));
    assert_eq!(p.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(codes(&p.countries), ["de"]);
    let s = p.salary.as_ref().unwrap();
    assert_eq!(
        (s.min, s.max, s.currency.as_str(), s.period),
        (Some(60000), Some(75000), "EUR", SalaryPeriod::Year)
    );
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-08-05 10:10:39 UTC".into())));
    assert!(p.description_html.contains("What we expect from you"));
    assert_eq!(p.seniority, None, "experience_code \"experienced\" is not mapped");
    let form = p.apply_form.as_ref().unwrap();
    assert_eq!(form["open_questions"].as_array().unwrap().len(), 3);
    assert_eq!(form["options_cv"], "required");
    assert_eq!(listing.postings[1].departments, ["Sales"]);
}

/// The recorded Personio document has empty `<jobDescriptions>`; the `language=en` document
/// below is derived from it with a description filled in.
// scenario: Personio language fallback
#[tokio::test]
async fn personio_xml_dedup_and_language_fallback() {
    let recorded = read("personio.xml");
    let english = recorded.replacen(
        "<jobDescriptions></jobDescriptions>",
        "<jobDescriptions><jobDescription><name>Your role</name><value><![CDATA[<p>Build the data platform.</p>]]></value></jobDescription></jobDescriptions>",
        1,
    );
    let en = Route::get("https://acme.jobs.personio.com", "/xml")
        .query("language=en")
        .reply(Reply::xml(english));
    let plain = Route::get("https://acme.jobs.personio.com", "/xml").reply(Reply::xml(recorded));
    let (server, reg) = setup(vec![en, plain]).await;
    let listing = fetch(&reg, &target("personio", "acme", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 1, "the repeated position is merged");
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "1834171");
    assert_eq!(p.title, "Staff Software Engineer, Data Platform");
    assert_eq!(p.company.as_deref(), Some("Acme SE & Co. KG"));
    assert_eq!(p.location, "Munich; Berlin");
    assert_eq!(p.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(p.departments, ["Product and Tech"]);
    assert_eq!(p.experience_years_min, Some(7), "yearsOfExperience 7-10");
    assert_eq!(p.seniority, None, "\"experienced\" names no grade of ours");
    assert_eq!(p.url, "https://acme.jobs.personio.com/job/1834171");
    assert_eq!(p.posted_at, Some(RawDate::Text("2024-11-13T14:10:41+00:00".into())));
    assert_eq!(p.description_html, "<h3>Your role</h3><p>Build the data platform.</p>");
    assert_eq!(server.requests().len(), 2);
}

// scenario: Empty board
#[tokio::test]
async fn personio_empty_document_is_an_empty_board() {
    let empty = "<?xml version='1.0' encoding='UTF-8'?>\n<workzag-jobs/>\n";
    let route = Route::get("https://quiet.jobs.personio.com", "/xml").reply(Reply::xml(empty));
    let (_s, reg) = setup(vec![route]).await;
    let listing = fetch(&reg, &target("personio", "quiet", "")).await.unwrap();
    assert!(listing.postings.is_empty());
}

#[tokio::test]
async fn teamtailor_feed() {
    let route = Route::get("https://career.teamtailor.com", "/jobs.json")
        .reply(Reply::file(careerkit("teamtailor.json")).unwrap());
    let (_s, reg) = setup(vec![route]).await;
    let listing = fetch(&reg, &target("teamtailor", "career", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "7167985");
    assert_eq!(a.title, "Account Executive - Italy (Madrid based)");
    assert_eq!(
        a.url,
        "https://career.teamtailor.com/jobs/7167985-account-executive-italy-madrid-based"
    );
    assert_eq!(a.location, "Madrid, ES");
    assert_eq!(codes(&a.countries), ["es"]);
    assert_eq!(a.posted_at, Some(RawDate::Text("2026-02-04T09:26:20+01:00".into())));
    let b = &listing.postings[1];
    assert_eq!(b.location, "Stockholm, SE; København, DK");
    assert_eq!(codes(&b.countries), ["dk", "se"]);
}

/// The fixture has BambooHR's list only; the detail documents are derived from the
/// platform's `careers/{id}/detail` shape (`result.jobOpening`).
// scenario: Hydrating fetch skips stored postings
#[tokio::test]
async fn bamboohr_list_detail_and_hydration() {
    let detail = |id: &str, desc: &str| {
        Reply::json(
            json!({"meta": {}, "result": {"jobOpening": {
                "id": id,
                "jobOpeningShareUrl": format!("https://acme.bamboohr.com/careers/{id}"),
                "description": desc,
                "datePosted": "2026-08-01",
                "location": {"city": "Fort Lauderdale", "state": "Florida", "addressCountry": "United States"},
            }}})
            .to_string(),
        )
    };
    let routes = vec![
        Route::get("https://acme.bamboohr.com", "/careers/list")
            .reply(Reply::file(careerkit("bamboohr.json")).unwrap()),
        Route::get("https://acme.bamboohr.com", "/careers/86/detail")
            .reply(detail("86", "<p>Paralegal work.</p>")),
        Route::get("https://acme.bamboohr.com", "/careers/87/detail")
            .reply(detail("87", "<p>Marketing internship.</p>")),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("bamboohr", "acme", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!((a.native_id.as_str(), a.title.as_str()), ("86", "Nurse Paralegal"));
    assert_eq!(a.work_mode, Some(WorkMode::Onsite));
    assert_eq!(a.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(a.description_html, "<p>Paralegal work.</p>");
    assert_eq!(a.location, "Fort Lauderdale, Florida, United States");
    assert_eq!(codes(&a.countries), ["us"]);
    assert_eq!(a.departments, ["Legal"]);
    let b = &listing.postings[1];
    assert_eq!(b.employment_type, Some(EmploymentType::Internship));
    assert_eq!(b.departments, ["Marketing"]);
    // Hydrating: a seen id is re-listed without its detail.
    let before = server.requests().len();
    let again = fetch_new(&reg, &t, &["86"]).await.unwrap();
    assert_eq!(again.seen_refresh, ["86"]);
    assert_eq!(again.postings.len(), 1);
    let paths: Vec<String> = server.requests()[before..].iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, ["/careers/list", "/careers/87/detail"]);
}

#[tokio::test]
async fn bamboohr_redirect_off_careers_is_board_gone() {
    let routes = vec![
        Route::get("https://gone.bamboohr.com", "/careers/list")
            .reply(Reply::redirect(302, "https://www.bamboohr.com/not-found")),
        Route::get("https://www.bamboohr.com", "/not-found").reply(Reply::json("{}")),
    ];
    let (_s, reg) = setup(routes).await;
    let err = fetch(&reg, &target("bamboohr", "gone", "")).await.unwrap_err();
    assert!(matches!(err, freehire_ingest::IngestError::BoardGone { .. }), "{err}");
}

#[tokio::test]
async fn pinpoint_sections_and_compensation() {
    let route = Route::get("https://acme.pinpointhq.com", "/postings.json")
        .reply(Reply::file(careerkit("pinpoint.json")).unwrap());
    let (_s, reg) = setup(vec![route]).await;
    let listing = fetch(&reg, &target("pinpoint", "acme", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let a = &listing.postings[0];
    assert_eq!(a.native_id, "post-001");
    assert_eq!(a.url, "https://acme.pinpointhq.com/en/postings/post-001");
    assert_eq!(a.location, "United States");
    assert_eq!(a.work_mode, Some(WorkMode::Remote));
    assert_eq!(a.departments, ["Technology"]);
    let s = a.salary.as_ref().unwrap();
    assert_eq!(
        (s.min, s.max, s.currency.as_str(), s.period),
        (Some(135000), Some(198000), "USD", SalaryPeriod::Year)
    );
    assert_eq!(
        a.description_html,
        "<p>Lead the enterprise applications roadmap.</p><h3>What you will do</h3><ul><li>Own architecture decisions.</li></ul><h3>What you bring</h3><p>Experience with CRM platforms.</p><h3>Benefits</h3><p>Medical and retirement plans.</p>"
    );
    let b = &listing.postings[1];
    assert_eq!(b.url, "https://acme.pinpointhq.com/postings/post-002");
    assert_eq!(b.work_mode, Some(WorkMode::Hybrid));
    assert_eq!(b.salary.as_ref().unwrap().period, SalaryPeriod::Hour);
    assert_eq!(b.departments, ["Consulting"]);
}

/// The fixture has Rippling's list only; the detail document is derived from the platform's
/// `jobs/{uuid}` shape (`description.role`, `createdOn`).
#[tokio::test]
async fn rippling_merges_locations_and_reads_detail() {
    let uuid = "2f0674e6-f01f-4ecd-b459-e947241c211f";
    let detail = json!({"uuid": uuid, "name": "Account Executive", "description": {"company": "<p>About us</p>", "role": "<p>Sell to accountants.</p>"}, "createdOn": "2026-07-30T12:00:00Z"});
    let routes = vec![
        Route::get("https://ats.rippling.com", "/api/v1/board/acme/jobs")
            .reply(Reply::file(careerkit("rippling.json")).unwrap()),
        Route::get("https://ats.rippling.com", &format!("/api/v1/board/acme/jobs/{uuid}"))
            .reply(Reply::json(detail.to_string())),
    ];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("rippling", "acme", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 1);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, uuid);
    assert_eq!(p.title, "Account Executive - Accountants Channel (East Coast)");
    assert_eq!(p.location, "Remote (New Jersey, US); New York, NY");
    assert_eq!(p.departments, ["Sales"]);
    assert_eq!(p.description_html, "<p>Sell to accountants.</p>");
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-07-30T12:00:00Z".into())));
}

/// The fixture has SmartRecruiters' listing page only; the detail document is derived from
/// the platform's `postings/{id}` shape (`postingUrl`, `jobAd.sections`).
#[tokio::test]
async fn smartrecruiters_list_and_detail() {
    let detail = json!({"id": "743999671674844", "postingUrl": "https://jobs.smartrecruiters.com/Knight/743999671674844-cna-lpn",
        "jobAd": {"sections": {
            "companyDescription": {"title": "Company Description", "text": "<p>Knight Gayles.</p>"},
            "jobDescription": {"title": "Job Description", "text": "<p>Care for residents.</p>"},
            "qualifications": {"title": "Qualifications", "text": "<ul><li>CNA license</li></ul>"},
            "additionalInformation": {"title": "Additional Information", "text": ""}}}});
    let routes = vec![
        Route::get("https://api.smartrecruiters.com", "/v1/companies/Knight/postings")
            .query("limit=100&offset=0")
            .reply(Reply::file(careerkit("smartrecruiters.json")).unwrap()),
        Route::get(
            "https://api.smartrecruiters.com",
            "/v1/companies/Knight/postings/743999671674844",
        )
        .reply(Reply::json(detail.to_string())),
    ];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("smartrecruiters", "Knight", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 1);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "743999671674844");
    assert_eq!(p.title, "CNA  / LPN - Consistent Hours. Start Next Week.");
    assert_eq!(p.url, "https://jobs.smartrecruiters.com/Knight/743999671674844-cna-lpn");
    assert_eq!(p.company.as_deref(), Some("Knight Gayles"));
    assert_eq!(p.location, "St. Louis, MO, United States");
    assert_eq!(codes(&p.countries), ["us"]);
    assert_eq!(p.employment_type, Some(EmploymentType::PartTime));
    assert_eq!(p.work_mode, None, "remote=false and hybrid=false say nothing");
    assert_eq!(p.seniority, None, "experienceLevel not_applicable");
    assert_eq!(p.posted_at, Some(RawDate::Text("2018-06-08T02:11:28.000Z".into())));
    assert_eq!(
        p.description_html,
        "<h3>Job Description</h3><p>Care for residents.</p><h3>Qualifications</h3><ul><li>CNA license</li></ul>"
    );
}

/// A 150-posting board over two pages, derived from the recorded listing item (ids changed).
fn sr_page(offset: usize, count: usize, total: usize) -> String {
    let recorded: serde_json::Value = serde_json::from_str(&read("smartrecruiters.json")).unwrap();
    let item = recorded["content"][0].clone();
    let content: Vec<_> = (offset..offset + count)
        .map(|i| {
            let mut it = item.clone();
            it["id"] = json!(format!("sr-{i}"));
            it
        })
        .collect();
    json!({"offset": offset, "limit": 100, "totalFound": total, "content": content}).to_string()
}

/// Board `Big` stating 150 postings: its first page of 100, then `second` at offset 100.
fn sr_board(second: String) -> Vec<Route> {
    let page = |offset: &str, body: String| {
        Route::get("https://api.smartrecruiters.com", "/v1/companies/Big/postings")
            .query(&format!("limit=100&offset={offset}"))
            .reply(Reply::json(body))
    };
    vec![page("0", sr_page(0, 100, 150)), page("100", second)]
}

#[tokio::test]
async fn smartrecruiters_pages_until_total() {
    let (server, reg) = setup(sr_board(sr_page(100, 50, 150))).await;
    let seen: Vec<String> = (0..150).map(|i| format!("sr-{i}")).collect();
    let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
    let listing = fetch_new(&reg, &target("smartrecruiters", "Big", ""), &seen).await.unwrap();
    assert_eq!(listing.seen_refresh.len(), 150);
    assert!(listing.postings.is_empty());
    assert_eq!(server.requests().len(), 2, "two pages, no detail for seen ids");
}

/// SmartRecruiters states 150 postings; a second page that repeats the first (an offset the
/// API ignored) proves nothing about the other 50: the fetch fails instead of listing 100.
#[tokio::test]
async fn smartrecruiters_repeated_page_fails_closed() {
    let (_s, reg) = setup(sr_board(sr_page(0, 100, 150))).await;
    let err = fetch(&reg, &target("smartrecruiters", "Big", "")).await.unwrap_err();
    assert!(
        matches!(&err, IngestError::Incomplete { reason, .. }
            if reason.contains("page 2 added nothing at 100 of the 150")),
        "{err}"
    );
}

#[tokio::test]
async fn workable_merges_rows_per_location() {
    let route = Route::get("https://apply.workable.com", "/api/v1/widget/accounts/zaelab")
        .query("details=true")
        .reply(Reply::file(careerkit("workable.json")).unwrap());
    let (_s, reg) = setup(vec![route]).await;
    let listing = fetch(&reg, &target("workable", "zaelab", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 1);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "DD136DD7E7");
    assert_eq!(p.title, "Business Analyst - Spanish Speaking");
    assert_eq!(p.company.as_deref(), Some("Zaelab"));
    assert_eq!(p.url, "https://apply.workable.com/j/DD136DD7E7");
    assert_eq!(p.location, "Spain; Portugal");
    assert_eq!(codes(&p.countries), ["es", "pt"]);
    assert_eq!(p.remote, Some(true));
    assert_eq!(p.work_mode, Some(WorkMode::Remote));
    assert_eq!(p.departments, ["Business Consulting"]);
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-08-05".into())));
}

const WD_HOST: &str = "https://salesforce.wd12.myworkdayjobs.com";
const WD_JOBS: &str = "/wday/cxs/salesforce/External_Career_Site/jobs";

/// The fixture has Workday's listing only; the detail documents are derived from the CXS
/// `jobPostingInfo` shape.
#[tokio::test]
async fn workday_list_and_detail() {
    let listing_doc: serde_json::Value = serde_json::from_str(&read("workday.json")).unwrap();
    let mut routes = vec![
        Route::post(WD_HOST, WD_JOBS)
            .body_field("/offset", json!(0))
            .reply(Reply::file(careerkit("workday.json")).unwrap()),
    ];
    for (i, job) in listing_doc["jobPostings"].as_array().unwrap().iter().enumerate() {
        let path = job["externalPath"].as_str().unwrap();
        let detail = json!({"jobPostingInfo": {
            "title": job["title"], "jobDescription": format!("<p>Role {i}</p><script>x()</script>"),
            "location": "Virginia - Washington DC Metro - Remote", "additionalLocations": ["California - San Francisco"],
            "startDate": "2026-08-07", "timeType": "Full time", "remoteType": "Remote",
            "jobRequisitionLocation": {"country": {"alpha2Code": "US"}},
            "externalUrl": format!("https://salesforce.wd12.myworkdayjobs.com/External_Career_Site{path}")}});
        routes.push(
            Route::get(WD_HOST, &format!("/wday/cxs/salesforce/External_Career_Site{path}"))
                .reply(Reply::json(detail.to_string())),
        );
    }
    let (server, reg) = setup(routes).await;
    let t = target("workday", "salesforce.wd12.myworkdayjobs.com/External_Career_Site", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert_eq!(listing.postings.len(), 2);
    let p = &listing.postings[0];
    assert_eq!(p.native_id, "JR354232");
    assert_eq!(p.title, "Solution Architect / Senior Solution Architect - PubSec - SLED/NGO");
    assert_eq!(sanitize_html(&p.description_html), "<p>Role 0</p>");
    assert_eq!(p.location, "Virginia - Washington DC Metro - Remote; California - San Francisco");
    assert_eq!(codes(&p.countries), ["us"]);
    assert_eq!(p.work_mode, Some(WorkMode::Remote));
    assert_eq!(p.employment_type, Some(EmploymentType::FullTime));
    assert_eq!(p.posted_at, Some(RawDate::Text("2026-08-07".into())));
    assert_eq!(listing.postings[1].native_id, "JR332446");
    let body: serde_json::Value = serde_json::from_str(&server.requests()[0].body).unwrap();
    assert_eq!(body, json!({"appliedFacets": {}, "limit": 20, "offset": 0, "searchText": ""}));
}

fn wd_page(total: usize, ids: &[&str], facets: serde_json::Value) -> Reply {
    let postings: Vec<_> = ids
        .iter()
        .map(|id| json!({"title": format!("Job {id}"), "externalPath": format!("/job/X/Job_{id}"), "postedOn": "Posted Today"}))
        .collect();
    Reply::json(json!({"total": total, "jobPostings": postings, "facets": facets}).to_string())
}

/// Derived from the recorded listing shape: a capped board (total 2,000) split by facet.
// scenario: Workday capped listing
#[tokio::test]
async fn workday_splits_a_capped_listing_by_facet() {
    let facets = json!([
        {"facetParameter": "locationMainGroup", "values": [
            {"facetParameter": "locations", "values": [{"id": "loc1", "count": 1500}, {"id": "loc2", "count": 600}]}]},
        {"facetParameter": "jobFamilyGroup", "values": [{"id": "fam1", "count": 1100}, {"id": "fam2", "count": 1000}]},
    ]);
    let jobs = "/wday/cxs/acme/Careers/jobs";
    let host = "https://acme.wd1.myworkdayjobs.com";
    let routes = vec![
        Route::post(host, jobs).body_field("/appliedFacets", json!({})).reply(wd_page(
            2000,
            &["R1", "R2"],
            facets,
        )),
        Route::post(host, jobs)
            .body_field("/appliedFacets", json!({"jobFamilyGroup": ["fam1"]}))
            .reply(wd_page(3, &["R1", "R2", "R3"], json!([]))),
        Route::post(host, jobs)
            .body_field("/appliedFacets", json!({"jobFamilyGroup": ["fam2"]}))
            .reply(wd_page(2, &["R4", "R5"], json!([]))),
    ];
    let (server, reg) = setup(routes).await;
    let t = target("workday", "acme.wd1.myworkdayjobs.com/Careers", "");
    let listing = fetch_new(&reg, &t, &["R1", "R2", "R3", "R4", "R5"]).await.unwrap();
    let mut ids = listing.seen_refresh.clone();
    ids.sort();
    assert_eq!(ids, ["R1", "R2", "R3", "R4", "R5"]);
    assert_eq!(server.requests().len(), 3);
}

// scenario: Workday capped listing
#[tokio::test]
async fn workday_still_capped_at_depth_three_fails() {
    let facets = json!([
        {"facetParameter": "a", "values": [{"id": "a1", "count": 1500}, {"id": "a2", "count": 1500}]},
        {"facetParameter": "b", "values": [{"id": "b1", "count": 1500}, {"id": "b2", "count": 1500}]},
        {"facetParameter": "c", "values": [{"id": "c1", "count": 1500}, {"id": "c2", "count": 1500}]},
    ]);
    let route = Route::post("https://acme.wd1.myworkdayjobs.com", "/wday/cxs/acme/Careers/jobs")
        .reply(wd_page(2000, &["R1"], facets));
    let (_s, reg) = setup(vec![route]).await;
    let err = fetch(&reg, &target("workday", "acme.wd1.myworkdayjobs.com/Careers", ""))
        .await
        .unwrap_err();
    assert!(matches!(err, freehire_ingest::IngestError::Incomplete { .. }), "{err}");
    assert!(err.to_string().contains("depth 3"), "{err}");
}

#[tokio::test]
async fn workday_backs_off_on_429() {
    let route = Route::post(WD_HOST, WD_JOBS)
        .reply(Reply::status(429))
        .reply(Reply::status(403))
        .reply(Reply::json(json!({"total": 0, "jobPostings": []}).to_string()));
    let (server, reg) = setup(vec![route]).await;
    let t = target("workday", "salesforce.wd12.myworkdayjobs.com/External_Career_Site", "");
    let listing = fetch(&reg, &t).await.unwrap();
    assert!(listing.postings.is_empty());
    assert!(server.requests().len() >= 3);
}

/// Derived from the recorded feed: page 1 points to page 2 with `next_url`. Teamtailor is not
/// a full-listing provider, so a failing later page ends the walk with what was gathered.
#[tokio::test]
async fn teamtailor_follows_next_url_and_keeps_gathered_on_later_failure() {
    let mut page1: serde_json::Value = serde_json::from_str(&read("teamtailor.json")).unwrap();
    let second = page1["items"][1].clone();
    page1["items"].as_array_mut().unwrap().truncate(1);
    page1["next_url"] = json!("https://career.teamtailor.com/jobs.json?page=2");
    let page2 = json!({"version": "https://jsonfeed.org/version/1.1", "items": [second]});
    let host = "https://career.teamtailor.com";
    let ok = vec![
        Route::get(host, "/jobs.json").query("page=2").reply(Reply::json(page2.to_string())),
        Route::get(host, "/jobs.json").reply(Reply::json(page1.to_string())),
    ];
    let (_s, reg) = setup(ok).await;
    let listing = fetch(&reg, &target("teamtailor", "career.teamtailor.com", "")).await.unwrap();
    let ids: Vec<_> = listing.postings.iter().map(|p| p.native_id.as_str()).collect();
    assert_eq!(ids, ["7167985", "7069633"]);
    let failing = vec![
        Route::get(host, "/jobs.json").query("page=2").reply(Reply::status(500)),
        Route::get(host, "/jobs.json").reply(Reply::json(page1.to_string())),
    ];
    let (_s, reg) = setup(failing).await;
    let listing = fetch(&reg, &target("teamtailor", "career", "")).await.unwrap();
    let ids: Vec<_> = listing.postings.iter().map(|p| p.native_id.as_str()).collect();
    assert_eq!(ids, ["7167985"]);
}

/// No `language=en` document (404): the description comes from the job page's ld+json (the
/// page is derived: a schema.org JobPosting block as Personio's job pages carry).
// scenario: Personio job-page fallback
#[tokio::test]
async fn personio_job_page_ld_json_fallback() {
    let page = r#"<!DOCTYPE html><html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"JobPosting","title":"Staff Software Engineer, Data Platform","description":"<p>From the job page.</p><script>bad()<\/script>"}</script></head><body></body></html>"#;
    let routes = vec![
        Route::get("https://acme.jobs.personio.com", "/xml")
            .query("language=en")
            .reply(Reply::status(404)),
        Route::get("https://acme.jobs.personio.com", "/xml")
            .reply(Reply::xml(read("personio.xml"))),
        Route::get("https://acme.jobs.personio.com", "/job/1834171").reply(Reply::html(page)),
    ];
    let (_s, reg) = setup(routes).await;
    let listing = fetch(&reg, &target("personio", "acme", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 1);
    assert_eq!(sanitize_html(&listing.postings[0].description_html), "<p>From the job page.</p>");
}

/// Every registered platform with its reference capabilities (§3.1): (provider, full board
/// listing, hydrating), one row each, sorted.
const CAPABILITIES: &[(&str, bool, bool)] = &[
    ("ashby", true, false),
    ("ashbygraphql", false, true),
    ("bamboohr", true, true),
    ("breezy", true, true),
    ("dayforce", false, false),
    ("eightfold", true, true),
    ("gem", false, true),
    ("greenhouse", true, false),
    ("hrmdirect", false, true),
    ("icims", true, true),
    ("jazzhr", true, true),
    ("jobvite", true, true),
    ("lever", true, false),
    ("neogov", false, false),
    ("oracle", false, true),
    ("paycom", false, true),
    ("paylocity", true, true),
    ("personio", true, false),
    ("phenom", false, true),
    ("pinpoint", false, false),
    ("recruitee", true, false),
    ("rippling", false, true),
    ("smartrecruiters", true, true),
    ("successfactors", true, true),
    ("taleo", true, true),
    ("teamtailor", false, false),
    ("ukg", true, true),
    ("ukgready", false, true),
    ("workable", true, false),
    ("workday", true, true),
    ("zohorecruit", false, false),
];

// scenario: Sources lookup
#[tokio::test]
async fn registry_holds_every_platform_with_the_reference_capabilities() {
    let (_s, reg) = setup(vec![]).await;
    let names: Vec<&str> = reg.providers().map(|p| p.as_str()).collect();
    assert_eq!(names, freehire_ingest::provider_keys());
    let table: Vec<&str> = CAPABILITIES.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(names, table);
    for (name, full, hydrating) in CAPABILITIES {
        let caps =
            reg.get(&freehire_domain::Provider::parse(name).unwrap()).unwrap().capabilities();
        assert_eq!((caps.full_board_listing, caps.hydrating), (*full, *hydrating), "{name}");
    }
    let unknown = freehire_domain::Provider::parse("manual").unwrap();
    assert!(matches!(reg.require(&unknown), Err(freehire_ingest::IngestError::UnknownProvider(_))));
}

/// Detail requests fan out, bounded by `detail_concurrency` (listing derived from the recorded
/// SmartRecruiters item; details derived from its detail shape).
#[tokio::test]
async fn detail_fan_out_is_bounded() {
    use std::time::Duration;
    let mut b = freehire_ingest::replay::ReplayServer::builder().route(
        Route::get("https://api.smartrecruiters.com", "/v1/companies/Big/postings")
            .query("limit=100&offset=0")
            .reply(Reply::json(sr_page(0, 12, 12))),
    );
    for i in 0..12 {
        let doc = json!({"postingUrl": format!("https://jobs.smartrecruiters.com/Big/sr-{i}"), "jobAd": {"sections": {"jobDescription": {"text": "<p>x</p>"}}}});
        b = b.route(
            Route::get(
                "https://api.smartrecruiters.com",
                &format!("/v1/companies/Big/postings/sr-{i}"),
            )
            .reply(Reply::json(doc.to_string()).delayed(Duration::from_millis(30))),
        );
    }
    let server = b.start().await.unwrap();
    let http =
        freehire_ingest::http::HttpClient::new(crate::support::fast_config(&server)).unwrap();
    let reg = freehire_ingest::Sources::new(
        &http,
        freehire_ingest::SourceConfig { detail_concurrency: 3 },
    );
    let listing = fetch(&reg, &target("smartrecruiters", "Big", "")).await.unwrap();
    assert_eq!(listing.postings.len(), 12);
    assert_eq!(
        listing.postings[11].url, "https://jobs.smartrecruiters.com/Big/sr-11",
        "order kept"
    );
    let max = server.max_in_flight();
    assert!((2..=3).contains(&max), "max in flight {max}");
}

#[test]
fn gem_sweeps_after_a_day_and_the_others_keep_the_default() {
    let p = |k| freehire_domain::Provider::parse(k).unwrap();
    assert_eq!(
        freehire_ingest::sweep_grace(&p("gem")),
        Some(std::time::Duration::from_secs(86_400))
    );
    assert_eq!(freehire_ingest::sweep_grace(&p("greenhouse")), None);
    assert_eq!(freehire_ingest::sweep_grace(&p("manual")), None);
}
