//! Wire shapes: the job as clients see it (reference §6.5), the search hit, the facets
//! answer, the company, and the list/single envelopes.
//!
//! Jobs are addressed by `public_slug`; the internal id never appears. Optional facets are
//! omitted when unknown; `requires_clearance` appears only when true; `posted_at` is the
//! effective posted date (first-seen date when the source's is missing or implausible).
//!
//! Each shape derives [`ToSchema`] for the OpenAPI document ([`mod@crate::openapi`]); the values
//! of `freehire-domain` and `freehire-search` types are described through `schema_with` and
//! `value_type`, so those pure crates do not depend on utoipa.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use freehire_domain::{
    Category, ClosedReason, CountryCode, EducationLevel, EmploymentType, EnglishLevel,
    GhostCriterion, GhostLevel, Job, Provider, RealityClass, Region, SalaryPeriod, Seniority,
    TechFlag, WorkMode, ghost::Ghost, reality::Reality,
};
use freehire_search::{
    Bounds, Distribution, Facet, FacetCounts, IgnoredParam, JobQuery, NumericStats, SearchDocument,
};
use freehire_store::{Company, ListPage};
use serde::{Serialize, Serializer, ser::SerializeMap};
use utoipa::{
    PartialSchema, ToSchema,
    openapi::{ObjectBuilder, RefOr, Schema, Type, schema::AdditionalProperties},
};

use crate::openapi::vocab;

/// A job on the wire: its [`JobHeadView`], `remote`, the full description, its
/// [`JobFacetsView`], and its dates.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "public_slug": "rust-engineer-acme-t35nijto",
    "title": "Rust Engineer",
    "company": "Acme",
    "company_slug": "acme",
    "url": "https://boards.greenhouse.io/acme/jobs/1",
    "source": "greenhouse",
    "external_id": "acme:1",
    "manually_added": false,
    "location": "Remote - EU",
    "remote": true,
    "description": "<p>Build fast services in Rust.</p>",
    "regions": ["eu"],
    "countries": [],
    "cities": [],
    "work_mode": "remote",
    "skills": ["postgresql", "rust"],
    "is_tech": "tech",
    "seniority": "senior",
    "salary": {"min": 80000, "max": 100000, "currency": "EUR", "period": "year"},
    "posted_at": "2026-11-10T08:00:00Z",
    "created_at": "2026-11-11T09:00:00Z",
    "updated_at": "2026-11-11T09:00:00Z",
    "last_seen_at": "2026-11-20T09:00:00Z",
    "closed_at": null
}))]
pub struct JobView {
    #[serde(flatten)]
    pub head: JobHeadView,
    /// Whether the source marks the job remote.
    pub remote: bool,
    /// The full description, HTML as the source gave it (agent search renders it as asked).
    pub description: String,
    #[serde(flatten)]
    pub facets: JobFacetsView,
    /// The effective posted date (the first-seen date when the source's is missing or
    /// implausible).
    pub posted_at: DateTime<Utc>,
    /// First seen.
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Last seen on its board.
    pub last_seen_at: DateTime<Utc>,
    /// When it closed; null while open.
    #[schema(required = true)]
    pub closed_at: Option<DateTime<Utc>>,
    /// Why it closed (closed jobs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = vocab::closed_reason)]
    pub closed_reason: Option<ClosedReason>,
    /// Whether it looks like a real, current vacancy (the detail and agent search carry it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reality: Option<RealityView>,
    /// Whether it is likely a ghost job (the detail of an open job carries it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ghost: Option<GhostView>,
}

/// The ghost-job signal (reference §5.10): said only when two of the four criteria agree,
/// `likely` only on outcome evidence (a silent application, a report) from two people.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"level": "possible", "criteria": ["evergreen_posting", "user_reports"], "criteria_total": 4}))]
pub struct GhostView {
    /// `none`, `possible` or `likely`.
    #[schema(schema_with = vocab::ghost_level)]
    pub level: GhostLevel,
    /// The criteria met: `evergreen_posting`, `ats_absent`, `silent_applications`,
    /// `user_reports`.
    #[schema(schema_with = vocab::ghost_criteria)]
    pub criteria: Vec<GhostCriterion>,
    /// Always 4.
    pub criteria_total: u32,
    /// The people behind the outcome evidence (only from two on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contributors: Option<u32>,
    /// When the employer's board was found not to list it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ats_checked_at: Option<DateTime<Utc>>,
}

