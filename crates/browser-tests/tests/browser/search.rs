//! The search page in a browser: a query, a facet click, the count and the URL; with
//! JavaScript (htmx swaps the results region in place and pushes the URL) and without (plain
//! GET forms and links, full loads), and opening a job from the results.

use fantoccini::Locator;
use freehire_browser_tests::{Browser, Scripts};

use crate::common::{LIMIT, htmx_loaded, mark_document, same_document, served, total, wait_total};

/// The query the tests type.
const QUERY: &str = "engineer";
/// The facet panel whose value they click (the company panel's test clicks `company_slug`).
const FACET: &str = "skills";

/// Types the query and submits the form; waits for the URL to carry it.
async fn search(b: &Browser) {
    b.fill("#q", QUERY).await.unwrap();
    b.click("form.query button[type=submit]").await.unwrap();
    b.wait_location(&format!("carry q={QUERY}"), |l| l.contains(&format!("q={QUERY}")))
        .await
        .unwrap();
}

/// The first unselected link of the `facet` panel that narrows `searched` hits without
/// emptying them: the link, its value and the count beside it.
async fn narrowing_link(
    b: &Browser,
    facet: &str,
    searched: usize,
) -> (fantoccini::elements::Element, String, usize) {
    b.wait_for(&format!("#facet-{facet} a")).await.unwrap();
    let links = b.client().find_all(Locator::Css(&format!("#facet-{facet} a"))).await.unwrap();
    for link in links {
        let count = link.find(Locator::Css(".count")).await.unwrap().text().await.unwrap();
        let count: usize = count.trim().parse().unwrap();
        let href = link.attr("href").await.unwrap().unwrap();
        let url = url::Url::parse(&b.url_of(&href)).unwrap();
        let value = url.query_pairs().find(|(k, _)| k == facet).map(|(_, v)| v.into_owned());
        if let Some(value) = value
            && count > 0
            && count < searched
        {
            return (link, value, count);
        }
    }
    panic!("no {facet} value narrows the {searched} hits of {QUERY:?}");
}

/// Where the first element `css` selects starts, in page pixels.
async fn top_of(b: &Browser, css: &str) -> i64 {
    let script = "const e = document.querySelector(arguments[0]); \
                  return e ? Math.round(e.getBoundingClientRect().top + window.scrollY) : -1;";
    let top = b.script(script, vec![serde_json::json!(css)]).await.unwrap();
    top.as_i64().unwrap_or(-1)
}

/// Search, click a value of the `facet` panel, remove it again: the total, the URL and the
/// chips follow, and the page agrees with the JSON API at every step.
async fn search_and_facet(b: &Browser, server: &crate::server::Server, facet: &str) {
    b.visit("/jobs").await.unwrap();
    assert_eq!(total(b).await, server.jobs, "the whole catalogue at first");

    search(b).await;
    let searched = server.api_total(&format!("q={QUERY}")).await;
    assert!(searched > 0 && searched < server.jobs, "the query narrows: {searched}");
    wait_total(b, searched).await;

    if b.scripts() == Scripts::On {
        mark_document(b).await;
    }
    let hits_top = top_of(b, "#results .cards").await;
    assert!(hits_top > 0, "the hits are on the page");
    let (link, value, count) = narrowing_link(b, facet, searched).await;
    link.click().await.unwrap();
    let filter = format!(
        "{facet}={}",
        url::form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
    );
    let at = b.wait_location(&format!("carry {filter}"), |l| l.contains(&filter)).await.unwrap();
    assert!(at.starts_with("/jobs?") && at.contains(&format!("q={QUERY}")), "{at}");
    wait_total(b, count).await;
    assert_eq!(count, server.api_total(&format!("q={QUERY}&{filter}")).await);
    let chip = format!(".chips a.chip[href]:not([href*='{facet}='])");
    b.wait_for(&chip).await.unwrap();
    let selected = b.text(&format!("#facet-{facet} a.selected")).await.unwrap();
    // A company's label is its slug's words (`acme-robotics` reads "Acme Robotics").
    assert!(
        selected.to_lowercase().contains(&value.to_lowercase().replace('-', " ")),
        "{selected:?} is the selected {value:?}"
    );
    match b.scripts() {
        Scripts::On => assert!(same_document(b).await, "htmx swapped the results in place"),
        Scripts::Off => assert!(!htmx_loaded(b).await, "no page script ran"),
    }
    // No layout shift: the hits start where they started before the first filter was picked
    // (the chips row and the panels keep their space).
    assert_eq!(top_of(b, "#results .cards").await, hits_top, "the hits did not move");

    // The pushed URL is shareable: loading it afresh shows the same results.
    b.client().refresh().await.unwrap();
    wait_total(b, count).await;

    // Removing the chip drops the filter again.
    b.click(&chip).await.unwrap();
    b.wait_location("drop the facet", |l| {
        !l.contains(&filter) && l.contains(&format!("q={QUERY}"))
    })
    .await
    .unwrap();
    wait_total(b, searched).await;
}

