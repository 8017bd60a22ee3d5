//! The catalogue pages: search with facets, chips, paging and did-you-mean; a job; the
//! companies; every value escaped; facet links in the API's grammar; the htmx partial.

use freehire_domain::{AliasReason, CompanySlug};
use freehire_store::testing::TestDb;
use freehire_web::pages::search::render_anonymous;

use crate::server::{Browser, Server, day, on_both_backends};

/// Every `href="…"` of `html` that starts with `prefix`, HTML-unescaped.
fn links(html: &str, prefix: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].replace("&amp;", "&").replace("&#38;", "&"))
        .filter(|h| h.starts_with(prefix))
        .collect()
}

// scenario: The search page shows hits, facet counts and the total
async fn the_search_page_lists_hits_with_facets(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    for path in ["/", "/jobs"] {
        let page = b.get(path).await;
        assert_eq!(page.status, 200, "{path}");
        assert!(page.headers["content-type"].to_str().unwrap().starts_with("text/html"));
        let body = &page.body;
        assert!(body.contains("<span id=\"total\">5</span> jobs"), "{body}");
        for title in ["Rust Engineer", "Go Engineer", "Staff Rust Engineer", "Product Designer"] {
            assert!(body.contains(title), "{title}");
        }
        for panel in [
            "facet-countries",
            "facet-regions",
            "facet-work_mode",
            "facet-seniority",
            "facet-category",
            "facet-skills",
            "facet-employment_type",
            "facet-company_slug",
        ] {
            assert!(body.contains(panel), "{panel}");
        }
        assert!(
            body.contains("name=\"salary_min\"") && body.contains("name=\"posted_within_days\"")
        );
        assert!(body.contains("<label for=\"q\">"), "the query box has a label");
    }
    let page = b.get("/jobs?q=rust").await;
    assert!(page.body.contains("<span id=\"total\">2</span> jobs"), "{}", page.body);
    assert!(!page.body.contains("Product Designer"));
    // The company panel links each company of the matches as a company filter.
    let companies = links(&page.body, "/jobs?");
    let acme = companies.iter().find(|h| h.contains("company_slug=acme")).expect("Acme's link");
    assert!(page.body.contains("Acme <span class=\"count\">1</span>"), "{}", page.body);
    let filtered = b.get(acme).await;
    assert_eq!(filtered.status, 200);
    assert!(filtered.body.contains("<span id=\"total\">1</span> job"), "{}", filtered.body);
    assert!(filtered.body.contains("Remove Company: Acme"), "the company is a removable chip");
    s.db.teardown().await;
}

// scenario: A title with markup is escaped
async fn a_title_with_a_script_is_escaped(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let page = b.get("/jobs?q=engineer").await;
    assert!(!page.body.contains("<script>alert(1)</script>"), "search page");
    assert!(
        page.body.contains("&#60;script&#62;alert(1)&#60;/script&#62;")
            || page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("Evil <b>Corp</b>"));
    let slug = links(&page.body, "/jobs/")
        .into_iter()
        .find(|h| h.contains("script"))
        .expect("the evil job's link");
    let job = b.get(&slug).await;
    assert_eq!(job.status, 200);
    assert!(!job.body.contains("<script>alert(1)</script>"), "job page");
    assert!(!job.body.contains("Evil <b>Corp</b>"), "job page company");
    s.db.teardown().await;
}

