//! Companies derived from the open catalogue.

use chrono::{DateTime, TimeZone, Utc};
use freehire_domain::{
    ClosedReason, CompanySlug, CountryCode, JobPosting, Provider, Region, WorkMode,
};
use freehire_store::{CompanyFilter, JobKey, ListPage, Store};

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
    let q = |q: &str| CompanyFilter { q: Some(q.to_owned()) };
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
