//! [`GhostRepo`](crate::GhostRepo) bodies both backends run unchanged, over
//! [`sql::ghost`](crate::sql::ghost).

use chrono::{DateTime, NaiveDate, Utc};
use freehire_domain::{JobId, Stage, UserId};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Transaction, Type};

use super::{RowsAffected, Shared};
use crate::{ApplicantClock, GhostInputs, Result, StoreError, bind::Stamp, sql::ghost as sql};

/// The stored form of a day.
const DAY: &str = "%Y-%m-%d";

fn user(raw: i64) -> Result<UserId> {
    UserId::new(raw).map_err(|e| StoreError::corrupt("user_id", e))
}

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c Pool<DB>: Executor<'c, Database = DB>,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    (String,): for<'r> FromRow<'r, DB::Row>,
    (i64,): for<'r> FromRow<'r, DB::Row>,
    (i64, Option<String>, Stamp): for<'r> FromRow<'r, DB::Row>,
{
    pub async fn report_ghost(
        mut tx: Transaction<'_, DB>,
        owner: UserId,
        job: JobId,
        applied_on: NaiveDate,
        at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(sql::REPORT)
            .bind(owner.get())
            .bind(job.get())
            .bind(applied_on.format(DAY).to_string())
            .bind(Stamp(at))
            .execute(&mut *tx)
            .await?;
        tx.commit().await.map_err(crate::error::committing)
    }

    pub async fn retract_ghost(
        mut tx: Transaction<'_, DB>,
        owner: UserId,
        job: JobId,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(sql::RETRACT)
            .bind(owner.get())
            .bind(job.get())
            .bind(Stamp(at))
            .execute(&mut *tx)
            .await?;
        tx.commit().await.map_err(crate::error::committing)?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn my_ghost_report(
        pool: &Pool<DB>,
        owner: UserId,
        job: JobId,
    ) -> Result<Option<NaiveDate>> {
        let row: Option<(String,)> = sqlx::query_as(sql::MINE)
            .bind(owner.get())
            .bind(job.get())
            .fetch_optional(pool)
            .await?;
        row.map(|(day,)| {
            NaiveDate::parse_from_str(&day, DAY).map_err(|e| StoreError::corrupt("applied_on", e))
        })
        .transpose()
    }

    pub async fn ghost_inputs(pool: &Pool<DB>, job: JobId) -> Result<GhostInputs> {
        let reporters: Vec<(i64,)> =
            sqlx::query_as(sql::REPORTERS).bind(job.get()).fetch_all(pool).await?;
        let applications: Vec<(i64, Option<String>, Stamp)> =
            sqlx::query_as(sql::APPLICATIONS).bind(job.get()).fetch_all(pool).await?;
        Ok(GhostInputs {
            reporters: reporters.into_iter().map(|(id,)| user(id)).collect::<Result<_>>()?,
            applications: applications
                .into_iter()
                .map(|(id, stage, applied_at)| {
                    Ok(ApplicantClock {
                        user: user(id)?,
                        stage: stage
                            .as_deref()
                            .map(Stage::parse)
                            .transpose()
                            .map_err(|e| StoreError::corrupt("stage", e))?,
                        applied_at: applied_at.into(),
                    })
                })
                .collect::<Result<_>>()?,
        })
    }
}
