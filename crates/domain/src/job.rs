//! Jobs: what a source says about a posting ([`JobPosting`], normalised, with its facets), and
//! the stored catalogue row ([`Job`]) with its lifecycle.

use chrono::{DateTime, TimeZone, Utc};
use sha2::{Digest, Sha256};

use crate::{
    Category, ClosedReason, CompanySlug, CountryCode, DomainError, EducationLevel, EmploymentType,
    EnglishLevel, JobId, Provider, PublicSlug, Region, SalaryPeriod, Seniority, WorkMode,
    slug::job_slug,
};

/// Largest believable minimum-experience requirement, in years.
pub const MAX_EXPERIENCE_YEARS: i32 = 30;

/// A salary range taken from a structured source field. The period is required: a figure
/// without a known period is dropped whole, never guessed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Salary {
    /// Lower bound, in whole currency units.
    pub min: Option<i64>,
    /// Upper bound, in whole currency units.
    pub max: Option<i64>,
    /// ISO 4217 code, uppercase (`USD`).
    pub currency: String,
    /// What the figures are per.
    pub period: SalaryPeriod,
}

impl Salary {
    /// Builds a salary, checking that at least one bound is present, bounds are non-negative
    /// and ordered, and the currency is a three-letter code.
    pub fn new(
        min: Option<i64>,
        max: Option<i64>,
        currency: &str,
        period: SalaryPeriod,
    ) -> Result<Self, DomainError> {
        let currency = currency.trim().to_ascii_uppercase();
        if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(DomainError::invalid(
                "salary_currency",
                currency,
                "must be a three-letter ISO 4217 code",
            ));
        }
        if min.is_none() && max.is_none() {
            return Err(DomainError::invalid("salary", "", "needs a minimum or a maximum"));
        }
        if min.is_some_and(|v| v < 0) || max.is_some_and(|v| v < 0) {
            return Err(DomainError::invalid(
                "salary",
                format!("{min:?}..{max:?}"),
                "must not be negative",
            ));
        }
        if let (Some(lo), Some(hi)) = (min, max)
            && lo > hi
        {
            return Err(DomainError::invalid(
                "salary",
                format!("{lo}..{hi}"),
                "minimum exceeds maximum",
            ));
        }
        Ok(Self { min, max, currency, period })
    }
}

/// Deterministic facets of a posting (reference §3.11). Empty / `None` means "not known":
/// the derivation never guesses.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Facets {
    /// ISO alpha-2 codes, lowercase, sorted, unique.
    pub countries: Vec<CountryCode>,
    /// Hiring regions, sorted, unique. Empty for a bare "Remote".
    pub regions: Vec<Region>,
    /// Canonical city names.
    pub cities: Vec<String>,
    /// Remote, hybrid or onsite.
    pub work_mode: Option<WorkMode>,
    /// Seniority grade.
    pub seniority: Option<Seniority>,
    /// Job category.
    pub category: Option<Category>,
    /// Tri-state tech flag.
    pub is_tech: Option<bool>,
    /// Canonical skill slugs, sorted, unique.
    pub skills: Vec<String>,
    /// Kind of contract.
    pub employment_type: Option<EmploymentType>,
    /// Required education.
    pub education_level: Option<EducationLevel>,
    /// Required English.
    pub english_level: Option<EnglishLevel>,
    /// Minimum years of experience, within `0..=MAX_EXPERIENCE_YEARS`.
    pub experience_years_min: Option<i32>,
    /// `Some(true)` when the posting requires a security clearance; never `Some(false)`.
    pub requires_clearance: Option<bool>,
    /// ISO 639-1 code of the posting's language.
    pub posting_language: Option<String>,
}

impl Facets {
    /// Sorts and de-duplicates the set-valued facets, clamps the experience figure and drops a
    /// `requires_clearance = false` (the flag is "true or unknown"). Writers call this before
    /// hashing or storing so equal facets always compare and hash equal.
    pub fn canonicalize(&mut self) {
        self.countries.sort();
        self.countries.dedup();
        self.regions.sort();
        self.regions.dedup();
        self.cities.sort();
        self.cities.dedup();
        self.skills.sort();
        self.skills.dedup();
        self.experience_years_min =
            self.experience_years_min.map(|y| y.clamp(0, MAX_EXPERIENCE_YEARS));
        if self.requires_clearance == Some(false) {
            self.requires_clearance = None;
        }
    }
}

