//! Backend-neutral row shapes: the row a batch write sends, and the records a read
//! decodes (`#[derive(sqlx::FromRow)]`, one type for both backends through the [`bind`](crate::bind)
//! types) and parses into domain values. Both adapters use these, so the two schemas cannot
//! drift in what they store. Account rows are in [`accounts`].

use std::{borrow::Cow, collections::HashMap};

use freehire_domain::{
    Category, ClosedReason, CompanySlug, CountryCode, EducationLevel, EmploymentType, EnglishLevel,
    Facets, Job, JobId, JobPosting, Provider, PublicSlug, Region, Salary, SalaryPeriod, Seniority,
    WorkMode,
};

use crate::{
    JobKey, Result, StoreError,
    bind::{Stamp, StoredJson, StoredList},
};

pub(crate) mod accounts;
pub(crate) mod assistant;
pub(crate) mod experience;
// CV documents (issue 16).
pub(crate) mod cvs;
pub(crate) mod letters;
pub(crate) mod notify;
pub(crate) mod plans;
pub(crate) mod saved_searches;
pub(crate) mod tracking;

/// PostgreSQL text cannot hold NUL; some sources emit it. Both backends drop it alike.
fn no_nul(s: &str) -> Cow<'_, str> {
    if s.contains('\0') { Cow::Owned(s.replace('\0', "")) } else { Cow::Borrowed(s) }
}

/// One posting, flattened for a batch write.
#[derive(Debug)]
pub(crate) struct JobRow<'a> {
    pub source: &'a str,
    pub external_id: &'a str,
    pub url: Cow<'a, str>,
    pub public_slug: String,
    pub title: Cow<'a, str>,
    pub company: Cow<'a, str>,
    pub company_slug: String,
    pub company_slug_folded: String,
    pub location: Cow<'a, str>,
    pub remote: bool,
    pub description: Cow<'a, str>,
    pub posted_at: Option<Stamp>,
    pub facets: FacetColumns<'a>,
    pub salary_min: Option<i64>,
    pub salary_max: Option<i64>,
    pub salary_currency: Option<&'a str>,
    pub salary_period: Option<&'static str>,
    pub content_hash: String,
    pub role_fingerprint: &'a str,
    /// The structured values as JSON text.
    pub structured: String,
    pub source_hash: String,
}

/// Hashes a caller computed already, in the postings' order (see
/// [`crate::BoardWrite::content_hashes`]); a missing one is computed from the posting.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Hashes<'a> {
    pub source: &'a [String],
    pub content: &'a [String],
}

impl<'a> crate::BoardWrite<'a> {
    /// The hashes the caller computed for the write's postings.
    pub(crate) fn hashes(&self) -> Hashes<'a> {
        Hashes { source: self.source_hashes, content: self.content_hashes }
    }
}

impl<'a> JobRow<'a> {
    fn new(p: &'a JobPosting, source_hash: Option<&String>, content_hash: Option<&String>) -> Self {
        let company_slug = p.company_slug();
        Self {
            source: p.source.as_str(),
            external_id: &p.external_id,
            url: no_nul(&p.url),
            public_slug: p.public_slug().to_string(),
            title: no_nul(&p.title),
            company: no_nul(&p.company),
            company_slug_folded: company_slug.folded(),
            company_slug: company_slug.to_string(),
            location: no_nul(&p.location),
            remote: p.remote,
            description: no_nul(&p.description),
            posted_at: Stamp::opt(p.posted_at),
            facets: FacetColumns::new(&p.facets),
            salary_min: p.salary.as_ref().and_then(|s| s.min),
            salary_max: p.salary.as_ref().and_then(|s| s.max),
            salary_currency: p.salary.as_ref().map(|s| s.currency.as_str()),
            salary_period: p.salary.as_ref().map(|s| s.period.as_str()),
            content_hash: content_hash.cloned().unwrap_or_else(|| p.content_hash()),
            role_fingerprint: &p.role_fingerprint,
            structured: serde_json::to_string(&p.structured).unwrap_or_else(|_| "{}".to_owned()),
            source_hash: source_hash.cloned().unwrap_or_else(|| p.source_hash()),
        }
    }
}

