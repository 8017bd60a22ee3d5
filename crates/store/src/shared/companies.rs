//! [`CompanyRepo`](crate::CompanyRepo) bodies both backends run: the companies table read
//! with its filters, the refresh of stale companies (read the marks, recompute from the jobs,
//! then write the rows and drop exactly the marks read), and the alias registry with merges.
//!
//! A refresh deletes the marks it read by id, never "every mark of the slug up to an id": on
//! PostgreSQL a mark with a lower id may still be uncommitted when the refresh reads, and
//! its job change invisible; that mark survives for the next refresh.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use freehire_domain::{AliasReason, CompanySlug, company_key};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type};

use super::{RowsAffected, Shared};
use crate::{
    Company, CompanyAlias, CompanyFilter, CompanyIndexBatch, CompanyList, CompanyMerge,
    CompanyRefresh, ListPage, Result, StoreError,
    bind::{List, Stamp},
    companies::{AliasRecord, CompanyRecord, CompanySql, NameRow, Summary, ValueRow, assemble},
    rows::count,
    sql::companies as sql,
};

/// Stale marks one refresh round reads at most.
const REFRESH_BATCH: u32 = 5_000;

/// What a refresh round read and recomputed, before it writes.
struct RefreshPlan {
    marks: Vec<i64>,
    refreshed: Vec<Company>,
    removed: Vec<CompanySlug>,
}

