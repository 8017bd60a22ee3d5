//! [`CompanyRepo`] on PostgreSQL: the same statements as SQLite's, with arrays instead of
//! JSON text (`&&`, `= ANY`, `unnest`) and the C collation for the slug order, so both
//! backends page alike.

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::{AliasReason, CompanySlug};

use super::{PgStore, Shared, outbox::enqueue, retry_once_if_lost};
use crate::{
    Company, CompanyAlias, CompanyFilter, CompanyList, CompanyMerge, CompanyRefresh, CompanyRepo,
    JobList, ListPage, OutboxKind, Result, bind::Stamp, companies::CompanySql,
};

/// The filter of a page and its count: `$1` the slug fragment, `$2`..`$6` arrays.
macro_rules! company_filter {
    () => {
        " WHERE ($1::text IS NULL OR strpos(slug, $1) > 0) \
           AND (cardinality($2::text[]) = 0 OR regions && $2::text[]) \
           AND (cardinality($3::text[]) = 0 OR countries && $3::text[]) \
           AND (cardinality($4::text[]) = 0 OR work_modes && $4::text[]) \
           AND (cardinality($5::text[]) = 0 OR sources && $5::text[]) \
           AND (cardinality($6::text[]) = 0 OR top_skills && $6::text[])"
    };
}

const PAGE: &str = concat!(
    "SELECT ",
    company_columns!(),
    " FROM companies",
    company_filter!(),
    " ORDER BY job_count DESC, slug COLLATE \"C\" LIMIT $7 OFFSET $8"
);

const COUNT: &str = concat!("SELECT count(*) FROM companies", company_filter!());

/// Open, non-duplicate jobs per company of `$1`.
const SUMMARIES: &str = "SELECT company_slug, count(*) AS job_count FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug = ANY($1) \
     GROUP BY company_slug";

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

const REMOVE: &str = "DELETE FROM companies WHERE slug = ANY($1)";

const ACK: &str = "DELETE FROM company_refresh WHERE id = ANY($1)";

const BY_SLUGS: &str =
    concat!("SELECT ", company_columns!(), " FROM companies WHERE slug = ANY($1)");

const ACK_INDEX: &str = "DELETE FROM company_index WHERE id = ANY($1)";

const STATEMENTS: CompanySql = CompanySql {
    page: PAGE,
    count: COUNT,
    summaries: SUMMARIES,
    names: NAMES,
    values: VALUES,
    remove: REMOVE,
    ack: ACK,
    by_slugs: BY_SLUGS,
    ack_index: ACK_INDEX,
};

#[async_trait]
impl CompanyRepo for PgStore {
    async fn list_companies(
        &self,
        filter: &CompanyFilter,
        page: ListPage,
        now: DateTime<Utc>,
    ) -> Result<CompanyList> {
        let begin = || async { Ok(self.pool.begin().await?) };
        Shared::refresh_before_read(&self.pool, &STATEMENTS, now.trunc_subsecs(6), begin).await?;
        retry_once_if_lost(|| Shared::list_companies(&self.pool, &STATEMENTS, filter, page)).await
    }

    async fn company_by_slug(
        &self,
        slug: &CompanySlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Company>> {
        let begin = || async { Ok(self.pool.begin().await?) };
        Shared::refresh_before_read(&self.pool, &STATEMENTS, now.trunc_subsecs(6), begin).await?;
        retry_once_if_lost(|| Shared::company_by_slug(&self.pool, slug)).await
    }

    async fn company_jobs(&self, slug: &CompanySlug, page: ListPage) -> Result<JobList> {
        retry_once_if_lost(|| Shared::company_jobs(&self.pool, slug, page)).await
    }

    async fn sitemap_companies(&self, offset: u64, limit: u32) -> Result<crate::SitemapPage> {
        retry_once_if_lost(|| Shared::sitemap_companies(&self.pool, offset, limit)).await
    }

    async fn refresh_companies(&self, limit: u32, now: DateTime<Utc>) -> Result<CompanyRefresh> {
        let now = now.trunc_subsecs(6);
        let begin = || async { Ok(self.pool.begin().await?) };
        Ok(Shared::refresh_round(&self.pool, &STATEMENTS, limit, now, begin).await?.0)
    }

    async fn company_index_pending(&self, limit: u32) -> Result<crate::CompanyIndexBatch> {
        retry_once_if_lost(|| Shared::company_index_pending(&self.pool, &STATEMENTS, limit)).await
    }

    async fn ack_company_index(&self, ids: &[i64]) -> Result<()> {
        retry_once_if_lost(|| Shared::ack_company_index(&self.pool, &STATEMENTS, ids)).await
    }

    async fn all_companies(&self) -> Result<Vec<Company>> {
        retry_once_if_lost(|| Shared::all_companies(&self.pool)).await
    }

    async fn company_alias(&self, slug: &CompanySlug) -> Result<Option<CompanySlug>> {
        retry_once_if_lost(|| Shared::company_alias(&self.pool, slug)).await
    }

    async fn company_aliases(&self) -> Result<Vec<CompanyAlias>> {
        retry_once_if_lost(|| Shared::company_aliases(&self.pool)).await
    }

    async fn merge_companies(
        &self,
        alias: &CompanySlug,
        canonical: &CompanySlug,
        reason: AliasReason,
        at: DateTime<Utc>,
    ) -> Result<CompanyMerge> {
        let at = at.trunc_subsecs(6);
        let mut tx = self.pool.begin().await?;
        let (ids, outcome) = Shared::merge_companies(&mut tx, alias, canonical, reason, at).await?;
        enqueue(&mut tx, OutboxKind::Index, &ids, Stamp(at)).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(outcome)
    }
}