impl From<&Ghost> for GhostView {
    fn from(g: &Ghost) -> Self {
        Self {
            level: g.level,
            criteria: g.criteria.clone(),
            criteria_total: g.criteria_total,
            contributors: g.contributors,
            ats_checked_at: g.ats_checked_at,
        }
    }
}

/// Reality signals (reference §5.10): the class, the age, the role's postings ever seen and
/// open at once at the company, and whether an old posting claims a recent date.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({"class": "fresh", "age_days": 3, "repost_count": 1, "mass_posting_count": 1, "fake_freshness": false}))]
pub struct RealityView {
    /// `fresh` (≤ 14 days, no evergreen wording), `stale`, or `likely-evergreen` (two of:
    /// ≥ 90 days old, ≥ 3 earlier postings of the role, ≥ 5 open at once, evergreen wording).
    #[schema(schema_with = vocab::reality_class)]
    pub class: RealityClass,
    /// Whole days since first seen.
    pub age_days: i64,
    /// Postings of the role at the company ever seen, this one included.
    pub repost_count: u32,
    /// Postings of the role open at once, this one included.
    pub mass_posting_count: u32,
    /// At least 90 days old, yet the source claims a date within 14 days.
    pub fake_freshness: bool,
}

impl From<&Reality> for RealityView {
    fn from(r: &Reality) -> Self {
        Self {
            class: r.class,
            age_days: r.age_days,
            repost_count: r.repost_count,
            mass_posting_count: r.mass_posting_count,
            fake_freshness: r.fake_freshness,
        }
    }
}

/// The fields that open a job and a search hit alike (flattened into both, in this order):
/// its address, what it is, who posts it, where it comes from and where it is.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JobHeadView {
    pub public_slug: String,
    pub title: String,
    pub company: String,
    pub company_slug: String,
    pub url: String,
    pub source: String,
    pub external_id: String,
    pub manually_added: bool,
    pub location: String,
}

/// The derived facets of a job and of a search hit alike (flattened into both, in this
/// order), each value its wire spelling; an unknown optional facet is omitted and
/// `requires_clearance` appears only when true.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JobFacetsView {
    #[schema(schema_with = vocab::regions)]
    pub regions: Vec<String>,
    #[schema(schema_with = vocab::countries)]
    pub countries: Vec<String>,
    pub cities: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = vocab::work_mode)]
    pub work_mode: Option<String>,
    pub skills: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = vocab::tech_flag)]
    pub is_tech: Option<String>,
    /// Present (and true) only when the job requires a security clearance.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = always_true)]
    pub requires_clearance: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = vocab::seniority)]
    pub seniority: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = vocab::category)]
    pub category: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = vocab::employment_type)]
    pub employment_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = vocab::education_level)]
    pub education_level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = vocab::english_level)]
    pub english_level: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub experience_years_min: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub posting_language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub salary: Option<SalaryView>,
}

/// `true`: a flag that is present only when set.
fn always_true() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([true]))
}

/// A salary range on the wire: either bound may be unknown (null).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SalaryView {
    #[schema(required = true)]
    pub min: Option<i64>,
    #[schema(required = true)]
    pub max: Option<i64>,
    /// ISO 4217, uppercase.
    pub currency: String,
    #[schema(schema_with = vocab::salary_period)]
    pub period: SalaryPeriod,
}

