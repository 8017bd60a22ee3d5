//! Companies derived from the open catalogue: the companies table kept in step with every
//! job write, its filters, and merged slugs.

use chrono::{DateTime, TimeZone, Utc};
use freehire_domain::{
    AliasReason, ClosedReason, CompanySlug, CountryCode, JobPosting, Provider, Region, WorkMode,
};
use freehire_store::{
    ClaimOptions, CompanyFilter, CompanyMerge, JobKey, ListPage, OutboxKind, Store,
};

use crate::fixtures::{posting, t};

fn key(p: &JobPosting) -> JobKey {
    JobKey { source: p.source.clone(), external_id: p.external_id.clone() }
}

fn at_company(mut p: JobPosting, company: &str) -> JobPosting {
    p.company = company.to_owned();
    p
}

fn now() -> DateTime<Utc> {
    t(20, 0)
}

fn slug(s: &str) -> CompanySlug {
    CompanySlug::parse(s).unwrap()
}

/// Acme Labs: 3 open jobs (two spellings of its name), one closed, one duplicate. Globex: 4
/// open. Beta and Initech: one each. Hooli: only a closed job.
async fn catalogue(s: &dyn Store) {
    let a1 = posting("greenhouse", "acme:1", "Backend Engineer");
    let mut a2 = posting("lever", "acme:2", "Platform Engineer");
    a2.facets.countries =
        vec![CountryCode::parse("at").unwrap(), CountryCode::parse("de").unwrap()];
    a2.facets.work_mode = Some(WorkMode::Remote);
    a2.facets.skills = vec!["go".into(), "kubernetes".into()];
    // A posted date in the future is not believed: the first-seen date stands in.
    a2.posted_at = Some(Utc.with_ymd_and_hms(2027, 6, 1, 0, 0, 0).unwrap());
    let a3 = at_company(posting("greenhouse", "acme:3", "Data Engineer"), "Acme Labs");
    let closed = posting("greenhouse", "acme:4", "Closed Role");
    let dup = posting("greenhouse", "acme:5", "Backend Engineer (repost)");
    let ids = s.upsert_jobs(&[a1, a3, closed.clone(), dup], t(2, 0)).await.unwrap();
    s.upsert_jobs(&[a2], t(5, 0)).await.unwrap();
    s.close_jobs(&[key(&closed)], ClosedReason::Expired, t(6, 0)).await.unwrap();
    assert!(s.set_duplicate_of(ids[3].id, Some(ids[0].id)).await.unwrap());

    let globex: Vec<JobPosting> = (0..4)
        .map(|i| at_company(posting("ashby", &format!("globex:{i}"), "Analyst"), "Globex"))
        .collect();
    s.upsert_jobs(&globex, t(3, 0)).await.unwrap();
    let beta = at_company(posting("lever", "beta:1", "Designer"), "Beta");
    let initech = at_company(posting("lever", "initech:1", "Tester"), "Initech");
    s.upsert_jobs(&[initech, beta], t(4, 0)).await.unwrap();
    let hooli = at_company(posting("lever", "hooli:1", "Gone"), "Hooli");
    s.upsert_jobs(std::slice::from_ref(&hooli), t(4, 0)).await.unwrap();
    s.close_jobs(&[key(&hooli)], ClosedReason::BoardUnseen, t(5, 0)).await.unwrap();
}

fn slugs(list: &freehire_store::CompanyList) -> Vec<&str> {
    list.companies.iter().map(|c| c.slug.as_str()).collect()
}

pub async fn companies_are_the_open_catalogue_by_job_count(s: &dyn Store) {
    catalogue(s).await;
    let all = CompanyFilter::default();
    let list = s.list_companies(&all, ListPage::default(), now()).await.unwrap();
    assert_eq!(slugs(&list), ["globex", "acme-labs", "beta", "initech"], "ties by slug");
    assert_eq!(list.total, 4, "a company with only closed jobs is not listed");
    let counts: Vec<u64> = list.companies.iter().map(|c| c.job_count).collect();
    assert_eq!(counts, [4, 3, 1, 1], "closed and duplicate jobs do not count");

    let page = s.list_companies(&all, ListPage::new(2, 1), now()).await.unwrap();
    assert_eq!(slugs(&page), ["acme-labs", "beta"]);
    assert_eq!(page.total, 4);
    let past = s.list_companies(&all, ListPage::new(10, 10), now()).await.unwrap();
    assert!(past.companies.is_empty());
    assert_eq!(past.total, 4);
}

