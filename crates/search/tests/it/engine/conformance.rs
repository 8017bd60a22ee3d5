//! The conformance suite: every [`SearchIndex`] adapter must give these answers on the
//! catalogue of `catalogue.rs`. Each check takes an index already loaded with
//! [`catalogue::documents`] and may modify it. The checks are listed once, in `suite!` at the
//! end, which makes a test of each on every engine.

use freehire_search::{
    Bounds, CompanyDocument, CompanySearch, Endpoint, Facet, FacetsRequest, JobQuery, SearchIndex,
    SearchRequest, SearchResults, facet_counts,
};

use super::catalogue;
use crate::now;

/// Runs a search query string (no facet counts).
pub async fn run(index: &dyn SearchIndex, qs: &str) -> SearchResults {
    let query = JobQuery::from_query_str(qs, Endpoint::Search).unwrap();
    index.search(SearchRequest::new(&query, now())).await.unwrap()
}

/// The hit ids of a search, in order.
pub async fn ids(index: &dyn SearchIndex, qs: &str) -> Vec<i64> {
    run(index, qs).await.hits.iter().map(|h| h.id).collect()
}

/// The hit ids, sorted (for checks that are about the set, not the order).
pub async fn set(index: &dyn SearchIndex, qs: &str) -> Vec<i64> {
    let mut v = ids(index, qs).await;
    v.sort_unstable();
    v
}

// scenario: Title weighted highest
pub async fn text_match_and_title_boost(index: &dyn SearchIndex) {
    // The title match (1) outranks description-only matches, even one repeating the word
    // three times (2). The order among the description-only matches (2, 5) is left open on
    // purpose: the reference's ranking rules decide it by word position within the attribute
    // (Meilisearch's `attribute` rule: 5 names Rust earlier), the embedded engine by BM25 term
    // frequency (2 names it three times); neither is part of the search contract.
    let rust = ids(index, "q=rust").await;
    assert_eq!(rust.first(), Some(&1), "{rust:?}");
    assert_eq!(set(index, "q=rust").await, vec![1, 2, 5]);
    // Every word must match somewhere.
    assert_eq!(ids(index, "q=rust+berlin").await, vec![1]);
    assert_eq!(ids(index, "q=globex+marketing").await, vec![6]);
    // q_fields scopes the match.
    assert_eq!(set(index, "q=rust&q_fields=title").await, vec![1]);
    assert_eq!(set(index, "q=rust&q_fields=description,location").await, vec![1, 2, 5]);
    assert_eq!(set(index, "q=globex&q_fields=title").await, Vec::<i64>::new());
    // Accents and case fold.
    assert_eq!(ids(index, "q=P%C3%84RIS").await, vec![4]);
    assert!(ids(index, "q=zzzz").await.is_empty());
}

// scenario: Prefix of the last word
// scenario: One typo
// scenario: Two typos in long words
pub async fn prefix_and_typos(index: &dyn SearchIndex) {
    // The last word matches as a prefix.
    assert_eq!(ids(index, "q=desig").await, vec![3]);
    assert_eq!(ids(index, "q=staff+platf").await, vec![5]);
    // Only the last word is a prefix.
    assert!(ids(index, "q=desi+system").await.is_empty());
    assert_eq!(ids(index, "q=system+desi").await, vec![3]);
    // One typo is forgiven in words of 5+ characters.
    assert_eq!(set(index, "q=enginer").await, vec![1, 4, 5]);
    assert_eq!(ids(index, "q=desinger").await, vec![3]);
    // Two typos in words of 9+ characters, not in shorter ones.
    assert_eq!(ids(index, "q=kubrnetis").await, vec![5]);
    assert!(ids(index, "q=desgnr").await.is_empty());
    // Not in shorter words: "rusk" is not "rust".
    assert!(ids(index, "q=rusk+senior").await.is_empty());
}

