//! The catalogue as the JSON routes and the web pages read it: [`Catalogue`], one service over
//! the store, so neither reaches the store itself.
//!
//! - [`Catalogue::jobs`]: open, non-duplicate jobs, newest first;
//! - [`Catalogue::jobs_by_slugs`]: the jobs at several public slugs, in one read;
//! - [`Catalogue::job`]: one job by public slug, open or closed, with its copies (the open
//!   jobs of the same role cluster: the same role posted for other cities);
//! - [`Catalogue::companies`] and [`Catalogue::company`]: companies derived from the open
//!   jobs (the companies table, with the §5.4 filters of [`crate::company_filter`]), and one
//!   company with a page of its open jobs, or where a merged slug moved;
//! - [`Catalogue::merge_companies`] and [`Catalogue::company_aliases`]: the alias registry;
//! - [`Catalogue::find_by_url`]: the posting at a pasted address ([`PostingUrl`]);
//! - [`Catalogue::cities`]: canonical city names completing typed text (the gazetteer's);
//! - [`Catalogue::job_sitemap`] and [`Catalogue::company_sitemap`]: numbered pages of the
//!   open jobs and the companies, [`SITEMAP_PAGE_SIZE`] entries each, for search engines.
//!
//! `now` comes from the caller (it anchors the effective posted dates of companies).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_domain::{AliasReason, CompanySlug, CountryCode, Job, PublicSlug};
pub use freehire_normalize::{CityMatch, MAX_CITIES};
use freehire_store::{
    Company, CompanyAlias, CompanyFilter, CompanyList, CompanyMerge, JobList, ListPage,
    SITEMAP_PAGE_SIZE, SitemapPage, Store,
};

use crate::AppError;
use crate::posting_url::PostingUrl;

/// Read access to the catalogue.
#[derive(Clone)]
pub struct Catalogue {
    store: Arc<dyn Store>,
}

/// One job and its copies in other cities.
#[derive(Debug, Clone)]
pub struct JobDetail {
    /// The job, open or closed.
    pub job: Job,
    /// The other open jobs of its role cluster (the canonical row and its duplicates), by id;
    /// empty for a job posted once.
    pub copies: Vec<Job>,
    /// Its reality and ghost signals ([`crate::signals`]).
    pub signals: JobSignals,
}

/// A job's reality signals and its ghost signal (`None` when closed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobSignals {
    /// Reality ([`freehire_domain::reality`]).
    pub reality: freehire_domain::reality::Reality,
    /// Ghost ([`freehire_domain::ghost`]).
    pub ghost: Option<freehire_domain::ghost::Ghost>,
}

/// What lives at a company slug.
#[derive(Debug, Clone)]
pub enum CompanyAt {
    /// The company and a page of its jobs.
    Found(Box<CompanyDetail>),
    /// The slug was merged into this one (answer 301).
    MovedTo(CompanySlug),
    /// No company with open jobs, and no merge.
    NotFound,
}

/// One company and a page of its open jobs.
#[derive(Debug, Clone)]
pub struct CompanyDetail {
    /// The company.
    pub company: Company,
    /// A page of its open, non-duplicate jobs, newest first, with their total.
    pub jobs: JobList,
}

