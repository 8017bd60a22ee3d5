//! The companies index (reference §5.4): the companies table as the search engine holds it,
//! kept in step by the drain, rebuilt by `freehire reindex`, and what the companies list (API,
//! web page, command line) is served from.
//!
//! - [`document`] / [`company`]: a [`Company`] row as a [`CompanyDocument`] and back.
//! - [`sync`]: drains the companies index outbox (every write of the companies table marks its
//!   slug by trigger, migration 0027): the marked companies are written as the table holds
//!   them now, the ones it no longer holds removed, then exactly the marks read are
//!   acknowledged. A failed write leaves its marks for the next drain.
//! - [`rebuild`]: every company of the table into the index in one step.
//! - [`search`]: a [`CompanyFilter`] page answered by the engine.

use freehire_domain::{CompanySlug, CountryCode, Provider, Region, WorkMode};
use freehire_search::{CompanyDocument, CompanySearch, IndexError, SearchIndex};
use freehire_store::{Company, CompanyFilter, CompanyList, ListPage, Store};

use crate::AppError;

/// Outbox marks one sync round reads.
const BATCH: u32 = 2_000;

/// The indexed form of a company row.
pub fn document(c: &Company) -> CompanyDocument {
    let strings = |v: &mut dyn Iterator<Item = &str>| v.map(str::to_owned).collect();
    CompanyDocument {
        slug: c.slug.as_str().to_owned(),
        name: c.name.clone(),
        job_count: c.job_count,
        latest_posted_ts: c.latest_posted_at.timestamp(),
        regions: strings(&mut c.regions.iter().map(|r| r.as_str())),
        countries: strings(&mut c.countries.iter().map(|x| x.as_str())),
        work_modes: strings(&mut c.work_modes.iter().map(|m| m.as_str())),
        top_skills: c.top_skills.clone(),
        sources: strings(&mut c.sources.iter().map(|p| p.as_str())),
    }
}

/// A company read back from the index; a value the domain refuses means the index holds
/// something no version of the pipeline wrote.
pub fn company(d: CompanyDocument) -> Result<Company, AppError> {
    fn all<T, E: std::fmt::Display>(
        values: Vec<String>,
        field: &str,
        parse: impl Fn(&str) -> Result<T, E>,
    ) -> Result<Vec<T>, AppError> {
        values.iter().map(|v| parse(v).map_err(|e| corrupt(field, &e))).collect()
    }
    fn corrupt(field: &str, e: &dyn std::fmt::Display) -> AppError {
        AppError::Search(IndexError::Document(
            format!("indexed company has an invalid {field}: {e}").into(),
        ))
    }
    Ok(Company {
        slug: CompanySlug::parse(&d.slug).map_err(|e| corrupt("slug", &e))?,
        name: d.name,
        job_count: d.job_count,
        latest_posted_at: chrono::DateTime::from_timestamp(d.latest_posted_ts, 0)
            .ok_or_else(|| corrupt("latest_posted_ts", &d.latest_posted_ts))?,
        regions: all(d.regions, "region", Region::parse)?,
        countries: all(d.countries, "country", CountryCode::parse)?,
        work_modes: all(d.work_modes, "work mode", WorkMode::parse)?,
        top_skills: d.top_skills,
        sources: all(d.sources, "source", Provider::parse)?,
    })
}

/// A page of companies matching `filter`, from the engine.
pub async fn search(
    index: &dyn SearchIndex,
    filter: &CompanyFilter,
    page: ListPage,
) -> Result<CompanyList, AppError> {
    let strings = |v: &mut dyn Iterator<Item = &str>| v.map(str::to_owned).collect();
    let search = CompanySearch {
        q: filter.q.clone(),
        regions: strings(&mut filter.regions.iter().map(|r| r.as_str())),
        countries: strings(&mut filter.countries.iter().map(|c| c.as_str())),
        work_modes: strings(&mut filter.work_modes.iter().map(|m| m.as_str())),
        sources: strings(&mut filter.sources.iter().map(|p| p.as_str())),
        skills: filter.skills.clone(),
        offset: page.offset(),
        limit: page.limit(),
    };
    let found = index.search_companies(&search).await?;
    let companies = found.hits.into_iter().map(company).collect::<Result<_, _>>()?;
    Ok(CompanyList { companies, total: found.total })
}

/// What one [`sync`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SyncStats {
    /// Companies written to the index.
    pub written: u64,
    /// Companies removed from it.
    pub removed: u64,
}

/// Drains the companies index outbox into `index` until it is empty. A batch the engine
/// refuses stays marked: the error is returned and the next drain writes it again.
pub async fn sync(store: &dyn Store, index: &dyn SearchIndex) -> Result<SyncStats, AppError> {
    let mut stats = SyncStats::default();
    loop {
        let batch = store.company_index_pending(BATCH).await?;
        if batch.is_empty() {
            return Ok(stats);
        }
        if !batch.companies.is_empty() {
            index.upsert_companies(batch.companies.iter().map(document).collect()).await?;
        }
        if !batch.removed.is_empty() {
            let gone: Vec<String> = batch.removed.iter().map(|s| s.as_str().to_owned()).collect();
            index.delete_companies(&gone).await?;
        }
        store.ack_company_index(&batch.marks).await?;
        stats.written += batch.companies.len() as u64;
        stats.removed += batch.removed.len() as u64;
    }
}

/// Replaces the companies index with every company of the table (stale rows recomputed
/// first), then drains the outbox so a change made meanwhile is not lost. The marks already
/// queued are dropped before the table is read (the rebuild writes what they point to).
/// Returns how many companies the index holds.
pub async fn rebuild(
    store: &dyn Store,
    index: &dyn SearchIndex,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<u64, AppError> {
    while !store.refresh_companies(BATCH, now).await?.is_empty() {}
    loop {
        let queued = store.company_index_pending(BATCH).await?;
        if queued.is_empty() {
            break;
        }
        store.ack_company_index(&queued.marks).await?;
    }
    let all = store.all_companies().await?;
    let n = all.len() as u64;
    index.rebuild_companies(all.iter().map(document).collect()).await?;
    sync(store, index).await?;
    Ok(n)
}
