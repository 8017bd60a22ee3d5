//! [`ExperienceRepo`] on SQLite: `Shared`'s bodies, reads on the reader pool, writes on the
//! one writer connection. The atom upsert, the fill and the merge run in a `BEGIN IMMEDIATE`
//! transaction, which holds the database: the upsert looks for the claim key first (SQLite
//! cannot tell an insert from an upgrade by itself), the fill needs no row lock, and the merge
//! makes the checks of PostgreSQL's one statement in turn (the loser deleted at its
//! `updated_at` as read, the keeper updated at its own, or everything rolled back).

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{
    AtomId, Author, EmploymentId, UserId,
    experience::{Atom, AtomDraft, Employment, EmploymentDraft, MergePlan},
};

use super::{Shared, SqliteStore};
use crate::{
    AtomWrite, ExperienceRepo, MergeOutcome, Result,
    bind::{List, Stamp},
    rows::experience::AtomRecord,
    shared::experience::check_plan,
    sql::experience::{self as sql, atoms_among, employment_of, upsert_atom},
};

const ATOMS_AMONG: &str = atoms_among!("id IN (SELECT value FROM json_each($2))");
const UPSERT_ATOM: &str = upsert_atom!("NULL");
const EMPLOYMENT_LOCKED: &str = employment_of!("");

#[async_trait]
impl ExperienceRepo for SqliteStore {
    async fn list_employments(&self, owner: UserId) -> Result<Vec<Employment>> {
        Shared::list_employments(&self.pool, owner).await
    }

    async fn get_employment(&self, owner: UserId, id: EmploymentId) -> Result<Option<Employment>> {
        Shared::employment(&self.pool, owner, id).await
    }

    async fn find_employment(
        &self,
        owner: UserId,
        company: &str,
        role: &str,
    ) -> Result<Option<Employment>> {
        Shared::find_employment(&self.pool, owner, company, role).await
    }

    async fn create_employment(
        &self,
        owner: UserId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Employment> {
        Shared::create_employment(&self.writer, owner, draft, now).await
    }

    async fn update_employment(
        &self,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>> {
        Shared::update_employment(&self.writer, owner, id, draft, now).await
    }

    async fn fill_employment_blanks(
        &self,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>> {
        let tx = self.write().await?;
        Shared::fill_employment_blanks(tx, EMPLOYMENT_LOCKED, owner, id, draft, now).await
    }

    async fn delete_employment(&self, owner: UserId, id: EmploymentId) -> Result<bool> {
        Shared::delete_employment(&self.writer, owner, id).await
    }

    async fn list_atoms(&self, owner: UserId) -> Result<Vec<Atom>> {
        Shared::list_atoms(&self.pool, owner).await
    }

    async fn get_atoms(&self, owner: UserId, ids: &[AtomId]) -> Result<Vec<Atom>> {
        Shared::atoms_among(&self.pool, ATOMS_AMONG, owner, ids).await
    }

    async fn add_atom(
        &self,
        owner: UserId,
        draft: &AtomDraft,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<AtomWrite> {
        let tx = self.write().await?;
        Shared::add_atom(tx, UPSERT_ATOM, true, owner, draft, author, now).await
    }

    async fn update_atom(
        &self,
        owner: UserId,
        id: AtomId,
        draft: &AtomDraft,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<Option<Atom>> {
        Shared::update_atom(&self.writer, owner, id, draft, author, now).await
    }

    async fn delete_atom(&self, owner: UserId, id: AtomId) -> Result<bool> {
        Shared::delete_atom(&self.writer, owner, id).await
    }

    async fn merge_atoms(
        &self,
        owner: UserId,
        plan: &MergePlan,
        now: DateTime<Utc>,
    ) -> Result<MergeOutcome> {
        check_plan(plan)?;
        let mut tx = self.write().await?;
        let gone = sqlx::query(sql::MERGE_LOSER)
            .bind(owner.get())
            .bind(plan.drop.get())
            .bind(Stamp(plan.drop_seen))
            .execute(&mut *tx)
            .await?;
        let kept: Option<AtomRecord> = if gone.rows_affected() == 0 {
            None
        } else {
            sqlx::query_as(sql::MERGE_KEEPER)
                .bind(owner.get())
                .bind(plan.keep.get())
                .bind(Stamp(plan.keep_seen))
                .bind(plan.context.as_str())
                .bind(List(&plan.metrics))
                .bind(List(&plan.skills))
                .bind(plan.provenance.as_str())
                .bind(Stamp(now))
                .fetch_optional(&mut *tx)
                .await?
        };
        let Some(kept) = kept else {
            tx.rollback().await?;
            return Shared::merge_missed(&self.pool, owner, plan).await;
        };
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(MergeOutcome::Merged(kept.into_atom()?))
    }

    async fn experience_require_context(&self, owner: UserId) -> Result<bool> {
        Shared::require_context(&self.pool, owner).await
    }

    async fn set_experience_require_context(&self, owner: UserId, on: bool) -> Result<bool> {
        Shared::set_require_context(&self.writer, owner, on).await
    }
}
