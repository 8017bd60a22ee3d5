//! A batch upsert's rows as column arrays: one PostgreSQL array parameter per column, read
//! back into rows with a multi-argument `UNNEST`.
//!
//! Arrays travel in the binary protocol, so the server copies each value out of the message
//! as it is. A single `jsonb` document of the same rows costs the server a JSON parse with
//! string unescaping and a walk per row (about 30 µs per posting with a 4 KB description,
//! which was most of a first crawl's upsert). The list columns (countries, regions, cities,
//! skills), which an `UNNEST` cannot carry as arrays of arrays, go as array literals
//! ([`array_literal`]) cast back per row.

use chrono::{DateTime, Utc};

use crate::{bind::List, rows::JobRow};

/// The upsert statement, answering each written row's id and key.
pub(super) type UpsertQuery<'q> =
    sqlx::query::QueryAs<'q, sqlx::Postgres, (i64, String, String), sqlx::postgres::PgArguments>;

/// The upsert's rows, column by column, in the rows' order.
pub(super) struct UpsertColumns<'r> {
    source: Vec<&'r str>,
    external_id: Vec<&'r str>,
    url: Vec<&'r str>,
    public_slug: Vec<&'r str>,
    title: Vec<&'r str>,
    company: Vec<&'r str>,
    company_slug: Vec<&'r str>,
    company_slug_folded: Vec<&'r str>,
    location: Vec<&'r str>,
    remote: Vec<bool>,
    description: Vec<&'r str>,
    posted_at: Vec<Option<DateTime<Utc>>>,
    countries: Vec<String>,
    regions: Vec<String>,
    cities: Vec<String>,
    work_mode: Vec<Option<&'r str>>,
    seniority: Vec<Option<&'r str>>,
    category: Vec<Option<&'r str>>,
    is_tech: Vec<Option<bool>>,
    skills: Vec<String>,
    employment_type: Vec<Option<&'r str>>,
    education_level: Vec<Option<&'r str>>,
    english_level: Vec<Option<&'r str>>,
    experience_years_min: Vec<Option<i32>>,
    requires_clearance: Vec<Option<bool>>,
    posting_language: Vec<Option<&'r str>>,
    salary_min: Vec<Option<i64>>,
    salary_max: Vec<Option<i64>>,
    salary_currency: Vec<Option<&'r str>>,
    salary_period: Vec<Option<&'r str>>,
    content_hash: Vec<&'r str>,
    role_fingerprint: Vec<&'r str>,
    structured: Vec<&'r str>,
    source_hash: Vec<&'r str>,
}

/// The `FROM` item that reads the columns back as rows `r`, parameters `$1` to `$34` in the
/// order [`UpsertColumns::bind`] binds them. The list columns arrive as array literals
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

impl<'r> UpsertColumns<'r> {
    /// Splits the rows into columns.
    pub fn new(rows: &[&'r JobRow<'_>]) -> Self {
        fn col<'r, T>(rows: &[&'r JobRow<'_>], f: impl Fn(&'r JobRow<'_>) -> T) -> Vec<T> {
            rows.iter().map(|r| f(r)).collect()
        }
        Self {
            source: col(rows, |r| r.source),
            external_id: col(rows, |r| r.external_id),
            url: col(rows, |r| r.url.as_ref()),
            public_slug: col(rows, |r| r.public_slug.as_str()),
            title: col(rows, |r| r.title.as_ref()),
            company: col(rows, |r| r.company.as_ref()),
            company_slug: col(rows, |r| r.company_slug.as_str()),
            company_slug_folded: col(rows, |r| r.company_slug_folded.as_str()),
            location: col(rows, |r| r.location.as_ref()),
            remote: col(rows, |r| r.remote),
            description: col(rows, |r| r.description.as_ref()),
            posted_at: col(rows, |r| r.posted_at.map(|s| s.0)),
            countries: col(rows, |r| array_literal(&r.facets.countries)),
            regions: col(rows, |r| array_literal(&r.facets.regions)),
            cities: col(rows, |r| array_literal(r.facets.cities)),
            work_mode: col(rows, |r| r.facets.work_mode),
            seniority: col(rows, |r| r.facets.seniority),
            category: col(rows, |r| r.facets.category),
            is_tech: col(rows, |r| r.facets.is_tech),
            skills: col(rows, |r| array_literal(r.facets.skills)),
            employment_type: col(rows, |r| r.facets.employment_type),
            education_level: col(rows, |r| r.facets.education_level),
            english_level: col(rows, |r| r.facets.english_level),
            experience_years_min: col(rows, |r| r.facets.experience_years_min),
            requires_clearance: col(rows, |r| r.facets.requires_clearance),
            posting_language: col(rows, |r| r.facets.posting_language),
            salary_min: col(rows, |r| r.salary_min),
            salary_max: col(rows, |r| r.salary_max),
            salary_currency: col(rows, |r| r.salary_currency),
            salary_period: col(rows, |r| r.salary_period),
            content_hash: col(rows, |r| r.content_hash.as_str()),
            role_fingerprint: col(rows, |r| r.role_fingerprint),
            structured: col(rows, |r| r.structured.as_str()),
            source_hash: col(rows, |r| r.source_hash.as_str()),
        }
    }

    /// Binds the columns as `$1` to `$34` of [`upsert_rows`].
    pub fn bind<'q>(&'q self, q: UpsertQuery<'q>) -> UpsertQuery<'q> {
        q.bind(List(&self.source))
            .bind(List(&self.external_id))
            .bind(List(&self.url))
            .bind(List(&self.public_slug))
            .bind(List(&self.title))
            .bind(List(&self.company))
            .bind(List(&self.company_slug))
            .bind(List(&self.company_slug_folded))
            .bind(List(&self.location))
            .bind(List(&self.remote))
            .bind(List(&self.description))
            .bind(List(&self.posted_at))
            .bind(List(&self.countries))
            .bind(List(&self.regions))
            .bind(List(&self.cities))
            .bind(List(&self.work_mode))
            .bind(List(&self.seniority))
            .bind(List(&self.category))
            .bind(List(&self.is_tech))
            .bind(List(&self.skills))
            .bind(List(&self.employment_type))
            .bind(List(&self.education_level))
            .bind(List(&self.english_level))
            .bind(List(&self.experience_years_min))
            .bind(List(&self.requires_clearance))
            .bind(List(&self.posting_language))
            .bind(List(&self.salary_min))
            .bind(List(&self.salary_max))
            .bind(List(&self.salary_currency))
            .bind(List(&self.salary_period))
            .bind(List(&self.content_hash))
            .bind(List(&self.role_fingerprint))
            .bind(List(&self.structured))
            .bind(List(&self.source_hash))
    }
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
