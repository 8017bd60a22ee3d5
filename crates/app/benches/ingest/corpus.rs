//! The ingest bench's corpus: one [`Platform`] per provider with a recorded or constructed
//! happy-path fixture, each its boards (board key and company) and the replay routes a
//! successful crawl of them needs, as the adapter tests in `crates/ingest/tests/it/` serve
//! them (never their failure routes).
//!
//! Fixtures: `shared/fixtures/ats/` (`ashby-boards/`, `ashby-eval/`, `careerkit/`; found by
//! [`freehire_ingest::replay::recorded_fixtures`]) and `crates/ingest/tests/fixtures/<key>/`.
//! Where a fixture lacks a detail document or job page the crawl asks for, it is derived
//! here from the recorded shape, as the adapter tests derive it.
//!
//! Every recorded board is served under `copies` board names (`{name}-{nnnn}`, or the
//! platform's free part of the key: a Workday site, an Oracle site number, a Paylocity GUID,
//! a Paycom client key…), with the routes generated per copy where a host, path, query or
//! body names the board. Each copy is its own company (`{provider} {name} {nnnn}`; the Ashby
//! copies keep `{name} {nnnn}`), and a fixture stating its employer (Greenhouse, Recruitee,
//! Workable, SmartRecruiters, Personio, Paylocity) is served with the copy's company in its
//! place, so no copy is a repost of another. Phenom and Teamtailor get one board each: their
//! adapters pace the whole provider at 2 requests/s, which the client cannot turn off.

use std::path::{Path, PathBuf};

use freehire_ingest::replay::{Reply, Route};
use serde_json::{Value, json};

/// One provider's boards and the routes that serve them.
pub struct Platform {
    /// The provider key.
    pub provider: &'static str,
    /// The boards: (board key, company).
    pub boards: Vec<(String, String)>,
    /// The replay routes of every board.
    pub routes: Vec<Route>,
}

impl Platform {
    fn new(provider: &'static str) -> Self {
        Self { provider, boards: Vec::new(), routes: Vec::new() }
    }

    fn board(&mut self, board: impl Into<String>, company: impl Into<String>) {
        self.boards.push((board.into(), company.into()));
    }

    fn route(&mut self, route: Route) {
        self.routes.push(route);
    }

    /// The company of copy `i` of the recorded board `name`.
    fn company(&self, name: &str, i: usize) -> String {
        format!("{} {name} {i:04}", self.provider)
    }
}

/// Builds a platform's corpus with the given number of copies of each recorded board.
pub type Build = fn(usize) -> Platform;

/// Every platform of the corpus: its provider key (sorted) and its builder.
pub const PLATFORMS: &[(&str, Build)] = &[
    ("ashby", ashby),
    ("ashbygraphql", ashbygraphql),
    ("bamboohr", bamboohr),
    ("breezy", breezy),
    ("dayforce", dayforce),
    ("eightfold", eightfold),
    ("gem", gem),
    ("greenhouse", greenhouse),
    ("hrmdirect", hrmdirect),
    ("icims", icims),
    ("jazzhr", jazzhr),
    ("jobvite", jobvite),
    ("lever", lever),
    ("neogov", neogov),
    ("oracle", oracle),
    ("paycom", paycom),
    ("paylocity", paylocity),
    ("personio", personio),
    ("phenom", phenom),
    ("pinpoint", pinpoint),
    ("recruitee", recruitee),
    ("rippling", rippling),
    ("smartrecruiters", smartrecruiters),
    ("successfactors", successfactors),
    ("taleo", taleo),
    ("teamtailor", teamtailor),
    ("ukg", ukg),
    ("ukgready", ukgready),
    ("workable", workable),
    ("workday", workday),
    ("zohorecruit", zohorecruit),
];

// ------------------------------------------------------------------------------- fixtures

