//! Adapter bodies both backends run unchanged, written once: associated functions of
//! [`Shared`], generic over the sqlx database, with the bounds they need stated once on its
//! `impl` (both [`Sqlite`](sqlx::Sqlite) and [`Postgres`](sqlx::Postgres) meet them through
//! the [`bind`](crate::bind) types).
//!
//! Each adapter passes what really differs: its pool (on SQLite, the writer pool for writes),
//! its transaction (`BEGIN IMMEDIATE` on SQLite), and the statements the dialects disagree on
//! (the health row lock, the company and outbox statement sets). The statement text and the
//! round trips are exactly those each adapter ran on its own. The account bodies are in
//! [`accounts`], under their own bounds.

mod accounts;
pub(crate) mod assistant;
pub(crate) mod companies;
pub(crate) mod experience;
// CV documents (issue 16).
pub(crate) mod cvs;
mod ghost;
mod letters;
mod lifecycle;
pub(crate) use lifecycle::role_histories;
mod notify;
mod plans;
mod saved_searches;
mod screening;
mod sitemaps;
mod stats;
mod suggest;
pub(crate) mod tracking;

use std::marker::PhantomData;

use chrono::{DateTime, Utc};
use freehire_domain::{
    Board, BoardHealth, BoardId, BoardKey, BoardStatus, FailureClass, Job, JobId, Provider,
    PublicSlug,
};
use sqlx::{
    Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type, query::QueryAs,
};

use crate::{
    ClassCount, DerivedUpdate, FailingBoards, JobKey, JobList, ListPage, OutboxItem, OutboxKind,
    Result,
    bind::{List, Stamp},
    health::{health_key, on_failure, on_success},
    plan::{Outboxes, cut_error},
    rows::{BoardRecord, FacetColumns, FailingRecord, HealthRecord, JobRecord, count, jobs},
    sql,
};

/// The rows a statement changed, which sqlx reports per backend without a common trait.
pub(crate) trait RowsAffected {
    fn rows_affected(&self) -> u64;
}

impl RowsAffected for sqlx::sqlite::SqliteQueryResult {
    fn rows_affected(&self) -> u64 {
        self.rows_affected()
    }
}

impl RowsAffected for sqlx::postgres::PgQueryResult {
    fn rows_affected(&self) -> u64 {
        self.rows_affected()
    }
}