impl RefreshPlan {
    /// Whether there was nothing stale.
    fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }
}

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> List<'a, &'a str>: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> List<'a, String>: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> List<'a, i64>: Encode<'q, DB> + Type<DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (String,): for<'r> FromRow<'r, DB::Row>,
    (i64, String): for<'r> FromRow<'r, DB::Row>,
    Summary: for<'r> FromRow<'r, DB::Row>,
    NameRow: for<'r> FromRow<'r, DB::Row>,
    ValueRow: for<'r> FromRow<'r, DB::Row>,
    CompanyRecord: for<'r> FromRow<'r, DB::Row>,
    AliasRecord: for<'r> FromRow<'r, DB::Row>,
{
    /// The companies of `summaries` (in their order), recomputed from their open jobs.
    async fn aggregate(
        pool: &Pool<DB>,
        statements: &CompanySql,
        summaries: Vec<Summary>,
        now: DateTime<Utc>,
    ) -> Result<Vec<Company>> {
        if summaries.is_empty() {
            return Ok(Vec::new());
        }
        let slugs: Vec<&str> = summaries.iter().map(|s| s.slug.as_str()).collect();
        let names: Vec<NameRow> = sqlx::query_as(statements.names)
            .bind(List(&slugs))
            .bind(Stamp(now))
            .fetch_all(pool)
            .await?;
        let values: Vec<ValueRow> =
            sqlx::query_as(statements.values).bind(List(&slugs)).fetch_all(pool).await?;
        assemble(summaries, names, values)
    }

    /// One refresh round: up to `limit` marks read and their companies written in the
    /// transaction `begin` opens (none is opened when nothing is stale). Also says whether
    /// the round read a full batch (more may wait).
    pub async fn refresh_round<F, Fut>(
        pool: &Pool<DB>,
        statements: &CompanySql,
        limit: u32,
        now: DateTime<Utc>,
        begin: F,
    ) -> Result<(CompanyRefresh, bool)>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<Transaction<'static, DB>>>,
    {
        let plan = Self::plan_refresh(pool, statements, limit, now).await?;
        if plan.is_empty() {
            return Ok((CompanyRefresh::default(), false));
        }
        let full = plan.marks.len() >= limit as usize;
        Ok((Self::apply_refresh(begin().await?, statements, plan, now).await?, full))
    }

    /// What a read refreshes first: rounds until one reads less than a full batch, so a
    /// read catches up with the marks committed before it without chasing a crawl that keeps
    /// writing.
    pub async fn refresh_before_read<F, Fut>(
        pool: &Pool<DB>,
        statements: &CompanySql,
        now: DateTime<Utc>,
        begin: F,
    ) -> Result<()>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = Result<Transaction<'static, DB>>>,
    {
        while Self::refresh_round(pool, statements, REFRESH_BATCH, now, &begin).await?.1 {}
        Ok(())
    }

    /// Reads up to `limit` stale marks and recomputes their companies.
    async fn plan_refresh(
        pool: &Pool<DB>,
        statements: &CompanySql,
        limit: u32,
        now: DateTime<Utc>,
    ) -> Result<RefreshPlan> {
        let marks: Vec<(i64, String)> =
            sqlx::query_as(sql::PENDING).bind(i64::from(limit.max(1))).fetch_all(pool).await?;
        let slugs: BTreeSet<&str> = marks.iter().map(|(_, slug)| slug.as_str()).collect();
        let listed: Vec<&str> = slugs.iter().copied().collect();
        let summaries: Vec<Summary> = if listed.is_empty() {
            Vec::new()
        } else {
            sqlx::query_as(statements.summaries).bind(List(&listed)).fetch_all(pool).await?
        };
        let refreshed = Self::aggregate(pool, statements, summaries, now).await?;
        let kept: BTreeSet<&str> = refreshed.iter().map(|c| c.slug.as_str()).collect();
        let removed = slugs
            .iter()
            .filter(|slug| !kept.contains(*slug))
            .map(|slug| CompanySlug::parse(slug).map_err(|e| StoreError::corrupt("slug", e)))
            .collect::<Result<_>>()?;
        Ok(RefreshPlan { marks: marks.into_iter().map(|(id, _)| id).collect(), refreshed, removed })
    }

    /// Writes a plan's rows, deletes its gone companies and exactly the marks it read.
    async fn apply_refresh(
        mut tx: Transaction<'_, DB>,
        statements: &CompanySql,
        plan: RefreshPlan,
        now: DateTime<Utc>,
    ) -> Result<CompanyRefresh> {
        for c in &plan.refreshed {
            let regions: Vec<&str> = c.regions.iter().map(|r| r.as_str()).collect();
            let countries: Vec<&str> = c.countries.iter().map(|v| v.as_str()).collect();
            let modes: Vec<&str> = c.work_modes.iter().map(|m| m.as_str()).collect();
            let sources: Vec<&str> = c.sources.iter().map(|p| p.as_str()).collect();
            sqlx::query(sql::UPSERT)
                .bind(c.slug.as_str())
                .bind(c.name.as_str())
                .bind(i64::try_from(c.job_count).unwrap_or(i64::MAX))
                .bind(Stamp(c.latest_posted_at))
                .bind(List(&regions))
                .bind(List(&countries))
                .bind(List(&modes))
                .bind(List(&c.top_skills))
                .bind(List(&sources))
                .bind(Stamp(now))
                .execute(&mut *tx)
                .await?;
        }
        if !plan.removed.is_empty() {
            let gone: Vec<&str> = plan.removed.iter().map(CompanySlug::as_str).collect();
            sqlx::query(statements.remove).bind(List(&gone)).execute(&mut *tx).await?;
        }
        sqlx::query(statements.ack).bind(List(&plan.marks)).execute(&mut *tx).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(CompanyRefresh { refreshed: plan.refreshed, removed: plan.removed })
    }

    /// One page of the companies table.
    pub async fn list_companies(
        pool: &Pool<DB>,
        statements: &CompanySql,
        filter: &CompanyFilter,
        page: ListPage,
    ) -> Result<CompanyList> {
        let needle = filter.needle();
        let regions: Vec<&str> = filter.regions.iter().map(|r| r.as_str()).collect();
        let countries: Vec<&str> = filter.countries.iter().map(|c| c.as_str()).collect();
        let modes: Vec<&str> = filter.work_modes.iter().map(|m| m.as_str()).collect();
        let sources: Vec<&str> = filter.sources.iter().map(|p| p.as_str()).collect();
        let skills: Vec<&str> = filter.skills.iter().map(String::as_str).collect();
        let rows: Vec<CompanyRecord> = sqlx::query_as(statements.page)
            .bind(needle.as_deref())
            .bind(List(&regions))
            .bind(List(&countries))
            .bind(List(&modes))
            .bind(List(&sources))
            .bind(List(&skills))
            .bind(i64::from(page.limit()))
            .bind(page.offset_i64())
            .fetch_all(pool)
            .await?;
        let (total,): (i64,) = sqlx::query_as(statements.count)
            .bind(needle.as_deref())
            .bind(List(&regions))
            .bind(List(&countries))
            .bind(List(&modes))
            .bind(List(&sources))
            .bind(List(&skills))
            .fetch_one(pool)
            .await?;
        let companies = rows.into_iter().map(CompanyRecord::into_company).collect::<Result<_>>()?;
        Ok(CompanyList { companies, total: count(total) })
    }

    /// The oldest `limit` marks of the companies index outbox, with their companies as the
    /// table holds them now.
    pub async fn company_index_pending(
        pool: &Pool<DB>,
        statements: &CompanySql,
        limit: u32,
    ) -> Result<CompanyIndexBatch> {
        let marks: Vec<(i64, String)> = sqlx::query_as(sql::PENDING_INDEX)
            .bind(i64::from(limit.max(1)))
            .fetch_all(pool)
            .await?;
        let slugs: BTreeSet<&str> = marks.iter().map(|(_, slug)| slug.as_str()).collect();
        let listed: Vec<&str> = slugs.iter().copied().collect();
        let rows: Vec<CompanyRecord> = if listed.is_empty() {
            Vec::new()
        } else {
            sqlx::query_as(statements.by_slugs).bind(List(&listed)).fetch_all(pool).await?
        };
        let companies: Vec<Company> =
            rows.into_iter().map(CompanyRecord::into_company).collect::<Result<_>>()?;
        let kept: BTreeSet<&str> = companies.iter().map(|c| c.slug.as_str()).collect();
        let removed = slugs
            .iter()
            .filter(|slug| !kept.contains(*slug))
            .map(|slug| CompanySlug::parse(slug).map_err(|e| StoreError::corrupt("slug", e)))
            .collect::<Result<_>>()?;
        Ok(CompanyIndexBatch {
            marks: marks.into_iter().map(|(id, _)| id).collect(),
            companies,
            removed,
        })
    }

    /// Deletes the companies index marks `ids`.
    pub async fn ack_company_index(
        pool: &Pool<DB>,
        statements: &CompanySql,
        ids: &[i64],
    ) -> Result<()> {
        if !ids.is_empty() {
            sqlx::query(statements.ack_index).bind(List(ids)).execute(pool).await?;
        }
        Ok(())
    }

    /// Every company of the table.
    pub async fn all_companies(pool: &Pool<DB>) -> Result<Vec<Company>> {
        let rows: Vec<CompanyRecord> = sqlx::query_as(sql::ALL).fetch_all(pool).await?;
        rows.into_iter().map(CompanyRecord::into_company).collect()
    }

    /// One company of the table.
    pub async fn company_by_slug(pool: &Pool<DB>, slug: &CompanySlug) -> Result<Option<Company>> {
        if slug.as_str().is_empty() {
            return Ok(None);
        }
        let row: Option<CompanyRecord> =
            sqlx::query_as(sql::BY_SLUG).bind(slug.as_str()).fetch_optional(pool).await?;
        row.map(CompanyRecord::into_company).transpose()
    }

    pub async fn company_alias(pool: &Pool<DB>, slug: &CompanySlug) -> Result<Option<CompanySlug>> {
        let row: Option<(String,)> =
            sqlx::query_as(sql::CANONICAL).bind(slug.as_str()).fetch_optional(pool).await?;
        row.map(|(c,)| CompanySlug::parse(&c).map_err(|e| StoreError::corrupt("canonical_slug", e)))
            .transpose()
    }

    pub async fn company_aliases(pool: &Pool<DB>) -> Result<Vec<CompanyAlias>> {
        let rows: Vec<AliasRecord> = sqlx::query_as(sql::ALIASES).fetch_all(pool).await?;
        rows.into_iter().map(AliasRecord::into_alias).collect()
    }

    /// Merges `alias` into `canonical` (see the port) in `tx`, left open for the adapter to
    /// queue the moved jobs (returned by id) for re-indexing and commit; `at` stamps the moved
    /// jobs and the registry row.
    pub async fn merge_companies(
        tx: &mut Transaction<'_, DB>,
        alias: &CompanySlug,
        canonical: &CompanySlug,
        reason: AliasReason,
        at: DateTime<Utc>,
    ) -> Result<(Vec<i64>, CompanyMerge)> {
        let resolved: Option<(String,)> = sqlx::query_as(sql::CANONICAL)
            .bind(canonical.as_str())
            .fetch_optional(&mut **tx)
            .await?;
        // A canonical slug merged away merges into where it went, unless it went into
        // `alias` itself: then this merge is that one reversed.
        let target = match resolved {
            Some((c,)) if c != alias.as_str() => c,
            _ => canonical.as_str().to_owned(),
        };
        if alias.as_str().is_empty() || target.is_empty() || target == alias.as_str() {
            return Err(StoreError::Invalid(freehire_domain::DomainError::Invalid {
                field: "canonical",
                value: canonical.as_str().to_owned(),
                reason: "is the company being merged",
            }));
        }
        sqlx::query(sql::UNALIAS).bind(target.as_str()).execute(&mut **tx).await?;
        let repointed = sqlx::query(sql::REPOINT)
            .bind(alias.as_str())
            .bind(target.as_str())
            .execute(&mut **tx)
            .await?
            .rows_affected();
        let folded = {
            let (a, c) = (company_key(alias.as_str()), company_key(&target));
            if a == c { a } else { String::new() }
        };
        sqlx::query(sql::ADD_ALIAS)
            .bind(alias.as_str())
            .bind(target.as_str())
            .bind(folded.as_str())
            .bind(reason.as_str())
            .bind(Stamp(at))
            .execute(&mut **tx)
            .await?;
        let moved: Vec<(i64,)> = sqlx::query_as(sql::MOVE_JOBS)
            .bind(alias.as_str())
            .bind(target.as_str())
            .bind(Stamp(at))
            .fetch_all(&mut **tx)
            .await?;
        let ids: Vec<i64> = moved.into_iter().map(|(id,)| id).collect();
        let outcome = CompanyMerge { jobs_moved: ids.len() as u64, aliases_repointed: repointed };
        Ok((ids, outcome))
    }
}
