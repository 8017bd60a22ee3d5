//! [`CompanyRepo`] on SQLite: companies grouped from the open jobs (index
//! `jobs_open_company_idx`), their names and values read for one page of slugs at a time.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::CompanySlug;

use super::{Shared, SqliteStore};
use crate::{
    Company, CompanyFilter, CompanyList, CompanyRepo, JobList, ListPage, Result,
    companies::CompanySql,
};

/// One page of companies: slug and open-job count, most jobs first, then by slug. `$1` is the
/// slug fragment (NULL = every company).
const PAGE: &str = "SELECT company_slug, count(*) AS job_count FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug <> '' \
       AND ($1 IS NULL OR instr(company_slug, $1) > 0) \
     GROUP BY company_slug ORDER BY job_count DESC, company_slug LIMIT $2 OFFSET $3";

const COUNT: &str = "SELECT count(DISTINCT company_slug) FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug <> '' \
       AND ($1 IS NULL OR instr(company_slug, $1) > 0)";

/// Names per company of `$1` (a JSON array of slugs); `$2` is `now` for the effective posted
/// date (the source's date unless missing, in the future or before 2000).
const NAMES: &str = "SELECT company_slug, company, count(*) AS jobs, \
       max(created_at) AS newest, \
       max(CASE WHEN posted_at IS NOT NULL AND posted_at <= $2 \
                     AND posted_at >= '2000-01-01T00:00:00.000000Z' \
                THEN posted_at ELSE created_at END) AS latest_posted_at \
     FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL \
       AND company_slug IN (SELECT value FROM json_each($1)) \
     GROUP BY company_slug, company";

/// Value counts per company of `$1` for every aggregated kind.
const VALUES: &str = "WITH o AS (SELECT company_slug, source, work_mode, regions, countries, \
       skills FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL \
       AND company_slug IN (SELECT value FROM json_each($1))) \
     SELECT company_slug, 'regions' AS kind, e.value AS value, count(*) AS jobs \
       FROM o, json_each(o.regions) AS e GROUP BY 1, 3 \
     UNION ALL SELECT company_slug, 'countries', e.value, count(*) \
       FROM o, json_each(o.countries) AS e GROUP BY 1, 3 \
     UNION ALL SELECT company_slug, 'skills', e.value, count(*) \
       FROM o, json_each(o.skills) AS e GROUP BY 1, 3 \
     UNION ALL SELECT company_slug, 'work_mode', work_mode, count(*) \
       FROM o WHERE work_mode IS NOT NULL GROUP BY 1, 3 \
     UNION ALL SELECT company_slug, 'source', source, count(*) FROM o GROUP BY 1, 3";

const STATEMENTS: CompanySql =
    CompanySql { page: PAGE, count: COUNT, names: NAMES, values: VALUES };

#[async_trait]
impl CompanyRepo for SqliteStore {
    async fn list_companies(
        &self,
        filter: &CompanyFilter,
        page: ListPage,
        now: DateTime<Utc>,
    ) -> Result<CompanyList> {
        Shared::list_companies(&self.pool, &STATEMENTS, filter, page, now).await
    }

    async fn company_by_slug(
        &self,
        slug: &CompanySlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Company>> {
        Shared::company_by_slug(&self.pool, &STATEMENTS, slug, now).await
    }

    async fn company_jobs(&self, slug: &CompanySlug, page: ListPage) -> Result<JobList> {
        Shared::company_jobs(&self.pool, slug, page).await
    }

    async fn sitemap_companies(&self, offset: u64, limit: u32) -> Result<crate::SitemapPage> {
        Shared::sitemap_companies(&self.pool, offset, limit).await
    }
}