impl JobView {
    /// The wire form of a stored job, its posted date made effective at `now`.
    pub fn new(job: &Job, now: DateTime<Utc>) -> Self {
        let p = &job.posting;
        let f = &p.facets;
        let name = |value: Option<&'static str>| value.map(str::to_owned);
        Self {
            head: JobHeadView {
                public_slug: job.public_slug.to_string(),
                title: p.title.clone(),
                company: p.company.clone(),
                company_slug: job.company_slug.to_string(),
                url: p.url.clone(),
                source: p.source.to_string(),
                external_id: p.external_id.clone(),
                manually_added: p.source.is_manual(),
                location: p.location.clone(),
            },
            remote: p.remote,
            description: p.description.clone(),
            facets: JobFacetsView {
                regions: f.regions.iter().map(|r| r.as_str().to_owned()).collect(),
                countries: f.countries.iter().map(|c| c.as_str().to_owned()).collect(),
                cities: f.cities.clone(),
                work_mode: name(f.work_mode.map(WorkMode::as_str)),
                skills: f.skills.clone(),
                is_tech: name(TechFlag::from_bool(f.is_tech).map(TechFlag::as_str)),
                requires_clearance: f.requires_clearance.filter(|&c| c),
                seniority: name(f.seniority.map(Seniority::as_str)),
                category: name(f.category.map(Category::as_str)),
                employment_type: name(f.employment_type.map(EmploymentType::as_str)),
                education_level: name(f.education_level.map(EducationLevel::as_str)),
                english_level: name(f.english_level.map(EnglishLevel::as_str)),
                experience_years_min: f.experience_years_min.map(i64::from),
                posting_language: f.posting_language.clone(),
                salary: p.salary.as_ref().map(|s| SalaryView {
                    min: s.min,
                    max: s.max,
                    currency: s.currency.clone(),
                    period: s.period,
                }),
            },
            posted_at: job.effective_posted_at(now),
            created_at: job.created_at,
            updated_at: job.updated_at,
            last_seen_at: job.last_seen_at,
            closed_at: job.closed_at,
            closed_reason: job.closed_reason,
            reality: None,
            ghost: None,
        }
    }

    /// With its reality signals.
    pub fn with_reality(self, reality: &Reality) -> Self {
        Self { reality: Some(reality.into()), ..self }
    }

    /// With its ghost signal (none for a closed job).
    pub fn with_ghost(self, ghost: Option<&Ghost>) -> Self {
        Self { ghost: ghost.map(GhostView::from), ..self }
    }
}

/// `{"data": [...], "meta": {...}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListEnvelope<T> {
    pub data: Vec<T>,
    pub meta: ListMeta,
}

/// List metadata: the page answered and how many items there are in all.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListMeta {
    pub total: u64,
    pub limit: u32,
    pub offset: u64,
}

impl ListMeta {
    /// The meta of `page` out of `total`.
    pub fn of(page: ListPage, total: u64) -> Self {
        Self { total, limit: page.limit(), offset: page.offset() }
    }
}

/// `{"data": {...}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Single<T> {
    pub data: T,
}

/// A search hit: the job fields of §6.5 that the search document carries, in [`JobView`]'s
/// order and spelling (the same [`JobHeadView`] and [`JobFacetsView`]). The description is the
/// indexed visible text (at most 1,000 characters, cut at a word); `remote` (not a §6.5 field)
/// and `last_seen_at` (it moves on every crawl, so the index does not hold it) are left out;
/// `closed_at` is always null (only open jobs are indexed).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "public_slug": "rust-engineer-acme-t35nijto",
    "title": "Rust Engineer",
    "company": "Acme",
    "company_slug": "acme",
    "url": "https://boards.greenhouse.io/acme/jobs/1",
    "source": "greenhouse",
    "external_id": "acme:1",
    "manually_added": false,
    "location": "Remote - EU",
    "description": "Build fast services in Rust.",
    "regions": ["eu"],
    "countries": [],
    "cities": [],
    "work_mode": "remote",
    "skills": ["postgresql", "rust"],
    "is_tech": "tech",
    "seniority": "senior",
    "posted_at": "2026-11-10T08:00:00Z",
    "created_at": "2026-11-11T09:00:00Z",
    "updated_at": "2026-11-11T09:00:00Z",
    "closed_at": null
}))]
pub struct SearchHit {
    #[serde(flatten)]
    pub head: JobHeadView,
    /// The indexed visible text, at most 1,000 characters, cut at a word.
    pub description: String,
    #[serde(flatten)]
    pub facets: JobFacetsView,
    pub posted_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Always null: only open jobs are indexed.
    #[schema(required = true, schema_with = null)]
    pub closed_at: Option<DateTime<Utc>>,
    /// Whether it looks like a real, current vacancy, from the indexed first-seen date, title
    /// and text and the role's history (`fake_freshness` is the detail's to tell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reality: Option<RealityView>,
}

