//! [`CvRepo`](crate::CvRepo) bodies both backends run unchanged, over the statements of
//! [`sql::cvs`]. The adapters pass their pool (on SQLite, the writer pool for writes), the
//! transaction (`BEGIN IMMEDIATE` on SQLite) and the CV row's lock (`FOR UPDATE` on
//! PostgreSQL).
//!
//! A commit is authorised ([`authorize`]: policy and evidence gate) before its transaction
//! opens; inside it, holding the CV's row, it reads the state, plans with
//! [`plan_commit`](freehire_cv::plan_commit), saves the new state, coalesces into the newest
//! revision or files a new one, and trims the feed to [`FEED_LIMIT`]. An undo applies a stored
//! inverse with [`plan_undo`] as a new revision naming what it reverts, and marks that one
//! reverted; a batch revert does the same for every live revision of the batch, newest first,
//! in one transaction. A refusal rolls everything back: nothing of a refused change is written.

use chrono::{DateTime, Utc};
use freehire_cv::{
    Actor, Committed, CvState, EditConfig, EditError, ReportItem, RevisionMeta, TailorReport,
    coalesces, plan_commit, plan_undo,
};
use freehire_domain::{CvId, JobId, UserId};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type};

use super::{RowsAffected, Shared};
use crate::{
    Result, StoreError,
    bind::{JsonText, Stamp},
    cvs::{CommitOutcome, Cv, CvEdit, CvEvidence, CvRevision, FEED_LIMIT, RevisionId},
    rows::cvs::{CvRecord, RevisionRecord},
    sql::cvs as sql,
};

/// The policy and the evidence gate, run before any transaction opens: `Some` refusal, or
/// `None` to go on.
pub(crate) fn authorize(edit: &CvEdit<'_>, evidence: CvEvidence<'_>) -> Option<CommitOutcome> {
    freehire_cv::authorize(edit.actor, edit.ops, evidence).err().map(CommitOutcome::Refused)
}

fn json<T: serde::Serialize>(value: &T, column: &'static str) -> Result<String> {
    serde_json::to_string(value).map_err(|e| StoreError::corrupt(column, e))
}

/// An undo of `revision`, which was undone already.
/// The title of a tailored copy's first revision.
pub(crate) const SEED_TITLE: &str = "Created from your base CV";

/// The refusal to undo a revision that changed nothing (a copy's seed).
fn nothing_to_undo(revision: &CvRevision) -> EditError {
    EditError::CannotUndo(Box::new(EditError::InvalidOp {
        at: None,
        path: format!("revision {}", revision.seq),
        reason: format!("\"{}\" is where this CV's history starts", revision.title),
    }))
}

