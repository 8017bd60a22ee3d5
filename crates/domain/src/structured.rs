//! [`Structured`]: facet values a source states in structured fields, kept with the posting
//! so facets can be derived again (after a dictionary change) without losing them.

use crate::{
    Category, CountryCode, EducationLevel, EmploymentType, EnglishLevel, Region, Seniority,
    WorkMode,
};

/// Facet values an adapter read from structured fields (never from heuristics). Each one,
/// when present, wins over anything derived from text.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Structured {
    /// Countries; they replace the derived ones and pull their regions along.
    pub countries: Vec<CountryCode>,
    /// Regions; they replace the derived ones.
    pub regions: Vec<Region>,
    /// City names; they replace the derived ones.
    pub cities: Vec<String>,
    /// Work mode.
    pub work_mode: Option<WorkMode>,
    /// Employment type.
    pub employment_type: Option<EmploymentType>,
    /// Seniority.
    pub seniority: Option<Seniority>,
    /// Category.
    pub category: Option<Category>,
    /// Skills (slugs or known aliases); unioned with the dictionary's.
    pub skills: Vec<String>,
    /// Minimum years of experience.
    pub experience_years_min: Option<i32>,
    /// Education level.
    pub education_level: Option<EducationLevel>,
    /// English level.
    pub english_level: Option<EnglishLevel>,
}