pub async fn company_search_matches_slug_fragments(s: &dyn Store) {
    catalogue(s).await;
    let q = |q: &str| CompanyFilter { q: Some(q.to_owned()), ..CompanyFilter::default() };
    let page = ListPage::default();
    let list = s.list_companies(&q("Acme Labs"), page, now()).await.unwrap();
    assert_eq!((slugs(&list), list.total), (vec!["acme-labs"], 1));
    let list = s.list_companies(&q("LABS"), page, now()).await.unwrap();
    assert_eq!(slugs(&list), ["acme-labs"], "case and position do not matter");
    let list = s.list_companies(&q("e"), page, now()).await.unwrap();
    assert_eq!(slugs(&list), ["globex", "acme-labs", "beta", "initech"]);
    let list = s.list_companies(&q("hooli"), page, now()).await.unwrap();
    assert_eq!((list.companies.len(), list.total), (0, 0));
    let list = s.list_companies(&q("%_'"), page, now()).await.unwrap();
    assert_eq!(list.total, 4, "a query with nothing to match on is no filter");
}

pub async fn a_company_aggregates_its_open_jobs(s: &dyn Store) {
    catalogue(s).await;
    let acme = s.company_by_slug(&slug("acme-labs"), now()).await.unwrap().unwrap();
    assert_eq!(acme.name, "Acme Labs, Inc.", "the spelling most of its jobs carry");
    assert_eq!(acme.job_count, 3);
    let countries: Vec<&str> = acme.countries.iter().map(|c| c.as_str()).collect();
    assert_eq!(countries, ["de", "at"], "most jobs first");
    assert_eq!(acme.regions, [Region::Eu]);
    assert_eq!(acme.work_modes, [WorkMode::Hybrid, WorkMode::Remote]);
    assert_eq!(acme.top_skills, ["go", "postgresql", "kubernetes"]);
    let sources: Vec<&str> = acme.sources.iter().map(Provider::as_str).collect();
    assert_eq!(sources, ["greenhouse", "lever"]);
    assert_eq!(acme.latest_posted_at, t(5, 0), "a future posted date counts as first seen");

    let all = CompanyFilter::default();
    let listed = s.list_companies(&all, ListPage::default(), now()).await.unwrap();
    assert_eq!(listed.companies[1], acme, "the list and the detail agree");

    for missing in ["hooli", "nope", ""] {
        assert!(s.company_by_slug(&slug(missing), now()).await.unwrap().is_none(), "{missing}");
    }
}

pub async fn company_jobs_are_open_newest_first(s: &dyn Store) {
    catalogue(s).await;
    let jobs = s.company_jobs(&slug("acme-labs"), ListPage::default()).await.unwrap();
    let titles: Vec<&str> = jobs.jobs.iter().map(|j| j.posting.title.as_str()).collect();
    assert_eq!(titles, ["Platform Engineer", "Data Engineer", "Backend Engineer"]);
    assert_eq!(jobs.total, 3);
    let page = s.company_jobs(&slug("acme-labs"), ListPage::new(1, 1)).await.unwrap();
    assert_eq!(page.jobs[0].posting.title, "Data Engineer");
    assert_eq!(page.total, 3);
    let none = s.company_jobs(&slug("hooli"), ListPage::default()).await.unwrap();
    assert_eq!((none.jobs.len(), none.total), (0, 0));
}

fn counts(list: &freehire_store::CompanyList) -> Vec<(&str, u64)> {
    list.companies.iter().map(|c| (c.slug.as_str(), c.job_count)).collect()
}

async fn listed(s: &dyn Store, filter: &CompanyFilter) -> Vec<(String, u64)> {
    let list = s.list_companies(filter, ListPage::default(), now()).await.unwrap();
    assert_eq!(list.total, list.companies.len() as u64, "{filter:?}");
    counts(&list).into_iter().map(|(slug, n)| (slug.to_owned(), n)).collect()
}

fn pairs(expected: &[(&str, u64)]) -> Vec<(String, u64)> {
    expected.iter().map(|(slug, n)| ((*slug).to_owned(), *n)).collect()
}