/// `null`.
fn null() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Null)
}

impl SearchHit {
    /// The wire form of an indexed document (its internal id stays behind).
    pub fn new(doc: &SearchDocument) -> Self {
        let all = |facet: Facet| doc.values(facet).to_vec();
        let one = |facet: Facet| doc.values(facet).first().cloned();
        let period = one(Facet::SalaryPeriod).and_then(|p| SalaryPeriod::parse(&p).ok());
        let salary = match (one(Facet::SalaryCurrency), period) {
            (Some(currency), Some(period)) => {
                Some(SalaryView { min: doc.salary_min, max: doc.salary_max, currency, period })
            }
            _ => None,
        };
        let source = one(Facet::Source).unwrap_or_default();
        Self {
            head: JobHeadView {
                public_slug: doc.public_slug.clone(),
                title: doc.title.clone(),
                company: doc.company.clone(),
                company_slug: doc.company_slug.clone(),
                url: doc.url.clone(),
                manually_added: Provider::parse(&source).is_ok_and(|p| p.is_manual()),
                source,
                external_id: doc.external_id.clone(),
                location: doc.location.clone(),
            },
            description: doc.description.clone(),
            facets: JobFacetsView {
                regions: all(Facet::Regions),
                countries: all(Facet::Countries),
                cities: all(Facet::Cities),
                work_mode: one(Facet::WorkMode),
                skills: all(Facet::Skills),
                is_tech: one(Facet::IsTech),
                requires_clearance: one(Facet::RequiresClearance).map(|_| true),
                seniority: one(Facet::Seniority),
                category: one(Facet::Category),
                employment_type: one(Facet::EmploymentType),
                education_level: one(Facet::EducationLevel),
                english_level: one(Facet::EnglishLevel),
                experience_years_min: doc.experience_years_min,
                posting_language: one(Facet::PostingLanguage),
                salary,
            },
            posted_at: instant(doc.posted_ts),
            created_at: instant(doc.created_ts),
            updated_at: instant(doc.updated_ts),
            closed_at: None,
            reality: None,
        }
    }

    /// With its reality signals.
    pub fn with_reality(self, reality: &Reality) -> Self {
        Self { reality: Some(reality.into()), ..self }
    }
}

/// Unix seconds as an instant (the epoch for a value out of range, which no document has).
fn instant(secs: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(secs, 0).unwrap_or_default()
}

/// The `meta` of a search answer: the page, the exact total and any ignored parameters.
#[derive(Debug, Serialize, ToSchema)]
pub struct SearchMeta {
    pub total: u64,
    pub limit: u32,
    pub offset: u32,
    /// Parameters the endpoint does not know (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<IgnoredParamView>)]
    pub ignored_params: Vec<IgnoredParam>,
}

/// The schema of `freehire_search::IgnoredParam` as serialised (that crate does not depend on
/// utoipa; a unit test compares the two).
#[derive(Debug, ToSchema)]
#[schema(as = IgnoredParam)]
pub struct IgnoredParamView {
    /// The parameter as given (for a `q_fields` value: `q_fields=<value>`).
    pub param: String,
    /// The known parameter it is the singular or plural of; absent when there is none.
    #[schema(nullable = false)]
    pub did_you_mean: Option<String>,
}

impl SearchMeta {
    /// The meta of the answer to `query` (the query answered) out of `total`.
    pub fn of(query: &JobQuery, total: u64) -> Self {
        Self {
            total,
            limit: query.page.limit,
            offset: query.page.offset,
            ignored_params: query.ignored_params.clone(),
        }
    }
}

/// The answer of the facets route: `{total, facets, stats}`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "total": 4,
    "facets": {"work_mode": {"remote": 2, "hybrid": 1, "onsite": 1}, "skills": {"rust": 2}},
    "stats": {"salary_min": {"min": 60000, "max": 80000}}
}))]
pub struct FacetsData {
    pub total: u64,
    pub facets: FacetsView,
    pub stats: StatsView,
}

impl From<FacetCounts> for FacetsData {
    fn from(counts: FacetCounts) -> Self {
        Self { total: counts.total, facets: FacetsView(counts.facets), stats: counts.stats.into() }
    }
}

