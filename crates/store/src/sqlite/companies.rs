//! [`CompanyRepo`] on SQLite: the companies table (migration 0025) read with its filters
//! (lists are JSON text: `json_each`), refreshed from the open jobs (index
//! `jobs_open_company_idx`) on the writer connection, and the alias registry.

use async_trait::async_trait;
use chrono::{DateTime, SubsecRound, Utc};
use freehire_domain::{AliasReason, CompanySlug};

use super::{Shared, SqliteStore, outbox::enqueue};
use crate::{
    Company, CompanyAlias, CompanyFilter, CompanyList, CompanyMerge, CompanyRefresh, CompanyRepo,
    JobList, ListPage, OutboxKind, Result, bind::Stamp, companies::CompanySql,
};

/// The filter of a page and its count: `$1` the slug fragment, `$2`..`$6` JSON lists.
macro_rules! company_filter {
    () => {
        " WHERE ($1 IS NULL OR instr(slug, $1) > 0) \
           AND (json_array_length($2) = 0 OR EXISTS (SELECT 1 FROM json_each(regions) AS v \
                WHERE v.value IN (SELECT value FROM json_each($2)))) \
           AND (json_array_length($3) = 0 OR EXISTS (SELECT 1 FROM json_each(countries) AS v \
                WHERE v.value IN (SELECT value FROM json_each($3)))) \
           AND (json_array_length($4) = 0 OR EXISTS (SELECT 1 FROM json_each(work_modes) AS v \
                WHERE v.value IN (SELECT value FROM json_each($4)))) \
           AND (json_array_length($5) = 0 OR EXISTS (SELECT 1 FROM json_each(sources) AS v \
                WHERE v.value IN (SELECT value FROM json_each($5)))) \
           AND (json_array_length($6) = 0 OR EXISTS (SELECT 1 FROM json_each(top_skills) AS v \
                WHERE v.value IN (SELECT value FROM json_each($6))))"
    };
}

const PAGE: &str = concat!(
    "SELECT ",
    company_columns!(),
    " FROM companies",
    company_filter!(),
    " ORDER BY job_count DESC, slug LIMIT $7 OFFSET $8"
);

const COUNT: &str = concat!("SELECT count(*) FROM companies", company_filter!());

/// Open, non-duplicate jobs per company of `$1` (a JSON array of slugs).
const SUMMARIES: &str = "SELECT company_slug, count(*) AS job_count FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL \
       AND company_slug IN (SELECT value FROM json_each($1)) \
     GROUP BY company_slug";

/// Names per company of `$1`; `$2` is `now` for the effective posted date (the source's date
/// unless missing, in the future or before 2000).
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

const REMOVE: &str = "DELETE FROM companies WHERE slug IN (SELECT value FROM json_each($1))";

const ACK: &str = "DELETE FROM company_refresh WHERE id IN (SELECT value FROM json_each($1))";

const BY_SLUGS: &str = concat!(
    "SELECT ",
    company_columns!(),
    " FROM companies WHERE slug IN (SELECT value FROM json_each($1))"
);

const ACK_INDEX: &str = "DELETE FROM company_index WHERE id IN (SELECT value FROM json_each($1))";

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
impl CompanyRepo for SqliteStore {
    async fn list_companies(
        &self,
        filter: &CompanyFilter,
        page: ListPage,
        now: DateTime<Utc>,
    ) -> Result<CompanyList> {
        Shared::refresh_before_read(&self.pool, &STATEMENTS, now.trunc_subsecs(6), || self.write())
            .await?;
        Shared::list_companies(&self.pool, &STATEMENTS, filter, page).await
    }

    async fn company_by_slug(
        &self,
        slug: &CompanySlug,
        now: DateTime<Utc>,
    ) -> Result<Option<Company>> {
        Shared::refresh_before_read(&self.pool, &STATEMENTS, now.trunc_subsecs(6), || self.write())
            .await?;
        Shared::company_by_slug(&self.pool, slug).await
    }

    async fn company_jobs(&self, slug: &CompanySlug, page: ListPage) -> Result<JobList> {
        Shared::company_jobs(&self.pool, slug, page).await
    }

    async fn sitemap_companies(&self, offset: u64, limit: u32) -> Result<crate::SitemapPage> {
        Shared::sitemap_companies(&self.pool, offset, limit).await
    }

    async fn refresh_companies(&self, limit: u32, now: DateTime<Utc>) -> Result<CompanyRefresh> {
        let now = now.trunc_subsecs(6);
        let round = Shared::refresh_round(&self.pool, &STATEMENTS, limit, now, || self.write());
        Ok(round.await?.0)
    }

    async fn company_index_pending(&self, limit: u32) -> Result<crate::CompanyIndexBatch> {
        Shared::company_index_pending(&self.pool, &STATEMENTS, limit).await
    }

    async fn ack_company_index(&self, ids: &[i64]) -> Result<()> {
        Shared::ack_company_index(&self.writer, &STATEMENTS, ids).await
    }

    async fn all_companies(&self) -> Result<Vec<Company>> {
        Shared::all_companies(&self.pool).await
    }

    async fn company_alias(&self, slug: &CompanySlug) -> Result<Option<CompanySlug>> {
        Shared::company_alias(&self.pool, slug).await
    }

    async fn company_aliases(&self) -> Result<Vec<CompanyAlias>> {
        Shared::company_aliases(&self.pool).await
    }

    async fn merge_companies(
        &self,
        alias: &CompanySlug,
        canonical: &CompanySlug,
        reason: AliasReason,
        at: DateTime<Utc>,
    ) -> Result<CompanyMerge> {
        let at = at.trunc_subsecs(6);
        let mut tx = self.write().await?;
        let (ids, outcome) = Shared::merge_companies(&mut tx, alias, canonical, reason, at).await?;
        enqueue(&mut tx, OutboxKind::Index, &ids, Stamp(at)).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(outcome)
    }
}