// scenario: Facet links are the API's search grammar
async fn facet_links_are_api_queries_with_the_shown_counts(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let page = b.get("/jobs").await;
    // The panel links of work_mode: each toggles one value.
    let start = page.body.find("id=\"facet-work_mode\"").unwrap();
    let panel = &page.body[start..start + page.body[start..].find("</section>").unwrap()];
    let hrefs = links(panel, "/jobs?");
    assert_eq!(hrefs.len(), 3, "remote, hybrid, onsite: {panel}");
    for href in &hrefs {
        let query = href.trim_start_matches("/jobs?");
        let (status, body) = b.api(&format!("/api/v1/jobs/search?{query}")).await;
        assert_eq!(status, 200, "{query}: {body}");
        assert!(body["meta"].get("ignored_params").is_none(), "{query}: {body}");
        let total = body["meta"]["total"].as_u64().unwrap();
        // The count the panel shows beside the link is the API's total.
        let at =
            panel.find(&href.replace('&', "&#38;")).or_else(|| panel.find(href.as_str())).unwrap();
        let count = &panel[at..];
        let count = &count[count.find("class=\"count\">").unwrap() + 14..];
        let count: u64 = count[..count.find('<').unwrap()].parse().unwrap();
        assert_eq!(count, total, "{href}");
    }
    // Following one selects it: a chip removes it again, the count shrinks.
    let remote = hrefs.iter().find(|h| h.contains("work_mode=remote")).unwrap();
    let page = b.get(remote).await;
    assert!(page.body.contains("<span id=\"total\">3</span> jobs"), "{}", page.body);
    assert!(page.body.contains("Work mode: Remote"), "a chip");
    let chip = links(&page.body, "/jobs").into_iter().find(|h| h == "/jobs").unwrap();
    assert_eq!(chip, "/jobs");
    // Disjunctive: with remote selected, hybrid still counts its one job.
    let start = page.body.find("id=\"facet-work_mode\"").unwrap();
    let panel = &page.body[start..start + page.body[start..].find("</section>").unwrap()];
    assert!(panel.contains("Hybrid <span class=\"count\">1</span>"), "{panel}");
    s.db.teardown().await;
}

// scenario: The htmx request gets the results region alone
async fn an_htmx_request_gets_only_the_results_region(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let full = b.get("/jobs?work_mode=remote").await;
    let part = b.get_htmx("/jobs?work_mode=remote").await;
    assert_eq!(part.status, 200);
    assert!(full.body.starts_with("<!doctype html>"));
    assert!(part.body.trim_start().starts_with("<div id=\"results\""), "{}", part.body);
    assert!(!part.body.contains("<html") && !part.body.contains("<header"), "no layout");
    assert!(part.body.contains("<span id=\"total\">3</span>"));
    assert!(full.body.contains(part.body.trim()), "the region is the full page's region");
    assert_eq!(part.headers["vary"], "HX-Request");
    // A hit's link is a normal navigation: only the form, chips, panels and pager are boosted.
    let hits = &part.body[part.body.find("<section class=\"hits\"").unwrap()..];
    let hits = &hits[..hits.find("<nav class=\"pager\"").unwrap()];
    assert!(!hits.contains("hx-boost"), "{hits}");
    // htmx restoring history without a snapshot gets the whole page.
    let restore = b
        .get_with(
            "/jobs?work_mode=remote",
            &[("HX-Request", "true"), ("HX-History-Restore-Request", "true")],
        )
        .await;
    assert!(restore.body.starts_with("<!doctype html>"));
    s.db.teardown().await;
}

// scenario: Ignored parameters get a did-you-mean
async fn unknown_parameters_are_ignored_with_a_suggestion(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let page = b.get("/jobs?country=de&senority=senior").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<code>senority</code>."), "no suggestion: {}", page.body);
    assert!(page.body.contains("<code>country</code>: did you mean"), "{}", page.body);
    let fix = "/jobs?countries=de&senority=senior";
    assert!(links(&page.body, "/jobs?").iter().any(|h| h == fix), "{}", page.body);
    assert!(b.get(fix).await.body.contains("<span id=\"total\">1</span> job"));
    let bad = b.get("/jobs?work_mode=office").await;
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("work_mode"), "the error names the parameter");
    s.db.teardown().await;
}

// scenario: Paging
async fn pages_link_forward_and_back(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let first = b.get("/jobs?limit=2").await;
    assert!(first.body.contains("(showing 1–2)"), "{}", first.body);
    let next = links(&first.body, "/jobs?").into_iter().find(|h| h.contains("offset=2")).unwrap();
    let second = b.get(&next).await;
    assert!(second.body.contains("(showing 3–4)"));
    assert!(links(&second.body, "/jobs?").iter().any(|h| h == "/jobs?limit=2"), "previous");
    s.db.teardown().await;
}

