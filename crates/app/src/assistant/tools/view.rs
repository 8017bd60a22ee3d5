//! The JSON shapes the assistant's tools return: the job (its public fields, addressed by
//! `public_slug`, description as markdown), the company, the tracking card and a job's
//! tracking state. They follow the public wire shapes of the JSON API, minus what the model
//! must not use: internal ids never appear, and neither do posting URLs (the prompt shows
//! vacancies only through `present_jobs` cards, never as links).

use chrono::{DateTime, Utc};
use freehire_domain::{Job, Stage, TechFlag};
use freehire_store::{Card, Company, Track};
use serde::Serialize;

/// A job as the model reads it.
#[derive(Debug, Clone, Serialize)]
pub struct JobView {
    /// The job's address: copy it verbatim into `present_jobs` and the tracking tools.
    pub public_slug: String,
    pub title: String,
    pub company: String,
    pub company_slug: String,
    pub location: String,
    pub remote: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_mode: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seniority: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub employment_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_tech: Option<&'static str>,
    pub skills: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub countries: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cities: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experience_years_min: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub english_level: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salary: Option<SalaryView>,
    /// The effective posted date.
    pub posted_at: DateTime<Utc>,
    /// When it closed; absent while open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed_at: Option<DateTime<Utc>>,
    /// The description (markdown); absent in summaries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A salary range.
#[derive(Debug, Clone, Serialize)]
pub struct SalaryView {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub currency: String,
    pub period: &'static str,
}

impl JobView {
    /// `job` with its description as stored (the caller renders it) or without one.
    pub fn new(job: &Job, description: Option<String>, now: DateTime<Utc>) -> Self {
        let p = &job.posting;
        let f = &p.facets;
        Self {
            public_slug: job.public_slug.to_string(),
            title: p.title.clone(),
            company: p.company.clone(),
            company_slug: job.company_slug.to_string(),
            location: p.location.clone(),
            remote: p.remote,
            work_mode: f.work_mode.map(|v| v.as_str()),
            seniority: f.seniority.map(|v| v.as_str()),
            category: f.category.map(|v| v.as_str()),
            employment_type: f.employment_type.map(|v| v.as_str()),
            is_tech: TechFlag::from_bool(f.is_tech).map(TechFlag::as_str),
            skills: f.skills.clone(),
            regions: f.regions.iter().map(|r| r.as_str()).collect(),
            countries: f.countries.iter().map(|c| c.as_str().to_owned()).collect(),
            cities: f.cities.clone(),
            experience_years_min: f.experience_years_min,
            english_level: f.english_level.map(|v| v.as_str()),
            salary: p.salary.as_ref().map(|s| SalaryView {
                min: s.min,
                max: s.max,
                currency: s.currency.clone(),
                period: s.period.as_str(),
            }),
            posted_at: job.effective_posted_at(now),
            closed_at: job.closed_at,
            description,
        }
    }
}

/// A company, derived from its open jobs.
#[derive(Debug, Clone, Serialize)]
pub struct CompanyView {
    pub slug: String,
    pub name: String,
    pub job_count: u64,
    pub latest_posted_at: DateTime<Utc>,
    pub regions: Vec<&'static str>,
    pub countries: Vec<String>,
    pub work_modes: Vec<&'static str>,
    pub top_skills: Vec<String>,
}

impl CompanyView {
    /// The view of `c`.
    pub fn new(c: &Company) -> Self {
        Self {
            slug: c.slug.to_string(),
            name: c.name.clone(),
            job_count: c.job_count,
            latest_posted_at: c.latest_posted_at,
            regions: c.regions.iter().map(|r| r.as_str()).collect(),
            countries: c.countries.iter().map(|c| c.as_str().to_owned()).collect(),
            work_modes: c.work_modes.iter().map(|w| w.as_str()).collect(),
            top_skills: c.top_skills.clone(),
        }
    }
}

/// One of the candidate's tracked jobs (`my_jobs`).
#[derive(Debug, Clone, Serialize)]
pub struct CardView {
    /// The job's slug (the application's kept one when the posting is gone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_slug: Option<String>,
    pub title: String,
    pub company: String,
    pub location: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_at: Option<DateTime<Utc>>,
    pub saved: bool,
    pub dismissed: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The posting is closed or gone.
    pub job_closed: bool,
    pub updated_at: DateTime<Utc>,
}

impl CardView {
    /// The view of `card`.
    pub fn new(card: &Card) -> Self {
        Self {
            public_slug: card.job_slug.clone(),
            title: card.title.clone(),
            company: card.company.clone(),
            location: card.location.clone(),
            stage: card.stage.map(Stage::as_str),
            applied_at: card.applied_at,
            saved: card.marks.saved_at.is_some(),
            dismissed: card.marks.dismissed_at.is_some(),
            notes: card.notes.clone(),
            job_closed: card.job_closed,
            updated_at: card.updated_at,
        }
    }
}

/// A job's tracking state after a tracking tool ran (the interaction view).
#[derive(Debug, Clone, Serialize)]
pub struct TrackView {
    pub public_slug: String,
    pub viewed: bool,
    pub saved: bool,
    pub dismissed: bool,
    /// The application's stage; absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_at: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

impl TrackView {
    /// The view of `track`.
    pub fn new(track: &Track) -> Self {
        let app = track.application.as_ref();
        Self {
            public_slug: track.job_slug.clone(),
            viewed: track.marks.viewed_at.is_some(),
            saved: track.marks.saved_at.is_some(),
            dismissed: track.marks.dismissed_at.is_some(),
            stage: app.and_then(|a| a.stage).map(Stage::as_str),
            applied_at: app.and_then(|a| a.applied_at),
            notes: app.map(|a| a.notes.clone()).filter(|n| !n.is_empty()),
        }
    }
}
