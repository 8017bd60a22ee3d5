//! [`CoverLetterRepo`](crate::CoverLetterRepo) bodies both backends run unchanged, over the
//! statements of [`sql::letters`]; the adapter passes its pool (on SQLite, the writer for
//! writes).

use chrono::{DateTime, Utc};
use freehire_cv::letter::{Band, Letter};
use freehire_domain::{JobId, UserId};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::{RowsAffected, Shared};
use crate::{
    Result, StoreError,
    bind::{JsonText, Stamp},
    letters::StoredLetter,
    rows::letters::LetterRecord,
    sql::letters as sql,
};

impl<DB> Shared<DB>
where
    DB: Database,
    DB::QueryResult: RowsAffected,
    for<'c> &'c Pool<DB>: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> Stamp: Encode<'q, DB> + Type<DB>,
    for<'q, 'a> JsonText<'a>: Encode<'q, DB> + Type<DB>,
    LetterRecord: for<'r> FromRow<'r, DB::Row>,
{
    pub async fn save_letter(
        pool: &Pool<DB>,
        owner: UserId,
        job: JobId,
        band: Band,
        letter: &Letter,
        now: DateTime<Utc>,
    ) -> Result<StoredLetter> {
        let json = serde_json::to_string(letter).map_err(|e| StoreError::corrupt("letter", e))?;
        let row: LetterRecord = sqlx::query_as(sql::SAVE)
            .bind(owner.get())
            .bind(job.get())
            .bind(band.as_str())
            .bind(JsonText(&json))
            .bind(Stamp(now))
            .fetch_one(pool)
            .await?;
        row.into_letter()
    }

    pub async fn letter_by(
        pool: &Pool<DB>,
        statement: &'static str,
        owner: UserId,
        key: i64,
    ) -> Result<Option<StoredLetter>> {
        let row: Option<LetterRecord> =
            sqlx::query_as(statement).bind(owner.get()).bind(key).fetch_optional(pool).await?;
        row.map(LetterRecord::into_letter).transpose()
    }

    pub async fn list_letters(pool: &Pool<DB>, owner: UserId) -> Result<Vec<StoredLetter>> {
        let rows: Vec<LetterRecord> =
            sqlx::query_as(sql::LIST).bind(owner.get()).fetch_all(pool).await?;
        rows.into_iter().map(LetterRecord::into_letter).collect()
    }

    pub async fn delete_letter(pool: &Pool<DB>, owner: UserId, id: i64) -> Result<bool> {
        let done = sqlx::query(sql::DELETE).bind(owner.get()).bind(id).execute(pool).await?;
        Ok(done.rows_affected() > 0)
    }
}
