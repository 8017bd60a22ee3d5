//! The suggestion terms' body both backends run ([`JobRepo::suggestion_terms`](crate::JobRepo)),
//! over [`sql::suggest`]; the adapter passes its skills statement.

use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Pool, Type};

use super::Shared;
use crate::{
    CompanyTerm, Result, SuggestFloors, SuggestionTerms, TermCount, rows::count,
    sql::suggest as sql,
};

impl<DB> Shared<DB>
where
    DB: Database,
    for<'c> &'c Pool<DB>: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    (String, i64): for<'r> FromRow<'r, DB::Row>,
    (String, String, i64): for<'r> FromRow<'r, DB::Row>,
{
    /// The terms suggestions complete over (see [`SuggestionTerms`]).
    pub async fn suggestion_terms(
        pool: &Pool<DB>,
        skills: &'static str,
        floors: SuggestFloors,
    ) -> Result<SuggestionTerms> {
        let cap = i64::from(SuggestFloors::CAP);
        let terms = |rows: Vec<(String, i64)>| -> Vec<TermCount> {
            rows.into_iter().map(|(text, n)| TermCount { text, jobs: count(n) }).collect()
        };
        let titles: Vec<(String, i64)> = sqlx::query_as(sql::TITLES)
            .bind(i64::from(floors.title))
            .bind(cap)
            .fetch_all(pool)
            .await?;
        let companies: Vec<(String, String, i64)> = sqlx::query_as(sql::COMPANIES)
            .bind(i64::from(floors.company))
            .bind(cap)
            .fetch_all(pool)
            .await?;
        let skills: Vec<(String, i64)> = sqlx::query_as(skills).bind(cap).fetch_all(pool).await?;
        let categories: Vec<(String, i64)> =
            sqlx::query_as(sql::CATEGORIES).bind(cap).fetch_all(pool).await?;
        Ok(SuggestionTerms {
            titles: terms(titles),
            companies: companies
                .into_iter()
                .map(|(slug, name, n)| CompanyTerm { slug, name, jobs: count(n) })
                .collect(),
            skills: terms(skills),
            categories: terms(categories),
        })
    }
}