// scenario: A facet click in the browser updates the count and the URL in place
// scenario: Facet links are the API's search grammar
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_and_a_facet_click_update_the_count_and_the_url_in_place() {
    let (server, b) = served(Scripts::On).await;
    b.check("search_and_a_facet_click_update_the_count_and_the_url_in_place", LIMIT, async {
        b.visit("/").await.unwrap();
        assert!(htmx_loaded(&b).await, "the page's script runs");
        search_and_facet(&b, &server, FACET).await;
    })
    .await;
}

// scenario: The company panel narrows the search in the browser
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_company_click_narrows_the_search_to_that_company() {
    let (server, b) = served(Scripts::On).await;
    b.check("a_company_click_narrows_the_search_to_that_company", LIMIT, async {
        search_and_facet(&b, &server, "company_slug").await;
    })
    .await;
}

// scenario: Search and facets without JavaScript
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_and_facets_work_without_javascript() {
    let (server, b) = served(Scripts::Off).await;
    b.check("search_and_facets_work_without_javascript", LIMIT, async {
        search_and_facet(&b, &server, FACET).await;
    })
    .await;
}

// scenario: A hit opens its job page
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_opens_its_job_page() {
    let (server, b) = served(Scripts::On).await;
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
        let job = server.api_job(href.trim_start_matches("/jobs/")).await;
        assert_eq!(job["title"], title.as_str(), "{href}: {job}");
        assert_eq!(job["url"], to.as_str(), "the apply link is the source's page");
        let company = b.wait_for("article.job .meta a").await.unwrap();
        let company_href = company.attr("href").await.unwrap().unwrap();
        assert!(company_href.starts_with("/companies/"), "{company_href}");
        assert!(!b.text(".description").await.unwrap().trim().is_empty());
        // The page states the posting's reality class as the API serves it.
        let signals = b.text("#reality").await.unwrap();
        let class = job["reality"]["class"].as_str().unwrap_or_default().to_owned();
        let shown = match class.as_str() {
            "fresh" => "Fresh:",
            "stale" => "Not fresh:",
            _ => "Likely an evergreen advert:",
        };
        assert!(signals.starts_with(shown) && signals.contains("first seen"), "{class}: {signals}");
    })
    .await;
}

// scenario: The search page works from the keyboard with a visible focus
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_search_page_works_from_the_keyboard_with_a_visible_focus() {
    let (_server, b) = served(Scripts::On).await;
    b.check("the_search_page_works_from_the_keyboard_with_a_visible_focus", LIMIT, async {
        b.visit("/jobs").await.unwrap();
        b.wait_for("#total").await.unwrap();
        let focused = "const e = document.activeElement; \
                       return [e.id || e.className || e.tagName, getComputedStyle(e).outlineStyle];";
        // Tab from the top: the skip link comes first, then the header, then the query box.
        let mut seen = Vec::new();
        for _ in 0..12 {
            let active = b.client().active_element().await.unwrap();
            active.send_keys("\u{E004}").await.unwrap();
            let now = b.script(focused, vec![]).await.unwrap();
            let (name, outline) = (now[0].as_str().unwrap().to_owned(), now[1].as_str().unwrap().to_owned());
            assert_ne!(outline, "none", "{name} is focused without a visible outline");
            seen.push(name.clone());
            if name == "q" {
                break;
            }
        }
        assert_eq!(seen.first().map(String::as_str), Some("skip"), "{seen:?}");
        assert_eq!(seen.last().map(String::as_str), Some("q"), "the query box is reached: {seen:?}");
        // Type and press Enter: the search runs.
        let query = b.client().active_element().await.unwrap();
        query.send_keys(&format!("{QUERY}\u{E007}")).await.unwrap();
        b.wait_location("carry the query typed", |l| l.contains(&format!("q={QUERY}"))).await.unwrap();
    })
    .await;
}