/// The shared adapter bodies for database `DB` (never built: a namespace with one set of
/// bounds).
pub(crate) struct Shared<DB>(PhantomData<DB>);

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB>,
    for<'q> i32: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i32>: Encode<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<bool>: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q> Option<Stamp>: Encode<'q, DB>,
    for<'q, 'a> List<'a, &'a str>: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> List<'a, String>: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> List<'a, i64>: Encode<'q, DB> + Type<DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (bool,): for<'r> FromRow<'r, DB::Row>,
    JobRecord: for<'r> FromRow<'r, DB::Row>,
    BoardRecord: for<'r> FromRow<'r, DB::Row>,
    HealthRecord: for<'r> FromRow<'r, DB::Row>,
    FailingRecord: for<'r> FromRow<'r, DB::Row>,
    (String, String, i64): for<'r> FromRow<'r, DB::Row>,
{
    // ---- boards ----

    /// `statement` with a board key bound as `$1` (provider), `$2` (board), `$3` (region).
    fn by_board_key<'q, O>(
        statement: &'static str,
        key: &'q BoardKey,
    ) -> QueryAs<'q, DB, O, DB::Arguments<'q>>
    where
        O: for<'r> FromRow<'r, DB::Row>,
    {
        sqlx::query_as(statement)
            .bind(key.provider.as_str())
            .bind(key.board.as_str())
            .bind(key.region.as_str())
    }

    /// The live (pending or active) board of an identity.
    pub async fn live_board(conn: &mut DB::Connection, key: &BoardKey) -> Result<Option<Board>> {
        let row: Option<BoardRecord> = Self::by_board_key(sql::boards::LIVE_BY_IDENTITY, key)
            .fetch_optional(&mut *conn)
            .await?;
        row.map(BoardRecord::into_board).transpose()
    }

    pub async fn board_by_key(pool: &Pool<DB>, key: &BoardKey) -> Result<Option<Board>> {
        let mut conn = pool.acquire().await?;
        Self::live_board(&mut conn, key).await
    }

    /// Inserts a board (the caller checked that no live board has its identity).
    pub async fn insert_board(
        conn: &mut DB::Connection,
        board: &freehire_domain::NewBoard,
        at: DateTime<Utc>,
    ) -> Result<BoardRecord, sqlx::Error> {
        let activated = (board.status == BoardStatus::Active).then_some(Stamp(at));
        sqlx::query_as(sql::boards::INSERT)
            .bind(board.key.provider.as_str())
            .bind(board.key.board.as_str())
            .bind(board.key.region.as_str())
            .bind(board.company.as_str())
            .bind(board.url.as_deref())
            .bind(board.status.as_str())
            .bind(Stamp(at))
            .bind(activated)
            .fetch_one(&mut *conn)
            .await
    }

    pub async fn set_board_status(
        pool: &Pool<DB>,
        id: BoardId,
        status: BoardStatus,
        reason: Option<&str>,
    ) -> Result<bool> {
        let done = sqlx::query(sql::boards::SET_STATUS)
            .bind(status.as_str())
            .bind(reason)
            .bind(id.get())
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Flips a pending board to active on `conn`.
    pub async fn activate_in(
        conn: &mut DB::Connection,
        key: &BoardKey,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(sql::boards::ACTIVATE)
            .bind(Stamp(at))
            .bind(key.provider.as_str())
            .bind(key.board.as_str())
            .bind(key.region.as_str())
            .execute(&mut *conn)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn activate_board(
        pool: &Pool<DB>,
        key: &BoardKey,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let mut conn = pool.acquire().await?;
        Self::activate_in(&mut conn, key, at).await
    }

    // ---- board health ----

    /// The health row of a board; `health_of` is the dialect's `sql::boards::health_of!`.
    async fn health(
        conn: &mut DB::Connection,
        health_of: &'static str,
        key: &BoardKey,
    ) -> Result<Option<BoardHealth>> {
        let key = health_key(key);
        let row: Option<HealthRecord> =
            Self::by_board_key(health_of, &key).fetch_optional(&mut *conn).await?;
        row.map(HealthRecord::into_health).transpose()
    }

    pub async fn board_health(
        pool: &Pool<DB>,
        health_of: &'static str,
        key: &BoardKey,
    ) -> Result<Option<BoardHealth>> {
        let mut conn = pool.acquire().await?;
        Self::health(&mut conn, health_of, key).await
    }

    /// Binds a health row's thirteen columns in `health_columns!` order.
    fn bind_health<'q>(
        query: sqlx::query::Query<'q, DB, DB::Arguments<'q>>,
        h: &'q BoardHealth,
    ) -> sqlx::query::Query<'q, DB, DB::Arguments<'q>> {
        query
            .bind(h.key.provider.as_str())
            .bind(h.key.board.as_str())
            .bind(h.key.region.as_str())
            .bind(i32::try_from(h.consecutive_failures).unwrap_or(i32::MAX))
            .bind(Stamp::opt(h.cooldown_until))
            .bind(h.last_error.as_deref())
            .bind(Stamp::opt(h.last_error_at))
            .bind(Stamp::opt(h.last_success_at))
            .bind(h.last_ingested_count)
            .bind(Stamp::opt(h.last_run_at))
            .bind(Stamp(h.first_seen_at))
            .bind(Stamp::opt(h.last_yield_at))
            .bind(h.last_error_class.map(FailureClass::as_str))
    }

    /// Records a successful crawl on `conn` inside the caller's transaction.
    pub async fn success_in(
        conn: &mut DB::Connection,
        key: &BoardKey,
        ingested: u64,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        let mut healed = Self::successes_in(conn, &[(key, ingested)], at).await?;
        healed.pop().ok_or_else(|| crate::StoreError::corrupt("board_health", "no row came back"))
    }

    /// [`Shared::success_in`] for several boards (distinct keys) at one instant, a statement
    /// per [`sql::boards::GROUP_CHUNK`] boards; the healths in `boards` order.
    pub async fn successes_in(
        conn: &mut DB::Connection,
        boards: &[(&BoardKey, u64)],
        at: DateTime<Utc>,
    ) -> Result<Vec<BoardHealth>> {
        let firsts: Vec<BoardHealth> =
            boards.iter().map(|&(key, ingested)| on_success(None, key, ingested, at)).collect();
        let mut healed = Vec::with_capacity(firsts.len());
        for chunk in firsts.chunks(sql::boards::GROUP_CHUNK) {
            let mut query = sqlx::query(sql::boards::successes(chunk.len()));
            for first in chunk {
                query = Self::bind_health(query, first);
            }
            for row in query.fetch_all(&mut *conn).await? {
                healed.push(HealthRecord::from_row(&row)?.into_health()?);
            }
        }
        crate::group::in_order_of(&firsts, healed)
    }

    /// [`Shared::activate_in`] for several boards at one instant, a statement per
    /// [`sql::boards::GROUP_CHUNK`] boards.
    pub async fn activate_many_in(
        conn: &mut DB::Connection,
        keys: &[&BoardKey],
        at: DateTime<Utc>,
    ) -> Result<()> {
        for chunk in keys.chunks(sql::boards::GROUP_CHUNK) {
            let mut query = sqlx::query(sql::boards::activate_many(chunk.len())).bind(Stamp(at));
            for key in chunk {
                query = query
                    .bind(key.provider.as_str())
                    .bind(key.board.as_str())
                    .bind(key.region.as_str());
            }
            query.execute(&mut *conn).await?;
        }
        Ok(())
    }

    pub async fn record_board_success(
        mut tx: Transaction<'_, DB>,
        key: &BoardKey,
        ingested: u64,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        let next = Self::success_in(&mut tx, key, ingested, at).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(next)
    }

    /// Reads the health row (with the dialect's lock), applies a failure and writes it back.
    pub async fn record_board_failure(
        mut tx: Transaction<'_, DB>,
        health_of: &'static str,
        key: &BoardKey,
        class: FailureClass,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<BoardHealth> {
        let next = on_failure(Self::health(&mut tx, health_of, key).await?, key, class, error, at);
        Self::bind_health(sqlx::query(sql::boards::SAVE_HEALTH), &next).execute(&mut *tx).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(next)
    }

    pub async fn cooldowns(pool: &Pool<DB>, provider: &Provider) -> Result<Vec<BoardHealth>> {
        let rows: Vec<HealthRecord> =
            sqlx::query_as(sql::boards::COOLDOWNS).bind(provider.as_str()).fetch_all(pool).await?;
        rows.into_iter().map(HealthRecord::into_health).collect()
    }

    pub async fn board_healths(
        pool: &Pool<DB>,
        provider: Option<&Provider>,
    ) -> Result<Vec<BoardHealth>> {
        let rows: Vec<HealthRecord> = sqlx::query_as(sql::boards::HEALTHS)
            .bind(provider.map(Provider::as_str))
            .fetch_all(pool)
            .await?;
        rows.into_iter().map(HealthRecord::into_health).collect()
    }

    pub async fn failing_boards(pool: &Pool<DB>, per_provider: u32) -> Result<FailingBoards> {
        let rows: Vec<FailingRecord> = sqlx::query_as(sql::boards::FAILING)
            .bind(i64::from(per_provider))
            .fetch_all(pool)
            .await?;
        let boards = rows.into_iter().map(FailingRecord::into_failing).collect::<Result<_>>()?;
        let counted: Vec<(String, String, i64)> =
            sqlx::query_as(sql::boards::FAILING_CLASSES).fetch_all(pool).await?;
        let classes = counted
            .into_iter()
            .map(|(provider, class, boards)| {
                let class = FailureClass::parse(&class)
                    .map_err(|e| crate::StoreError::corrupt("last_error_class", e))?;
                Ok(ClassCount { provider, class, boards: count(boards) })
            })
            .collect::<Result<_>>()?;
        Ok(FailingBoards { boards, classes })
    }

    // ---- companies (the table and the registry: `shared/companies.rs`) ----

    pub async fn company_jobs(
        pool: &Pool<DB>,
        slug: &freehire_domain::CompanySlug,
        page: ListPage,
    ) -> Result<JobList> {
        if slug.as_str().is_empty() {
            return Ok(JobList { jobs: Vec::new(), total: 0 });
        }
        let rows = sqlx::query_as(sql::jobs::OF_COMPANY)
            .bind(slug.as_str())
            .bind(i64::from(page.limit()))
            .bind(page.offset_i64())
            .fetch_all(pool)
            .await?;
        let total: i64 = sqlx::query_scalar(sql::jobs::OF_COMPANY_COUNT)
            .bind(slug.as_str())
            .fetch_one(pool)
            .await?;
        Ok(JobList { jobs: jobs(rows)?, total: count(total) })
    }

    // ---- jobs ----

    pub async fn list_open_jobs(pool: &Pool<DB>, page: ListPage) -> Result<JobList> {
        let rows = sqlx::query_as(sql::jobs::OPEN_PAGE)
            .bind(i64::from(page.limit()))
            .bind(page.offset_i64())
            .fetch_all(pool)
            .await?;
        let total: i64 = sqlx::query_scalar(sql::jobs::OPEN_COUNT).fetch_one(pool).await?;
        Ok(JobList { jobs: jobs(rows)?, total: count(total) })
    }

    pub async fn job_by_slug(pool: &Pool<DB>, slug: &PublicSlug) -> Result<Option<Job>> {
        let row: Option<JobRecord> =
            sqlx::query_as(sql::jobs::BY_SLUG).bind(slug.as_str()).fetch_optional(pool).await?;
        row.map(JobRecord::into_job).transpose()
    }

    pub async fn job_by_key(pool: &Pool<DB>, key: &JobKey) -> Result<Option<Job>> {
        let row: Option<JobRecord> = sqlx::query_as(sql::jobs::BY_KEY)
            .bind(key.source.as_str())
            .bind(key.external_id.as_str())
            .fetch_optional(pool)
            .await?;
        row.map(JobRecord::into_job).transpose()
    }

    pub async fn jobs_after(pool: &Pool<DB>, after: Option<JobId>, limit: u32) -> Result<Vec<Job>> {
        let rows = sqlx::query_as(sql::jobs::AFTER)
            .bind(after.map_or(0, JobId::get))
            .bind(i64::from(limit.clamp(1, 1000)))
            .fetch_all(pool)
            .await?;
        jobs(rows)
    }

    pub async fn set_duplicate_of(
        mut tx: Transaction<'_, DB>,
        outboxes: &Outboxes,
        id: JobId,
        canonical: Option<JobId>,
    ) -> Result<bool> {
        crate::plan::not_self_duplicate(id, canonical)?;
        let done = sqlx::query(sql::jobs::SET_DUPLICATE_OF)
            .bind(canonical.map(JobId::get))
            .bind(id.get())
            .execute(&mut *tx)
            .await?;
        let kind = if canonical.is_some() { OutboxKind::Delete } else { OutboxKind::Index };
        Self::enqueue(&mut tx, outboxes, kind, &[id.get()], Stamp(Utc::now())).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(done.rows_affected() > 0)
    }

    /// Rewrites re-derived facets one row per statement, queueing the listed rows.
    pub async fn rewrite_derived(
        mut tx: Transaction<'_, DB>,
        outboxes: &Outboxes,
        updates: &[DerivedUpdate],
        at: DateTime<Utc>,
    ) -> Result<u64> {
        let at = Stamp(at);
        let mut listed = Vec::new();
        let mut written = 0;
        for u in updates {
            let f = FacetColumns::new(&u.facets);
            let row: Option<bool> = sqlx::query_scalar(sql::REWRITE_DERIVED)
                .bind(List(&f.countries))
                .bind(List(&f.regions))
                .bind(List(f.cities))
                .bind(f.work_mode)
                .bind(f.seniority)
                .bind(f.category)
                .bind(f.is_tech)
                .bind(List(f.skills))
                .bind(f.employment_type)
                .bind(f.education_level)
                .bind(f.english_level)
                .bind(f.experience_years_min)
                .bind(f.requires_clearance)
                .bind(f.posting_language)
                .bind(u.role_fingerprint.as_str())
                .bind(u.content_hash.as_str())
                .bind(at)
                .bind(u.id.get())
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(is_listed) = row {
                written += 1;
                if is_listed {
                    listed.push(u.id.get());
                }
            }
        }
        Self::enqueue(&mut tx, outboxes, OutboxKind::Index, &listed, at).await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(written)
    }

    // ---- outboxes ----

    /// Queues jobs in the `kind` outbox and drops their pending rows in the other one, so the
    /// latest change wins.
    pub async fn enqueue(
        conn: &mut DB::Connection,
        outboxes: &Outboxes,
        kind: OutboxKind,
        ids: &[i64],
        at: Stamp,
    ) -> Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        sqlx::query(outboxes.of(kind.other()).drop_jobs)
            .bind(List(ids))
            .execute(&mut *conn)
            .await?;
        sqlx::query(outboxes.of(kind).enqueue).bind(List(ids)).bind(at).execute(&mut *conn).await?;
        Ok(())
    }

    /// Deletes the acknowledged rows that were not re-enqueued after their claim.
    pub async fn ack_outbox(
        mut tx: Transaction<'_, DB>,
        outboxes: &Outboxes,
        kind: OutboxKind,
        items: &[OutboxItem],
    ) -> Result<u64> {
        let mut done = 0;
        for item in items {
            done += sqlx::query(outboxes.of(kind).ack)
                .bind(item.id)
                .bind(Stamp(item.claimed_at))
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(done)
    }

    /// Renews the lease of a claimed wave (rows whose claim instant still matches).
    pub async fn renew_outbox(
        mut tx: Transaction<'_, DB>,
        outboxes: &Outboxes,
        kind: OutboxKind,
        items: &[OutboxItem],
        now: DateTime<Utc>,
    ) -> Result<u64> {
        let mut renewed = 0;
        for item in items {
            renewed += sqlx::query(outboxes.of(kind).renew)
                .bind(Stamp(now))
                .bind(item.id)
                .bind(Stamp(item.claimed_at))
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(renewed)
    }

    /// Takes or renews the writer lease; `true` when `holder` holds it.
    pub async fn hold_writer_lease(
        pool: &Pool<DB>,
        holder: &str,
        expiry: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let held = sqlx::query(crate::sql::HOLD_WRITER_LEASE)
            .bind(holder)
            .bind(Stamp(now))
            .bind(Stamp(now - expiry))
            .execute(pool)
            .await?
            .rows_affected();
        Ok(held == 1)
    }

    /// Gives the writer lease up if `holder` holds it.
    pub async fn release_writer_lease(pool: &Pool<DB>, holder: &str) -> Result<()> {
        sqlx::query(crate::sql::RELEASE_WRITER_LEASE).bind(holder).execute(pool).await?;
        Ok(())
    }

    /// Renews `worker`'s claim on `provider`; `true` when it still holds it.
    pub async fn renew_provider_claim(
        pool: &Pool<DB>,
        provider: &str,
        worker: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let renewed = sqlx::query(crate::sql::RENEW_PROVIDER_CLAIM)
            .bind(Stamp(now))
            .bind(provider)
            .bind(worker)
            .execute(pool)
            .await?
            .rows_affected();
        Ok(renewed == 1)
    }

    pub async fn fail_outbox(
        pool: &Pool<DB>,
        outboxes: &Outboxes,
        kind: OutboxKind,
        item: &OutboxItem,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(outboxes.of(kind).fail)
            .bind(Stamp(at))
            .bind(cut_error(error))
            .bind(item.id)
            .bind(Stamp(item.claimed_at))
            .execute(pool)
            .await?;
        Ok(())
    }

    pub async fn outbox_depth(
        pool: &Pool<DB>,
        outboxes: &Outboxes,
        kind: OutboxKind,
    ) -> Result<u64> {
        let n: i64 = sqlx::query_scalar(outboxes.of(kind).depth).fetch_one(pool).await?;
        Ok(count(n))
    }

    pub async fn purge_outbox_before(
        pool: &Pool<DB>,
        outboxes: &Outboxes,
        kind: OutboxKind,
        before: DateTime<Utc>,
    ) -> Result<u64> {
        use chrono::SubsecRound;
        let done = sqlx::query(outboxes.of(kind).purge_before)
            .bind(Stamp(before.trunc_subsecs(6)))
            .execute(pool)
            .await?;
        Ok(done.rows_affected())
    }
}

/// Runs `each` on every item in one transaction (begun by `begin`) so that each item lands
/// whole or not at all and a failing item leaves the others standing: a group commit.
///
/// The items are first run in one go by `all`, with no savepoint to pay for (an adapter may
/// write them all with one set of statements). When that fails (rare), the transaction is
/// rolled back and, if there are several items, they run again through `each`, a savepoint
/// each ([`each_in_savepoint`]), so only the failing item fails. A lost connection fails the
/// whole (the caller may retry it whole); a rollback that fails (SQLite may have ended the
/// transaction itself) leaves the first error as the whole's.
pub(crate) async fn each_isolated<DB, I, T, Begin, E>(
    mut begin: impl FnMut() -> Begin,
    items: &[I],
    all: impl AsyncFnOnce(&mut DB::Connection, &[I]) -> Result<Vec<T>>,
    each: impl AsyncFnMut(&mut DB::Connection, &I) -> Result<T>,
) -> Result<Vec<Result<T>>>
where
    DB: Database,
    Begin: std::future::Future<Output = std::result::Result<Transaction<'static, DB>, E>>,
    crate::StoreError: From<E>,
{
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let mut tx = begin().await?;
    match all(&mut tx, items).await {
        Ok(out) if out.len() == items.len() => {
            tx.commit().await.map_err(crate::error::committing)?;
            return Ok(out.into_iter().map(Ok).collect());
        }
        Ok(out) => {
            return Err(crate::StoreError::corrupt(
                "group",
                format!("{} results for {} items", out.len(), items.len()),
            ));
        }
        Err(e) if e.is_retryable_loss() => return Err(e),
        Err(e) => {
            if tx.rollback().await.is_err() {
                return Err(e);
            }
            // The one item failed: there is nothing to run again.
            if items.len() == 1 {
                return Ok(vec![Err(e)]);
            }
        }
    }
    let mut tx = begin().await?;
    let out = each_in_savepoint(&mut tx, items, each).await?;
    tx.commit().await.map_err(crate::error::committing)?;
    Ok(out)
}

/// Runs `each` on every item inside `tx`, each in a savepoint of its own: an item whose work
/// fails is rolled back to its savepoint (its error in its place in the result) and the items
/// around it stand. A lost connection fails the whole; so does a savepoint that cannot be
/// taken, released or rolled back.
async fn each_in_savepoint<DB, I, T>(
    tx: &mut Transaction<'_, DB>,
    items: &[I],
    mut each: impl AsyncFnMut(&mut DB::Connection, &I) -> Result<T>,
) -> Result<Vec<Result<T>>>
where
    DB: Database,
{
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let mut savepoint = sqlx::Acquire::begin(&mut *tx).await?;
        match each(&mut savepoint, item).await {
            Ok(done) => {
                savepoint.commit().await?;
                out.push(Ok(done));
            }
            Err(e) if e.is_retryable_loss() => return Err(e),
            Err(e) => {
                savepoint.rollback().await?;
                out.push(Err(e));
            }
        }
    }
    Ok(out)
}