/// A posting as a writer hands it to storage: identity, content, facets and salary, already
/// normalised. Storage derives the slugs and the content hash from it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JobPosting {
    /// Where it came from (`greenhouse`, `manual`, …).
    pub source: Provider,
    /// Its id at the source; board-keyed providers namespace it as `<board>:<native id>`.
    pub external_id: String,
    /// The apply / detail URL at the source.
    pub url: String,
    /// Job title.
    pub title: String,
    /// Company display name.
    pub company: String,
    /// The location string, verbatim.
    pub location: String,
    /// Sanitised HTML description. May be empty (a listing without detail).
    pub description: String,
    /// Whether the source says the job is remote.
    pub remote: bool,
    /// When the source says it was posted.
    pub posted_at: Option<DateTime<Utc>>,
    /// Derived facets.
    pub facets: Facets,
    /// Salary from structured source fields only.
    pub salary: Option<Salary>,
    /// Identity of the role across reposts (computed by normalisation; may be empty).
    pub role_fingerprint: String,
    /// What the source stated in structured fields (kept so facets can be derived again).
    pub structured: crate::Structured,
}

impl JobPosting {
    /// Longest external id accepted.
    pub const MAX_EXTERNAL_ID_LEN: usize = 512;

    /// Checks the fields a store relies on: a non-empty external id of sane length and a
    /// non-empty title.
    pub fn validate(&self) -> Result<(), DomainError> {
        if self.external_id.trim().is_empty() {
            return Err(DomainError::invalid(
                "external_id",
                &self.external_id,
                "must not be empty",
            ));
        }
        if self.external_id.chars().any(char::is_control) {
            return Err(DomainError::invalid(
                "external_id",
                &self.external_id,
                "must not contain control characters",
            ));
        }
        if self.external_id.len() > Self::MAX_EXTERNAL_ID_LEN {
            return Err(DomainError::invalid(
                "external_id",
                &self.external_id,
                "is longer than 512 bytes",
            ));
        }
        if self.title.trim().is_empty() {
            return Err(DomainError::invalid("title", &self.title, "must not be empty"));
        }
        Ok(())
    }

    /// The company's slug.
    pub fn company_slug(&self) -> CompanySlug {
        CompanySlug::of(&self.company)
    }

    /// The job's public address.
    pub fn public_slug(&self) -> PublicSlug {
        job_slug(&self.title, &self.company, self.source.as_str(), &self.external_id)
    }

