//! Companies derived from the catalogue, the backend-neutral half: the rows both adapters read
//! when they recompute a stale company (one summary per company, its names, its facet values
//! with job counts) and how they become [`Company`] values; the rows of the companies table
//! and of the alias registry (migration 0025). Each adapter's `companies.rs` holds its [`CompanySql`] (the statements
//! the dialects agree on are in `sql::jobs`); the reads are `Shared`'s.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use freehire_domain::{
    AliasReason, CompanySlug, CountryCode, DomainError, Provider, Region, WorkMode,
};

use crate::{
    Company, CompanyAlias, Result, StoreError,
    bind::{Stamp, StoredList},
};

/// Kinds of value a company aggregates, as the value query labels them.
pub(crate) const REGIONS: &str = "regions";
pub(crate) const COUNTRIES: &str = "countries";
pub(crate) const WORK_MODE: &str = "work_mode";
pub(crate) const SKILLS: &str = "skills";
pub(crate) const SOURCE: &str = "source";

/// The company statements of one dialect (they differ in list parameters, substring search
/// and collation).
pub(crate) struct CompanySql {
    /// One page of the companies table, most open jobs first, then by slug (bytewise on both
    /// backends). `$1` is the slug fragment (NULL = every company); `$2`..`$6` the lists of
    /// regions, countries, work modes, sources and skills (empty = no filter; OR within a
    /// list, AND across lists); `$7` and `$8` limit and offset.
    pub page: &'static str,
    /// How many companies match `$1`..`$6`.
    pub count: &'static str,
    /// Open, non-duplicate jobs per company of the slugs `$1` (companies without one are
    /// absent).
    pub summaries: &'static str,
    /// Names per company of the slugs `$1`; `$2` is `now` for the effective posted date (the
    /// source's date unless missing, in the future or before 2000).
    pub names: &'static str,
    /// Value counts per company of the slugs `$1` for every aggregated kind.
    pub values: &'static str,
    /// Deletes the companies of the slugs `$1`.
    pub remove: &'static str,
    /// Deletes the stale marks of the ids `$1`.
    pub ack: &'static str,
    /// The companies of the slugs `$1`.
    pub by_slugs: &'static str,
    /// Deletes the companies index marks of the ids `$1`.
    pub ack_index: &'static str,
}

/// A row of the companies table.
#[derive(sqlx::FromRow)]
pub(crate) struct CompanyRecord {
    slug: String,
    name: String,
    job_count: i64,
    #[sqlx(try_from = "Stamp")]
    latest_posted_at: DateTime<Utc>,
    regions: StoredList,
    countries: StoredList,
    work_modes: StoredList,
    top_skills: StoredList,
    sources: StoredList,
}

impl CompanyRecord {
    pub(crate) fn into_company(self) -> Result<Company> {
        Ok(Company {
            slug: CompanySlug::parse(&self.slug).map_err(|e| corrupt("slug", e))?,
            name: self.name,
            job_count: u64::try_from(self.job_count).unwrap_or_default(),
            latest_posted_at: self.latest_posted_at,
            regions: parse_all(self.regions.parse("regions")?, "regions", Region::parse)?,
            countries: parse_all(self.countries.parse("countries")?, "countries", |c| {
                CountryCode::parse(c)
            })?,
            work_modes: parse_all(
                self.work_modes.parse("work_modes")?,
                "work_modes",
                WorkMode::parse,
            )?,
            top_skills: self.top_skills.parse("top_skills")?,
            sources: parse_all(self.sources.parse("sources")?, "sources", Provider::parse)?,
        })
    }
}

/// A row of the alias registry.
#[derive(sqlx::FromRow)]
pub(crate) struct AliasRecord {
    alias_slug: String,
    canonical_slug: String,
    folded_key: String,
    reason: String,
    #[sqlx(try_from = "Stamp")]
    created_at: DateTime<Utc>,
}

impl AliasRecord {
    pub(crate) fn into_alias(self) -> Result<CompanyAlias> {
        Ok(CompanyAlias {
            alias: CompanySlug::parse(&self.alias_slug).map_err(|e| corrupt("alias_slug", e))?,
            canonical: CompanySlug::parse(&self.canonical_slug)
                .map_err(|e| corrupt("canonical_slug", e))?,
            folded_key: self.folded_key,
            reason: AliasReason::parse(&self.reason).map_err(|e| corrupt("reason", e))?,
            created_at: self.created_at,
        })
    }
}

/// One company's open-job count (the page query reads only the company index).
#[derive(sqlx::FromRow)]
pub(crate) struct Summary {
    #[sqlx(rename = "company_slug")]
    pub slug: String,
    pub job_count: i64,
}

/// How many open jobs of a company carry one spelling of its name, the newest first-seen date
/// and the newest effective posted date among them.
#[derive(sqlx::FromRow)]
pub(crate) struct NameRow {
    #[sqlx(rename = "company_slug")]
    pub slug: String,
    #[sqlx(rename = "company")]
    pub name: String,
    pub jobs: i64,
    #[sqlx(try_from = "Stamp")]
    pub newest: DateTime<Utc>,
    #[sqlx(try_from = "Stamp")]
    pub latest_posted_at: DateTime<Utc>,
}

/// How many open jobs of a company carry one value of one kind.
#[derive(sqlx::FromRow)]
pub(crate) struct ValueRow {
    #[sqlx(rename = "company_slug")]
    pub slug: String,
    pub kind: String,
    pub value: String,
    pub jobs: i64,
}

