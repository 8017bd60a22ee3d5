//! Sitemap bodies both backends run ([`JobRepo::sitemap_jobs`](crate::JobRepo) and
//! [`CompanyRepo::sitemap_companies`](crate::CompanyRepo)), over the statements of
//! [`sql::sitemaps`]: a page and its total, on the adapter's read pool.

use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Shared;
use crate::{
    Result, SITEMAP_PAGE_SIZE, SitemapEntry, SitemapPage, bind::Stamp, rows::count,
    sql::sitemaps as sql,
};

impl<DB> Shared<DB>
where
    DB: Database,
    for<'c> &'c Pool<DB>: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    (String, Stamp): for<'r> FromRow<'r, DB::Row>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
{
    /// A page of the jobs sitemap.
    pub async fn sitemap_jobs(pool: &Pool<DB>, offset: u64, limit: u32) -> Result<SitemapPage> {
        Self::sitemap(pool, sql::JOB_PAGE, sql::JOB_TOTAL, offset, limit).await
    }

    /// A page of the companies sitemap.
    pub async fn sitemap_companies(
        pool: &Pool<DB>,
        offset: u64,
        limit: u32,
    ) -> Result<SitemapPage> {
        Self::sitemap(pool, sql::COMPANY_PAGE, sql::COMPANY_TOTAL, offset, limit).await
    }

    async fn sitemap(
        pool: &Pool<DB>,
        page: &'static str,
        total: &'static str,
        offset: u64,
        limit: u32,
    ) -> Result<SitemapPage> {
        let limit = i64::from(limit.clamp(1, SITEMAP_PAGE_SIZE));
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let rows: Vec<(String, Stamp)> =
            sqlx::query_as(page).bind(limit).bind(offset).fetch_all(pool).await?;
        let (n,): (i64,) = sqlx::query_as(total).fetch_one(pool).await?;
        let entries = rows
            .into_iter()
            .map(|(slug, at)| SitemapEntry { slug, last_modified: at.into() })
            .collect();
        Ok(SitemapPage { entries, total: count(n) })
    }
}