    /// `source_hash`: SHA-256 (hex) of what the source said, before any derivation: url, title,
    /// company, location, description, remote flag, posted date, salary and the structured
    /// values. Equal source hashes mean re-deriving would give the same facets (with the same
    /// dictionaries), so a re-crawl may skip derivation and only mark the job seen. The ingest
    /// pipeline takes it before the description is sanitised (over the HTML as the source
    /// stated it), so an unchanged posting is not sanitised either, and stores that hash.
    pub fn source_hash(&self) -> String {
        let mut hasher = Sha256::new();
        let salary = self.salary.as_ref().map_or(String::new(), |s| {
            format!("{:?}\x1f{:?}\x1f{}\x1f{}", s.min, s.max, s.currency, s.period)
        });
        let structured = format!("{:?}", self.structured);
        let posted = self.posted_at.map_or(String::new(), |t| t.timestamp().to_string());
        let remote = self.remote.to_string();
        let fields: [&str; 9] = [
            &self.url,
            &self.title,
            &self.company,
            &self.location,
            &self.description,
            &remote,
            &posted,
            &salary,
            &structured,
        ];
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                hasher.update([0x1e]);
            }
            hasher.update(field.as_bytes());
        }
        data_encoding::HEXLOWER.encode(&hasher.finalize())
    }

    /// `content_hash`: SHA-256 (hex) of exactly the fields that go into the search document,
    /// fields separated by `\x1e`, list items by `\x1f`. Excludes `source`, `external_id` and
    /// `is_tech`. The change signal for re-indexing.
    pub fn content_hash(&self) -> String {
        let f = &self.facets;
        let list = |items: &mut dyn Iterator<Item = &str>| items.collect::<Vec<_>>().join("\x1f");
        let opt = |v: Option<&str>| v.unwrap_or("").to_owned();
        let salary = self.salary.as_ref().map_or(String::new(), |s| {
            format!(
                "{}\x1f{}\x1f{}\x1f{}",
                s.min.map_or(String::new(), |v| v.to_string()),
                s.max.map_or(String::new(), |v| v.to_string()),
                s.currency,
                s.period
            )
        });
        let fields: [String; 22] = [
            self.title.clone(),
            self.company.clone(),
            self.company_slug().to_string(),
            self.public_slug().to_string(),
            self.url.clone(),
            self.location.clone(),
            self.description.clone(),
            self.remote.to_string(),
            self.posted_at.map_or(String::new(), |t| t.timestamp().to_string()),
            list(&mut f.countries.iter().map(CountryCode::as_str)),
            list(&mut f.regions.iter().map(|r| r.as_str())),
            list(&mut f.cities.iter().map(String::as_str)),
            opt(f.work_mode.map(WorkMode::as_str)),
            opt(f.seniority.map(Seniority::as_str)),
            opt(f.category.map(Category::as_str)),
            list(&mut f.skills.iter().map(String::as_str)),
            opt(f.employment_type.map(EmploymentType::as_str)),
            opt(f.education_level.map(EducationLevel::as_str)),
            opt(f.english_level.map(EnglishLevel::as_str)),
            f.experience_years_min.map_or(String::new(), |y| y.to_string()),
            format!(
                "{}\x1f{}",
                f.requires_clearance == Some(true),
                opt(f.posting_language.as_deref())
            ),
            salary,
        ];
        let mut hasher = Sha256::new();
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                hasher.update([0x1e]);
            }
            hasher.update(field.as_bytes());
        }
        data_encoding::HEXLOWER.encode(&hasher.finalize())
    }
}

/// A stored catalogue row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Internal id (never exposed over HTTP).
    pub id: JobId,
    /// Public address.
    pub public_slug: PublicSlug,
    /// Company key.
    pub company_slug: CompanySlug,
    /// The posting as last written.
    pub posting: JobPosting,
    /// Hash of the searchable fields as last written.
    pub content_hash: String,
    /// First stored.
    pub created_at: DateTime<Utc>,
    /// Content last changed.
    pub updated_at: DateTime<Utc>,
    /// Last seen at its source.
    pub last_seen_at: DateTime<Utc>,
    /// Soft-closed at; `None` while open.
    pub closed_at: Option<DateTime<Utc>>,
    /// Why it was closed.
    pub closed_reason: Option<ClosedReason>,
    /// The canonical row this one duplicates, if any.
    pub duplicate_of: Option<JobId>,
}

impl Job {
    /// Open while `closed_at` is unset.
    pub fn is_open(&self) -> bool {
        self.closed_at.is_none()
    }

    /// The posted date served to users: see [`effective_posted_at`].
    pub fn effective_posted_at(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        effective_posted_at(self.posting.posted_at, self.created_at, now)
    }
}

