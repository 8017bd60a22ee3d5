//! [`ExperienceRepo`] on PostgreSQL: `Shared`'s bodies; the atom upsert tells an insert from
//! an upgrade by `xmax = 0`, the fill holds the employment's row (`FOR UPDATE`), and a merge
//! is one statement ([`MERGE_ATOMS`]). Reads and transactions run once more if they lost
//! their connection before committing ([`retry_once_if_lost`]); single-statement writes do not.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use freehire_domain::{
    AtomId, Author, EmploymentId, UserId,
    experience::{Atom, AtomDraft, Employment, EmploymentDraft, MergePlan},
};

use super::{PgStore, Shared, retry_once_if_lost};
use crate::{
    AtomWrite, ExperienceRepo, MergeOutcome, Result,
    bind::{List, Stamp},
    rows::experience::AtomRecord,
    shared::experience::check_plan,
    sql::experience::{atom_columns, atoms_among, employment_of, upsert_atom},
};

const ATOMS_AMONG: &str = atoms_among!("id = ANY($2)");
const UPSERT_ATOM: &str = upsert_atom!("(xmax = 0)");
const EMPLOYMENT_LOCKED: &str = employment_of!(" FOR UPDATE");

/// The merge as one statement: the loser is locked and checked at its `updated_at` as read
/// (`$3` id, `$4` seen), the keeper updated only then and only at its own (`$2` id, `$5`
/// seen; `$6`–`$9` context, metrics, skills, provenance; `$10` now), the loser deleted only
/// when the keeper was updated. A row concurrently changed fails its recheck under the lock,
/// so a plan never applies over a change it did not see. No row: nothing changed.
const MERGE_ATOMS: &str = concat!(
    "WITH loser AS (SELECT id FROM experience_atoms \
       WHERE id = $3 AND user_id = $1 AND updated_at = $4 FOR UPDATE), \
     kept AS (UPDATE experience_atoms SET context = $6, metrics = $7, skills = $8, \
       provenance = $9, updated_at = $10 \
       WHERE id = $2 AND user_id = $1 AND updated_at = $5 AND EXISTS (SELECT 1 FROM loser) \
       RETURNING ",
    atom_columns!(),
    "), gone AS (DELETE FROM experience_atoms \
       WHERE id IN (SELECT id FROM loser) AND EXISTS (SELECT 1 FROM kept)) \
     SELECT ",
    atom_columns!(),
    " FROM kept"
);

#[async_trait]
impl ExperienceRepo for PgStore {
    async fn list_employments(&self, owner: UserId) -> Result<Vec<Employment>> {
        retry_once_if_lost(|| Shared::list_employments(&self.pool, owner)).await
    }

    async fn get_employment(&self, owner: UserId, id: EmploymentId) -> Result<Option<Employment>> {
        retry_once_if_lost(|| Shared::employment(&self.pool, owner, id)).await
    }

    async fn find_employment(
        &self,
        owner: UserId,
        company: &str,
        role: &str,
    ) -> Result<Option<Employment>> {
        retry_once_if_lost(|| Shared::find_employment(&self.pool, owner, company, role)).await
    }

    async fn create_employment(
        &self,
        owner: UserId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Employment> {
        Shared::create_employment(&self.pool, owner, draft, now).await
    }

    async fn update_employment(
        &self,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>> {
        Shared::update_employment(&self.pool, owner, id, draft, now).await
    }

    async fn fill_employment_blanks(
        &self,
        owner: UserId,
        id: EmploymentId,
        draft: &EmploymentDraft,
        now: DateTime<Utc>,
    ) -> Result<Option<Employment>> {
        retry_once_if_lost(|| async move {
            let tx = self.pool.begin().await?;
            Shared::fill_employment_blanks(tx, EMPLOYMENT_LOCKED, owner, id, draft, now).await
        })
        .await
    }

    async fn delete_employment(&self, owner: UserId, id: EmploymentId) -> Result<bool> {
        Shared::delete_employment(&self.pool, owner, id).await
    }

    async fn list_atoms(&self, owner: UserId) -> Result<Vec<Atom>> {
        retry_once_if_lost(|| Shared::list_atoms(&self.pool, owner)).await
    }

    async fn get_atoms(&self, owner: UserId, ids: &[AtomId]) -> Result<Vec<Atom>> {
        retry_once_if_lost(|| Shared::atoms_among(&self.pool, ATOMS_AMONG, owner, ids)).await
    }

    async fn add_atom(
        &self,
        owner: UserId,
        draft: &AtomDraft,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<AtomWrite> {
        retry_once_if_lost(|| async move {
            let tx = self.pool.begin().await?;
            Shared::add_atom(tx, UPSERT_ATOM, false, owner, draft, author, now).await
        })
        .await
    }

    async fn update_atom(
        &self,
        owner: UserId,
        id: AtomId,
        draft: &AtomDraft,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<Option<Atom>> {
        Shared::update_atom(&self.pool, owner, id, draft, author, now).await
    }

    async fn delete_atom(&self, owner: UserId, id: AtomId) -> Result<bool> {
        Shared::delete_atom(&self.pool, owner, id).await
    }

    async fn merge_atoms(
        &self,
        owner: UserId,
        plan: &MergePlan,
        now: DateTime<Utc>,
    ) -> Result<MergeOutcome> {
        check_plan(plan)?;
        let row: Option<AtomRecord> = sqlx::query_as(MERGE_ATOMS)
            .bind(owner.get())
            .bind(plan.keep.get())
            .bind(plan.drop.get())
            .bind(Stamp(plan.drop_seen))
            .bind(Stamp(plan.keep_seen))
            .bind(plan.context.as_str())
            .bind(List(&plan.metrics))
            .bind(List(&plan.skills))
            .bind(plan.provenance.as_str())
            .bind(Stamp(now))
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => Ok(MergeOutcome::Merged(row.into_atom()?)),
            None => retry_once_if_lost(|| Shared::merge_missed(&self.pool, owner, plan)).await,
        }
    }

    async fn experience_require_context(&self, owner: UserId) -> Result<bool> {
        retry_once_if_lost(|| Shared::require_context(&self.pool, owner)).await
    }

    async fn set_experience_require_context(&self, owner: UserId, on: bool) -> Result<bool> {
        Shared::set_require_context(&self.pool, owner, on).await
    }
}
