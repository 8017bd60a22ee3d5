//! The security headers on every answer of the pages (errors and assets included), the JSON
//! API untouched under `/api` and `/health`, and the CSRF check in front of every POST.

use freehire_store::testing::TestDb;

use crate::server::{Browser, Server};

#[track_caller]
fn has_security_headers(page: &crate::server::Page, path: &str) {
    let h = &page.headers;
    let csp = h
        .get("content-security-policy")
        .unwrap_or_else(|| panic!("{path}: no CSP"))
        .to_str()
        .unwrap();
    for part in [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(part), "{path}: {csp} lacks {part}");
    }
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{path}: {csp}");
    assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
    assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin", "{path}");
}

// scenario: Every page carries the security headers
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_and_error_carries_the_security_headers() {
    let s = Server::indexed(TestDb::sqlite().await).await;
    let b = Browser::new(&s);
    for (path, status) in [
        ("/", 200),
        ("/jobs?q=rust", 200),
        ("/companies", 200),
        ("/companies/acme", 200),
        ("/no/such/page", 404),
        ("/jobs/nope-abcdefgh", 404),
    ] {
        let page = b.get(path).await;
        assert_eq!(page.status, status, "{path}");
        has_security_headers(&page, path);
        assert!(page.body.contains("<main id=\"main\">"), "{path}: the layout");
    }
    let missing = b.get("/no/such/page").await;
    assert!(missing.body.contains("Page not found"));
    // Assets: hashed names, cached for a year.
    let page = b.get("/").await;
    let css = page
        .body
        .split("href=\"")
        .find_map(|r| r.starts_with("/assets/app-").then(|| r[..r.find('"').unwrap()].to_owned()))
        .unwrap();
    let js = page
        .body
        .split("src=\"")
        .find_map(|r| r.starts_with("/assets/htmx-").then(|| r[..r.find('"').unwrap()].to_owned()))
        .unwrap();
    for asset in [&css, &js] {
        let a = b.get(asset).await;
        assert_eq!(a.status, 200, "{asset}");
        assert_eq!(a.headers["cache-control"], "public, max-age=31536000, immutable");
        has_security_headers(&a, asset);
    }
    assert_eq!(b.get("/assets/app-000000000000.css").await.status, 404);
    s.db.teardown().await;
}

// scenario: The server error page
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_database_shows_the_error_page_with_the_headers() {
    let s = Server::indexed(TestDb::postgres().await).await;
    let b = Browser::new(&s);
    // A company's page reads the database (the list is served by the search index).
    assert_eq!(b.get("/companies/acme").await.status, 200);
    s.db.store.close().await;
    let page = b.get("/companies/acme").await;
    assert!([500, 503].contains(&page.status), "{}", page.status);
    assert!(
        page.body.contains("<main id=\"main\">") && page.body.contains("Error 50"),
        "{}",
        page.body
    );
    has_security_headers(&page, "/companies/acme (database closed)");
}

// scenario: The API keeps its JSON answers
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_answers_json_under_api_and_health() {
    let s = Server::indexed(TestDb::sqlite().await).await;
    let b = Browser::new(&s);
    for (path, status) in
        [("/health", 200), ("/api/v1/jobs", 200), ("/api/v1/nope", 404), ("/api", 404)]
    {
        let page = b.get(path).await;
        assert_eq!(page.status, status, "{path}");
        assert_eq!(page.headers["content-type"], "application/json", "{path}");
    }
    // Routes with a path parameter see exactly theirs (the composition adds no capture).
    let (_, list) = b.api("/api/v1/jobs").await;
    let slug = list["data"][0]["public_slug"].as_str().unwrap().to_owned();
    let (status, job) = b.api(&format!("/api/v1/jobs/{slug}")).await;
    assert_eq!((status, &job["data"]["public_slug"]), (200, &serde_json::json!(slug)), "{job}");
    let company = list["data"][0]["company_slug"].as_str().unwrap().to_owned();
    assert_eq!(b.api(&format!("/api/v1/companies/{company}")).await.0, 200);
    s.db.teardown().await;
}

// scenario: A POST without the CSRF token is refused
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_without_or_with_a_wrong_token_is_refused_and_writes_nothing() {
    let s = Server::indexed(TestDb::sqlite().await).await;
    let b = Browser::new(&s);
    let form = [("email", "eve@example.com"), ("password", "correct horse battery")];
    // No cookie, no field.
    let page = b.post_raw("/signup", &form).await;
    assert_eq!(page.status, 403);
    assert!(page.body.contains("This form has expired"));
    has_security_headers(&page, "403");
    // A cookie (from a GET) but no field, then a wrong one.
    b.get("/signup").await;
    assert!(b.cookies.lock().unwrap().contains_key("freehire_csrf"));
    assert_eq!(b.post_raw("/signup", &form).await.status, 403);
    let wrong = [
        ("csrf", "A".repeat(43)),
        ("email", "eve@example.com".into()),
        ("password", "correct horse battery".into()),
    ];
    let wrong: Vec<(&str, &str)> = wrong.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(b.post_raw("/signup", &wrong).await.status, 403);
    let users = s.db.store().list_users(freehire_store::ListPage::default()).await.unwrap();
    assert_eq!(users.total, 0, "nothing was written");
    s.db.teardown().await;
}