// scenario: Filters do not rank
// scenario: All values
pub async fn facet_filters(index: &dyn SearchIndex) {
    // OR within a facet, values repeated or comma-joined.
    assert_eq!(set(index, "skills=sql,figma").await, vec![3, 4]);
    assert_eq!(set(index, "skills=sql&skills=kubernetes").await, vec![4, 5]);
    // _mode=and: every value.
    assert_eq!(set(index, "skills=go,rust&skills_mode=and").await, vec![1, 5]);
    // AND across facets.
    assert_eq!(set(index, "skills=go&work_mode=remote").await, vec![2, 5]);
    assert_eq!(set(index, "seniority=senior&is_tech=tech").await, vec![1]);
    // _exclude.
    assert_eq!(set(index, "skills_exclude=go").await, vec![3, 4, 6]);
    assert_eq!(set(index, "work_mode=remote&seniority_exclude=lead,staff").await, vec![2]);
    assert_eq!(set(index, "source=ashby&company_slug=acme").await, vec![1, 4]);
    assert_eq!(set(index, "salary_currency=eur").await, vec![1, 4]);
    assert_eq!(set(index, "category=backend,devops&posting_language=en").await, vec![1, 2, 5]);
    // A facet nothing carries yet matches nothing.
    assert!(set(index, "domains=fintech").await.is_empty());
    // The filter does not change relevance: a rarer filter value does not rank higher.
    let by_text = ids(index, "q=go").await;
    assert_eq!(by_text.len(), 3);
    assert_eq!(ids(index, "q=go&skills=go,kubernetes").await, by_text);
    // Text AND filter.
    assert_eq!(ids(index, "q=engineer&countries=fr").await, vec![4]);
}

// scenario: Geography OR-group
// scenario: No region matches
// scenario: Free-text values ignore case
// scenario: No region on Meilisearch
pub async fn geography_and_flags(index: &dyn SearchIndex) {
    // The geography facets form one OR-group.
    assert_eq!(set(index, "countries=de&regions=north_america").await, vec![1, 5]);
    assert_eq!(set(index, "countries=fr&cities=London").await, vec![3, 4]);
    assert_eq!(set(index, "regions=eu").await, vec![1, 4]);
    // ... ANDed with the other facets.
    assert_eq!(set(index, "regions=eu,uk&seniority=senior").await, vec![1, 3]);
    // regions=none: no region at all ("Remote" alone); its exclusion: some region.
    assert_eq!(set(index, "regions=none").await, vec![2]);
    assert_eq!(set(index, "regions=none,global").await, vec![2, 6]);
    assert_eq!(set(index, "regions_exclude=none").await, vec![1, 3, 4, 5, 6]);
    assert_eq!(set(index, "regions_exclude=eu").await, vec![2, 3, 5, 6]);
    // Free-text values (cities, skills, collections, posting language) match regardless of
    // case, as Meilisearch lowercases facet values for filtering; accents still count.
    assert_eq!(set(index, "cities=berlin").await, vec![1]);
    assert_eq!(set(index, "cities=NEW+YORK&skills=RUST&skills_mode=and").await, vec![5]);
    assert_eq!(set(index, "cities_exclude=london").await, vec![1, 2, 4, 5, 6]);
    assert!(set(index, "cities=P%C3%A1ris").await.is_empty());
    assert_eq!(set(index, "posting_language=EN").await.len(), 6);
    // Clearance: true, or not true.
    assert_eq!(set(index, "requires_clearance=true").await, vec![5]);
    assert_eq!(set(index, "requires_clearance=false").await, vec![1, 2, 3, 4, 6]);
    assert_eq!(set(index, "requires_clearance_exclude=true").await, vec![1, 2, 3, 4, 6]);
}

pub async fn scalar_bounds(index: &dyn SearchIndex) {
    assert_eq!(set(index, "salary_min=60000").await, vec![1, 2]);
    assert_eq!(set(index, "salary_max=70000").await, vec![2, 4]);
    assert_eq!(set(index, "salary_min=55000&salary_max=70000").await, vec![2]);
    // now = 2026-01-01: posted on or after 2025-12-22 noon.
    assert_eq!(set(index, "posted_within_days=10").await, vec![2, 5]);
    // Job 6 has no posted date: its first-seen date stands in (2025-12-15).
    assert_eq!(set(index, "posted_within_days=20").await, vec![1, 2, 5, 6]);
    assert_eq!(set(index, "open_within_days=40").await, vec![1, 2, 3, 5, 6]);
    assert!(set(index, "visa_sponsorship=true").await.is_empty());
}