impl Catalogue {
    /// The catalogue over `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self { store }
    }

    /// Open, non-duplicate jobs, newest first.
    pub async fn jobs(&self, page: ListPage) -> Result<JobList, AppError> {
        Ok(self.store.list_open_jobs(page).await?)
    }

    /// The job at `slug` (open or closed), without its copies; `None` when unknown.
    pub async fn job(&self, slug: &PublicSlug) -> Result<Option<Job>, AppError> {
        Ok(self.store.job_by_slug(slug).await?)
    }

    /// The job at `slug` (open or closed) with its signals at `now`.
    pub async fn job_with_signals(
        &self,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<(Job, JobSignals)>, AppError> {
        let Some(job) = self.store.job_by_slug(slug).await? else { return Ok(None) };
        let signals = self.signals(&job, now).await?;
        Ok(signals.map(|s| (job, s)))
    }

    async fn signals(&self, job: &Job, now: DateTime<Utc>) -> Result<Option<JobSignals>, AppError> {
        let store = self.store.as_ref();
        let Some(reality) = crate::signals::of_jobs(store, std::slice::from_ref(job), now)
            .await?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        let ghost = crate::signals::ghost_of(store, job, &reality, now).await?;
        Ok(Some(JobSignals { reality, ghost }))
    }

    /// The jobs at `slugs` (open or closed; unknown ones are skipped) in one store read.
    pub async fn jobs_by_slugs(&self, slugs: &[PublicSlug]) -> Result<Vec<Job>, AppError> {
        Ok(self.store.jobs_by_slugs(slugs).await?)
    }

    /// The job at `slug`, the other open jobs of its role cluster and its reality signals at
    /// `now`; `None` when unknown.
    pub async fn job_detail(
        &self,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<Option<JobDetail>, AppError> {
        let Some(job) = self.store.job_by_slug(slug).await? else {
            return Ok(None);
        };
        let canonical = job.duplicate_of.unwrap_or(job.id);
        let mut copies = self.store.open_duplicates_of(&[canonical]).await?;
        if job.duplicate_of.is_some() {
            copies.extend(
                self.store.jobs_by_ids(&[canonical]).await?.into_iter().filter(Job::is_open),
            );
        }
        copies.retain(|c| c.id != job.id);
        copies.sort_by_key(|c| c.id.get());
        let signals = self.signals(&job, now).await?;
        Ok(signals.map(|signals| JobDetail { job, copies, signals }))
    }

    /// Companies with open jobs matching `filter` (reference §5.4), served by the search
    /// engine's companies index: without text most jobs first (ties by slug), with text the
    /// best name matches first.
    pub async fn companies(
        &self,
        index: &dyn freehire_search::SearchIndex,
        filter: &CompanyFilter,
        page: ListPage,
    ) -> Result<CompanyList, AppError> {
        crate::company_index::search(index, filter, page).await
    }

    /// The company at `slug` and a page of its open jobs; `None` when it has no open job.
    pub async fn company(
        &self,
        slug: &CompanySlug,
        page: ListPage,
        now: DateTime<Utc>,
    ) -> Result<CompanyAt, AppError> {
        let Some(company) = self.store.company_by_slug(slug, now).await? else {
            return Ok(match self.store.company_alias(slug).await? {
                Some(canonical) => CompanyAt::MovedTo(canonical),
                None => CompanyAt::NotFound,
            });
        };
        let jobs = self.store.company_jobs(slug, page).await?;
        Ok(CompanyAt::Found(Box::new(CompanyDetail { company, jobs })))
    }

    /// Every merged company slug, by alias.
    pub async fn company_aliases(&self) -> Result<Vec<CompanyAlias>, AppError> {
        Ok(self.store.company_aliases().await?)
    }

    /// Merges the company `alias` into `canonical` (reference §4.1, `merge-companies`): its
    /// jobs move, later postings under its name land in `canonical`, and its page answers 301.
    pub async fn merge_companies(
        &self,
        alias: &CompanySlug,
        canonical: &CompanySlug,
        reason: AliasReason,
        at: DateTime<Utc>,
    ) -> Result<CompanyMerge, AppError> {
        Ok(self.store.merge_companies(alias, canonical, reason, at).await?)
    }

    /// The posting stored at `url` (any of its [`PostingUrl::forms`]), open or closed; when
    /// several are, the open canonical one first, then any open one, then the oldest.
    pub async fn find_by_url(&self, url: &PostingUrl) -> Result<Option<Job>, AppError> {
        let found = self.store.jobs_by_urls(&url.forms()).await?;
        Ok(found
            .into_iter()
            .min_by_key(|job| (!job.is_open(), job.duplicate_of.is_some(), job.id.get())))
    }

    /// Canonical city names starting with `query` (or with a word that does), in `country`
    /// when given, most populous first, at most `limit` (1..=[`MAX_CITIES`]).
    pub fn cities(
        &self,
        query: &str,
        country: Option<&CountryCode>,
        limit: usize,
    ) -> Vec<CityMatch> {
        freehire_normalize::complete_city(query, country, limit)
    }

    /// Page `page` (from 1) of the jobs sitemap; an empty page past the end.
    pub async fn job_sitemap(&self, page: u32) -> Result<SitemapPage, AppError> {
        Ok(self.store.sitemap_jobs(sitemap_offset(page), SITEMAP_PAGE_SIZE).await?)
    }

    /// Page `page` (from 1) of the companies sitemap; an empty page past the end.
    pub async fn company_sitemap(&self, page: u32) -> Result<SitemapPage, AppError> {
        Ok(self.store.sitemap_companies(sitemap_offset(page), SITEMAP_PAGE_SIZE).await?)
    }
}

/// Where sitemap page `page` (from 1; 0 is read as 1) starts.
fn sitemap_offset(page: u32) -> u64 {
    u64::from(page.max(1) - 1) * u64::from(SITEMAP_PAGE_SIZE)
}

/// How many pages a sitemap of `total` entries has (at least one, which may be empty).
pub fn sitemap_pages(total: u64) -> u64 {
    total.div_ceil(u64::from(SITEMAP_PAGE_SIZE)).max(1)
}
