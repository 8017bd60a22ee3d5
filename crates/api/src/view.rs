//! Wire shapes: the job as clients see it (reference §6.5) and the list/single envelopes.
//!
//! Jobs are addressed by `public_slug`; the internal id never appears. Optional facets are
//! omitted when unknown; `requires_clearance` appears only when true; `posted_at` is the
//! effective posted date (first-seen date when the source's is missing or implausible).

use chrono::{DateTime, Utc};
use freehire_domain::{
    Category, ClosedReason, CountryCode, EducationLevel, EmploymentType, EnglishLevel, Job, Region,
    SalaryPeriod, Seniority, TechFlag, WorkMode,
};
use serde::Serialize;

/// A job on the wire.
#[derive(Debug, Clone, Serialize)]
pub struct JobView {
    pub public_slug: String,
    pub title: String,
    pub company: String,
    pub company_slug: String,
    pub url: String,
    pub source: String,
    pub external_id: String,
    pub manually_added: bool,
    pub location: String,
    pub remote: bool,
    pub description: String,
    pub regions: Vec<Region>,
    pub countries: Vec<CountryCode>,
    pub cities: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<WorkMode>,
    pub skills: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_tech: Option<TechFlag>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires_clearance: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seniority: Option<Seniority>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<Category>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub employment_type: Option<EmploymentType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub education_level: Option<EducationLevel>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub english_level: Option<EnglishLevel>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experience_years_min: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub posting_language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salary: Option<SalaryView>,
    pub posted_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_reason: Option<ClosedReason>,
}

/// A salary range on the wire.
#[derive(Debug, Clone, Serialize)]
pub struct SalaryView {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub currency: String,
    pub period: SalaryPeriod,
}

impl JobView {
    /// The wire form of a stored job, its posted date made effective at `now`.
    pub fn new(job: &Job, now: DateTime<Utc>) -> Self {
        let p = &job.posting;
        let f = &p.facets;
        Self {
            public_slug: job.public_slug.to_string(),
            title: p.title.clone(),
            company: p.company.clone(),
            company_slug: job.company_slug.to_string(),
            url: p.url.clone(),
            source: p.source.to_string(),
            external_id: p.external_id.clone(),
            manually_added: p.source.is_manual(),
            location: p.location.clone(),
            remote: p.remote,
            description: p.description.clone(),
            regions: f.regions.clone(),
            countries: f.countries.clone(),
            cities: f.cities.clone(),
            work_mode: f.work_mode,
            skills: f.skills.clone(),
            is_tech: TechFlag::from_bool(f.is_tech),
            requires_clearance: f.requires_clearance.filter(|&c| c),
            seniority: f.seniority,
            category: f.category,
            employment_type: f.employment_type,
            education_level: f.education_level,
            english_level: f.english_level,
            experience_years_min: f.experience_years_min,
            posting_language: f.posting_language.clone(),
            salary: p.salary.as_ref().map(|s| SalaryView {
                min: s.min,
                max: s.max,
                currency: s.currency.clone(),
                period: s.period,
            }),
            posted_at: job.effective_posted_at(now),
            created_at: job.created_at,
            updated_at: job.updated_at,
            last_seen_at: job.last_seen_at,
            closed_at: job.closed_at,
            closed_reason: job.closed_reason,
        }
    }
}

/// `{"data": [...], "meta": {...}}`.
#[derive(Debug, Serialize)]
pub struct ListEnvelope<T> {
    pub data: Vec<T>,
    pub meta: ListMeta,
}

/// List metadata.
#[derive(Debug, Serialize)]
pub struct ListMeta {
    pub total: u64,
    pub limit: u32,
    pub offset: u64,
}

/// `{"data": {...}}`.
#[derive(Debug, Serialize)]
pub struct Single<T> {
    pub data: T,
}