// scenario: Salary sort ascending
pub async fn sorts(index: &dyn SearchIndex) {
    // No text, no sort: newest effective posted date first.
    assert_eq!(ids(index, "").await, vec![5, 2, 1, 6, 3, 4]);
    assert_eq!(ids(index, "sort=posted_at&order=asc").await, vec![4, 3, 6, 1, 2, 5]);
    // Salary sorts: jobs without a salary come last, freshest first.
    assert_eq!(ids(index, "sort=salary_min&order=asc").await, vec![4, 2, 1, 5, 6, 3]);
    assert_eq!(ids(index, "sort=salary_max").await, vec![1, 2, 4, 5, 6, 3]);
    // An explicit sort also orders text matches.
    assert_eq!(ids(index, "q=rust&sort=posted_at").await, vec![5, 2, 1]);
    // Equal relevance falls back to freshness: both Acme jobs match "acme" alike in company.
    assert_eq!(ids(index, "q=acme&q_fields=company").await, vec![1, 4]);
}

// scenario: Page past the end
pub async fn paging_and_total(index: &dyn SearchIndex) {
    let page = run(index, "limit=2&offset=2").await;
    assert_eq!(page.total, 6);
    assert_eq!(page.hits.iter().map(|h| h.id).collect::<Vec<_>>(), vec![1, 6]);
    let last = run(index, "limit=4&offset=4").await;
    assert_eq!(last.total, 6);
    assert_eq!(last.hits.len(), 2);
    let past = run(index, "offset=50").await;
    assert_eq!((past.total, past.hits.len()), (6, 0));
    let filtered = run(index, "skills=go&limit=1").await;
    assert_eq!((filtered.total, filtered.hits.len()), (3, 1));
    // Hits carry the document fields.
    let hit = &run(index, "q=designer").await.hits[0];
    assert_eq!(hit.title, "Product Designer");
    assert_eq!(hit.company_slug, "initech");
    assert_eq!(hit.description, "Own the design system in Figma.");
    assert!(hit.public_slug.starts_with("product-designer-initech-"));
}

// scenario: Counts follow the filter
// scenario: Numeric stats
pub async fn facet_distributions(index: &dyn SearchIndex) {
    let count = |qs: &'static str, facets: &'static [Facet]| async move {
        let query = JobQuery::from_query_str(qs, Endpoint::Search).unwrap();
        index
            .search(SearchRequest::new(&query, now()).with_facets(facets).with_stats())
            .await
            .unwrap()
    };
    let all = count("", &[Facet::WorkMode, Facet::Skills, Facet::Regions]).await;
    let pairs =
        |v: &[(&str, u64)]| v.iter().map(|(s, n)| ((*s).to_owned(), *n)).collect::<Vec<_>>();
    assert_eq!(all.facets[&Facet::WorkMode], pairs(&[("remote", 3), ("hybrid", 2), ("onsite", 1)]));
    assert_eq!(
        all.facets[&Facet::Skills],
        pairs(&[
            ("go", 3),
            ("python", 2),
            ("rust", 2),
            ("figma", 1),
            ("kubernetes", 1),
            ("sql", 1)
        ])
    );
    assert_eq!(
        all.facets[&Facet::Regions],
        pairs(&[("eu", 2), ("global", 1), ("north_america", 1), ("uk", 1)])
    );
    // Counts follow the filter and the text.
    let eu = count("regions=eu", &[Facet::Seniority, Facet::SalaryCurrency]).await;
    assert_eq!(eu.total, 2);
    assert_eq!(eu.facets[&Facet::Seniority], pairs(&[("junior", 1), ("senior", 1)]));
    assert_eq!(eu.facets[&Facet::SalaryCurrency], pairs(&[("EUR", 2)]));
    // Numeric stats over the matches.
    assert_eq!(eu.stats.salary_min, Some(Bounds { min: 50_000, max: 80_000 }));
    assert_eq!(eu.stats.salary_max, Some(Bounds { min: 60_000, max: 100_000 }));
    assert_eq!(eu.stats.experience_years_min, None);
    let rust = count("q=rust", &[Facet::Countries, Facet::RequiresClearance]).await;
    assert_eq!(rust.facets[&Facet::Countries], pairs(&[("de", 1), ("us", 1)]));
    assert_eq!(rust.facets[&Facet::RequiresClearance], pairs(&[("true", 1)]));
    // Multi-word values are counted whole.
    let cities = count("", &[Facet::Cities]).await;
    assert_eq!(
        cities.facets[&Facet::Cities],
        pairs(&[("Berlin", 1), ("London", 1), ("New York", 1), ("Paris", 1)])
    );
    assert_eq!(set(index, "cities=New+York").await, vec![5]);
    // Only the requested facets are counted.
    assert_eq!(rust.facets.len(), 2);
    assert!(run(index, "").await.facets.is_empty());
    assert_eq!(run(index, "").await.stats.salary_min, None, "stats only when asked for");
}