// scenario: The job page
async fn the_job_page_shows_the_job(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let search = b.get("/jobs?q=%22staff%20rust%22").await;
    let href = links(&search.body, "/jobs/").into_iter().find(|h| h.contains("staff")).unwrap();
    let page = b.get(&href).await;
    assert_eq!(page.status, 200);
    for text in [
        "Staff Rust Engineer",
        "href=\"/companies/globex\"",
        "Berlin, Germany",
        "https://boards.greenhouse.io/acme/jobs/3",
        "Hybrid",
        "Posted",
        "<p>Hello</p>",
    ] {
        assert!(page.body.contains(text), "{text}: {}", page.body);
    }
    let rust = b.get(&links(&search.body, "/jobs/")[0]).await;
    assert!(rust.body.contains("80,000–100,000 EUR a year") || page.body.contains("Staff"));
    // A copy of the role in another city is linked both ways; a closed job has its banner.
    let store = s.db.store();
    let id = |slug: &str| {
        let slug = freehire_domain::PublicSlug::parse(slug.trim_start_matches("/jobs/")).unwrap();
        async move { store.job_by_slug(&slug).await.unwrap().unwrap().id }
    };
    let go = links(&b.get("/jobs?q=go").await.body, "/jobs/go-")[0].clone();
    let rust =
        links(&b.get("/jobs?q=%22rust%20engineer%22&seniority=senior").await.body, "/jobs/rust-")
            [0]
        .clone();
    assert!(store.set_duplicate_of(id(&go).await, Some(id(&rust).await)).await.unwrap());
    let page = b.get(&rust).await;
    assert!(
        page.body.contains("The same role elsewhere")
            && page.body.contains(&format!("href=\"{go}\"")),
        "{}",
        page.body
    );
    assert!(b.get(&go).await.body.contains(&format!("href=\"{rust}\"")));
    let key = freehire_store::JobKey {
        source: freehire_domain::Provider::parse("greenhouse").unwrap(),
        external_id: "acme:3".into(),
    };
    store
        .close_jobs(&[key], freehire_domain::ClosedReason::BoardUnseen, crate::server::day(19))
        .await
        .unwrap();
    let closed = b.get(&href).await;
    assert_eq!(closed.status, 200);
    assert!(closed.body.contains("This job is closed (since 2026-11-19 09:00)"), "{}", closed.body);
    assert_eq!(b.get("/jobs/no-such-job-abcdefgh").await.status, 404);
    assert_eq!(b.get("/jobs/NOT A SLUG").await.status, 404);
    s.db.teardown().await;
}

// scenario: Companies
// scenario: A merged company slug answers 301
async fn companies_list_and_show(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let list = b.get("/companies").await;
    assert_eq!(list.status, 200);
    assert!(list.body.contains("href=\"/companies/acme\""), "{}", list.body);
    assert!(list.body.contains("4 companies"), "{}", list.body);
    let found = b.get("/companies?q=glob").await;
    assert!(found.body.contains("1 company") && found.body.contains("Globex"));
    let acme = b.get("/companies/acme").await;
    assert_eq!(acme.status, 200);
    assert!(acme.body.contains("2 open jobs"), "{}", acme.body);
    assert!(acme.body.contains("Rust Engineer") && acme.body.contains("Go Engineer"));
    assert!(acme.body.contains("href=\"/jobs?company_slug=acme\""));
    assert_eq!(b.get("/companies/nobody").await.status, 404);

    // The filters narrow the list and stay in the form.
    let us = b.get("/companies?countries=us&work_mode=onsite").await;
    assert!(us.body.contains("1 company") && us.body.contains("Initech"), "{}", us.body);
    assert!(us.body.contains("value=\"us\""), "the country stays in the form");
    assert!(us.body.contains("<option value=\"onsite\" selected>"), "{}", us.body);
    let eu = b.get("/companies?regions=eu").await;
    assert!(eu.body.contains("Globex") && !eu.body.contains(">Initech<"), "{}", eu.body);
    let none = b.get("/companies?countries=jp").await;
    assert!(none.body.contains("No company matches these filters"), "{}", none.body);
    let bad = b.get("/companies?work_mode=sometimes").await;
    assert_eq!(bad.status, 200);
    assert!(
        bad.body.contains(
            "invalid work_mode &#34;sometimes&#34;: allowed values are remote, hybrid, onsite"
        ) || bad.body.contains(
            "invalid work_mode &quot;sometimes&quot;: allowed values are remote, hybrid, onsite"
        ),
        "{}",
        bad.body
    );

    // A merged slug moves permanently to the company it was merged into.
    let (initech, globex) =
        (CompanySlug::parse("initech").unwrap(), CompanySlug::parse("globex").unwrap());
    s.db.store().merge_companies(&initech, &globex, AliasReason::Spelling, day(20)).await.unwrap();
    let moved = b.get("/companies/initech?offset=0").await;
    assert_eq!((moved.status, moved.location()), (301, "/companies/globex?offset=0"));
    let globex = b.get("/companies/globex").await;
    assert!(globex.body.contains("Product Designer"), "the merged job is listed: {}", globex.body);
    s.db.teardown().await;
}