// scenario: The companies table follows every job write
pub async fn the_companies_table_follows_every_job_write(s: &dyn Store) {
    catalogue(s).await;
    let first = s.refresh_companies(10_000, now()).await.unwrap();
    let mut refreshed: Vec<&str> = first.refreshed.iter().map(|c| c.slug.as_str()).collect();
    refreshed.sort_unstable();
    assert_eq!(refreshed, ["acme-labs", "beta", "globex", "initech"]);
    let removed: Vec<&str> = first.removed.iter().map(CompanySlug::as_str).collect();
    assert_eq!(removed, ["hooli"], "a company whose only job closed has no row");
    assert!(s.refresh_companies(10_000, now()).await.unwrap().is_empty(), "nothing is stale");

    // Closing, a re-sighting, a duplicate mark: each marks the company, one refresh fixes it.
    let globex = |i: u32| at_company(posting("ashby", &format!("globex:{i}"), "Analyst"), "Globex");
    s.close_jobs(&[key(&globex(0))], ClosedReason::Unseen, t(7, 0)).await.unwrap();
    let after = s.refresh_companies(10_000, now()).await.unwrap();
    assert_eq!(
        counts(&freehire_store::CompanyList { companies: after.refreshed, total: 0 }),
        [("globex", 3)]
    );
    let ids = s.upsert_jobs(&[globex(0)], t(8, 0)).await.unwrap();
    assert!(ids[0].reopened);
    let other = s.upsert_jobs(&[globex(9)], t(8, 0)).await.unwrap();
    assert!(s.set_duplicate_of(other[0].id, Some(ids[0].id)).await.unwrap());
    // Reads never wait for the drain: they refresh whatever is stale first.
    let all = CompanyFilter::default();
    assert_eq!(
        listed(s, &all).await,
        pairs(&[("globex", 4), ("acme-labs", 3), ("beta", 1), ("initech", 1)])
    );
    assert!(s.refresh_companies(10_000, now()).await.unwrap().is_empty(), "the read refreshed");

    // A re-crawl that changes nothing a company shows marks nothing.
    s.upsert_jobs(&[globex(0)], t(9, 0)).await.unwrap();
    assert!(s.refresh_companies(10_000, now()).await.unwrap().is_empty(), "unchanged re-crawl");

    // A company's facets follow its jobs' facets; a renamed company moves its job.
    let mut remote = globex(1);
    remote.facets.work_mode = Some(WorkMode::Remote);
    remote.facets.countries = vec![CountryCode::parse("us").unwrap()];
    s.upsert_jobs(&[remote], t(10, 0)).await.unwrap();
    let g = s.company_by_slug(&slug("globex"), now()).await.unwrap().unwrap();
    assert_eq!(g.work_modes, [WorkMode::Hybrid, WorkMode::Remote]);
    let countries: Vec<&str> = g.countries.iter().map(|c| c.as_str()).collect();
    assert_eq!(countries, ["de", "us"]);
    let beta = at_company(posting("lever", "beta:1", "Designer"), "Initech");
    s.upsert_jobs(&[beta], t(10, 0)).await.unwrap();
    assert_eq!(
        listed(s, &all).await,
        pairs(&[("globex", 4), ("acme-labs", 3), ("initech", 2)]),
        "beta's only job now belongs to initech"
    );
    assert!(s.company_by_slug(&slug("beta"), now()).await.unwrap().is_none());
}

/// Drains the companies index outbox: the slugs written and removed, each sorted, and acks.
async fn drain_index(s: &dyn Store) -> (Vec<String>, Vec<String>) {
    let batch = s.company_index_pending(10_000).await.unwrap();
    let mut written: Vec<String> = batch.companies.iter().map(|c| c.slug.to_string()).collect();
    let mut removed: Vec<String> = batch.removed.iter().map(|c| c.to_string()).collect();
    written.sort_unstable();
    removed.sort_unstable();
    s.ack_company_index(&batch.marks).await.unwrap();
    (written, removed)
}