fn already_undone(revision: &CvRevision) -> EditError {
    EditError::CannotUndo(Box::new(EditError::InvalidOp {
        at: None,
        path: format!("revision {}", revision.seq),
        reason: "it was undone already".into(),
    }))
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
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> bool: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> JsonText<'a>: Encode<'q, DB> + Type<DB>,
    CvRecord: for<'r> FromRow<'r, DB::Row>,
    RevisionRecord: for<'r> FromRow<'r, DB::Row>,
{
    pub async fn create_base_cv(
        pool: &Pool<DB>,
        owner: UserId,
        state: &CvState,
        now: DateTime<Utc>,
    ) -> Result<Cv> {
        let data = json(&state.document, "data")?;
        sqlx::query(sql::INSERT_BASE)
            .bind(owner.get())
            .bind(state.title.as_str())
            .bind(state.template_id.as_str())
            .bind(JsonText(&data))
            .bind(Stamp(now))
            .execute(pool)
            .await?;
        let row: CvRecord = sqlx::query_as(sql::BASE).bind(owner.get()).fetch_one(pool).await?;
        row.into_cv()
    }

    pub async fn base_cv(pool: &Pool<DB>, owner: UserId) -> Result<Option<Cv>> {
        let row: Option<CvRecord> =
            sqlx::query_as(sql::BASE).bind(owner.get()).fetch_optional(pool).await?;
        row.map(CvRecord::into_cv).transpose()
    }

    pub async fn get_cv(pool: &Pool<DB>, owner: UserId, id: CvId) -> Result<Option<Cv>> {
        let row: Option<CvRecord> =
            sqlx::query_as(sql::CV).bind(id.get()).bind(owner.get()).fetch_optional(pool).await?;
        row.map(CvRecord::into_cv).transpose()
    }

    pub async fn list_cvs(pool: &Pool<DB>, owner: UserId) -> Result<Vec<Cv>> {
        let rows: Vec<CvRecord> =
            sqlx::query_as(sql::LIST).bind(owner.get()).fetch_all(pool).await?;
        rows.into_iter().map(CvRecord::into_cv).collect()
    }

    pub async fn tailor_cv(
        pool: &Pool<DB>,
        owner: UserId,
        job: JobId,
        now: DateTime<Utc>,
    ) -> Result<Option<(Cv, bool)>> {
        let mut tx = pool.begin().await?;
        let created = sqlx::query(sql::TAILOR)
            .bind(owner.get())
            .bind(job.get())
            .bind(Stamp(now))
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        let row: Option<CvRecord> = sqlx::query_as(sql::TAILORED)
            .bind(owner.get())
            .bind(job.get())
            .fetch_optional(&mut *tx)
            .await?;
        let Some(cv) = row.map(CvRecord::into_cv).transpose()? else {
            tx.rollback().await?;
            return Ok(None);
        };
        if created {
            sqlx::query(sql::SEED_REVISION)
                .bind(cv.id.get())
                .bind(SEED_TITLE)
                .bind(Stamp(now))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(Some((cv, created)))
    }

    pub async fn set_cv_session(
        pool: &Pool<DB>,
        owner: UserId,
        id: CvId,
        session: &str,
    ) -> Result<bool> {
        let done = sqlx::query(sql::SET_SESSION)
            .bind(id.get())
            .bind(owner.get())
            .bind(session)
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn set_tailor_report(
        pool: &Pool<DB>,
        owner: UserId,
        id: CvId,
        report: &TailorReport,
    ) -> Result<bool> {
        let report = json(report, "autopilot_report")?;
        let done = sqlx::query(sql::SET_REPORT)
            .bind(id.get())
            .bind(owner.get())
            .bind(JsonText(&report))
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Merges `item` into the report of the owner's tailored copy in `tx`, holding its row.
    pub async fn merge_tailor_entry(
        mut tx: Transaction<'_, DB>,
        lock: &'static str,
        owner: UserId,
        id: CvId,
        item: &ReportItem,
    ) -> Result<bool> {
        let Some(cv) = Self::locked_cv(&mut tx, lock, owner, id).await? else {
            tx.rollback().await?;
            return Ok(false);
        };
        let mut report = cv.autopilot_report.unwrap_or_default();
        report.merge(item.clone());
        let report = json(&report, "autopilot_report")?;
        let done = sqlx::query(sql::SET_REPORT)
            .bind(id.get())
            .bind(owner.get())
            .bind(JsonText(&report))
            .execute(&mut *tx)
            .await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn cv_revisions(
        pool: &Pool<DB>,
        owner: UserId,
        id: CvId,
        limit: u32,
    ) -> Result<Option<Vec<CvRevision>>> {
        if Self::get_cv(pool, owner, id).await?.is_none() {
            return Ok(None);
        }
        let limit = i64::from(limit).clamp(1, FEED_LIMIT);
        let rows: Vec<RevisionRecord> =
            sqlx::query_as(sql::REVISIONS).bind(id.get()).bind(limit).fetch_all(pool).await?;
        rows.into_iter().map(RevisionRecord::into_revision).collect::<Result<_>>().map(Some)
    }

    /// The owner's CV, locked with the dialect's `cv_for!` statement.
    async fn locked_cv(
        tx: &mut Transaction<'_, DB>,
        lock: &'static str,
        owner: UserId,
        id: CvId,
    ) -> Result<Option<Cv>> {
        let row: Option<CvRecord> =
            sqlx::query_as(lock).bind(id.get()).bind(owner.get()).fetch_optional(&mut **tx).await?;
        row.map(CvRecord::into_cv).transpose()
    }

    async fn save_state(
        tx: &mut Transaction<'_, DB>,
        id: CvId,
        state: &CvState,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let data = json(&state.document, "data")?;
        sqlx::query(sql::SAVE_STATE)
            .bind(id.get())
            .bind(state.title.as_str())
            .bind(state.template_id.as_str())
            .bind(JsonText(&data))
            .bind(Stamp(now))
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    async fn trim(tx: &mut Transaction<'_, DB>, id: CvId) -> Result<()> {
        sqlx::query(sql::TRIM).bind(id.get()).bind(FEED_LIMIT).execute(&mut **tx).await?;
        Ok(())
    }

    /// Files a new revision of `planned` (an undo of `undoes` when given, which is then marked
    /// reverted).
    async fn file(
        tx: &mut Transaction<'_, DB>,
        id: CvId,
        edit: &CvEdit<'_>,
        planned: &Committed,
        undoes: Option<&CvRevision>,
        now: DateTime<Utc>,
    ) -> Result<CvRevision> {
        let (ops, inverse) = (json(&planned.ops, "ops")?, json(&planned.inverse, "inverse")?);
        let row: RevisionRecord = sqlx::query_as(sql::INSERT_REVISION)
            .bind(id.get())
            .bind(edit.actor.as_str())
            .bind(edit.origin.as_str())
            .bind(edit.batch)
            .bind(planned.title.as_str())
            .bind(edit.note)
            .bind(JsonText(&ops))
            .bind(JsonText(&inverse))
            .bind(undoes.map(|r| r.id.0))
            .bind(undoes.is_some())
            .bind(Stamp(now))
            .fetch_one(&mut **tx)
            .await?;
        if let Some(target) = undoes {
            sqlx::query(sql::MARK_REVERTED).bind(target.id.0).execute(&mut **tx).await?;
        }
        row.into_revision()
    }

    /// Commits `edit` (authorised by the caller) in `tx`, holding the CV's row (see the module
    /// docs). `None` when the owner has no such CV.
    #[allow(clippy::too_many_arguments)]
    pub async fn commit_cv(
        mut tx: Transaction<'_, DB>,
        lock: &'static str,
        owner: UserId,
        id: CvId,
        edit: &CvEdit<'_>,
        evidence: CvEvidence<'_>,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>> {
        let Some(cv) = Self::locked_cv(&mut tx, lock, owner, id).await? else {
            tx.rollback().await?;
            return Ok(None);
        };
        let change = edit.change();
        let planned = match plan_commit(&cv.state, edit.ops, &change, evidence, config) {
            Ok(planned) => planned,
            Err(e) => {
                tx.rollback().await?;
                return Ok(Some(CommitOutcome::Refused(e)));
            }
        };
        if !planned.changed {
            tx.rollback().await?;
            return Ok(Some(CommitOutcome::Committed { state: cv.state, revisions: Vec::new() }));
        }
        Self::save_state(&mut tx, id, &planned.after, now).await?;
        let newest: Option<RevisionRecord> =
            sqlx::query_as(sql::NEWEST_REVISION).bind(id.get()).fetch_optional(&mut *tx).await?;
        let newest = newest.map(RevisionRecord::into_revision).transpose()?;
        let absorbs = newest.as_ref().is_some_and(|n| {
            let meta = RevisionMeta {
                change: n.change.clone(),
                ops: n.ops.clone(),
                reverted: n.reverted,
                is_undo: n.is_undo,
                created_at: n.created_at,
            };
            coalesces(&meta, &change, &planned.ops, now)
        });
        let revision = match newest {
            Some(newest) if absorbs => {
                let ops = json(&planned.ops, "ops")?;
                let row: RevisionRecord = sqlx::query_as(sql::COALESCE_REVISION)
                    .bind(newest.id.0)
                    .bind(JsonText(&ops))
                    .bind(planned.title.as_str())
                    .bind(edit.note)
                    .fetch_one(&mut *tx)
                    .await?;
                row.into_revision()?
            }
            _ => {
                let revision = Self::file(&mut tx, id, edit, &planned, None, now).await?;
                Self::trim(&mut tx, id).await?;
                revision
            }
        };
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(Some(CommitOutcome::Committed { state: planned.after, revisions: vec![revision] }))
    }

    /// Undoes `targets` in order on `state` in `tx`, each as a new revision by `actor`; the
    /// state after them, the revisions filed, or the refusal (the caller rolls back).
    async fn undo_all(
        tx: &mut Transaction<'_, DB>,
        id: CvId,
        mut state: CvState,
        targets: &[CvRevision],
        actor: Actor,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<std::result::Result<(CvState, Vec<CvRevision>), EditError>> {
        let mut filed = Vec::with_capacity(targets.len());
        for target in targets {
            if target.reverted {
                return Ok(Err(already_undone(target)));
            }
            if target.ops.is_empty() && target.inverse.is_empty() {
                return Ok(Err(nothing_to_undo(target)));
            }
            let planned = match plan_undo(&state, &target.inverse, &target.title, config) {
                Ok(planned) => planned,
                Err(e) => return Ok(Err(e)),
            };
            let edit = CvEdit {
                ops: &planned.ops,
                actor,
                origin: target.change.origin,
                batch: None,
                note: None,
            };
            filed.push(Self::file(tx, id, &edit, &planned, Some(target), now).await?);
            state = planned.after;
        }
        Ok(Ok((state, filed)))
    }

    /// Undoes the owner's CV's revisions chosen by `pick` (from the locked CV's id) in `tx`:
    /// one revision for an undo, a batch's live ones newest first for a revert. `None` when the
    /// owner has no such CV, or `pick` finds no such revision.
    #[allow(clippy::too_many_arguments)]
    pub async fn undo_cv(
        mut tx: Transaction<'_, DB>,
        lock: &'static str,
        owner: UserId,
        id: CvId,
        pick: Pick<'_>,
        actor: Actor,
        config: &EditConfig,
        now: DateTime<Utc>,
    ) -> Result<Option<CommitOutcome>> {
        let Some(cv) = Self::locked_cv(&mut tx, lock, owner, id).await? else {
            tx.rollback().await?;
            return Ok(None);
        };
        let rows: Vec<RevisionRecord> = match pick {
            Pick::One(revision) => {
                sqlx::query_as(sql::REVISION).bind(revision.0).bind(id.get()).fetch_all(&mut *tx)
            }
            Pick::Batch(batch) => {
                sqlx::query_as(sql::BATCH_REVISIONS).bind(id.get()).bind(batch).fetch_all(&mut *tx)
            }
        }
        .await?;
        if rows.is_empty() && matches!(pick, Pick::One(_)) {
            tx.rollback().await?;
            return Ok(None);
        }
        let targets =
            rows.into_iter().map(RevisionRecord::into_revision).collect::<Result<Vec<_>>>()?;
        let before = cv.state.clone();
        match Self::undo_all(&mut tx, id, cv.state, &targets, actor, config, now).await? {
            Err(e) => {
                tx.rollback().await?;
                Ok(Some(CommitOutcome::Refused(e)))
            }
            Ok((state, revisions)) => {
                if state != before {
                    Self::save_state(&mut tx, id, &state, now).await?;
                }
                Self::trim(&mut tx, id).await?;
                tx.commit().await.map_err(crate::error::committing)?;
                Ok(Some(CommitOutcome::Committed { state, revisions }))
            }
        }
    }
}

/// Which revisions an undo takes back.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Pick<'a> {
    /// One revision.
    One(RevisionId),
    /// Every live revision of a batch, newest first.
    Batch(&'a str),
}