/// `{facet: {value: count}}`: facets in table order, each facet's values in count order (most
/// frequent first, ties by value). JSON objects carry the order as written; clients that keep
/// insertion order (JavaScript, Python) see the values ranked.
#[derive(Debug)]
pub struct FacetsView(pub BTreeMap<Facet, Distribution>);

impl PartialSchema for FacetsView {
    /// An object with one member per facet counted, each `{value: count}`.
    fn schema() -> RefOr<Schema> {
        let counts = || {
            let count = ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0));
            ObjectBuilder::new().schema_type(Type::Object).additional_properties(Some(count))
        };
        let mut object = ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some("Value counts per facet, most frequent first."))
            .additional_properties(Some(AdditionalProperties::FreeForm(false)));
        for facet in Facet::ALL {
            object = object.property(facet.param(), counts());
        }
        object.into()
    }
}

impl ToSchema for FacetsView {}

impl Serialize for FacetsView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (facet, counts) in &self.0 {
            map.serialize_entry(facet.param(), &Ranked(counts))?;
        }
        map.end()
    }
}

/// One facet's counts, serialised as an object in their order.
struct Ranked<'a>(&'a [(String, u64)]);

impl Serialize for Ranked<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (value, count) in self.0 {
            map.serialize_entry(value, count)?;
        }
        map.end()
    }
}

/// The numeric stats; a field no match has is absent.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatsView {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub salary_min: Option<BoundsView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub salary_max: Option<BoundsView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub experience_years_min: Option<BoundsView>,
}

/// `{min, max}`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct BoundsView {
    pub min: i64,
    pub max: i64,
}

impl From<NumericStats> for StatsView {
    fn from(s: NumericStats) -> Self {
        let view = |b: Option<Bounds>| b.map(|b| BoundsView { min: b.min, max: b.max });
        Self {
            salary_min: view(s.salary_min),
            salary_max: view(s.salary_max),
            experience_years_min: view(s.experience_years_min),
        }
    }
}

/// A company on the wire: derived from its open jobs.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "slug": "acme",
    "name": "Acme",
    "job_count": 2,
    "latest_posted_at": "2026-11-12T09:00:00Z",
    "regions": ["eu"],
    "countries": [],
    "work_modes": ["remote"],
    "top_skills": ["postgresql", "rust", "go"],
    "sources": ["greenhouse"]
}))]
pub struct CompanyView {
    pub slug: String,
    pub name: String,
    pub job_count: u64,
    /// The newest effective posted date among its open jobs.
    pub latest_posted_at: DateTime<Utc>,
    /// Most jobs first.
    #[schema(schema_with = vocab::regions)]
    pub regions: Vec<Region>,
    #[schema(schema_with = vocab::countries)]
    pub countries: Vec<CountryCode>,
    #[schema(schema_with = vocab::work_modes)]
    pub work_modes: Vec<WorkMode>,
    pub top_skills: Vec<String>,
    pub sources: Vec<String>,
}

impl CompanyView {
    /// The wire form of a company.
    pub fn new(c: &Company) -> Self {
        Self {
            slug: c.slug.to_string(),
            name: c.name.clone(),
            job_count: c.job_count,
            latest_posted_at: c.latest_posted_at,
            regions: c.regions.clone(),
            countries: c.countries.clone(),
            work_modes: c.work_modes.clone(),
            top_skills: c.top_skills.clone(),
            sources: c.sources.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// `GET /companies/{slug}`: the company and one page of its open jobs.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompanyDetail {
    pub company: CompanyView,
    pub jobs: Vec<JobView>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The documented properties of a schema.
    fn properties<T: ToSchema>() -> Vec<String> {
        let schema = serde_json::to_value(T::schema()).unwrap();
        schema["properties"].as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn the_ignored_param_schema_is_what_is_serialised() {
        let ignored = IgnoredParam { param: "skill".into(), did_you_mean: Some("skills".into()) };
        let value = serde_json::to_value(&ignored).unwrap();
        let keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, properties::<IgnoredParamView>());
        assert_eq!(IgnoredParamView::name(), "IgnoredParam");
    }
}