// scenario: Every companies table write reaches the companies index outbox
pub async fn every_company_write_is_marked_for_the_search_index(s: &dyn Store) {
    assert!(s.company_index_pending(10).await.unwrap().is_empty(), "a fresh store has none");
    catalogue(s).await;
    s.refresh_companies(10_000, now()).await.unwrap();
    // Hooli never had a row (its only job is closed): nothing to remove.
    let first = drain_index(s).await;
    assert_eq!(
        first,
        (vec!["acme-labs".into(), "beta".into(), "globex".into(), "initech".into()], vec![])
    );
    assert_eq!(drain_index(s).await, (vec![], vec![]), "acknowledged marks are gone");

    // A read that refreshes first (not the drain) still marks what it rewrote.
    let globex = at_company(posting("ashby", "globex:0", "Analyst"), "Globex");
    s.close_jobs(&[key(&globex)], ClosedReason::Unseen, t(7, 0)).await.unwrap();
    let beta = at_company(posting("lever", "beta:1", "Designer"), "Initech");
    s.upsert_jobs(&[beta], t(10, 0)).await.unwrap();
    assert!(s.company_by_slug(&slug("globex"), now()).await.unwrap().is_some());
    let batch = s.company_index_pending(10_000).await.unwrap();
    let globex_now = batch.companies.iter().find(|c| c.slug.as_str() == "globex").unwrap();
    assert_eq!(globex_now.job_count, 3, "the company as the table holds it now");
    assert_eq!(
        drain_index(s).await,
        (vec!["globex".into(), "initech".into()], vec!["beta".into()])
    );

    // Marks read but not acknowledged stay for the next drain.
    let acme = at_company(posting("greenhouse", "acme:1", "Backend Engineer"), "Acme Labs");
    s.close_jobs(&[key(&acme)], ClosedReason::Unseen, t(11, 0)).await.unwrap();
    s.refresh_companies(10_000, now()).await.unwrap();
    let unacked = s.company_index_pending(10_000).await.unwrap();
    assert_eq!(unacked.companies.len(), 1);
    assert_eq!(drain_index(s).await, (vec!["acme-labs".into()], vec![]));
    let mut all: Vec<String> =
        s.all_companies().await.unwrap().iter().map(|c| c.slug.to_string()).collect();
    all.sort_unstable();
    assert_eq!(all, ["acme-labs", "globex", "initech"]);
}

// scenario: The companies table filters by region, country, work mode, source and skill
pub async fn company_filters_are_or_within_and_across_facets(s: &dyn Store) {
    catalogue(s).await;
    let mut umbrella = at_company(posting("greenhouse", "umbrella:1", "Rust Engineer"), "Umbrella");
    umbrella.facets.countries = vec![CountryCode::parse("us").unwrap()];
    umbrella.facets.regions = vec![Region::NorthAmerica];
    umbrella.facets.work_mode = Some(WorkMode::Remote);
    umbrella.facets.skills = vec!["rust".into()];
    let mut cyberdyne = at_company(posting("ashby", "cyberdyne:1", "Data Scientist"), "Cyberdyne");
    cyberdyne.facets.countries = vec![CountryCode::parse("fr").unwrap()];
    cyberdyne.facets.work_mode = Some(WorkMode::Onsite);
    cyberdyne.facets.skills = vec!["python".into()];
    s.upsert_jobs(&[umbrella, cyberdyne], t(6, 0)).await.unwrap();

    let country = |c: &str| CountryCode::parse(c).unwrap();
    let f = |edit: &dyn Fn(&mut CompanyFilter)| {
        let mut filter = CompanyFilter::default();
        edit(&mut filter);
        filter
    };
    assert_eq!(
        listed(s, &f(&|f| f.countries = vec![country("us")])).await,
        pairs(&[("umbrella", 1)])
    );
    assert_eq!(
        listed(s, &f(&|f| f.countries = vec![country("us"), country("fr")])).await,
        pairs(&[("cyberdyne", 1), ("umbrella", 1)]),
        "OR within a facet"
    );
    assert_eq!(
        listed(
            s,
            &f(&|f| {
                f.countries = vec![country("us"), country("fr")];
                f.work_modes = vec![WorkMode::Remote];
            })
        )
        .await,
        pairs(&[("umbrella", 1)]),
        "AND across facets"
    );
    assert_eq!(
        listed(s, &f(&|f| f.regions = vec![Region::NorthAmerica])).await,
        pairs(&[("umbrella", 1)])
    );
    assert_eq!(
        listed(s, &f(&|f| f.sources = vec![Provider::parse("ashby").unwrap()])).await,
        pairs(&[("globex", 4), ("cyberdyne", 1)])
    );
    assert_eq!(
        listed(s, &f(&|f| f.skills = vec!["rust".into(), "python".into()])).await,
        pairs(&[("cyberdyne", 1), ("umbrella", 1)])
    );
    assert_eq!(
        listed(
            s,
            &f(&|f| {
                f.q = Some("dyne".into());
                f.countries = vec![country("fr"), country("us")];
            })
        )
        .await,
        pairs(&[("cyberdyne", 1)]),
        "the name search and the filters together"
    );
    assert_eq!(listed(s, &f(&|f| f.countries = vec![country("jp")])).await, pairs(&[]));
    let page = s
        .list_companies(&f(&|f| f.regions = vec![Region::Eu]), ListPage::new(2, 1), now())
        .await
        .unwrap();
    assert_eq!((slugs(&page), page.total), (vec!["acme-labs", "beta"], 5), "filtered pages count");
}