/// A validated, de-duplicated batch: `rows` holds each key once (its last occurrence);
/// `slot[i]` is the row index of input `i`.
pub(crate) struct Batch<'a> {
    pub rows: Vec<JobRow<'a>>,
    pub slot: Vec<usize>,
}

/// One board's postings and the hashes its caller computed, as one part of a batch.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Part<'a> {
    pub postings: &'a [JobPosting],
    pub hashes: Hashes<'a>,
}

impl<'a> crate::BoardWrite<'a> {
    /// The write's postings as a part of a batch.
    pub(crate) fn part(&self) -> Part<'a> {
        Part { postings: self.postings, hashes: self.hashes() }
    }
}

impl<'a> Batch<'a> {
    /// Validates every posting (one bad posting rejects the batch) and folds repeated keys,
    /// over the parts' postings one after another (`slot` in that order: several boards'
    /// postings are written by one set of statements); each part's hashes are the ones its
    /// caller computed (by position).
    pub fn prepare(parts: &[Part<'a>]) -> Result<Self> {
        let total: usize = parts.iter().map(|p| p.postings.len()).sum();
        let mut index: HashMap<(&str, &str), usize> = HashMap::with_capacity(total);
        let mut rows: Vec<JobRow<'a>> = Vec::with_capacity(total);
        let mut slot = Vec::with_capacity(total);
        for &Part { postings, hashes } in parts {
            for (name, given) in
                [("source_hashes", hashes.source), ("content_hashes", hashes.content)]
            {
                if !given.is_empty() && given.len() != postings.len() {
                    return Err(StoreError::corrupt(
                        name,
                        format!("{} hashes for {} postings", given.len(), postings.len()),
                    ));
                }
            }
            for (i, p) in postings.iter().enumerate() {
                p.validate()?;
                let row = || JobRow::new(p, hashes.source.get(i), hashes.content.get(i));
                let key = (p.source.as_str(), p.external_id.as_str());
                match index.get(&key) {
                    Some(&i) => {
                        rows[i] = row();
                        slot.push(i);
                    }
                    None => {
                        index.insert(key, rows.len());
                        slot.push(rows.len());
                        rows.push(row());
                    }
                }
            }
        }
        Ok(Self { rows, slot })
    }
}

/// A job row as read (the columns of `JOB_COLUMNS`), before vocabulary parsing.
#[derive(sqlx::FromRow)]
pub(crate) struct JobRecord {
    id: i64,
    source: String,
    external_id: String,
    url: String,
    public_slug: String,
    title: String,
    company: String,
    company_slug: String,
    location: String,
    remote: bool,
    description: String,
    posted_at: Option<Stamp>,
    created_at: Stamp,
    updated_at: Stamp,
    last_seen_at: Stamp,
    closed_at: Option<Stamp>,
    closed_reason: Option<String>,
    countries: StoredList,
    regions: StoredList,
    cities: StoredList,
    work_mode: Option<String>,
    seniority: Option<String>,
    category: Option<String>,
    is_tech: Option<bool>,
    skills: StoredList,
    employment_type: Option<String>,
    education_level: Option<String>,
    english_level: Option<String>,
    experience_years_min: Option<i32>,
    requires_clearance: Option<bool>,
    posting_language: Option<String>,
    #[sqlx(rename = "salary_min_source")]
    salary_min: Option<i64>,
    #[sqlx(rename = "salary_max_source")]
    salary_max: Option<i64>,
    #[sqlx(rename = "salary_currency_source")]
    salary_currency: Option<String>,
    #[sqlx(rename = "salary_period_source")]
    salary_period: Option<String>,
    content_hash: String,
    role_fingerprint: String,
    duplicate_of: Option<i64>,
    structured: StoredJson,
}

fn vocab<T>(
    column: &'static str,
    value: Option<String>,
    parse: impl Fn(&str) -> Result<T, freehire_domain::DomainError>,
) -> Result<Option<T>> {
    value.map(|v| parse(&v).map_err(|e| StoreError::corrupt(column, e))).transpose()
}

impl JobRecord {
    /// Parses the stored values back into a [`Job`].
    pub fn into_job(self) -> Result<Job> {
        let id = JobId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?;
        let source = Provider::parse(&self.source).map_err(|e| StoreError::corrupt("source", e))?;
        let public_slug = PublicSlug::parse(&self.public_slug)
            .map_err(|e| StoreError::corrupt("public_slug", e))?;
        let company_slug = CompanySlug::parse(&self.company_slug)
            .map_err(|e| StoreError::corrupt("company_slug", e))?;
        let countries = self
            .countries
            .parse("countries")?
            .iter()
            .map(|c| CountryCode::parse(c).map_err(|e| StoreError::corrupt("countries", e)))
            .collect::<Result<Vec<_>>>()?;
        let regions = self
            .regions
            .parse("regions")?
            .iter()
            .map(|r| Region::parse(r).map_err(|e| StoreError::corrupt("regions", e)))
            .collect::<Result<Vec<_>>>()?;
        let salary = match (
            vocab("salary_period_source", self.salary_period, SalaryPeriod::parse)?,
            self.salary_currency,
        ) {
            (Some(period), Some(currency)) => {
                Some(Salary { min: self.salary_min, max: self.salary_max, currency, period })
            }
            _ => None,
        };
        let facets = Facets {
            countries,
            regions,
            cities: self.cities.parse("cities")?,
            work_mode: vocab("work_mode", self.work_mode, WorkMode::parse)?,
            seniority: vocab("seniority", self.seniority, Seniority::parse)?,
            category: vocab("category", self.category, Category::parse)?,
            is_tech: self.is_tech,
            skills: self.skills.parse("skills")?,
            employment_type: vocab("employment_type", self.employment_type, EmploymentType::parse)?,
            education_level: vocab("education_level", self.education_level, EducationLevel::parse)?,
            english_level: vocab("english_level", self.english_level, EnglishLevel::parse)?,
            experience_years_min: self.experience_years_min,
            requires_clearance: self.requires_clearance,
            posting_language: self.posting_language,
        };
        Ok(Job {
            id,
            public_slug,
            company_slug,
            posting: JobPosting {
                source,
                external_id: self.external_id,
                url: self.url,
                title: self.title,
                company: self.company,
                location: self.location,
                description: self.description,
                remote: self.remote,
                posted_at: self.posted_at.map(Into::into),
                facets,
                salary,
                role_fingerprint: self.role_fingerprint,
                structured: self.structured.parse("structured")?,
            },
            content_hash: self.content_hash,
            created_at: self.created_at.into(),
            updated_at: self.updated_at.into(),
            last_seen_at: self.last_seen_at.into(),
            closed_at: self.closed_at.map(Into::into),
            closed_reason: vocab("closed_reason", self.closed_reason, ClosedReason::parse)?,
            duplicate_of: self
                .duplicate_of
                .map(|d| JobId::new(d).map_err(|e| StoreError::corrupt("duplicate_of", e)))
                .transpose()?,
        })
    }
}

/// A stored job id; one that is not positive is corrupt.
pub(crate) fn job_id(id: i64) -> Result<JobId> {
    JobId::new(id).map_err(|e| StoreError::corrupt("id", e))
}

/// Parses job records read in one statement.
pub(crate) fn jobs(records: Vec<JobRecord>) -> Result<Vec<Job>> {
    records.into_iter().map(JobRecord::into_job).collect()
}

/// A SQL `count(*)` as an unsigned total.
pub(crate) fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or_default()
}