// scenario: An empty catalogue says what to do
async fn an_empty_catalogue_says_what_to_do(db: TestDb) {
    let s = Server::empty(db).await;
    let b = Browser::new(&s);
    let page = b.get("/jobs").await;
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("No jobs yet: run `freehire ingest` or wait for the worker"),
        "{}",
        page.body
    );
    let companies = b.get("/companies").await;
    assert_eq!(companies.status, 200);
    assert!(companies.body.contains("No companies yet"));
    s.db.teardown().await;
}

/// `render_anonymous` (the page without a server, which the `page` bench measures) answers
/// what the server answers an anonymous viewer: same status, same HTML.
async fn the_page_rendered_without_a_server_is_the_served_page(db: TestDb) {
    let s = Server::indexed(db).await;
    let b = Browser::new(&s);
    let index = s.index.clone().unwrap();
    for query in
        ["", "q=rust", "countries=de&sort=posted_at&order=asc", "q=engineer&limit=2&offset=2"]
    {
        let served = b.get(&format!("/jobs?{query}")).await;
        let (status, html) =
            render_anonymous(index.as_ref(), Some(query), crate::server::now()).await.unwrap();
        assert_eq!(status.as_u16(), served.status, "{query}");
        assert!(html.contains("<span id=\"total\">"), "{query}: {html}");
        assert_eq!(html, served.body, "{query}");
    }
    s.db.teardown().await;
}

on_both_backends![
    the_page_rendered_without_a_server_is_the_served_page,
    the_search_page_lists_hits_with_facets,
    a_title_with_a_script_is_escaped,
    facet_links_are_api_queries_with_the_shown_counts,
    an_htmx_request_gets_only_the_results_region,
    unknown_parameters_are_ignored_with_a_suggestion,
    pages_link_forward_and_back,
    the_job_page_shows_the_job,
    companies_list_and_show,
    an_empty_catalogue_says_what_to_do,
];

/// Bytes of `data` gzipped at level 9 (the system's `gzip`, as a server would send it).
fn gzipped(data: &[u8]) -> usize {
    use std::io::Write;
    let mut child = std::process::Command::new("gzip")
        .arg("-9c")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gzip runs");
    child.stdin.take().unwrap().write_all(data).unwrap();
    child.wait_with_output().unwrap().stdout.len()
}

// scenario: The search page is light
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_search_page_stays_under_100_kb_gzipped() {
    let skills = ["rust", "go", "python", "postgresql", "kubernetes", "react", "aws", "java"];
    let postings = (0..60)
        .map(|i| {
            let mut p =
                crate::server::posting(&i.to_string(), &format!("Senior Platform Engineer {i}"));
            p.company = format!("Company {}", i % 15);
            p.description =
                "<p>We build reliable distributed systems for millions of users. </p>".repeat(20);
            p.facets.skills =
                skills.iter().cycle().skip(i).take(4).map(|s| (*s).to_owned()).collect();
            p
        })
        .collect();
    let s = Server::with_postings(TestDb::sqlite().await, postings).await;
    let b = Browser::new(&s);
    let page = b.get("/jobs").await;
    assert!(page.body.contains("(showing 1–20)"));
    let asset = |prefix: &str| {
        page.body.split('"').find(|r| r.starts_with(prefix)).map(str::to_owned).unwrap()
    };
    let css = b.get(&asset("/assets/app-")).await.body;
    let js = b.get(&asset("/assets/htmx-")).await.body;
    let sizes = [page.body.len(), css.len(), js.len()];
    let gz = [gzipped(page.body.as_bytes()), gzipped(css.as_bytes()), gzipped(js.as_bytes())];
    println!(
        "search page bytes (html, css, js): {sizes:?} = {}; gzip {gz:?} = {}",
        sizes.iter().sum::<usize>(),
        gz.iter().sum::<usize>()
    );
    assert!(gz.iter().sum::<usize>() <= 100 * 1024, "{gz:?}");
    s.db.teardown().await;
}