// scenario: A merged company slug lives under its canonical slug
pub async fn merging_a_company_moves_its_jobs_and_folds_later_writes(s: &dyn Store) {
    catalogue(s).await;
    let items = s.claim_outbox(OutboxKind::Index, ClaimOptions::default(), t(9, 0)).await.unwrap();
    s.ack_outbox(OutboxKind::Index, &items).await.unwrap();
    let merged = s
        .merge_companies(&slug("initech"), &slug("globex"), AliasReason::Spelling, t(10, 0))
        .await
        .unwrap();
    assert_eq!(merged, CompanyMerge { jobs_moved: 1, aliases_repointed: 0 });
    let queued =
        s.claim_outbox(OutboxKind::Index, ClaimOptions::default(), t(10, 0)).await.unwrap();
    assert_eq!(queued.len(), 1, "the moved job is re-indexed under its new company");
    s.ack_outbox(OutboxKind::Index, &queued).await.unwrap();
    assert_eq!(s.company_alias(&slug("initech")).await.unwrap(), Some(slug("globex")));
    assert_eq!(s.company_alias(&slug("globex")).await.unwrap(), None);
    let all = CompanyFilter::default();
    assert_eq!(listed(s, &all).await, pairs(&[("globex", 5), ("acme-labs", 3), ("beta", 1)]));

    // A later write of the merged name is stored under the canonical slug.
    let again = at_company(posting("lever", "initech:2", "Tester II"), "Initech");
    let ids = s.upsert_jobs(&[again], t(11, 0)).await.unwrap();
    let job = s.jobs_by_ids(&[ids[0].id]).await.unwrap().remove(0);
    assert_eq!(job.company_slug.as_str(), "globex");
    assert_eq!(job.posting.company, "Initech", "the name the source gave is kept");
    assert_eq!(listed(s, &all).await[0], ("globex".to_owned(), 6));

    // Merging the canonical slug on: earlier aliases follow, no chain forms.
    let (globex, beta) = (slug("globex"), slug("beta"));
    let on = s.merge_companies(&globex, &beta, AliasReason::LegalForm, t(12, 0)).await.unwrap();
    assert_eq!(on, CompanyMerge { jobs_moved: 6, aliases_repointed: 1 });
    assert_eq!(s.company_alias(&slug("initech")).await.unwrap(), Some(slug("beta")));
    let aliases: Vec<(String, String, AliasReason)> = s
        .company_aliases()
        .await
        .unwrap()
        .into_iter()
        .map(|a| (a.alias.as_str().to_owned(), a.canonical.as_str().to_owned(), a.reason))
        .collect();
    assert_eq!(
        aliases,
        [
            ("globex".into(), "beta".into(), AliasReason::LegalForm),
            ("initech".into(), "beta".into(), AliasReason::Spelling),
        ]
    );
    // The other way round undoes the earlier merge instead of making a cycle.
    let back = s.merge_companies(&beta, &globex, AliasReason::Spelling, t(13, 0)).await.unwrap();
    assert_eq!(back.aliases_repointed, 1);
    assert_eq!(s.company_alias(&slug("globex")).await.unwrap(), None);
    assert_eq!(s.company_alias(&slug("initech")).await.unwrap(), Some(slug("globex")));
    assert_eq!(listed(s, &all).await[0], ("globex".to_owned(), 7));

    // Merging a company into itself is refused and changes nothing.
    let err = s
        .merge_companies(&slug("globex"), &slug("globex"), AliasReason::Spelling, t(14, 0))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("is the company being merged"), "{err}");
    assert_eq!(listed(s, &all).await[0], ("globex".to_owned(), 7), "a refusal changes nothing");
    assert_eq!(s.company_aliases().await.unwrap().len(), 2);
}