// scenario: The search box and the city field complete as the job seeker types
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_search_box_and_the_city_field_complete_as_one_types() {
    let (server, b) = served(Scripts::On).await;
    b.check("the_search_box_and_the_city_field_complete_as_one_types", LIMIT, async {
        // What the API completes "s" with first: typing it offers it.
        let url = format!("{}/api/v1/suggest?q=s&limit=1", server.base);
        let body: serde_json::Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
        let first = body["data"][0]["text"].as_str().unwrap_or_else(|| panic!("{body}")).to_owned();
        b.visit("/jobs").await.unwrap();
        b.fill("#q", &first).await.unwrap();
        b.wait_for(&format!("#q-options option[value=\"{first}\"]")).await.unwrap();

        b.fill("#city", "Berl").await.unwrap();
        let berlin = b.wait_for("#city-options option[value=\"Berlin\"]").await.unwrap();
        assert_eq!(berlin.attr("label").await.unwrap().as_deref(), Some("Berlin (DE)"));
        // The completed city is a filter: the search carries it.
        b.fill("#q", "").await.unwrap();
        b.fill("#city", "Berlin").await.unwrap();
        b.click("form.query button[type=submit]").await.unwrap();
        b.wait_location("carry the city", |l| l.contains("city=Berlin")).await.unwrap();
        crate::common::wait_total(&b, server.api_total("city=Berlin").await).await;
    })
    .await;
}

// scenario: A pasted link opens its posting
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pasted_link_opens_its_posting() {
    let (server, b) = served(Scripts::Off).await;
    b.check("a_pasted_link_opens_its_posting", LIMIT, async {
        let slug = server.first_slug().await;
        let job = server.api_job(&slug).await;
        let link = job["url"].as_str().unwrap();
        // Pasted as a share button gives it: upper-case host, a tracking parameter, a fragment.
        let pasted = format!("{}?utm_source=share#apply", link.replacen("https://", "HTTPS://", 1));
        b.visit("/").await.unwrap();
        b.click("a[href='/find']").await.unwrap();
        b.fill("#url", &pasted).await.unwrap();
        b.click("#find-form button[type=submit]").await.unwrap();
        let to = format!("/jobs/{slug}");
        b.wait_location("open the posting", |l| l == to).await.unwrap();
        assert_eq!(b.text("h1").await.unwrap(), job["title"].as_str().unwrap());

        b.visit("/find").await.unwrap();
        b.fill("#url", "https://nowhere.example/jobs/1").await.unwrap();
        b.click("#find-form button[type=submit]").await.unwrap();
        let problem = b.wait_text("#find-problem", "No posting").await.unwrap();
        assert!(problem.contains("catalogue"), "{problem}");
    })
    .await;
}

// scenario: A job seeker measures the market fit of their skills
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_market_fit_page_measures_skills_as_the_api_does() {
    let (server, b) = served(Scripts::Off).await;
    b.check("the_market_fit_page_measures_skills_as_the_api_does", LIMIT, async {
        let url = format!("{}/api/v1/market/coverage", server.base);
        let body = serde_json::json!({"skills": ["python", "rust", "cobol"]});
        let api: serde_json::Value = reqwest::Client::new()
            .post(&url)
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        b.visit("/").await.unwrap();
        b.click("nav a[href='/market']").await.unwrap();
        b.wait_location("open the market page", |l| l == "/market").await.unwrap();
        b.fill("#skills", "python, rust, cobol").await.unwrap();
        b.click("#market-form button[type=submit]").await.unwrap();
        b.wait_for("#coverage").await.unwrap();
        let data = &api["data"];
        assert_eq!(b.text("#covered").await.unwrap(), data["covered"].to_string(), "{api}");
        assert_eq!(b.text("#total").await.unwrap(), data["total"].to_string(), "{api}");
        assert_eq!(b.count("#skills-table tbody tr").await.unwrap(), 3);
        assert!(b.text("#gaps").await.unwrap().contains("cobol"), "cobol is a gap");
        // A top skill links to the search it stands for.
        let first = b.text("#top-skills li a").await.unwrap();
        assert_eq!(first, data["top_skills"][0]["skill"].as_str().unwrap());
        b.click("#top-skills li a").await.unwrap();
        b.wait_location("open the search", |l| l.starts_with("/jobs?skills=")).await.unwrap();

        b.visit("/market?skills=rust&countries=germany").await.unwrap();
        let problem = b.wait_text("#market-problem", "countries").await.unwrap();
        assert!(problem.contains("germany"), "{problem}");
    })
    .await;
}

