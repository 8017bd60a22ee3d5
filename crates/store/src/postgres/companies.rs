//! [`CompanyRepo`] on PostgreSQL: the same queries as SQLite's, with arrays instead of JSON
//! text (`unnest`, `= ANY`) and the C collation for the slug order, so both backends page alike.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::CompanySlug;

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    Company, CompanyFilter, CompanyList, CompanyRepo, JobList, ListPage, Result,
    companies::CompanySql,
};

/// One page of companies: slug and open-job count, most jobs first, then by slug (bytewise,
/// as SQLite orders). `$1` is the slug fragment (NULL = every company).
const PAGE: &str = "SELECT company_slug, count(*) AS job_count FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug <> '' \
       AND ($1::text IS NULL OR strpos(company_slug, $1) > 0) \
     GROUP BY company_slug ORDER BY job_count DESC, company_slug COLLATE \"C\" \
     LIMIT $2 OFFSET $3";

const COUNT: &str = "SELECT count(DISTINCT company_slug) FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug <> '' \
       AND ($1::text IS NULL OR strpos(company_slug, $1) > 0)";

/// Names per company of `$1`; `$2` is `now` for the effective posted date (the source's date
/// unless missing, in the future or before 2000).
const NAMES: &str = "SELECT company_slug, company, count(*) AS jobs, \
       max(created_at) AS newest, \
       max(CASE WHEN posted_at IS NOT NULL AND posted_at <= $2 \
                     AND posted_at >= TIMESTAMPTZ '2000-01-01 00:00:00+00' \
                THEN posted_at ELSE created_at END) AS latest_posted_at \
     FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug = ANY($1) \
     GROUP BY company_slug, company";

/// Value counts per company of `$1` for every aggregated kind.
const VALUES: &str = "WITH o AS (SELECT company_slug, source, work_mode, regions, countries, \
       skills FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL \
       AND company_slug = ANY($1)) \
     SELECT company_slug, 'regions' AS kind, e AS value, count(*) AS jobs \
       FROM o, unnest(o.regions) AS e GROUP BY 1, 3 \
     UNION ALL SELECT company_slug, 'countries', e, count(*) \
       FROM o, unnest(o.countries) AS e GROUP BY 1, 3 \
     UNION ALL SELECT company_slug, 'skills', e, count(*) \
       FROM o, unnest(o.skills) AS e GROUP BY 1, 3 \
     UNION ALL SELECT company_slug, 'work_mode', work_mode, count(*) \
       FROM o WHERE work_mode IS NOT NULL GROUP BY 1, 3 \
     UNION ALL SELECT company_slug, 'source', source, count(*) FROM o GROUP BY 1, 3";

const STATEMENTS: CompanySql =
    CompanySql { page: PAGE, count: COUNT, names: NAMES, values: VALUES };

#[async_trait]
impl CompanyRepo for PgStore {
    async fn list_companies(
        &self,
        filter: &CompanyFilter,
        page: ListPage,
        now: DateTime<Utc>,
    ) -> Result<CompanyList> {
        retry_once_if_lost(|| async move {
            Shared::list_companies(&self.pool, &STATEMENTS, filter, page, now).await
        })
        .await
    }

    async fn company_by_slug(
        &self,
        slug: &CompanySlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Company>> {
        retry_once_if_lost(|| async move {
            Shared::company_by_slug(&self.pool, &STATEMENTS, slug, now).await
        })
        .await
    }

    async fn company_jobs(&self, slug: &CompanySlug, page: ListPage) -> Result<JobList> {
        retry_once_if_lost(|| async move { Shared::company_jobs(&self.pool, slug, page).await })
            .await
    }

    async fn sitemap_companies(&self, offset: u64, limit: u32) -> Result<crate::SitemapPage> {
        retry_once_if_lost(|| Shared::sitemap_companies(&self.pool, offset, limit)).await
    }
}
