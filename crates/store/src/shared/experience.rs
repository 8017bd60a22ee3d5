//! [`ExperienceRepo`](crate::ExperienceRepo) bodies both backends run unchanged, over the
//! statements of [`sql::experience`]. The adapters pass their pool (on SQLite, the writer
//! pool for writes), the transactions (`BEGIN IMMEDIATE` on SQLite) and what their dialects
//! disagree on: the atom id list, the fill's row lock and the upsert's "inserted" column.
//!
//! - An atom write is one `INSERT … ON CONFLICT (user_id, claim_key) DO UPDATE … WHERE`
//!   statement: the stored row is raised only from `agent_inferred` to a publishable
//!   provenance, so a confirmed atom is never downgraded and two agent writes change nothing.
//!   PostgreSQL tells an insert from an upgrade by `xmax = 0`; SQLite looks for the key first
//!   in the same write transaction, which holds the database.
//! - A rewrite's update leaves the provenance column out of its statement (no read first, so
//!   no race); every update recomputes the claim key, and a key another atom of the owner has
//!   is [`StoreError::Conflict`] naming `claim`.
//! - The import's fill reads the employment under its row lock in the write transaction,
//!   fills it in Rust ([`fill_blanks`]) and writes it back.

use chrono::{DateTime, Utc};
use freehire_domain::{
    AtomId, Author, EmploymentId, UserId,
    experience::{
        Atom, AtomDraft, Employment, EmploymentDraft, MergePlan, claim_key, provenance_for,
        sort_employments,
    },
};
use sqlx::{
    Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type, query::QueryAs,
};

use super::{RowsAffected, Shared};
use crate::{
    AtomWrite, MergeOutcome, Result, StoreError,
    bind::{List, Stamp},
    experience::{fill_blanks, find_in},
    rows::experience::{AtomRecord, EmploymentRecord, UpsertedAtomRecord, period_columns},
    sql::experience as sql,
};

/// Whether `e` is a foreign-key violation (an employment deleted under a write).
fn is_foreign_key_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.is_foreign_key_violation())
}

/// A unique violation as [`StoreError::Conflict`] naming `claim` (the owner's claim key is
/// taken); any other error as it is.
fn claim_taken(e: sqlx::Error) -> StoreError {
    match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            StoreError::Conflict { field: "claim" }
        }
        _ => e.into(),
    }
}