/// The served posted date: `posted_at`, unless it is missing, later than `now`, or earlier than
/// 2000-01-01, in which case the first-seen date (`created_at`).
pub fn effective_posted_at(
    posted_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    let floor = Utc.with_ymd_and_hms(2000, 1, 1, 0, 0, 0).single();
    match posted_at {
        Some(p) if p <= now && floor.is_some_and(|f| p >= f) => p,
        _ => created_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting() -> JobPosting {
        JobPosting {
            source: Provider::parse("manual").unwrap(),
            external_id: "42".into(),
            url: "https://example.com/jobs/42".into(),
            title: "Senior Go Developer".into(),
            company: "Acme".into(),
            location: "Berlin, Germany".into(),
            description: "<p>Build things.</p>".into(),
            remote: false,
            posted_at: None,
            facets: Facets::default(),
            salary: None,
            role_fingerprint: String::new(),
            structured: crate::Structured::default(),
        }
    }

    #[test]
    fn derived_identity() {
        let p = posting();
        assert_eq!(p.public_slug().as_str(), "senior-go-developer-acme-t35nijto");
        assert_eq!(p.company_slug().as_str(), "acme");
        assert!(p.validate().is_ok());
    }

    #[test]
    fn content_hash_tracks_searchable_fields_only() {
        let base = posting();
        let h = base.content_hash();
        assert_eq!(h.len(), 64);
        assert_eq!(h, posting().content_hash(), "deterministic");

        let mut other = posting();
        other.facets.is_tech = Some(true);
        assert_eq!(other.content_hash(), h, "is_tech is not part of the hash");

        let mut other = posting();
        other.description.push('!');
        assert_ne!(other.content_hash(), h);

        let mut other = posting();
        other.facets.skills = vec!["go".into()];
        assert_ne!(other.content_hash(), h);
    }

    #[test]
    fn source_hash_ignores_derived_values() {
        let base = posting();
        let mut derived = posting();
        derived.facets.skills = vec!["go".into()];
        derived.role_fingerprint = "fp".into();
        assert_eq!(base.source_hash(), derived.source_hash());
        let mut edited = posting();
        edited.description.push('!');
        assert_ne!(base.source_hash(), edited.source_hash());
        let mut structured = posting();
        structured.structured.work_mode = Some(WorkMode::Remote);
        assert_ne!(base.source_hash(), structured.source_hash());
    }

    #[test]
    fn validation_names_field() {
        let mut p = posting();
        p.external_id = " ".into();
        assert!(p.validate().unwrap_err().to_string().contains("external_id"));
        let mut p = posting();
        p.title = String::new();
        assert!(p.validate().unwrap_err().to_string().contains("title"));
    }

    #[test]
    fn salary_rules() {
        assert!(Salary::new(Some(100), Some(50), "usd", SalaryPeriod::Year).is_err());
        assert!(Salary::new(None, None, "USD", SalaryPeriod::Year).is_err());
        assert!(Salary::new(Some(1), None, "US", SalaryPeriod::Year).is_err());
        assert_eq!(Salary::new(Some(1), None, "eur", SalaryPeriod::Month).unwrap().currency, "EUR");
    }

    #[test]
    fn canonicalize_sorts_and_clamps() {
        let mut f = Facets {
            skills: vec!["rust".into(), "go".into(), "rust".into()],
            regions: vec![Region::Eu, Region::Global, Region::Eu],
            experience_years_min: Some(99),
            requires_clearance: Some(false),
            ..Facets::default()
        };
        f.canonicalize();
        assert_eq!(f.skills, ["go", "rust"]);
        assert_eq!(f.regions, [Region::Global, Region::Eu]);
        assert_eq!(f.experience_years_min, Some(MAX_EXPERIENCE_YEARS));
        assert_eq!(f.requires_clearance, None);
    }

    #[test]
    fn effective_posted_date() {
        let created = Utc.with_ymd_and_hms(2026, 3, 1, 0, 0, 0).unwrap();
        let now = Utc.with_ymd_and_hms(2026, 3, 2, 0, 0, 0).unwrap();
        let posted = Utc.with_ymd_and_hms(2026, 2, 20, 0, 0, 0).unwrap();
        assert_eq!(effective_posted_at(Some(posted), created, now), posted);
        assert_eq!(effective_posted_at(None, created, now), created);
        let future = Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap();
        assert_eq!(effective_posted_at(Some(future), created, now), created);
        let ancient = Utc.with_ymd_and_hms(1999, 12, 31, 0, 0, 0).unwrap();
        assert_eq!(effective_posted_at(Some(ancient), created, now), created);
    }
}