/// Keys of a batch as two parallel arrays (for `UNNEST` / JSON pairs).
pub(crate) fn key_columns(keys: &[JobKey]) -> (Vec<&str>, Vec<&str>) {
    keys.iter().map(|k| (k.source.as_str(), k.external_id.as_str())).unzip()
}

/// A board row as read (the columns of `BOARD_COLUMNS`).
#[derive(sqlx::FromRow)]
pub(crate) struct BoardRecord {
    id: i64,
    provider: String,
    board: String,
    region: String,
    company: String,
    url: Option<String>,
    status: String,
    rejected_reason: Option<String>,
    created_at: Stamp,
    activated_at: Option<Stamp>,
}

fn board_key(provider: &str, board: &str, region: &str) -> Result<freehire_domain::BoardKey> {
    let provider = Provider::parse(provider).map_err(|e| StoreError::corrupt("provider", e))?;
    freehire_domain::BoardKey::new(provider, board, region)
        .map_err(|e| StoreError::corrupt("board", e))
}

impl BoardRecord {
    pub fn into_board(self) -> Result<freehire_domain::Board> {
        Ok(freehire_domain::Board {
            id: freehire_domain::BoardId::new(self.id).map_err(|e| StoreError::corrupt("id", e))?,
            key: board_key(&self.provider, &self.board, &self.region)?,
            company: self.company,
            url: self.url,
            status: freehire_domain::BoardStatus::parse(&self.status)
                .map_err(|e| StoreError::corrupt("status", e))?,
            rejected_reason: self.rejected_reason,
            created_at: self.created_at.into(),
            activated_at: self.activated_at.map(Into::into),
        })
    }
}

