//! [`AssistantRepo`](crate::AssistantRepo) and [`TurnLeaseRepo`](crate::TurnLeaseRepo)
//! bodies both backends run unchanged, over the statements of [`sql::assistant`]. Every write
//! is one statement; the adapters pass their pool (on SQLite, the writer pool for writes).
//!
//! A message's `seq` is computed by its insert; a collision with a concurrent writer is the
//! primary key's unique violation (SQLSTATE 23505, `SQLITE_CONSTRAINT_PRIMARYKEY`), reported
//! as [`StoreError::Conflict`] on `seq`.

use chrono::{DateTime, Utc};
use freehire_assistant::{Message, NewMessage, SessionId};
use freehire_domain::UserId;
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::{RowsAffected, Shared};
use crate::{
    HeldLease, Result, StoreError,
    assistant::{AssistantSession, NewSession},
    bind::{JsonText, Stamp, Uid},
    rows::assistant::{MessageRecord, SessionRecord, messages},
    sql::assistant as sql,
};

/// A unique violation of the messages' primary key as [`StoreError::Conflict`] on `seq`; any
/// other error as it is.
fn seq_taken(e: sqlx::Error) -> StoreError {
    match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            StoreError::Conflict { field: "seq" }
        }
        _ => e.into(),
    }
}

fn uid(id: SessionId) -> Uid {
    Uid(*id.as_uuid())
}

