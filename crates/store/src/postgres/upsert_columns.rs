//! A batch upsert's rows as column arrays: one PostgreSQL array parameter per column, read
//! back into rows with a multi-argument `UNNEST`.
//!
//! Arrays travel in the binary protocol, so the server copies each value out of the message
//! as it is. A single `jsonb` document of the same rows costs the server a JSON parse with
//! string unescaping and a walk per row (about 30 µs per posting with a 4 KB description,
//! which was most of a first crawl's upsert). The list columns (countries, regions, cities,
//! skills), which an `UNNEST` cannot carry as arrays of arrays, go as array literals
//! ([`array_literal`]) cast back per row.

use crate::rows::JobRow;

/// The `FROM` item that reads the columns back as rows `r`, parameters `$1` to `$34` in the
/// order [`bind_rows`] binds them. The list columns arrive as array literals
/// (`text`), `structured` as JSON text.
macro_rules! upsert_rows {
    () => {
        "UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], \
           $7::text[], $8::text[], $9::text[], $10::boolean[], $11::text[], \
           $12::timestamptz[], $13::text[], $14::text[], $15::text[], $16::text[], \
           $17::text[], $18::text[], $19::boolean[], $20::text[], $21::text[], $22::text[], \
           $23::text[], $24::integer[], $25::boolean[], $26::text[], $27::bigint[], \
           $28::bigint[], $29::text[], $30::text[], $31::text[], $32::text[], $33::text[], \
           $34::text[]) \
         AS r(source, external_id, url, public_slug, title, company, company_slug, \
           company_slug_folded, location, remote, description, posted_at, countries, regions, \
           cities, work_mode, seniority, category, is_tech, skills, employment_type, \
           education_level, english_level, experience_years_min, requires_clearance, \
           posting_language, salary_min, salary_max, salary_currency, salary_period, \
           content_hash, role_fingerprint, structured, source_hash)"
    };
}
pub(super) use upsert_rows;

/// The upsert statement, answering each written row's id and key.
pub(super) type UpsertQuery<'q> =
    sqlx::query::QueryAs<'q, sqlx::Postgres, (i64, String, String), sqlx::postgres::PgArguments>;

/// Binds `rows` column by column, in the rows' order, as `$1` to `$34` of [`upsert_rows`].
pub(super) fn bind_rows<'q>(q: UpsertQuery<'q>, rows: &[&'q JobRow<'_>]) -> UpsertQuery<'q> {
    fn col<'q, T>(rows: &[&'q JobRow<'_>], f: impl Fn(&'q JobRow<'_>) -> T) -> Vec<T> {
        rows.iter().map(|r| f(r)).collect()
    }
    q.bind(col(rows, |r| r.source))
        .bind(col(rows, |r| r.external_id))
        .bind(col(rows, |r| r.url.as_ref()))
        .bind(col(rows, |r| r.public_slug.as_str()))
        .bind(col(rows, |r| r.title.as_ref()))
        .bind(col(rows, |r| r.company.as_ref()))
        .bind(col(rows, |r| r.company_slug.as_str()))
        .bind(col(rows, |r| r.company_slug_folded.as_str()))
        .bind(col(rows, |r| r.location.as_ref()))
        .bind(col(rows, |r| r.remote))
        .bind(col(rows, |r| r.description.as_ref()))
        .bind(col(rows, |r| r.posted_at.map(|s| s.0)))
        .bind(col(rows, |r| array_literal(&r.facets.countries)))
        .bind(col(rows, |r| array_literal(&r.facets.regions)))
        .bind(col(rows, |r| array_literal(r.facets.cities)))
        .bind(col(rows, |r| r.facets.work_mode))
        .bind(col(rows, |r| r.facets.seniority))
        .bind(col(rows, |r| r.facets.category))
        .bind(col(rows, |r| r.facets.is_tech))
        .bind(col(rows, |r| array_literal(r.facets.skills)))
        .bind(col(rows, |r| r.facets.employment_type))
        .bind(col(rows, |r| r.facets.education_level))
        .bind(col(rows, |r| r.facets.english_level))
        .bind(col(rows, |r| r.facets.experience_years_min))
        .bind(col(rows, |r| r.facets.requires_clearance))
        .bind(col(rows, |r| r.facets.posting_language))
        .bind(col(rows, |r| r.salary_min))
        .bind(col(rows, |r| r.salary_max))
        .bind(col(rows, |r| r.salary_currency))
        .bind(col(rows, |r| r.salary_period))
        .bind(col(rows, |r| r.content_hash.as_str()))
        .bind(col(rows, |r| r.role_fingerprint))
        .bind(col(rows, |r| r.structured.as_str()))
        .bind(col(rows, |r| r.source_hash.as_str()))
}

/// A PostgreSQL array literal of `values` (`{"a","b \"c\""}`), every element quoted, so that
/// any text (commas, braces, quotes, backslashes, spaces, the word `NULL`) reads back as it
/// was.
pub(super) fn array_literal<S: AsRef<str>>(values: &[S]) -> String {
    let mut out =
        String::with_capacity(2 + values.iter().map(|v| v.as_ref().len() + 3).sum::<usize>());
    out.push('{');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        for c in v.as_ref().chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::array_literal;

    #[test]
    fn an_array_literal_quotes_every_element() {
        assert_eq!(array_literal::<&str>(&[]), "{}");
        assert_eq!(
            array_literal(&["a", "NULL", "b,c", r#"d"e\f"#, "", "{g}"]),
            r#"{"a","NULL","b,c","d\"e\\f","","{g}"}"#
        );
    }
}
