//! The search page in a browser: a query, a facet click, the count and the URL; with
//! JavaScript (htmx swaps the results region in place and pushes the URL) and without (plain
//! GET forms and links, full loads), and opening a job from the results.

use fantoccini::Locator;
use freehire_browser_tests::{Browser, Scripts};

use crate::common::{LIMIT, htmx_loaded, mark_document, same_document, served, total, wait_total};

/// The query the tests type.
const QUERY: &str = "rust";
/// The facet value they click (in the `skills` panel).
const SKILL: &str = "postgresql";

/// Types the query and submits the form; waits for the URL to carry it.
async fn search(b: &Browser) {
    b.fill("#q", QUERY).await.unwrap();
    b.click("form.query button[type=submit]").await.unwrap();
    b.wait_location(&format!("carry q={QUERY}"), |l| l.contains(&format!("q={QUERY}")))
        .await
        .unwrap();
}

/// The skills facet link for [`SKILL`] and the count it shows.
async fn skill_link(b: &Browser) -> (fantoccini::elements::Element, usize) {
    let link = b.wait_for(&format!("#facet-skills a[href*='skills={SKILL}']")).await.unwrap();
    let count = link.find(Locator::Css(".count")).await.unwrap().text().await.unwrap();
    (link, count.trim().parse().unwrap())
}

/// Search, click a facet, remove it again: the total, the URL and the chips follow, and the
/// page agrees with the JSON API at every step.
async fn search_and_facet(b: &Browser, server: &crate::server::Server) {
    b.visit("/jobs").await.unwrap();
    assert_eq!(total(b).await, server.jobs, "the whole catalogue at first");

    search(b).await;
    let searched = server.api_total(&format!("q={QUERY}")).await;
    assert!(searched > 0 && searched < server.jobs, "the query narrows: {searched}");
    wait_total(b, searched).await;

    if b.scripts() == Scripts::On {
        mark_document(b).await;
    }
    let (link, count) = skill_link(b).await;
    assert!(count > 0 && count < searched, "the facet narrows further: {count} of {searched}");
    link.click().await.unwrap();
    let at = b
        .wait_location(&format!("carry skills={SKILL}"), |l| l.contains(&format!("skills={SKILL}")))
        .await
        .unwrap();
    assert!(at.starts_with("/jobs?") && at.contains(&format!("q={QUERY}")), "{at}");
    wait_total(b, count).await;
    assert_eq!(count, server.api_total(&format!("q={QUERY}&skills={SKILL}")).await);
    let chip = format!(".chips a.chip[aria-label*='{SKILL}' i]");
    b.wait_for(&chip).await.unwrap();
    let selected = b.wait_for("#facet-skills a.selected").await.unwrap();
    assert!(selected.attr("href").await.unwrap().is_some());
    match b.scripts() {
        Scripts::On => assert!(same_document(b).await, "htmx swapped the results in place"),
        Scripts::Off => assert!(!htmx_loaded(b).await, "no page script ran"),
    }

    // The pushed URL is shareable: loading it afresh shows the same results.
    b.client().refresh().await.unwrap();
    wait_total(b, count).await;

    // Removing the chip drops the filter again.
    b.click(&chip).await.unwrap();
    b.wait_location("drop the facet", |l| !l.contains("skills=")).await.unwrap();
    wait_total(b, searched).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_and_a_facet_click_update_the_count_and_the_url_in_place() {
    let (server, b) = served(Scripts::On).await;
    b.check("search_and_a_facet_click_update_the_count_and_the_url_in_place", LIMIT, async {
        b.visit("/").await.unwrap();
        assert!(htmx_loaded(&b).await, "the page's script runs");
        search_and_facet(&b, &server).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_and_facets_work_without_javascript() {
    let (server, b) = served(Scripts::Off).await;
    b.check("search_and_facets_work_without_javascript", LIMIT, async {
        search_and_facet(&b, &server).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_opens_its_job_page() {
    let (_server, b) = served(Scripts::On).await;
    b.check("a_result_opens_its_job_page", LIMIT, async {
        b.visit(&format!("/jobs?q={QUERY}")).await.unwrap();
        let first = b.wait_for(".cards .card h3 a").await.unwrap();
        let title = first.text().await.unwrap();
        let href = first.attr("href").await.unwrap().unwrap();
        assert!(href.starts_with("/jobs/"), "{href}");
        first.click().await.unwrap();
        b.wait_location("open the job", |l| l == href).await.unwrap();
        assert_eq!(b.text("h1").await.unwrap(), title);
        let apply = b.wait_for("article.job a.button").await.unwrap();
        let to = apply.attr("href").await.unwrap().unwrap();
        assert!(to.starts_with("https://boards.greenhouse.io/"), "the source's page: {to}");
        let company = b.wait_for("article.job .meta a").await.unwrap();
        let company_href = company.attr("href").await.unwrap().unwrap();
        assert!(company_href.starts_with("/companies/"), "{company_href}");
        assert!(!b.text(".description").await.unwrap().trim().is_empty());
    })
    .await;
}
