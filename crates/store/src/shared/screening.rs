//! [`ScreeningRepo`](crate::ScreeningRepo) bodies both backends run, over the statements of
//! [`sql::screening`]; the adapter passes its pool and its dialect's merge statement.

use freehire_domain::{ScreeningAnswers, ScreeningPatch, UserId};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Shared;
use crate::{
    Result, StoreError,
    bind::{JsonText, StoredJson},
    sql::screening as sql,
};

/// The column's name in corruption errors.
const COLUMN: &str = "screening_answers";

impl<DB> Shared<DB>
where
    DB: Database,
    for<'c> &'c Pool<DB>: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> JsonText<'a>: Encode<'q, DB> + Type<DB>,
    (StoredJson,): for<'r> FromRow<'r, DB::Row>,
{
    /// The owner's answers; `None` for an owner that does not exist.
    pub async fn screening_answers(
        pool: &Pool<DB>,
        owner: UserId,
    ) -> Result<Option<ScreeningAnswers>> {
        let row: Option<(StoredJson,)> =
            sqlx::query_as(sql::ANSWERS).bind(owner.get()).fetch_optional(pool).await?;
        row.map(|(raw,)| raw.parse(COLUMN)).transpose()
    }

    /// Applies `patch` with `statement` (the dialect's merge); `None` for an owner that does
    /// not exist.
    pub async fn patch_screening_answers(
        pool: &Pool<DB>,
        statement: &'static str,
        owner: UserId,
        patch: &ScreeningPatch,
    ) -> Result<Option<ScreeningAnswers>> {
        let json = serde_json::to_string(patch).map_err(|e| StoreError::corrupt(COLUMN, e))?;
        let row: Option<(StoredJson,)> = sqlx::query_as(statement)
            .bind(owner.get())
            .bind(JsonText(&json))
            .fetch_optional(pool)
            .await?;
        row.map(|(raw,)| raw.parse(COLUMN)).transpose()
    }
}