fn atom_id(raw: i64) -> Result<AtomId> {
    AtomId::new(raw).map_err(|e| StoreError::corrupt("id", e))
}

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> i32: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i32>: Encode<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> bool: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> List<'a, String>: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> List<'a, i64>: Encode<'q, DB> + Type<DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (bool,): for<'r> FromRow<'r, DB::Row>,
    EmploymentRecord: for<'r> FromRow<'r, DB::Row>,
    AtomRecord: for<'r> FromRow<'r, DB::Row>,
    UpsertedAtomRecord: for<'r> FromRow<'r, DB::Row>,
{
    // ---- employments ----

    /// `statement` with an employment bound as `$1`–`$14` (see `sql::CREATE_EMPLOYMENT`).
    fn employment_binds<'q>(
        statement: &'static str,
        owner: UserId,
        draft: &'q EmploymentDraft,
        now: DateTime<Utc>,
    ) -> QueryAs<'q, DB, EmploymentRecord, DB::Arguments<'q>> {
        let (start_year, start_month) = period_columns(draft.start);
        let (end_year, end_month) = period_columns(draft.end);
        sqlx::query_as(statement)
            .bind(owner.get())
            .bind(draft.kind.as_str())
            .bind(draft.company.as_str())
            .bind(draft.role.as_str())
            .bind(draft.location.as_str())
            .bind(draft.current)
            .bind(draft.summary.as_str())
            .bind(draft.link.as_str())
            .bind(List(&draft.stack))
            .bind(start_year)
            .bind(start_month)
            .bind(end_year)
            .bind(end_month)
            .bind(Stamp(now))
    }

    pub async fn list_employments(pool: &Pool<DB>, owner: UserId) -> Result<Vec<Employment>> {
        let rows: Vec<EmploymentRecord> =
            sqlx::query_as(sql::LIST_EMPLOYMENTS).bind(owner.get()).fetch_all(pool).await?;
        let mut list =
            rows.into_iter().map(EmploymentRecord::into_employment).collect::<Result<Vec<_>>>()?;
        sort_employments(&mut list);
        Ok(list)
    }

    pub async fn employment(
        pool: &Pool<DB>,
        owner: UserId,
        id: EmploymentId,
    ) -> Result<Option<Employment>> {
        let row: Option<EmploymentRecord> = sqlx::query_as(sql::EMPLOYMENT)
            .bind(id.get())
            .bind(owner.get())
            .fetch_optional(pool)
            .await?;
        row.map(EmploymentRecord::into_employment).transpose()
    }

    /// Compared in Rust (see [`find_in`]): an owner has tens of employments, not thousands.
    pub async fn find_employment(
        pool: &Pool<DB>,
        owner: UserId,
        company: &str,
        role: &str,
    ) -> Result<Option<Employment>> {
        Ok(find_in(Self::list_employments(pool, owner).await?, company, role))
    }

    pub async fn create_employment(
        pool: &Pool<DB>,
        owner: UserId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Employment> {
        draft.validate()?;
        Self::employment_binds(sql::CREATE_EMPLOYMENT, owner, draft, now)
            .fetch_one(pool)
            .await?
            .into_employment()
    }

    pub async fn update_employment(
        pool: &Pool<DB>,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>> {
        draft.validate()?;
        let row = Self::employment_binds(sql::UPDATE_EMPLOYMENT, owner, draft, now)
            .bind(id.get())
            .fetch_optional(pool)
            .await?;
        row.map(EmploymentRecord::into_employment).transpose()
    }

    /// In the caller's write transaction; `locked` is the dialect's `employment_of!` (with
    /// `FOR UPDATE` on PostgreSQL). The filled employment must validate.
    pub async fn fill_employment_blanks(
        mut tx: Transaction<'_, DB>,
        locked: &'static str,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>> {
        let row: Option<EmploymentRecord> = sqlx::query_as(locked)
            .bind(id.get())
            .bind(owner.get())
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let filled = fill_blanks(&row.into_employment()?.draft, draft);
        filled.validate()?;
        let row = Self::employment_binds(sql::UPDATE_EMPLOYMENT, owner, &filled, now)
            .bind(id.get())
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await.map_err(crate::error::committing)?;
        row.map(EmploymentRecord::into_employment).transpose()
    }

    /// Deletes the employment and (cascading) its atoms.
    pub async fn delete_employment(
        pool: &Pool<DB>,
        owner: UserId,
        id: EmploymentId,
    ) -> Result<bool> {
        Self::delete_owned(pool, sql::DELETE_EMPLOYMENT, owner, id.get()).await
    }

    // ---- atoms ----

    fn into_atoms(rows: Vec<AtomRecord>) -> Result<Vec<Atom>> {
        rows.into_iter().map(AtomRecord::into_atom).collect()
    }

    pub async fn list_atoms(pool: &Pool<DB>, owner: UserId) -> Result<Vec<Atom>> {
        let rows = sqlx::query_as(sql::LIST_ATOMS).bind(owner.get()).fetch_all(pool).await?;
        Self::into_atoms(rows)
    }

    /// `among` is the dialect's `atoms_among!`.
    pub async fn atoms_among(
        pool: &Pool<DB>,
        among: &'static str,
        owner: UserId,
        ids: &[AtomId],
    ) -> Result<Vec<Atom>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = ids.iter().map(|id| id.get()).collect();
        let rows = sqlx::query_as(among).bind(owner.get()).bind(List(&ids)).fetch_all(pool).await?;
        Self::into_atoms(rows)
    }

    /// `statement` with an atom's first binds: `$1` owner, `$2` employment, `$3` claim, `$4`
    /// its key, `$5` context, `$6` metrics, `$7` skills (the upsert and both updates).
    fn atom_binds<'q, O>(
        statement: &'static str,
        owner: UserId,
        draft: &'q AtomDraft,
        key: &'q str,
    ) -> QueryAs<'q, DB, O, DB::Arguments<'q>>
    where
        O: for<'r> FromRow<'r, DB::Row>,
    {
        sqlx::query_as(statement)
            .bind(owner.get())
            .bind(draft.employment_id.map(|e| e.get()))
            .bind(draft.claim.as_str())
            .bind(key)
            .bind(draft.context.as_str())
            .bind(List(&draft.metrics))
            .bind(List(&draft.skills))
    }

    /// Runs a `DELETE … WHERE id = $1 AND user_id = $2`: whether it deleted a row.
    async fn delete_owned(
        pool: &Pool<DB>,
        statement: &'static str,
        owner: UserId,
        id: i64,
    ) -> Result<bool> {
        let done = sqlx::query(statement).bind(id).bind(owner.get()).execute(pool).await?;
        Ok(done.rows_affected() > 0)
    }

    /// The owner's atom id of a claim key.
    async fn atom_by_key(
        conn: &mut DB::Connection,
        owner: UserId,
        key: &str,
    ) -> Result<Option<AtomId>> {
        let row: Option<(i64,)> = sqlx::query_as(sql::ATOM_BY_KEY)
            .bind(owner.get())
            .bind(key)
            .fetch_optional(&mut *conn)
            .await?;
        row.map(|(id,)| atom_id(id)).transpose()
    }

    /// Whether the owner has the employment.
    async fn owns_employment(
        conn: &mut DB::Connection,
        owner: UserId,
        id: EmploymentId,
    ) -> Result<bool> {
        let (n,): (i64,) = sqlx::query_as(sql::OWNS_EMPLOYMENT)
            .bind(id.get())
            .bind(owner.get())
            .fetch_one(&mut *conn)
            .await?;
        Ok(n > 0)
    }

    /// In the caller's transaction; `upsert` is the dialect's `upsert_atom!`, and
    /// `look_first` says to find the key before it (the dialect cannot tell an insert from an
    /// upgrade by itself; only sound where the transaction holds the database).
    pub async fn add_atom(
        mut tx: Transaction<'_, DB>,
        upsert: &'static str,
        look_first: bool,
        owner: UserId,
        draft: &AtomDraft,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<AtomWrite> {
        let provenance = provenance_for(author, None);
        draft.validate()?;
        if let Some(employment) = draft.employment_id
            && !Self::owns_employment(&mut tx, owner, employment).await?
        {
            return Ok(AtomWrite::NoSuchEmployment);
        }
        let key = claim_key(&draft.claim);
        let before = if look_first { Self::atom_by_key(&mut tx, owner, &key).await? } else { None };
        let row: Option<UpsertedAtomRecord> = match Self::atom_binds(upsert, owner, draft, &key)
            .bind(provenance.as_str())
            .bind(draft.source_ref.as_str())
            .bind(Stamp(now))
            .fetch_optional(&mut *tx)
            .await
        {
            Err(e) if is_foreign_key_violation(&e) => return Ok(AtomWrite::NoSuchEmployment),
            other => other?,
        };
        let outcome = match row {
            Some(row) => {
                let inserted = row.inserted.unwrap_or(before.is_none());
                let atom = row.atom.into_atom()?;
                if inserted { AtomWrite::Inserted(atom) } else { AtomWrite::Upgraded(atom) }
            }
            // The key is taken and the write would not raise it; the atom can only be gone
            // again if it was deleted meanwhile (PostgreSQL), and then the key is contended.
            None => match Self::atom_by_key(&mut tx, owner, &key).await? {
                Some(id) => AtomWrite::AlreadyBanked(id),
                None => return Err(StoreError::Conflict { field: "claim" }),
            },
        };
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(outcome)
    }

    pub async fn update_atom(
        pool: &Pool<DB>,
        owner: UserId,
        id: AtomId,
        draft: &AtomDraft,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<Option<Atom>> {
        draft.validate()?;
        let key = claim_key(&draft.claim);
        let statement = match author {
            Author::Rewrite => sql::UPDATE_ATOM_KEEPING_PROVENANCE,
            _ => sql::UPDATE_ATOM,
        };
        let mut query = Self::atom_binds(statement, owner, draft, &key)
            .bind(draft.source_ref.as_str())
            .bind(Stamp(now))
            .bind(id.get());
        if author != Author::Rewrite {
            query = query.bind(provenance_for(author, None).as_str());
        }
        let row: Option<AtomRecord> = match query.fetch_optional(pool).await {
            // The new employment was deleted under the write: not the owner's any more.
            Err(e) if is_foreign_key_violation(&e) => return Ok(None),
            other => other.map_err(claim_taken)?,
        };
        row.map(AtomRecord::into_atom).transpose()
    }

    pub async fn delete_atom(pool: &Pool<DB>, owner: UserId, id: AtomId) -> Result<bool> {
        Self::delete_owned(pool, sql::DELETE_ATOM, owner, id.get()).await
    }

    /// Why a merge wrote nothing: [`MergeOutcome::Conflict`] when both atoms are still the
    /// owner's (one moved), else [`MergeOutcome::NotFound`].
    pub async fn merge_missed(
        pool: &Pool<DB>,
        owner: UserId,
        plan: &MergePlan,
    ) -> Result<MergeOutcome> {
        let (n,): (i64,) = sqlx::query_as(sql::OWNED_PAIR)
            .bind(owner.get())
            .bind(plan.keep.get())
            .bind(plan.drop.get())
            .fetch_one(pool)
            .await?;
        Ok(if n == 2 { MergeOutcome::Conflict } else { MergeOutcome::NotFound })
    }

    // ---- the require-context flag ----

    /// `false` for an owner that does not exist.
    pub async fn require_context(pool: &Pool<DB>, owner: UserId) -> Result<bool> {
        let row: Option<(bool,)> =
            sqlx::query_as(sql::REQUIRE_CONTEXT).bind(owner.get()).fetch_optional(pool).await?;
        Ok(row.is_some_and(|(on,)| on))
    }

    pub async fn set_require_context(pool: &Pool<DB>, owner: UserId, on: bool) -> Result<bool> {
        let done =
            sqlx::query(sql::SET_REQUIRE_CONTEXT).bind(owner.get()).bind(on).execute(pool).await?;
        Ok(done.rows_affected() > 0)
    }
}

/// A merge of an atom with itself (a plan [`merge_plan`](freehire_domain::experience::merge_plan)
/// never makes) is refused before any write.
pub(crate) fn check_plan(plan: &MergePlan) -> Result<()> {
    if plan.keep == plan.drop {
        return Err(StoreError::Invalid(freehire_domain::DomainError::Invalid {
            field: "drop",
            value: plan.drop.get().to_string(),
            reason: "cannot merge an atom with itself",
        }));
    }
    Ok(())
}