/// `shared/fixtures/ats`.
fn ats() -> PathBuf {
    freehire_ingest::replay::recorded_fixtures(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("shared/fixtures/ats not found; set FREEHIRE_ATS_FIXTURES")
}

fn careerkit(name: &str) -> PathBuf {
    ats().join("careerkit").join(name)
}

/// A fixture of the ingest crate's tests (`crates/ingest/tests/fixtures/<key>/<name>`).
fn local(key: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ingest/tests/fixtures").join(key).join(name)
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn file(path: &Path) -> Reply {
    Reply::file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(body: &str) -> Value {
    serde_json::from_str(body).unwrap()
}

/// A job page carrying a schema.org `JobPosting` block.
fn job_page(posting: &Value) -> Reply {
    Reply::html(format!(
        "<!doctype html><html><head><script type=\"application/ld+json\">{posting}</script></head><body></body></html>"
    ))
}

/// A minimal schema.org `JobPosting`.
fn posting(title: &str, description: &str) -> Value {
    json!({"@context": "https://schema.org", "@type": "JobPosting", "title": title,
        "description": description, "datePosted": "2026-08-01"})
}

/// `body` with its stated employer `stated` (as written, quotes or tags included) replaced by
/// `company` written the same way.
fn employer(body: &str, stated: &str, name: &str, company: &str) -> String {
    assert!(body.contains(stated), "{stated:?} not in the fixture");
    body.replace(stated, &stated.replace(name, company))
}

// ------------------------------------------------------------------------------- platforms

const ASHBY_API: &str = "https://api.ashbyhq.com";

/// `ashby-boards/*.json`, `ashby-eval/*.json` and careerkit `ashby.json` (HighlightTA).
fn ashby(copies: usize) -> Platform {
    let mut p = Platform::new("ashby");
    let mut recorded = Vec::new();
    for dir in ["ashby-boards", "ashby-eval"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(ats().join(dir))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        for path in paths {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            recorded.push((stem, path));
        }
    }
    recorded.push(("HighlightTA".to_owned(), careerkit("ashby.json")));
    for (stem, path) in recorded {
        let reply = file(&path);
        for i in 0..copies {
            let board = format!("{stem}-{i:04}");
            p.route(
                Route::get(ASHBY_API, &format!("/posting-api/job-board/{board}"))
                    .reply(reply.clone()),
            );
            // Each copy is its own company, as boards are: otherwise every copy after the
            // first would be a repost of the first (one role cluster per recorded job).
            p.board(board, format!("{stem} {i:04}"));
        }
    }
    p
}

fn ashbygraphql(copies: usize) -> Platform {
    let mut p = Platform::new("ashbygraphql");
    let (host, path) = ("https://jobs.ashbyhq.com", "/api/non-user-graphql");
    let listing = local("ashbygraphql", "reedsy.listing.json");
    for job in parse(&text(&listing))["data"]["jobBoard"]["jobPostings"].as_array().unwrap() {
        let id = job["id"].as_str().unwrap();
        let detail = local("ashbygraphql", &format!("reedsy.{}.json", &id[..8]));
        p.route(
            Route::post(host, path)
                .query("op=ApiJobPosting")
                .body_field("/variables/jobPostingId", json!(id))
                .reply(file(&detail)),
        );
    }
    let listing = file(&listing);
    for i in 0..copies {
        let board = format!("reedsy-{i:04}");
        p.route(
            Route::post(host, path)
                .query("op=ApiJobBoardWithTeams")
                .body_field("/variables/organizationHostedJobsPageName", json!(board))
                .reply(listing.clone()),
        );
        p.board(board, p.company("reedsy", i));
    }
    p
}

/// The recorded list; the details are derived from the `careers/{id}/detail` shape.
fn bamboohr(copies: usize) -> Platform {
    let mut p = Platform::new("bamboohr");
    let list = file(&careerkit("bamboohr.json"));
    for i in 0..copies {
        let board = format!("acme-{i:04}");
        let host = format!("https://{board}.bamboohr.com");
        p.route(Route::get(&host, "/careers/list").reply(list.clone()));
        for (id, desc) in [("86", "<p>Paralegal work.</p>"), ("87", "<p>Marketing internship.</p>")]
        {
            let detail = json!({"meta": {}, "result": {"jobOpening": {
                "id": id, "jobOpeningShareUrl": format!("{host}/careers/{id}"),
                "description": desc, "datePosted": "2026-08-01",
                "location": {"city": "Fort Lauderdale", "state": "Florida",
                    "addressCountry": "United States"}}}});
            p.route(
                Route::get(&host, &format!("/careers/{id}/detail"))
                    .reply(Reply::json(detail.to_string())),
            );
        }
        p.board(board, p.company("acme", i));
    }
    p
}

/// Constructed list and position page; the second position's page is derived.
fn breezy(copies: usize) -> Platform {
    let mut p = Platform::new("breezy");
    let list = text(&local("breezy", "positions.json"));
    let position = file(&local("breezy", "position.html"));
    let csm = job_page(&posting("Customer Success Manager", "<p>Look after our customers.</p>"));
    for i in 0..copies {
        let board = format!("northwind-{i:04}");
        let host_name = format!("{board}.breezy.hr");
        let host = format!("https://{host_name}");
        p.route(
            Route::get(&host, "/json")
                .reply(Reply::json(list.replace("northwind.breezy.hr", &host_name))),
        );
        p.route(
            Route::get(&host, "/p/4f2a9c81d0e7-senior-backend-engineer").reply(position.clone()),
        );
        p.route(Route::get(&host, "/p/b7e3104c55aa-customer-success-manager").reply(csm.clone()));
        p.board(board, p.company("northwind", i));
    }
    p
}

/// The CSRF bootstrap and two constructed search pages.
fn dayforce(copies: usize) -> Platform {
    let mut p = Platform::new("dayforce");
    let host = "https://jobs.dayforcehcm.com";
    p.route(
        Route::get(host, "/api/auth/csrf")
            .reply(Reply::json(r#"{"csrfToken":"tok-123"}"#).set_cookie(
                "__Host-next-auth.csrf-token=tok-123%7Chash; Path=/; Secure; HttpOnly",
            )),
    );
    let pages = [
        (0, file(&local("dayforce", "search_page1.json"))),
        (2, file(&local("dayforce", "search_page2.json"))),
    ];
    for i in 0..copies {
        let tenant = format!("acme-{i:04}");
        for (start, page) in &pages {
            p.route(
                Route::post(host, &format!("/api/geo/{tenant}/jobposting/search"))
                    .body_field("/paginationStart", json!(start))
                    .reply(page.clone()),
            );
        }
        p.board(format!("{tenant}/CANDIDATEPORTAL"), p.company("acme", i));
    }
    p
}

/// The recorded apply/v2 listing (the site has no PCSX search: its first page is a 404, the
/// adapter falls back); the details are derived from the recorded positions.
fn eightfold(copies: usize) -> Platform {
    let mut p = Platform::new("eightfold");
    let host = "https://albemarle.eightfold.ai";
    let listing = file(&careerkit("eightfold.json"));
    let details = [
        (1_099_555_326_551_u64, "<p>Plan bromine supply.</p>"),
        (1_099_555_208_188, "<p>Lead media relations.</p>"),
    ];
    for i in 0..copies {
        let domain = format!("albemarle-{i:04}.com");
        p.route(
            Route::get(host, "/api/apply/v2/jobs")
                .query(&format!("domain={domain}&start=0&num=10"))
                .reply(listing.clone()),
        );
        for (id, html) in details {
            let doc = json!({"id": id, "job_description": html,
                "canonicalPositionUrl": format!("{host}/careers/job/{id}")});
            p.route(
                Route::get(host, &format!("/api/apply/v2/jobs/{id}"))
                    .query(&format!("domain={domain}"))
                    .reply(Reply::json(doc.to_string())),
            );
        }
        p.board(format!("albemarle.eightfold.ai/{domain}"), p.company("albemarle", i));
    }
    p
}

/// Constructed listing and details (GraphQL).
fn gem(copies: usize) -> Platform {
    let mut p = Platform::new("gem");
    let (host, path) = ("https://jobs.gem.com", "/api/public/graphql");
    let listing = local("gem", "acme.listing.json");
    let doc = parse(&text(&listing));
    for job in doc["data"]["oatsExternalJobPostings"]["jobPostings"].as_array().unwrap() {
        let id = job["extId"].as_str().unwrap();
        let detail = local("gem", &format!("acme.detail.{}.json", &id[id.len() - 3..]));
        p.route(
            Route::post(host, path)
                .body_field("/operationName", json!("ExternalJobPostingQuery"))
                .body_field("/variables/extId", json!(id))
                .reply(file(&detail)),
        );
    }
    let listing = file(&listing);
    for i in 0..copies {
        let board = format!("acme-{i:04}");
        p.route(
            Route::post(host, path)
                .body_field("/operationName", json!("JobBoardList"))
                .body_field("/variables/boardId", json!(board))
                .reply(listing.clone()),
        );
        p.board(board, p.company("acme", i));
    }
    p
}

/// The recorded board (its employer replaced by the copy's) and the derived "about" text.
fn greenhouse(copies: usize) -> Platform {
    let mut p = Platform::new("greenhouse");
    let host = "https://boards-api.greenhouse.io";
    let jobs = text(&careerkit("greenhouse.json"));
    for i in 0..copies {
        let board = format!("amplitude-{i:04}");
        let company = p.company("amplitude", i);
        let body = employer(&jobs, r#""company_name": "Amplitude ""#, "Amplitude ", &company);
        p.route(
            Route::get(host, &format!("/v1/boards/{board}/jobs"))
                .query("content=true")
                .reply(Reply::json(body)),
        );
        let about =
            json!({"name": company, "content": "&lt;p&gt;Amplitude builds analytics.&lt;/p&gt;"});
        p.route(
            Route::get(host, &format!("/v1/boards/{board}")).reply(Reply::json(about.to_string())),
        );
        p.board(board, company);
    }
    p
}

/// The recorded openings page; the job pages are derived (a `jobDesc` block, a JobPosting).
fn hrmdirect(copies: usize) -> Platform {
    let mut p = Platform::new("hrmdirect");
    let openings = file(&careerkit("hrmdirect.html"));
    let desc_page = Reply::html(
        r#"<html><body><table class="viewFields"><tr><td>Department:</td><td>Operations</td></tr></table>
<div class="jobDesc"><p>Own the CRM roadmap.</p><div><ul><li>Salesforce</li></ul></div></div><div class="footer">x</div></body></html>"#,
    );
    let ld_page = Reply::html(
        r#"<html><head><script type="application/ld+json">{"@type":"JobPosting","title":"Senior Accountant","description":"&lt;p&gt;Close the books.&lt;/p&gt;"}</script></head></html>"#,
    );
    for i in 0..copies {
        let board = format!("acme-{i:04}");
        let host = format!("https://{board}.hrmdirect.com");
        p.route(
            Route::get(&host, "/employment/job-openings.php")
                .query("search=true")
                .reply(openings.clone()),
        );
        p.route(
            Route::get(&host, "/employment/job-opening.php")
                .query("req=3762934&req_loc=1393575&")
                .reply(desc_page.clone()),
        );
        p.route(
            Route::get(&host, "/employment/job-opening.php")
                .query("req=3779928&req_loc=1419225&")
                .reply(ld_page.clone()),
        );
        p.board(board, p.company("acme", i));
    }
    p
}

/// The recorded search page (the portal has no sitemap: a 404, the adapter reads the search
/// pages), an empty page after it, and derived job pages.
fn icims(copies: usize) -> Platform {
    let mut p = Platform::new("icims");
    let search = text(&careerkit("icims.html"));
    let empty = Reply::html("<!doctype html><html><body><ul></ul></body></html>");
    let tax = json!({"@context": "https://schema.org", "@type": "JobPosting",
        "title": "Payroll Tax Specialist", "description": "<p>File payroll taxes.</p>",
        "datePosted": "2026-08-03T05:00:00.000Z", "employmentType": "FULL_TIME",
        "jobLocation": [{"@type": "Place", "address": {"@type": "PostalAddress",
            "addressLocality": "UNAVAILABLE", "addressRegion": "WI", "addressCountry": "US"}}]});
    let jobs = [
        ("/jobs/8214/payroll-tax-specialist/job", job_page(&tax)),
        (
            "/jobs/8212/payroll-support-specialist/job",
            job_page(&posting("Payroll Support Specialist", "<p>Support payroll.</p>")),
        ),
    ];
    for i in 0..copies {
        let board = format!("wipfli-{i:04}");
        let host_name = format!("careers-{board}.icims.com");
        let host = format!("https://{host_name}");
        let page = search.replace("careers-wipfli.icims.com", &host_name);
        p.route(
            Route::get(&host, "/jobs/search").query("pr=0&in_iframe=1").reply(Reply::html(page)),
        );
        p.route(Route::get(&host, "/jobs/search").query("pr=1&in_iframe=1").reply(empty.clone()));
        for (path, page) in &jobs {
            p.route(Route::get(&host, path).query("in_iframe=1").reply(page.clone()));
        }
        p.board(board, p.company("wipfli", i));
    }
    p
}

/// Constructed careers page and job page; the second job's page is derived.
fn jazzhr(copies: usize) -> Platform {
    let mut p = Platform::new("jazzhr");
    let listing = text(&local("jazzhr", "listing.html"));
    let job = file(&local("jazzhr", "job.html"));
    let tech = job_page(&posting("Field Service Technician", "<p>Service robots on site.</p>"));
    for i in 0..copies {
        let board = format!("acmerobotics-{i:04}");
        let host_name = format!("{board}.applytojob.com");
        let host = format!("https://{host_name}");
        let page = listing.replace("acmerobotics.applytojob.com", &host_name);
        p.route(Route::get(&host, "/apply").reply(Reply::html(page)));
        p.route(Route::get(&host, "/apply/Xb3kLp9QzA/Senior-Firmware-Engineer").reply(job.clone()));
        p.route(
            Route::get(&host, "/apply/7uTr2WqM1c/Field-Service-Technician").reply(tech.clone()),
        );
        p.board(board, p.company("acmerobotics", i));
    }
    p
}

/// The recorded jobs list; the job pages are derived.
fn jobvite(copies: usize) -> Platform {
    let mut p = Platform::new("jobvite");
    let host = "https://jobs.jobvite.com";
    let list = text(&careerkit("jobvite.html"));
    let dev = json!({"@context": "http://schema.org", "@type": "JobPosting",
        "title": "Manager, Development (Chicago/Hybrid)", "description": "&lt;p&gt;Grow giving.&lt;/p&gt;",
        "datePosted": "2026-07-28", "employmentType": "Full-Time",
        "jobLocation": {"@type": "Place", "address": {"addressLocality": "Chicago",
            "addressRegion": "IL", "addressCountry": "United States"}},
        "baseSalary": {"@type": "MonetaryAmount", "currency": "USD",
            "value": {"@type": "QuantitativeValue", "minValue": 70000, "maxValue": 85000, "unitText": "YEAR"}}});
    let jobs = [
        ("octxAfww", job_page(&dev)),
        (
            "ohAzAfwK",
            job_page(&posting(
                "Manager, Technology Vendor Management (Chicago/Hybrid)",
                "<p>Manage technology vendors.</p>",
            )),
        ),
    ];
    for i in 0..copies {
        let board = format!("feedingamerica-{i:04}");
        let page = list.replace("/feedingamerica/", &format!("/{board}/"));
        p.route(Route::get(host, &format!("/{board}/jobs")).reply(Reply::html(page)));
        for (code, page) in &jobs {
            p.route(Route::get(host, &format!("/{board}/job/{code}")).reply(page.clone()));
        }
        p.board(board, p.company("feedingamerica", i));
    }
    p
}

fn lever(copies: usize) -> Platform {
    let mut p = Platform::new("lever");
    let list = file(&careerkit("lever.json"));
    for i in 0..copies {
        let board = format!("idealistconsulting-{i:04}");
        p.route(
            Route::get("https://api.lever.co", &format!("/v0/postings/{board}"))
                .query("mode=json")
                .reply(list.clone()),
        );
        p.board(board, p.company("idealistconsulting", i));
    }
    p
}

fn neogov(copies: usize) -> Platform {
    let mut p = Platform::new("neogov");
    let feed = file(&careerkit("neogov.xml"));
    for i in 0..copies {
        let board = format!("exampleagency-{i:04}");
        p.route(
            Route::get("https://www.governmentjobs.com", "/SearchEngine/JobsFeed")
                .query(&format!("agency={board}"))
                .reply(feed.clone()),
        );
        p.board(board, p.company("exampleagency", i));
    }
    p
}

/// The recorded listing and one recorded detail; the other requisition's detail is derived.
fn oracle(copies: usize) -> Platform {
    let mut p = Platform::new("oracle");
    let host = "https://ejov.fa.ca2.oraclecloud.com";
    let api = "/hcmRestApi/resources/latest";
    let listing = file(&careerkit("oracle_orc.json"));
    let recorded = file(&careerkit("oracle_orc_detail.json"));
    let bridge = json!({"Id": "25587", "Title": "Bridge Inspector",
        "ExternalDescriptionStr": "<p>Inspect bridges across the state.</p>",
        "PrimaryLocation": "PERTH, WESTERN AUSTRALIA, Australia", "PrimaryLocationCountry": "AU",
        "WorkplaceType": "On-site", "ExternalPostedStartDate": "2026-08-07T00:00:00+00:00"});
    let details = [("26876", recorded), ("25587", Reply::json(bridge.to_string()))];
    for i in 0..copies {
        let site = format!("CX_{i:04}");
        p.route(
            Route::get(host, &format!("{api}/recruitingCEJobRequisitions"))
                .query(&format!(
                    "onlyData=true&expand=requisitionList.secondaryLocations&finder=findReqs;siteNumber={site},limit=25,offset=0,sortBy=POSTING_DATES_DESC"
                ))
                .reply(listing.clone()),
        );
        for (id, doc) in &details {
            p.route(
                Route::get(host, &format!("{api}/recruitingCEJobRequisitionDetails"))
                    .query(&format!(
                        "expand=all&onlyData=true&finder=ById;Id=%22{id}%22,siteNumber={site}"
                    ))
                    .reply(doc.clone()),
            );
        }
        p.board(format!("ejov.fa.ca2.oraclecloud.com/{site}"), p.company("ejov", i));
    }
    p
}

/// The constructed portal page, the recorded search answer (29 postings) and a detail per
/// posting: the three constructed ones, the others derived from their search rows.
fn paycom(copies: usize) -> Platform {
    let mut p = Platform::new("paycom");
    let mantle = "https://portal-applicant-tracking.us-cent.paycomonline.net";
    let search = local("paycom", "fvcc.search.json");
    for row in parse(&text(&search))["jobPostingPreviews"].as_array().unwrap() {
        let id = row["jobId"].as_u64().unwrap();
        let recorded = local("paycom", &format!("fvcc.detail.{id}.json"));
        let detail = if recorded.exists() {
            file(&recorded)
        } else {
            let description = format!("<p>{}</p>", row["description"].as_str().unwrap_or_default());
            let doc = json!({"jobPosting": {"jobId": id, "clientCode": "CONST",
                "jobTitle": row["jobTitle"], "location": row["locations"],
                "remoteType": row["remoteType"], "positionType": row["positionType"],
                "description": description, "descriptionTitle": "Description"}});
            Reply::json(doc.to_string())
        };
        p.route(Route::get(mantle, &format!("/api/ats/job-postings/{id}")).reply(detail));
    }
    p.route(
        Route::post(mantle, "/api/ats/job-posting-previews/search")
            .body_field("/skip", json!(0))
            .reply(file(&search)),
    );
    let portal = file(&local("paycom", "fvcc.portal.html"));
    for i in 0..copies {
        let key = format!("23D9610C7FF62DF6DF80223B{i:08X}");
        p.route(
            Route::get(
                "https://www.paycomonline.net",
                &format!("/v4/ats/web.php/portal/{key}/jobs/1"),
            )
            .reply(portal.clone()),
        );
        p.board(key, p.company("fvcc", i));
    }
    p
}

/// The recorded board page (its employer replaced by the copy's); the detail pages are
/// derived (Paylocity's "Description" header, a JobPosting).
fn paylocity(copies: usize) -> Platform {
    let mut p = Platform::new("paylocity");
    let host = "https://recruiting.paylocity.com";
    let page = text(&careerkit("paylocity.html"));
    let header_page = r#"<html><body><div class="job-preview-header">Description</div>
<div class="job-preview-details"><p>Model power systems.</p><div><ul><li>Load flow</li></ul></div></div>
<div class="job-preview-header">Apply</div></body></html>"#;
    let ld_page = r#"<html><head><script type="application/ld+json">{"@type":"JobPosting","title":"Administrative Assistant (Hybrid)","description":"<p>Support the office.</p>"}</script></head><body></body></html>"#;
    p.route(Route::get(host, "/Recruiting/Jobs/Details/4141169").reply(Reply::html(header_page)));
    p.route(Route::get(host, "/Recruiting/Jobs/Details/4401262").reply(Reply::html(ld_page)));
    let name = "North Carolina Advanced Energy Corporation";
    for i in 0..copies {
        let guid = format!("211e692d-c45a-4e3a-ae01-{i:012x}");
        let company = p.company("ncaec", i);
        let body = employer(&page, &format!(r#""ModuleTitle":"{name}""#), name, &company);
        p.route(Route::get(host, &format!("/Recruiting/Jobs/All/{guid}")).reply(Reply::html(body)));
        p.board(guid, company);
    }
    p
}

/// The recorded document (its employer replaced by the copy's) and its English document,
/// derived with a description filled in.
fn personio(copies: usize) -> Platform {
    let mut p = Platform::new("personio");
    let recorded = text(&careerkit("personio.xml"));
    let english = recorded.replacen(
        "<jobDescriptions></jobDescriptions>",
        "<jobDescriptions><jobDescription><name>Your role</name><value><![CDATA[<p>Build the data platform.</p>]]></value></jobDescription></jobDescriptions>",
        1,
    );
    let name = "Acme SE &amp; Co. KG";
    let stated = format!("<subcompany>{name}</subcompany>");
    for i in 0..copies {
        let board = format!("acme-{i:04}");
        let host = format!("https://{board}.jobs.personio.com");
        let company = p.company("acme", i);
        p.route(
            Route::get(&host, "/xml")
                .query("language=en")
                .reply(Reply::xml(employer(&english, &stated, name, &company))),
        );
        p.route(
            Route::get(&host, "/xml")
                .reply(Reply::xml(employer(&recorded, &stated, name, &company))),
        );
        p.board(board, company);
    }
    p
}

/// One board (the provider is paced at 2 requests/s): the recorded first search page, an
/// empty page after it stating the 2 jobs read, and derived job pages (a JobPosting, Phenom's `jobDetail`).
fn phenom(_copies: usize) -> Platform {
    let mut p = Platform::new("phenom");
    let (host, results) = ("https://careers.phenom.com", "/global/en/search-results");
    let recorded = text(&careerkit("phenom.html"));
    let start = recorded.find("phApp.ddo = ").unwrap() + "phApp.ddo = ".len();
    let end = recorded.find("; phApp.experimentData").unwrap();
    let mut empty = parse(&recorded[start..end]);
    empty["eagerLoadRefineSearch"]["data"]["jobs"] = json!([]);
    // The recording kept 2 of the 52 jobs it states: the empty page states the 2 read, or
    // the walk would fail closed short of the total.
    empty["eagerLoadRefineSearch"]["totalHits"] = json!(2);
    let page = |ddo: &Value| {
        Reply::html(format!(
            "<!doctype html>\n<html><body><script>\nvar phApp = {{}};\nphApp.ddo = {ddo}; phApp.experimentData = {{}};\n</script></body></html>"
        ))
    };
    let ld_page = r#"<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"JobPosting","title":"Senior Project Manager(German Speaker)","description":"&lt;p&gt;Lead transformation programs.&lt;/p&gt;"}</script></head></html>"#;
    let ddo_detail = json!({"jobDetail": {"status": 200, "data": {"job": {"jobId": "P-104504",
        "description": "<p>Generate new business.</p>"}}}});
    p.route(Route::get(host, results).query("from=0&s=1").reply(Reply::html(recorded.clone())));
    p.route(Route::get(host, results).query("from=2&s=1").reply(page(&empty)));
    p.route(Route::get(host, "/global/en/job/P-104461").reply(Reply::html(ld_page)));
    p.route(Route::get(host, "/global/en/job/P-104504").reply(page(&ddo_detail)));
    p.board("careers.phenom.com/global/en", p.company("phenom", 0));
    p
}

fn pinpoint(copies: usize) -> Platform {
    let mut p = Platform::new("pinpoint");
    let postings = file(&careerkit("pinpoint.json"));
    for i in 0..copies {
        let board = format!("acme-{i:04}");
        p.route(
            Route::get(&format!("https://{board}.pinpointhq.com"), "/postings.json")
                .reply(postings.clone()),
        );
        p.board(board, p.company("acme", i));
    }
    p
}

/// The recorded offers, their employer replaced by the copy's.
fn recruitee(copies: usize) -> Platform {
    let mut p = Platform::new("recruitee");
    let offers = text(&careerkit("recruitee.json"));
    for i in 0..copies {
        let board = format!("acme-{i:04}");
        let company = p.company("acme", i);
        let body = employer(&offers, r#""company_name": "Acme""#, "Acme", &company);
        p.route(
            Route::get(&format!("https://{board}.recruitee.com"), "/api/offers/")
                .reply(Reply::json(body)),
        );
        p.board(board, company);
    }
    p
}

/// The recorded list; the detail is derived from the `jobs/{uuid}` shape.
fn rippling(copies: usize) -> Platform {
    let mut p = Platform::new("rippling");
    let host = "https://ats.rippling.com";
    let list = file(&careerkit("rippling.json"));
    let uuid = "2f0674e6-f01f-4ecd-b459-e947241c211f";
    let detail = json!({"uuid": uuid, "name": "Account Executive",
        "description": {"company": "<p>About us</p>", "role": "<p>Sell to accountants.</p>"},
        "createdOn": "2026-07-30T12:00:00Z"});
    let detail = Reply::json(detail.to_string());
    for i in 0..copies {
        let board = format!("acme-{i:04}");
        p.route(Route::get(host, &format!("/api/v1/board/{board}/jobs")).reply(list.clone()));
        p.route(
            Route::get(host, &format!("/api/v1/board/{board}/jobs/{uuid}")).reply(detail.clone()),
        );
        p.board(board, p.company("acme", i));
    }
    p
}

/// The recorded listing page (its employer replaced by the copy's); the detail is derived
/// from the `postings/{id}` shape.
fn smartrecruiters(copies: usize) -> Platform {
    let mut p = Platform::new("smartrecruiters");
    let host = "https://api.smartrecruiters.com";
    let page = text(&careerkit("smartrecruiters.json"));
    let id = "743999671674844";
    for i in 0..copies {
        let board = format!("Knight-{i:04}");
        let company = p.company("knight", i);
        let body = employer(&page, r#""name": "Knight Gayles""#, "Knight Gayles", &company);
        p.route(
            Route::get(host, &format!("/v1/companies/{board}/postings"))
                .query("limit=100&offset=0")
                .reply(Reply::json(body)),
        );
        let detail = json!({"id": id,
            "postingUrl": format!("https://jobs.smartrecruiters.com/{board}/{id}-cna-lpn"),
            "jobAd": {"sections": {
                "companyDescription": {"title": "Company Description", "text": "<p>Knight Gayles.</p>"},
                "jobDescription": {"title": "Job Description", "text": "<p>Care for residents.</p>"},
                "qualifications": {"title": "Qualifications", "text": "<ul><li>CNA license</li></ul>"},
                "additionalInformation": {"title": "Additional Information", "text": ""}}}});
        p.route(
            Route::get(host, &format!("/v1/companies/{board}/postings/{id}"))
                .reply(Reply::json(detail.to_string())),
        );
        p.board(board, company);
    }
    p
}

/// The constructed job sitemap (on the copy's host) and job pages.
fn successfactors(copies: usize) -> Platform {
    let mut p = Platform::new("successfactors");
    let sitemap = text(&local("successfactors", "job_sitemap.xml"));
    let jobs = [
        (
            "/job/Walldorf-Senior-Cloud-Engineer-69190/1187654301/",
            file(&local("successfactors", "job_1187654301.html")),
        ),
        (
            "/job/Austin-Account-Executive-TX-78701/1187654302/",
            file(&local("successfactors", "job_1187654302.html")),
        ),
    ];
    for i in 0..copies {
        let board = format!("careers-{i:04}.acme-example.com");
        let host = format!("https://{board}");
        let doc = sitemap.replace("careers.acme-example.com", &board);
        p.route(Route::get(&host, "/job_sitemap.xml").reply(Reply::xml(doc)));
        for (path, page) in &jobs {
            p.route(Route::get(&host, path).reply(page.clone()));
        }
        p.board(board, p.company("acme", i));
    }
    p
}

/// A Taleo job page whose description is `html` (percent-encoded in `initialHistory`, as the
/// constructed fixture carries it).
fn taleo_job(html: &str) -> Reply {
    let encoded = percent_encoding::utf8_percent_encode(html, percent_encoding::NON_ALPHANUMERIC);
    Reply::html(format!(
        "<!DOCTYPE html><html><body><form name=\"ftlform\" method=\"post\">\
         <input type=\"hidden\" name=\"initialHistory\" id=\"initialHistory\" \
         value=\"ftlx0!|!x!%24!requisitionDescriptionInterface!|!descRequisition!|!!*!{encoded}!|!false!|!true\" />\
         </form></body></html>"
    ))
}

/// The constructed section page (with its session cookie), search pages and one job page;
/// the other two job pages are derived.
fn taleo(copies: usize) -> Platform {
    let mut p = Platform::new("taleo");
    let section = file(&local("taleo", "jobsearch.html"))
        .set_cookie("JSESSIONID=abc123; Path=/careersection; Secure");
    let pages = [
        (1, file(&local("taleo", "searchjobs_page1.json"))),
        (2, file(&local("taleo", "searchjobs_page2.json"))),
    ];
    let jobs = [
        ("2602892", file(&local("taleo", "jobdetail_2602892.html"))),
        ("2602950", taleo_job("<p>Manage construction sites.</p>")),
        ("2603011", taleo_job("<p>Originate mortgage loans.</p>")),
    ];
    for i in 0..copies {
        let tenant = format!("acme-{i:04}");
        let host = format!("https://{tenant}.taleo.net");
        p.route(
            Route::get(&host, "/careersection/2/jobsearch.ftl")
                .query("lang=en")
                .reply(section.clone()),
        );
        for (no, page) in &pages {
            p.route(
                Route::post(&host, "/careersection/rest/jobboard/searchjobs")
                    .query("lang=en&portal=101430233")
                    .body_field("/pageNo", json!(no))
                    .reply(page.clone()),
            );
        }
        for (contest, page) in &jobs {
            p.route(
                Route::get(&host, "/careersection/2/jobdetail.ftl")
                    .query(&format!("job={contest}&lang=en"))
                    .reply(page.clone()),
            );
        }
        p.board(format!("{tenant}.taleo.net/2"), p.company("acme", i));
    }
    p
}

/// One board (the provider is paced at 2 requests/s): the recorded JSON feed.
fn teamtailor(_copies: usize) -> Platform {
    let mut p = Platform::new("teamtailor");
    p.route(
        Route::get("https://career.teamtailor.com", "/jobs.json")
            .reply(file(&careerkit("teamtailor.json"))),
    );
    p.board("career", p.company("career", 0));
    p
}

/// Constructed search pages and one detail page; the other two details are derived.
fn ukg(copies: usize) -> Platform {
    let mut p = Platform::new("ukg");
    let host = "https://recruiting2.ultipro.com";
    let guid = "0b4bd7f6-1c3e-4f5a-9d1b-2e3f4a5b6c7d";
    let detail = |title: &str| {
        Reply::html(format!(
            "<html><script>var o = new US.Opportunity.CandidateOpportunityDetail({{\"Title\":\"{title}\",\"Description\":\"<p>{title} role</p>\",\"FullTime\":false,\"Locations\":[]}});</script></html>"
        ))
    };
    let pages =
        [(0, file(&local("ukg", "listing.json"))), (2, file(&local("ukg", "listing_page2.json")))];
    let details = [
        ("3f2a9c1e-5b7d-4e2a-9c61-0d8e4f2b7a10", file(&local("ukg", "detail.html"))),
        ("8c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f", detail("Payroll Specialist")),
        ("c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f", detail("Data Analyst")),
    ];
    for i in 0..copies {
        let tenant = format!("ACM{i:04}ACME");
        let prefix = format!("/{tenant}/JobBoard/{guid}");
        for (skip, page) in &pages {
            p.route(
                Route::post(host, &format!("{prefix}/JobBoardView/LoadSearchResults"))
                    .body_field("/opportunitySearch/Skip", json!(skip))
                    .body_field("/opportunitySearch/Top", json!(50))
                    .reply(page.clone()),
            );
        }
        for (id, page) in &details {
            p.route(
                Route::get(host, &format!("{prefix}/OpportunityDetail"))
                    .query(&format!("opportunityId={id}"))
                    .reply(page.clone()),
            );
        }
        p.board(format!("recruiting2.ultipro.com/{tenant}/{guid}"), p.company("acme", i));
    }
    p
}

/// Constructed listing pages and one detail; the other two details are derived.
fn ukgready(copies: usize) -> Platform {
    let mut p = Platform::new("ukgready");
    let host = "https://secure6.saashr.com";
    let pages = [
        (1, file(&local("ukgready", "listing.json"))),
        (2, file(&local("ukgready", "listing_page2.json"))),
    ];
    let details = [
        ("587696937", file(&local("ukgready", "detail.json"))),
        (
            "587687244",
            Reply::json(r#"{"id": 587687244, "job_description": "<p>Process claims.</p>"}"#),
        ),
        ("587600001", Reply::json(r#"{"id": 587600001, "job_description": "<p>Cook.</p>"}"#)),
    ];
    for i in 0..copies {
        let tenant = format!("6098626{i:04}");
        let api = format!("/ta/rest/ui/recruitment/companies/%7C{tenant}/job-requisitions");
        for (page, doc) in &pages {
            p.route(
                Route::get(host, &api)
                    .query(&format!("offset={page}&size=200&sort=desc&lang=en-US"))
                    .reply(doc.clone()),
            );
        }
        for (id, doc) in &details {
            p.route(
                Route::get(host, &format!("{api}/{id}")).query("lang=en-US").reply(doc.clone()),
            );
        }
        p.board(format!("secure6.saashr.com/{tenant}"), p.company("acme", i));
    }
    p
}

/// The recorded widget account, its employer replaced by the copy's.
fn workable(copies: usize) -> Platform {
    let mut p = Platform::new("workable");
    let account = text(&careerkit("workable.json"));
    for i in 0..copies {
        let board = format!("zaelab-{i:04}");
        let company = p.company("zaelab", i);
        let body = employer(&account, r#""name": "Zaelab""#, "Zaelab", &company);
        p.route(
            Route::get("https://apply.workable.com", &format!("/api/v1/widget/accounts/{board}"))
                .query("details=true")
                .reply(Reply::json(body)),
        );
        p.board(board, company);
    }
    p
}

/// The recorded listing; the details are derived from the CXS `jobPostingInfo` shape.
fn workday(copies: usize) -> Platform {
    let mut p = Platform::new("workday");
    let host = "https://salesforce.wd12.myworkdayjobs.com";
    let path = careerkit("workday.json");
    let listing = parse(&text(&path));
    let listing_reply = file(&path);
    for i in 0..copies {
        let site = format!("External_Career_Site_{i:04}");
        let cxs = format!("/wday/cxs/salesforce/{site}");
        p.route(
            Route::post(host, &format!("{cxs}/jobs"))
                .body_field("/offset", json!(0))
                .reply(listing_reply.clone()),
        );
        for (n, job) in listing["jobPostings"].as_array().unwrap().iter().enumerate() {
            let external = job["externalPath"].as_str().unwrap();
            let detail = json!({"jobPostingInfo": {
                "title": job["title"], "jobDescription": format!("<p>Role {n}</p>"),
                "location": "Virginia - Washington DC Metro - Remote",
                "additionalLocations": ["California - San Francisco"],
                "startDate": "2026-08-07", "timeType": "Full time", "remoteType": "Remote",
                "jobRequisitionLocation": {"country": {"alpha2Code": "US"}},
                "externalUrl": format!("{host}/{site}{external}")}});
            p.route(
                Route::get(host, &format!("{cxs}{external}"))
                    .reply(Reply::json(detail.to_string())),
            );
        }
        p.board(format!("salesforce.wd12.myworkdayjobs.com/{site}"), p.company("salesforce", i));
    }
    p
}

/// The constructed career page (fewer than 50 postings: one page).
fn zohorecruit(copies: usize) -> Platform {
    let mut p = Platform::new("zohorecruit");
    let page = text(&local("zohorecruit", "acme.careers.html"));
    for i in 0..copies {
        let board = format!("acme-{i:04}.zohorecruit.com");
        let body = page.replace("acme.zohorecruit.com", &board);
        p.route(Route::get(&format!("https://{board}"), "/jobs/Careers").reply(Reply::html(body)));
        p.board(board, p.company("acme", i));
    }
    p
}