// scenario: Disjunctive counts
pub async fn facets_requests(index: &dyn SearchIndex) {
    let counts = |qs: &'static str| async move {
        let request = FacetsRequest::from_query_str(qs).unwrap();
        facet_counts(index, &request, now()).await.unwrap()
    };
    let pairs =
        |v: &[(&str, u64)]| v.iter().map(|(s, n)| ((*s).to_owned(), *n)).collect::<Vec<_>>();
    // Plain: every facet with a distribution, under the full filter.
    let plain = counts("work_mode=remote").await;
    assert_eq!(plain.total, 3);
    assert_eq!(plain.facets.len(), Facet::ALL.len() - 1);
    assert!(!plain.facets.contains_key(&Facet::CompanySlug));
    assert_eq!(plain.facets[&Facet::WorkMode], pairs(&[("remote", 3)]));
    assert_eq!(plain.facets[&Facet::Seniority], pairs(&[("lead", 1), ("middle", 1), ("staff", 1)]));
    assert!(plain.facets[&Facet::Domains].is_empty());
    assert_eq!(plain.stats.salary_max, Some(Bounds { min: 70_000, max: 70_000 }));
    let some = counts("facets=skills,work_mode&q=rust").await;
    assert_eq!(some.facets.len(), 2);
    assert_eq!(some.facets[&Facet::WorkMode], pairs(&[("remote", 2), ("hybrid", 1)]));
    // Disjunctive: each facet is counted without its own selection, under the others.
    let dis = counts("work_mode=remote&seniority=staff&disjunctive=true").await;
    assert_eq!(dis.total, 1);
    assert_eq!(dis.facets.len(), Facet::ALL.len() - 1);
    assert_eq!(dis.stats.salary_min, None, "stats follow the full filter");
    assert_eq!(dis.facets[&Facet::WorkMode], pairs(&[("remote", 1)]));
    assert_eq!(dis.facets[&Facet::Seniority], pairs(&[("lead", 1), ("middle", 1), ("staff", 1)]));
    assert_eq!(dis.facets[&Facet::Skills], pairs(&[("go", 1), ("kubernetes", 1), ("rust", 1)]));
    // An excluded value stays excluded in its own facet's count.
    let dis = counts("work_mode=remote&seniority_exclude=staff&disjunctive=true").await;
    assert_eq!(dis.total, 2);
    assert_eq!(dis.facets[&Facet::Seniority], pairs(&[("lead", 1), ("middle", 1)]));
    assert_eq!(dis.facets[&Facet::WorkMode], pairs(&[("hybrid", 2), ("remote", 2), ("onsite", 1)]));
}

