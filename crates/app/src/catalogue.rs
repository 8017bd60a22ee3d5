//! The catalogue as the JSON routes and the web pages read it: [`Catalogue`], one service over
//! the store, so neither reaches the store itself.
//!
//! - [`Catalogue::jobs`]: open, non-duplicate jobs, newest first;
//! - [`Catalogue::jobs_by_slugs`]: the jobs at several public slugs, in one read;
//! - [`Catalogue::job`]: one job by public slug, open or closed, with its copies (the open
//!   jobs of the same role cluster: the same role posted for other cities);
//! - [`Catalogue::companies`] and [`Catalogue::company`]: companies derived from the open
//!   jobs, and one company with a page of its open jobs.
//!
//! `now` comes from the caller (it anchors the effective posted dates of companies).

use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_domain::{CompanySlug, Job, PublicSlug};
use freehire_store::{Company, CompanyFilter, CompanyList, JobList, ListPage, Store};

use crate::AppError;

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

    /// The jobs at `slugs` (open or closed; unknown ones are skipped) in one store read.
    pub async fn jobs_by_slugs(&self, slugs: &[PublicSlug]) -> Result<Vec<Job>, AppError> {
        Ok(self.store.jobs_by_slugs(slugs).await?)
    }

    /// The job at `slug` and the other open jobs of its role cluster; `None` when unknown.
    pub async fn job_detail(&self, slug: &PublicSlug) -> Result<Option<JobDetail>, AppError> {
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
        Ok(Some(JobDetail { job, copies }))
    }

    /// Companies with open jobs matching `filter`, most jobs first.
    pub async fn companies(
        &self,
        filter: &CompanyFilter,
        page: ListPage,
        now: DateTime<Utc>,
    ) -> Result<CompanyList, AppError> {
        Ok(self.store.list_companies(filter, page, now).await?)
    }

    /// The company at `slug` and a page of its open jobs; `None` when it has no open job.
    pub async fn company(
        &self,
        slug: &CompanySlug,
        page: ListPage,
        now: DateTime<Utc>,
    ) -> Result<Option<CompanyDetail>, AppError> {
        let Some(company) = self.store.company_by_slug(slug, now).await? else {
            return Ok(None);
        };
        let jobs = self.store.company_jobs(slug, page).await?;
        Ok(Some(CompanyDetail { company, jobs }))
    }
}