/// A failing board as [`sql::boards::FAILING`](crate::sql::boards::FAILING) reads it.
#[derive(sqlx::FromRow)]
pub(crate) struct FailingRecord {
    listed_board: String,
    company: String,
    #[sqlx(flatten)]
    health: HealthRecord,
}

impl FailingRecord {
    pub fn into_failing(self) -> Result<crate::FailingBoard> {
        Ok(crate::FailingBoard {
            board: self.listed_board,
            company: self.company,
            health: self.health.into_health()?,
        })
    }
}

/// A board-health row as read (the columns of `HEALTH_COLUMNS`).
#[derive(sqlx::FromRow)]
pub(crate) struct HealthRecord {
    provider: String,
    board: String,
    region: String,
    consecutive_failures: i32,
    cooldown_until: Option<Stamp>,
    last_error: Option<String>,
    last_error_at: Option<Stamp>,
    last_success_at: Option<Stamp>,
    last_ingested_count: i64,
    last_run_at: Option<Stamp>,
    first_seen_at: Stamp,
    last_yield_at: Option<Stamp>,
    last_error_class: Option<String>,
}

impl HealthRecord {
    pub fn into_health(self) -> Result<freehire_domain::BoardHealth> {
        Ok(freehire_domain::BoardHealth {
            key: board_key(&self.provider, &self.board, &self.region)?,
            consecutive_failures: u32::try_from(self.consecutive_failures)
                .map_err(|e| StoreError::corrupt("consecutive_failures", e))?,
            cooldown_until: self.cooldown_until.map(Into::into),
            last_error: self.last_error,
            last_error_class: self
                .last_error_class
                .as_deref()
                .map(freehire_domain::FailureClass::parse)
                .transpose()
                .map_err(|e| StoreError::corrupt("last_error_class", e))?,
            last_error_at: self.last_error_at.map(Into::into),
            last_success_at: self.last_success_at.map(Into::into),
            last_ingested_count: self.last_ingested_count,
            last_run_at: self.last_run_at.map(Into::into),
            first_seen_at: self.first_seen_at.into(),
            last_yield_at: self.last_yield_at.map(Into::into),
        })
    }
}

/// Facet columns of one row, flattened for binding (per row on SQLite, per column on PostgreSQL).
#[derive(Debug)]
pub(crate) struct FacetColumns<'a> {
    pub countries: Vec<&'a str>,
    pub regions: Vec<&'static str>,
    pub cities: &'a [String],
    pub work_mode: Option<&'static str>,
    pub seniority: Option<&'static str>,
    pub category: Option<&'static str>,
    pub is_tech: Option<bool>,
    pub skills: &'a [String],
    pub employment_type: Option<&'static str>,
    pub education_level: Option<&'static str>,
    pub english_level: Option<&'static str>,
    pub experience_years_min: Option<i32>,
    pub requires_clearance: Option<bool>,
    pub posting_language: Option<&'a str>,
}

impl<'a> FacetColumns<'a> {
    pub fn new(f: &'a Facets) -> Self {
        Self {
            countries: f.countries.iter().map(CountryCode::as_str).collect(),
            regions: f.regions.iter().map(|r| r.as_str()).collect(),
            cities: &f.cities,
            work_mode: f.work_mode.map(WorkMode::as_str),
            seniority: f.seniority.map(Seniority::as_str),
            category: f.category.map(Category::as_str),
            is_tech: f.is_tech,
            skills: &f.skills,
            employment_type: f.employment_type.map(EmploymentType::as_str),
            education_level: f.education_level.map(EducationLevel::as_str),
            english_level: f.english_level.map(EnglishLevel::as_str),
            experience_years_min: f.experience_years_min,
            requires_clearance: f.requires_clearance,
            posting_language: f.posting_language.as_deref(),
        }
    }
}