/// Upsert replaces, delete removes, rebuild swaps the whole content. Runs last: it changes
/// the catalogue.
// scenario: Upsert replaces
// scenario: Delete removes
pub async fn writes(index: &dyn SearchIndex) {
    let mut docs = catalogue::documents();
    let mut designer = docs.remove(2);
    assert_eq!(designer.id, 3);
    designer.title = "Senior Rust Designer".into();
    index.upsert(vec![designer]).await.unwrap();
    assert_eq!(run(index, "").await.total, 6, "upsert replaced, not added");
    assert_eq!(set(index, "q=rust&q_fields=title").await, vec![1, 3]);
    assert!(ids(index, "q=product").await.is_empty());

    index.delete(&[5, 999]).await.unwrap();
    assert_eq!(set(index, "q=rust").await, vec![1, 2, 3]);
    assert_eq!(run(index, "").await.total, 5);
    assert!(set(index, "requires_clearance=true").await.is_empty());

    index.rebuild(catalogue::documents().into_iter().take(2).collect()).await.unwrap();
    assert_eq!(ids(index, "").await, vec![2, 1]);
    index.clear().await.unwrap();
    assert_eq!(run(index, "").await.total, 0);
}

/// Free-text filter values are matched as whole literals, never as patterns, whatever they
/// hold, regardless of case. Adds a job and removes it again, leaving the catalogue as it was.
pub async fn free_text_values_are_literal(index: &dyn SearchIndex) {
    let odd = r#"a.b<c>[d]^-\&~{1}(x)|*+?$ "q" Ünï"#;
    let mut doc = catalogue::documents().remove(0);
    doc.id = 42;
    doc.facets.insert("cities".into(), vec![odd.to_owned()]);
    index.upsert(vec![doc]).await.unwrap();
    let param = |v: &str| {
        let encoded = percent_encoding::utf8_percent_encode(v, percent_encoding::NON_ALPHANUMERIC);
        format!("cities={encoded}")
    };
    assert_eq!(set(index, &param(odd)).await, vec![42]);
    assert_eq!(set(index, &param(&odd.to_uppercase())).await, vec![42]);
    assert!(set(index, &param(&odd.replace('.', "X"))).await.is_empty());
    assert!(set(index, &param("a.b")).await.is_empty(), "whole values only");
    assert_eq!(set(index, &format!("{}&cities=berlin", param(odd))).await, vec![1, 42]);
    // The longest value the grammar takes, full of case-folding characters, is one lookup.
    // (No capital sigma ends a word: Meilisearch lowercases a word-final `Σ` to `ς`, which
    // then differs from a stored `σ`; the embedded engine folds all three alike.)
    let long: String = "Ünïσa".repeat(40);
    let mut doc = catalogue::documents().remove(0);
    doc.id = 43;
    doc.facets.insert("skills".into(), vec![long.clone()]);
    index.upsert(vec![doc]).await.unwrap();
    assert_eq!(
        set(index, &param(&long.to_uppercase()).replacen("cities", "skills", 1)).await,
        vec![43]
    );
    let exclude = param(&long).replacen("cities", "skills_exclude", 1);
    assert_eq!(run(index, &exclude).await.total, 7, "all but 43");
    index.delete(&[43]).await.unwrap();
    index.delete(&[42]).await.unwrap();
    assert_eq!(run(index, "").await.total, 6, "the added job is gone again");
}