/// Builds the companies of `summaries` (in their order) from their names and values. A company
/// without any name row lost its last open job between the reads and is left out.
pub(crate) fn assemble(
    summaries: Vec<Summary>,
    names: Vec<NameRow>,
    values: Vec<ValueRow>,
) -> Result<Vec<Company>> {
    // The display name: a spelling of the slug itself before one merged into it (after a
    // merge `Initech` jobs live under `globex`), then most jobs, then the newest job, then
    // the smallest spelling.
    let own = |row: &NameRow| freehire_domain::company_slug(&row.name) == row.slug;
    let mut best: HashMap<String, NameRow> = HashMap::new();
    let mut latest: HashMap<String, DateTime<Utc>> = HashMap::new();
    for row in names {
        let at = latest.entry(row.slug.clone()).or_insert(row.latest_posted_at);
        *at = (*at).max(row.latest_posted_at);
        let better = match best.get(&row.slug) {
            None => true,
            Some(b) => (own(&row), row.jobs, row.newest, std::cmp::Reverse(&b.name))
                .cmp(&(own(b), b.jobs, b.newest, std::cmp::Reverse(&row.name)))
                .is_gt(),
        };
        if better {
            best.insert(row.slug.clone(), row);
        }
    }
    let mut grouped: HashMap<(String, String), Vec<(String, i64)>> = HashMap::new();
    for row in values {
        grouped.entry((row.slug, row.kind)).or_default().push((row.value, row.jobs));
    }
    let mut ranked = |slug: &str, kind: &str| -> Vec<String> {
        let mut list = grouped.remove(&(slug.to_owned(), kind.to_owned())).unwrap_or_default();
        list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        list.into_iter().map(|(value, _)| value).collect()
    };
    summaries
        .into_iter()
        .filter_map(|s| Some((best.remove(&s.slug)?.name, latest.remove(&s.slug)?, s)))
        .map(|(name, latest_posted_at, s)| {
            let slug = CompanySlug::parse(&s.slug).map_err(|e| corrupt("company_slug", e))?;
            let mut top_skills = ranked(&s.slug, SKILLS);
            top_skills.truncate(Company::TOP_SKILLS);
            Ok(Company {
                name,
                job_count: u64::try_from(s.job_count).unwrap_or_default(),
                latest_posted_at,
                regions: parse_all(ranked(&s.slug, REGIONS), "regions", Region::parse)?,
                countries: parse_all(ranked(&s.slug, COUNTRIES), "countries", |c| {
                    CountryCode::parse(c)
                })?,
                work_modes: parse_all(ranked(&s.slug, WORK_MODE), "work_mode", WorkMode::parse)?,
                top_skills,
                sources: parse_all(ranked(&s.slug, SOURCE), "source", Provider::parse)?,
                slug,
            })
        })
        .collect()
}

fn parse_all<T>(
    values: Vec<String>,
    column: &'static str,
    parse: impl Fn(&str) -> Result<T, DomainError>,
) -> Result<Vec<T>> {
    values.iter().map(|v| parse(v).map_err(|e| corrupt(column, e))).collect()
}

fn corrupt(column: &'static str, e: DomainError) -> StoreError {
    StoreError::corrupt(column, e)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::TimeZone;

    use super::*;

    fn day(d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, d, 0, 0, 0).unwrap()
    }

    fn name(slug: &str, name: &str, jobs: i64, newest: u32) -> NameRow {
        let (newest, latest_posted_at) = (day(newest), day(newest + 1));
        NameRow { slug: slug.into(), name: name.into(), jobs, newest, latest_posted_at }
    }

    fn value(kind: &str, value: &str, jobs: i64) -> ValueRow {
        ValueRow { slug: "acme".into(), kind: kind.into(), value: value.into(), jobs }
    }

    #[test]
    fn names_and_values_are_ranked_by_jobs() {
        let summary = Summary { slug: "acme".into(), job_count: 5 };
        let names = vec![
            name("acme", "ACME", 2, 9),
            name("acme", "Acme Inc.", 3, 1),
            name("acme", "Acme", 3, 5),
        ];
        let mut values = vec![
            value(COUNTRIES, "us", 1),
            value(COUNTRIES, "de", 4),
            value(COUNTRIES, "at", 1),
            value(WORK_MODE, "remote", 2),
            value(SOURCE, "greenhouse", 5),
        ];
        values.extend((0..12).map(|i| value(SKILLS, &format!("s{i:02}"), 12 - i)));
        let companies = assemble(vec![summary], names, values).unwrap();
        let c = &companies[0];
        assert_eq!(c.name, "Acme", "most jobs, then the newest job");
        assert_eq!(c.job_count, 5);
        assert_eq!(c.latest_posted_at, day(10), "the newest over every spelling");
        let countries: Vec<&str> = c.countries.iter().map(|c| c.as_str()).collect();
        assert_eq!(countries, ["de", "at", "us"], "by jobs, ties by value");
        assert_eq!(c.work_modes, [WorkMode::Remote]);
        assert_eq!(c.top_skills.len(), Company::TOP_SKILLS);
        assert_eq!(c.top_skills[0], "s00");
        assert!(c.regions.is_empty());
    }

    #[test]
    fn a_stored_value_that_no_longer_parses_is_corrupt() {
        let summary = || Summary { slug: "acme".into(), job_count: 1 };
        let names = || vec![name("acme", "Acme", 1, 1)];
        let err = assemble(vec![summary()], names(), vec![value(WORK_MODE, "office", 1)]);
        assert!(matches!(err, Err(StoreError::Corrupt { column: "work_mode", .. })));
        let gone = assemble(vec![summary()], vec![], vec![]).unwrap();
        assert!(gone.is_empty(), "a company whose jobs vanished between the reads is left out");
    }
}