fn held(rows: Vec<(Uid, Uid, i64)>) -> Vec<HeldLease> {
    rows.into_iter()
        .map(|(session, holder, generation)| HeldLease {
            session: SessionId::from_uuid(session.0),
            holder: holder.0,
            generation,
        })
        .collect()
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
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q> Uid: Encode<'q, DB> + Type<DB>,
    for<'q> Option<Uid>: Encode<'q, DB>,
    for<'q, 'a> JsonText<'a>: Encode<'q, DB> + Type<DB>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (bool,): for<'r> FromRow<'r, DB::Row>,
    (Uid, Uid, i64): for<'r> FromRow<'r, DB::Row>,
    SessionRecord: for<'r> FromRow<'r, DB::Row>,
    MessageRecord: for<'r> FromRow<'r, DB::Row>,
{
    // ---- sessions ----

    pub async fn create_session(
        pool: &Pool<DB>,
        new: NewSession<'_>,
        now: DateTime<Utc>,
    ) -> Result<AssistantSession> {
        let row: SessionRecord = sqlx::query_as(sql::INSERT_SESSION)
            .bind(Uid(uuid::Uuid::new_v4()))
            .bind(new.owner.get())
            .bind(new.preset)
            .bind(new.label.filter(|l| !l.is_empty()))
            .bind(new.cv_id.map(freehire_domain::CvId::get))
            .bind(new.job_id.map(|j| j.get()))
            .bind(Stamp(now))
            .fetch_one(pool)
            .await?;
        row.into_session()
    }

    pub async fn assistant_session(
        pool: &Pool<DB>,
        id: SessionId,
        owner: UserId,
    ) -> Result<Option<AssistantSession>> {
        let row: Option<SessionRecord> = sqlx::query_as(sql::SESSION)
            .bind(uid(id))
            .bind(owner.get())
            .fetch_optional(pool)
            .await?;
        row.map(SessionRecord::into_session).transpose()
    }

    pub async fn chat_sessions(pool: &Pool<DB>, owner: UserId) -> Result<Vec<AssistantSession>> {
        let rows: Vec<SessionRecord> =
            sqlx::query_as(sql::RAIL).bind(owner.get()).fetch_all(pool).await?;
        rows.into_iter().map(SessionRecord::into_session).collect()
    }

    pub async fn delete_session(pool: &Pool<DB>, id: SessionId, owner: UserId) -> Result<bool> {
        let done =
            sqlx::query(sql::DELETE_SESSION).bind(uid(id)).bind(owner.get()).execute(pool).await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn set_session_label(
        pool: &Pool<DB>,
        id: SessionId,
        owner: UserId,
        label: &str,
    ) -> Result<()> {
        if label.is_empty() {
            return Ok(());
        }
        sqlx::query(sql::LABEL).bind(uid(id)).bind(owner.get()).bind(label).execute(pool).await?;
        Ok(())
    }

    pub async fn touch_session(
        pool: &Pool<DB>,
        id: SessionId,
        owner: UserId,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(sql::TOUCH)
            .bind(uid(id))
            .bind(owner.get())
            .bind(Stamp(now))
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn label_and_touch_session(
        pool: &Pool<DB>,
        id: SessionId,
        owner: UserId,
        label: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(sql::LABEL_AND_TOUCH)
            .bind(uid(id))
            .bind(owner.get())
            .bind(label)
            .bind(Stamp(now))
            .execute(pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn count_user_turns(pool: &Pool<DB>, id: SessionId) -> Result<i64> {
        let (n,): (i64,) =
            sqlx::query_as(sql::COUNT_USER_TURNS).bind(uid(id)).fetch_one(pool).await?;
        Ok(n)
    }

    // ---- messages ----

    pub async fn insert_message(
        pool: &Pool<DB>,
        id: SessionId,
        owner: UserId,
        msg: &NewMessage,
        now: DateTime<Utc>,
    ) -> Result<Option<Message>> {
        let row: Option<MessageRecord> = sqlx::query_as(sql::INSERT_MESSAGE)
            .bind(uid(id))
            .bind(owner.get())
            .bind(msg.role.as_str())
            .bind(JsonText(&msg.content))
            .bind(Stamp(now))
            .fetch_optional(pool)
            .await
            .map_err(seq_taken)?;
        Ok(row.map(MessageRecord::into_message).transpose()?.flatten())
    }

    pub async fn session_messages(
        pool: &Pool<DB>,
        id: SessionId,
        owner: UserId,
        newest: Option<u32>,
    ) -> Result<Option<Vec<Message>>> {
        let rows: Vec<MessageRecord> = match newest {
            None => {
                sqlx::query_as(sql::TRANSCRIPT)
                    .bind(uid(id))
                    .bind(owner.get())
                    .fetch_all(pool)
                    .await?
            }
            // At least one row, so an owned session is told from a foreign one.
            Some(limit) => {
                sqlx::query_as(sql::RECENT)
                    .bind(uid(id))
                    .bind(owner.get())
                    .bind(i64::from(limit.max(1)))
                    .fetch_all(pool)
                    .await?
            }
        };
        let mut out = messages(rows)?;
        if let (Some(limit), Some(list)) = (newest, out.as_mut()) {
            list.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
            list.reverse();
        }
        Ok(out)
    }

    // ---- turn leases ----

    pub async fn acquire_turn_lease(
        pool: &Pool<DB>,
        session: SessionId,
        holder: uuid::Uuid,
        process: uuid::Uuid,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<i64>> {
        let row: Option<(i64,)> = sqlx::query_as(sql::ACQUIRE_LEASE)
            .bind(uid(session))
            .bind(Uid(holder))
            .bind(Stamp(until))
            .bind(Stamp(now))
            .bind(Uid(process))
            .fetch_optional(pool)
            .await?;
        Ok(row.map(|(g,)| g))
    }

    pub async fn renew_turn_leases(
        pool: &Pool<DB>,
        process: uuid::Uuid,
        until: DateTime<Utc>,
    ) -> Result<Vec<HeldLease>> {
        let rows: Vec<(Uid, Uid, i64)> = sqlx::query_as(sql::RENEW_LEASES)
            .bind(Uid(process))
            .bind(Stamp(until))
            .fetch_all(pool)
            .await?;
        Ok(held(rows))
    }

    pub async fn held_turn_leases(pool: &Pool<DB>, process: uuid::Uuid) -> Result<Vec<HeldLease>> {
        let rows: Vec<(Uid, Uid, i64)> =
            sqlx::query_as(sql::HELD_LEASES).bind(Uid(process)).fetch_all(pool).await?;
        Ok(held(rows))
    }

    /// Runs a statement binding a session (`$1`) and a holder or waiter (`$2`).
    async fn by_participant(
        pool: &Pool<DB>,
        statement: &'static str,
        session: SessionId,
        who: uuid::Uuid,
    ) -> Result<bool> {
        let done = sqlx::query(statement).bind(uid(session)).bind(Uid(who)).execute(pool).await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn release_turn_lease(
        pool: &Pool<DB>,
        session: SessionId,
        holder: uuid::Uuid,
    ) -> Result<bool> {
        Self::by_participant(pool, sql::RELEASE_LEASE, session, holder).await
    }

    pub async fn queue_for_turn(
        pool: &Pool<DB>,
        session: SessionId,
        waiter: uuid::Uuid,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<i64>> {
        let row: Option<(i64,)> = sqlx::query_as(sql::QUEUE)
            .bind(uid(session))
            .bind(Uid(waiter))
            .bind(Stamp(until))
            .bind(Stamp(now))
            .fetch_optional(pool)
            .await?;
        Ok(row.map(|(g,)| g))
    }

    pub async fn leave_turn_queue(
        pool: &Pool<DB>,
        session: SessionId,
        waiter: uuid::Uuid,
    ) -> Result<bool> {
        Self::by_participant(pool, sql::LEAVE_QUEUE, session, waiter).await
    }

    pub async fn cancel_turn(
        pool: &Pool<DB>,
        session: SessionId,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let row: Option<(bool,)> = sqlx::query_as(sql::CANCEL)
            .bind(uid(session))
            .bind(Stamp(now))
            .fetch_optional(pool)
            .await?;
        Ok(row.is_some_and(|(running,)| running))
    }

    pub async fn turn_cancel_generation(
        pool: &Pool<DB>,
        session: SessionId,
    ) -> Result<Option<i64>> {
        let row: Option<(i64,)> =
            sqlx::query_as(sql::GENERATION).bind(uid(session)).fetch_optional(pool).await?;
        Ok(row.map(|(g,)| g))
    }
}

/// Implements [`AssistantRepo`](crate::AssistantRepo) and
/// [`TurnLeaseRepo`](crate::TurnLeaseRepo) for an adapter (`$store`) with `$shared`'s bodies:
/// writes on `self.$writer`, reads on `self.$reader` through `$reads` (PostgreSQL's
/// `retry_once_if_lost`; SQLite runs them once), the lease writes and the session's label
/// and last use (`set_session_label`, `touch_session`, `label_and_touch_session`) on
/// `self.$lease` (PostgreSQL's coordination pool, SQLite's writer), and the messages on
/// `self.$journal` (PostgreSQL's transcript pool, SQLite's writer).
macro_rules! assistant_repos {
    ($store:ty, $shared:ty, $writer:ident, $reader:ident, $lease:ident, $journal:ident, $reads:path) => {
        #[async_trait::async_trait]
        impl $crate::AssistantRepo for $store {
            async fn create_session(
                &self,
                new: $crate::NewSession<'_>,
                now: chrono::DateTime<chrono::Utc>,
            ) -> $crate::Result<$crate::AssistantSession> {
                <$shared>::create_session(&self.$writer, new, now).await
            }

            async fn assistant_session(
                &self,
                id: freehire_assistant::SessionId,
                owner: freehire_domain::UserId,
            ) -> $crate::Result<Option<$crate::AssistantSession>> {
                $reads(|| <$shared>::assistant_session(&self.$reader, id, owner)).await
            }

            async fn chat_sessions(
                &self,
                owner: freehire_domain::UserId,
            ) -> $crate::Result<Vec<$crate::AssistantSession>> {
                $reads(|| <$shared>::chat_sessions(&self.$reader, owner)).await
            }

            async fn delete_session(
                &self,
                id: freehire_assistant::SessionId,
                owner: freehire_domain::UserId,
            ) -> $crate::Result<bool> {
                <$shared>::delete_session(&self.$writer, id, owner).await
            }

            async fn set_session_label(
                &self,
                id: freehire_assistant::SessionId,
                owner: freehire_domain::UserId,
                label: &str,
            ) -> $crate::Result<()> {
                <$shared>::set_session_label(&self.$lease, id, owner, label).await
            }

            async fn touch_session(
                &self,
                id: freehire_assistant::SessionId,
                owner: freehire_domain::UserId,
                now: chrono::DateTime<chrono::Utc>,
            ) -> $crate::Result<bool> {
                <$shared>::touch_session(&self.$lease, id, owner, now).await
            }

            async fn label_and_touch_session(
                &self,
                id: freehire_assistant::SessionId,
                owner: freehire_domain::UserId,
                label: &str,
                now: chrono::DateTime<chrono::Utc>,
            ) -> $crate::Result<bool> {
                <$shared>::label_and_touch_session(&self.$lease, id, owner, label, now).await
            }

            async fn count_user_turns(
                &self,
                id: freehire_assistant::SessionId,
            ) -> $crate::Result<i64> {
                $reads(|| <$shared>::count_user_turns(&self.$reader, id)).await
            }

            async fn insert_message(
                &self,
                id: freehire_assistant::SessionId,
                owner: freehire_domain::UserId,
                msg: &freehire_assistant::NewMessage,
                now: chrono::DateTime<chrono::Utc>,
            ) -> $crate::Result<Option<freehire_assistant::Message>> {
                <$shared>::insert_message(&self.$journal, id, owner, msg, now).await
            }

            async fn session_messages(
                &self,
                id: freehire_assistant::SessionId,
                owner: freehire_domain::UserId,
                newest: Option<u32>,
            ) -> $crate::Result<Option<Vec<freehire_assistant::Message>>> {
                $reads(|| <$shared>::session_messages(&self.$reader, id, owner, newest)).await
            }
        }

        #[async_trait::async_trait]
        impl $crate::TurnLeaseRepo for $store {
            async fn lease_clock(&self) -> $crate::Result<chrono::DateTime<chrono::Utc>> {
                self.lease_clock_now().await
            }

            async fn acquire_turn_lease(
                &self,
                session: freehire_assistant::SessionId,
                holder: uuid::Uuid,
                process: uuid::Uuid,
                until: chrono::DateTime<chrono::Utc>,
                now: chrono::DateTime<chrono::Utc>,
            ) -> $crate::Result<Option<i64>> {
                <$shared>::acquire_turn_lease(&self.$lease, session, holder, process, until, now)
                    .await
            }

            async fn renew_turn_leases(
                &self,
                process: uuid::Uuid,
                until: chrono::DateTime<chrono::Utc>,
            ) -> $crate::Result<Vec<$crate::HeldLease>> {
                <$shared>::renew_turn_leases(&self.$lease, process, until).await
            }

            async fn held_turn_leases(
                &self,
                process: uuid::Uuid,
            ) -> $crate::Result<Vec<$crate::HeldLease>> {
                $reads(|| <$shared>::held_turn_leases(&self.$reader, process)).await
            }

            async fn release_turn_lease(
                &self,
                session: freehire_assistant::SessionId,
                holder: uuid::Uuid,
            ) -> $crate::Result<bool> {
                <$shared>::release_turn_lease(&self.$lease, session, holder).await
            }

            async fn queue_for_turn(
                &self,
                session: freehire_assistant::SessionId,
                waiter: uuid::Uuid,
                until: chrono::DateTime<chrono::Utc>,
                now: chrono::DateTime<chrono::Utc>,
            ) -> $crate::Result<Option<i64>> {
                <$shared>::queue_for_turn(&self.$lease, session, waiter, until, now).await
            }

            async fn leave_turn_queue(
                &self,
                session: freehire_assistant::SessionId,
                waiter: uuid::Uuid,
            ) -> $crate::Result<bool> {
                <$shared>::leave_turn_queue(&self.$lease, session, waiter).await
            }

            async fn cancel_turn(
                &self,
                session: freehire_assistant::SessionId,
                now: chrono::DateTime<chrono::Utc>,
            ) -> $crate::Result<bool> {
                <$shared>::cancel_turn(&self.$lease, session, now).await
            }

            async fn turn_cancel_generation(
                &self,
                session: freehire_assistant::SessionId,
            ) -> $crate::Result<Option<i64>> {
                $reads(|| <$shared>::turn_cancel_generation(&self.$reader, session)).await
            }
        }
    };
}
pub(crate) use assistant_repos;