/// The one list of checks. Generates [`all`] (every check in this order on one index: `writes`
/// changes the catalogue, so it runs last) and, per engine, one test per check on its own
/// freshly loaded index plus `whole_suite_on_one_index`: `suite::embedded::*` always,
/// `suite::meili::*` against the server `MEILI_URL` names (see `meili.rs`).
/// The companies of the company checks: name, slug, open jobs, regions, countries, work
/// modes, sources, top skills.
pub fn companies() -> Vec<CompanyDocument> {
    let c = |name: &str, slug: &str, jobs: u64, facets: [&[&str]; 5]| {
        let list = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        CompanyDocument {
            slug: slug.into(),
            name: name.into(),
            job_count: jobs,
            latest_posted_ts: 1_767_225_600,
            regions: list(facets[0]),
            countries: list(facets[1]),
            work_modes: list(facets[2]),
            sources: list(facets[3]),
            top_skills: list(facets[4]),
        }
    };
    vec![
        c(
            "Acme Labs",
            "acme-labs",
            12,
            [&["eu"], &["de", "fr"], &["remote", "hybrid"], &["greenhouse"], &["rust", "go"]],
        ),
        c(
            "Globex Corporation",
            "globex",
            40,
            [&["na"], &["us"], &["onsite"], &["lever"], &["java"]],
        ),
        c(
            "Initech",
            "initech",
            5,
            [&["eu", "na"], &["gb", "us"], &["remote"], &["ashby"], &["python", "rust"]],
        ),
        c("Acme Corp", "acme-corp", 12, [&["na"], &["ca"], &["hybrid"], &["greenhouse"], &["go"]]),
        c("Umbrella", "umbrella", 1, [&[], &[], &[], &["workday"], &[]]),
        c("Hooli", "hooli", 5, [&["eu"], &["de"], &["onsite"], &["ashby"], &["kubernetes"]]),
        c("Acmeville Tools", "acmeville-tools", 3, [&[], &[], &[], &["lever"], &[]]),
        c("Globez Tools", "globez-tools", 100, [&[], &[], &[], &["lever"], &[]]),
        c("Northwind", "northwind-traders", 50, [&[], &[], &[], &["lever"], &[]]),
        c("Traders Guild", "traders-guild", 2, [&[], &[], &[], &["lever"], &[]]),
    ]
}

/// [`companies`] in their order without text: most open jobs first, then by slug.
pub const COMPANY_ORDER: [&str; 10] = [
    "globez-tools",
    "northwind-traders",
    "globex",
    "acme-corp",
    "acme-labs",
    "hooli",
    "initech",
    "acmeville-tools",
    "traders-guild",
    "umbrella",
];

/// The slugs a company search finds, in order, and its total.
async fn company_slugs(index: &dyn SearchIndex, search: CompanySearch) -> (Vec<String>, u64) {
    let found = index.search_companies(&search).await.unwrap();
    (found.hits.into_iter().map(|h| h.slug).collect(), found.total)
}

/// A company search for `q` (and `edit`), first page of 50.
fn company_search(q: &str, edit: impl FnOnce(&mut CompanySearch)) -> CompanySearch {
    let mut s = CompanySearch { q: Some(q.into()), limit: 50, ..CompanySearch::default() };
    edit(&mut s);
    s
}

// scenario: Companies by name with typos and prefixes
pub async fn companies_by_name(index: &dyn SearchIndex) {
    index.rebuild_companies(companies()).await.unwrap();
    let find = async |q: &str| company_slugs(index, company_search(q, |_| {})).await.0;
    // An exact word before a typo, whatever the job counts.
    assert_eq!(find("globex").await, ["globex", "globez-tools"]);
    // The last word is also a prefix; exact words first, then by open jobs, then slug.
    assert_eq!(find("acme").await, ["acme-corp", "acme-labs", "acmeville-tools"]);
    assert_eq!(find("acme lab").await, ["acme-labs"]);
    // A match in the name before one in the slug only.
    assert_eq!(find("traders").await, ["traders-guild", "northwind-traders"]);
    // Case and accents fold; a word found nowhere finds nothing.
    assert_eq!(find("INIT\u{c9}CH").await, ["initech"]);
    assert_eq!(company_slugs(index, company_search("zzzz", |_| {})).await, (vec![], 0));
    // Blank text is no text.
    assert_eq!(company_slugs(index, company_search("  ", |_| {})).await.1, 10);
}