// scenario: Companies
// scenario: A merged company slug answers 301
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_companies_page_filters_as_the_api_does_and_follows_a_merge() {
    let (server, b) = served(Scripts::On).await;
    b.check("the_companies_page_filters_as_the_api_does_and_follows_a_merge", LIMIT, async {
        // A work mode some company has.
        let mut mode = None;
        for candidate in ["remote", "hybrid", "onsite"] {
            let api = server.api_companies(&format!("work_mode={candidate}")).await;
            if api["meta"]["total"].as_u64().unwrap() > 0 {
                mode = Some((candidate, api));
                break;
            }
        }
        let (mode, api) = mode.expect("the demo catalogue has a company in some work mode");
        let total = api["meta"]["total"].as_u64().unwrap();
        b.visit("/companies").await.unwrap();
        let select = b.wait_for("#work_mode").await.unwrap();
        select.select_by_value(mode).await.unwrap();
        b.click("form[action='/companies'] button[type=submit]").await.unwrap();
        b.wait_location("filter the companies", |l| {
            l == format!("/companies?q=&regions=&countries=&work_mode={mode}")
        })
        .await
        .unwrap();
        let said = b.text("#companies-total").await.unwrap();
        assert!(said.starts_with(&format!("{total} compan")), "{said} (the API: {total})");
        let first = api["data"][0]["name"].as_str().unwrap();
        assert!(b.text("main table").await.unwrap().contains(first), "{first} is listed");
        crate::pages::shoot(&b, "companies-filtered").await;

        // A name typed with a typo finds the company, as the API's companies index does.
        let listed = server.api_companies("limit=100").await;
        let (name, word) = listed["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| {
                let name = c["name"].as_str()?;
                let word = name
                    .split_whitespace()
                    .find(|w| w.len() >= 6 && w.chars().all(|c| c.is_ascii_alphabetic()))?;
                Some((name.to_owned(), word.to_owned()))
            })
            .next()
            .expect("a company whose name has a word of six letters");
        let mut typo: Vec<char> = word.chars().collect();
        typo.swap(2, 3);
        let typo: String = typo.into_iter().collect();
        let api = server.api_companies(&format!("q={typo}")).await;
        b.visit("/companies").await.unwrap();
        b.fill("#q", &typo).await.unwrap();
        b.click("form[action='/companies'] button[type=submit]").await.unwrap();
        b.wait_location("search the companies by name", |l| l.starts_with("/companies?q="))
            .await
            .unwrap();
        let said = b.text("#companies-total").await.unwrap();
        let total = api["meta"]["total"].as_u64().unwrap();
        assert!(said.starts_with(&format!("{total} compan")), "{said} (the API: {total})");
        assert!(b.text("main table").await.unwrap().contains(&name), "{typo:?} finds {name}");

        // A merged company's page moves to the company it was merged into.
        let all = server.api_companies("limit=2").await;
        let (alias, into) =
            (all["data"][0]["slug"].as_str().unwrap(), all["data"][1]["slug"].as_str().unwrap());
        server.merge_companies(alias, into).await;
        b.visit(&format!("/companies/{alias}")).await.unwrap();
        b.wait_location("follow the merge", |l| l == format!("/companies/{into}")).await.unwrap();
        b.wait_for("main h1").await.unwrap();
    })
    .await;
}

// scenario: The status page shows the fleet as the API reports it
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_page_shows_the_fleet_as_the_api_reports_it() {
    let (server, b) = served(Scripts::Off).await;
    let error = "GET https://jobs.example.com/listing: network error: dns error: \
                 failed to lookup address information: Name or service not known";
    let failed = server.fail_a_board(freehire_domain::FailureClass::Dns, error).await;
    b.check("the_status_page_shows_the_fleet_as_the_api_reports_it", LIMIT, async {
        let url = format!("{}/api/v1/status", server.base);
        let api: serde_json::Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
        let providers = api["data"]["providers"].as_array().unwrap();
        assert!(!providers.is_empty(), "the demo catalogue has boards: {api}");
        b.visit("/").await.unwrap();
        b.click("footer a[href='/status']").await.unwrap();
        b.wait_location("open the status page", |l| l == "/status").await.unwrap();
        assert_eq!(b.text("#verdict").await.unwrap(), api["data"]["verdict"].as_str().unwrap());
        assert_eq!(b.count("#providers tbody tr").await.unwrap(), providers.len());
        let first = b.text("#providers tbody tr td").await.unwrap();
        assert_eq!(first, providers[0]["provider"].as_str().unwrap());
        let size = b.text("#catalogue-size").await.unwrap();
        assert!(size.starts_with(&format!("{} open jobs", server.jobs)), "{size}");
        // The failing board is named with the kind and the end of its error, as the API has it.
        let failing: Vec<&serde_json::Value> =
            providers.iter().flat_map(|p| p["failing_boards"].as_array().unwrap()).collect();
        assert_eq!(failing.len(), 1, "{api}");
        assert_eq!(failing[0]["error_class"], "dns");
        assert_eq!(b.count("#failing-boards tbody tr").await.unwrap(), 1);
        let row = b.text("#failing-boards tbody tr").await.unwrap();
        assert!(row.contains(&failed) && row.contains("dns"), "{row}");
        assert!(row.contains("Name or service not known"), "the root cause is shown: {row}");
        let platforms = b.text("#providers").await.unwrap();
        assert!(platforms.contains("dns 1"), "failures by kind: {platforms}");
    })
    .await;
}