// scenario: Companies by facets, most open jobs first
pub async fn companies_by_facets(index: &dyn SearchIndex) {
    index.rebuild_companies(companies()).await.unwrap();
    let all = |edit: fn(&mut CompanySearch)| {
        let mut s = CompanySearch { limit: 50, ..CompanySearch::default() };
        edit(&mut s);
        s
    };
    assert_eq!(
        company_slugs(index, all(|_| {})).await,
        (COMPANY_ORDER.map(String::from).to_vec(), 10)
    );
    // Pages cut the same order; a page past the end is empty with the total kept.
    let page = company_slugs(index, all(|s| (s.offset, s.limit) = (3, 3))).await;
    assert_eq!(page, (vec!["acme-corp".into(), "acme-labs".into(), "hooli".into()], 10));
    assert_eq!(company_slugs(index, all(|s| s.offset = 10)).await, (vec![], 10));
    // OR within a facet, AND across facets.
    let found =
        |edit: fn(&mut CompanySearch)| async move { company_slugs(index, all(edit)).await.0 };
    assert_eq!(found(|s| s.regions = vec!["eu".into()]).await, ["acme-labs", "hooli", "initech"]);
    assert_eq!(
        found(|s| {
            s.regions = vec!["eu".into()];
            s.work_modes = vec!["remote".into()];
        })
        .await,
        ["acme-labs", "initech"]
    );
    assert_eq!(
        found(|s| s.countries = vec!["us".into(), "ca".into()]).await,
        ["globex", "acme-corp", "initech"]
    );
    assert_eq!(found(|s| s.skills = vec!["rust".into()]).await, ["acme-labs", "initech"]);
    assert_eq!(
        found(|s| {
            s.sources = vec!["ashby".into()];
            s.skills = vec!["kubernetes".into()];
        })
        .await,
        ["hooli"]
    );
    // Text and facets together.
    let acme_na = company_search("acme", |s| s.regions = vec!["na".into()]);
    assert_eq!(company_slugs(index, acme_na).await, (vec!["acme-corp".into()], 1));
}

// scenario: Company writes are searchable at once
pub async fn company_writes(index: &dyn SearchIndex) {
    let jobs = run(index, "").await.total;
    index.rebuild_companies(companies()).await.unwrap();
    let mut grown = companies().remove(4);
    grown.job_count = 500;
    grown.name = "Umbrella Health".into();
    index.upsert_companies(vec![grown]).await.unwrap();
    let top = CompanySearch { limit: 1, ..CompanySearch::default() };
    let found = index.search_companies(&top).await.unwrap();
    assert_eq!(
        (found.hits[0].name.as_str(), found.hits[0].job_count, found.total),
        ("Umbrella Health", 500, 10)
    );
    let health = company_slugs(index, company_search("health", |_| {})).await;
    assert_eq!(health, (vec!["umbrella".into()], 1));
    index.delete_companies(&["umbrella".into(), "no-such-company".into()]).await.unwrap();
    assert_eq!(company_slugs(index, company_search("umbrella", |_| {})).await, (vec![], 0));
    index.rebuild_companies(companies().into_iter().take(2).collect()).await.unwrap();
    let none = CompanySearch { limit: 10, ..CompanySearch::default() };
    assert_eq!(company_slugs(index, none).await.0, ["globex", "acme-labs"]);
    // The job index is untouched by company writes.
    assert_eq!(run(index, "").await.total, jobs);
}

macro_rules! suite {
    ($($check:ident),* $(,)?) => {
        /// Every check, in order, on one loaded index.
        pub async fn all(index: &dyn SearchIndex) {
            $( $check(index).await; )*
        }

        mod suite {
            suite!(@engine embedded, $($check),*);
            suite!(@engine meili, $($check),*);
        }
    };
    (@engine $engine:ident, $($check:ident),*) => {
        mod $engine {
            use freehire_search::SearchIndex;

            use crate::engine::{conformance, $engine::on_catalogue};

            $(
                #[tokio::test]
                async fn $check() {
                    on_catalogue(stringify!($check), async |index: &dyn SearchIndex| {
                        conformance::$check(index).await
                    })
                    .await;
                }
            )*

            #[tokio::test]
            async fn whole_suite_on_one_index() {
                on_catalogue("whole_suite", async |index: &dyn SearchIndex| {
                    conformance::all(index).await
                })
                .await;
            }
        }
    };
}

suite!(
    text_match_and_title_boost,
    prefix_and_typos,
    facet_filters,
    geography_and_flags,
    scalar_bounds,
    sorts,
    paging_and_total,
    facet_distributions,
    facets_requests,
    free_text_values_are_literal,
    writes,
    companies_by_name,
    companies_by_facets,
    company_writes,
);
