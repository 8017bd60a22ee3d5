//! The string facets of reference §5.5: their parameter names, index attributes, how their
//! values are checked, and what a selection of values holds.

use freehire_domain::{
    Category, CompanySlug, CountryCode, EducationLevel, EmploymentType, EnglishLevel, Provider,
    Region, SalaryPeriod, Seniority, TechFlag, WorkMode,
};

use crate::SearchError;
use crate::vocab::{self, Closed};

/// One string facet (reference §5.5), in the reference's table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Facet {
    /// `source` → `source`.
    Source,
    /// `company_slug` → `company_slug`.
    CompanySlug,
    /// `regions` → `regions` (geography; `none` means "no region").
    Regions,
    /// `work_mode` → `work_mode`.
    WorkMode,
    /// `employment_type` → `enrichment.employment_type`.
    EmploymentType,
    /// `education_level` → `enrichment.education_level`.
    EducationLevel,
    /// `seniority` → `enrichment.seniority`.
    Seniority,
    /// `category` → `enrichment.category`.
    Category,
    /// `domains` → `enrichment.domains`.
    Domains,
    /// `countries` → `countries` (geography).
    Countries,
    /// `cities` → `cities` (geography).
    Cities,
    /// `company_type` → `enrichment.company_type`.
    CompanyType,
    /// `company_size` → `enrichment.company_size`.
    CompanySize,
    /// `salary_currency` → `enrichment.salary_currency`.
    SalaryCurrency,
    /// `salary_period` → `enrichment.salary_period`.
    SalaryPeriod,
    /// `skills` → `skills`.
    Skills,
    /// `is_tech` → `is_tech` (`tech` | `non_tech`).
    IsTech,
    /// `requires_clearance` → `requires_clearance` (true or absent in the index).
    RequiresClearance,
    /// `ai_archetype` → `ai_archetype`.
    AiArchetype,
    /// `role_type` → `role_type`.
    RoleType,
    /// `reality` → `reality.class`.
    Reality,
    /// `collections` → `collections`.
    Collections,
    /// `relocation` → `enrichment.relocation`.
    Relocation,
    /// `english_level` → `enrichment.english_level`.
    EnglishLevel,
    /// `posting_language` → `enrichment.posting_language`.
    PostingLanguage,
}

impl Facet {
    /// Every facet, in the reference's table order (the order filters are rendered in).
    pub const ALL: &'static [Facet] = &[
        Facet::Source,
        Facet::CompanySlug,
        Facet::Regions,
        Facet::WorkMode,
        Facet::EmploymentType,
        Facet::EducationLevel,
        Facet::Seniority,
        Facet::Category,
        Facet::Domains,
        Facet::Countries,
        Facet::Cities,
        Facet::CompanyType,
        Facet::CompanySize,
        Facet::SalaryCurrency,
        Facet::SalaryPeriod,
        Facet::Skills,
        Facet::IsTech,
        Facet::RequiresClearance,
        Facet::AiArchetype,
        Facet::RoleType,
        Facet::Reality,
        Facet::Collections,
        Facet::Relocation,
        Facet::EnglishLevel,
        Facet::PostingLanguage,
    ];

    /// The query parameter name.
    pub const fn param(self) -> &'static str {
        match self {
            Facet::Source => "source",
            Facet::CompanySlug => "company_slug",
            Facet::Regions => "regions",
            Facet::WorkMode => "work_mode",
            Facet::EmploymentType => "employment_type",
            Facet::EducationLevel => "education_level",
            Facet::Seniority => "seniority",
            Facet::Category => "category",
            Facet::Domains => "domains",
            Facet::Countries => "countries",
            Facet::Cities => "cities",
            Facet::CompanyType => "company_type",
            Facet::CompanySize => "company_size",
            Facet::SalaryCurrency => "salary_currency",
            Facet::SalaryPeriod => "salary_period",
            Facet::Skills => "skills",
            Facet::IsTech => "is_tech",
            Facet::RequiresClearance => "requires_clearance",
            Facet::AiArchetype => "ai_archetype",
            Facet::RoleType => "role_type",
            Facet::Reality => "reality",
            Facet::Collections => "collections",
            Facet::Relocation => "relocation",
            Facet::EnglishLevel => "english_level",
            Facet::PostingLanguage => "posting_language",
        }
    }

    /// The index attribute the facet filters on.
    pub const fn attribute(self) -> &'static str {
        match self {
            Facet::EmploymentType => "enrichment.employment_type",
            Facet::EducationLevel => "enrichment.education_level",
            Facet::Seniority => "enrichment.seniority",
            Facet::Category => "enrichment.category",
            Facet::Domains => "enrichment.domains",
            Facet::CompanyType => "enrichment.company_type",
            Facet::CompanySize => "enrichment.company_size",
            Facet::SalaryCurrency => "enrichment.salary_currency",
            Facet::SalaryPeriod => "enrichment.salary_period",
            Facet::Reality => "reality.class",
            Facet::Relocation => "enrichment.relocation",
            Facet::EnglishLevel => "enrichment.english_level",
            Facet::PostingLanguage => "enrichment.posting_language",
            other => other.param(),
        }
    }

    /// The facet whose parameter name is `param`.
    pub fn from_param(param: &str) -> Option<Facet> {
        Facet::ALL.iter().copied().find(|f| f.param() == param)
    }

    /// Whether the facet belongs to the geography OR-group (`regions`, `countries`, `cities`).
    pub const fn is_geography(self) -> bool {
        matches!(self, Facet::Regions | Facet::Countries | Facet::Cities)
    }

    /// Whether `GET /jobs/facets` counts it when `facets=` names none (every facet but
    /// `company_slug`, reference §5.9). Any facet is counted when named: the company
    /// distribution (tens of thousands of values) only where asked for, as the search page's
    /// company panel does.
    pub const fn counted_by_default(self) -> bool {
        !matches!(self, Facet::CompanySlug)
    }

    /// The values the facet accepts when its vocabulary is closed, in vocabulary order
    /// (`regions` with its reserved [`NO_REGION`] last); `None` for an open facet (a provider
    /// key, a company slug, a country or currency code, free text). What the OpenAPI document
    /// lists as the parameter's enum: [`Facet::value`] accepts exactly these.
    pub fn closed_values(self) -> Option<Vec<&'static str>> {
        fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
            all.iter().map(|v| name(*v)).collect()
        }
        Some(match self {
            Facet::Regions => {
                let mut list = names(Region::ALL, Region::as_str);
                list.push(NO_REGION);
                list
            }
            Facet::WorkMode => names(WorkMode::ALL, WorkMode::as_str),
            Facet::EmploymentType => names(EmploymentType::ALL, EmploymentType::as_str),
            Facet::EducationLevel => names(EducationLevel::ALL, EducationLevel::as_str),
            Facet::Seniority => names(Seniority::ALL, Seniority::as_str),
            Facet::Category => names(Category::ALL, Category::as_str),
            Facet::SalaryPeriod => names(SalaryPeriod::ALL, SalaryPeriod::as_str),
            Facet::EnglishLevel => names(EnglishLevel::ALL, EnglishLevel::as_str),
            Facet::IsTech => names(TechFlag::ALL, TechFlag::as_str),
            Facet::Domains => vocab::DOMAINS.values.to_vec(),
            Facet::CompanyType => vocab::COMPANY_TYPE.values.to_vec(),
            Facet::CompanySize => vocab::COMPANY_SIZE.values.to_vec(),
            Facet::RoleType => vocab::ROLE_TYPE.values.to_vec(),
            Facet::Reality => vocab::REALITY.values.to_vec(),
            Facet::Relocation => vocab::RELOCATION.values.to_vec(),
            Facet::AiArchetype => vocab::AI_ARCHETYPE.values.to_vec(),
            Facet::RequiresClearance => vocab::CLEARANCE.values.to_vec(),
            Facet::Source
            | Facet::CompanySlug
            | Facet::Countries
            | Facet::Cities
            | Facet::SalaryCurrency
            | Facet::Skills
            | Facet::Collections
            | Facet::PostingLanguage => return None,
        })
    }

    /// Checks one value given to `param` (the facet's name or its `_exclude` form) and returns
    /// it in canonical form.
    pub fn value(self, param: &str, raw: &str) -> Result<FacetValue, SearchError> {
        // A value of a `freehire-domain` type, in its canonical spelling.
        macro_rules! domain {
            ($ty:ident) => {
                $ty::parse(raw)
                    .map(|v| FacetValue::Text(v.as_str().to_owned()))
                    .map_err(|e| SearchError::from_domain(param, e))
            };
        }
        fn closed(param: &str, raw: &str, list: Closed) -> Result<FacetValue, SearchError> {
            list.find(raw)
                .map(|v| FacetValue::Text(v.to_owned()))
                .ok_or_else(|| SearchError::unknown(param, raw, list.allowed()))
        }
        match self {
            Facet::Source => domain!(Provider),
            Facet::CompanySlug => domain!(CompanySlug),
            Facet::Regions if raw == NO_REGION => Ok(FacetValue::Empty),
            Facet::Regions => {
                Region::parse(raw).map(|r| FacetValue::Text(r.as_str().to_owned())).map_err(|_| {
                    SearchError::unknown(param, raw, format!("{}, {NO_REGION}", Region::allowed()))
                })
            }
            Facet::WorkMode => domain!(WorkMode),
            Facet::EmploymentType => domain!(EmploymentType),
            Facet::EducationLevel => domain!(EducationLevel),
            Facet::Seniority => domain!(Seniority),
            Facet::Category => domain!(Category),
            Facet::SalaryPeriod => domain!(SalaryPeriod),
            Facet::EnglishLevel => domain!(EnglishLevel),
            Facet::IsTech => domain!(TechFlag),
            Facet::Countries => domain!(CountryCode),
            Facet::Domains => closed(param, raw, vocab::DOMAINS),
            Facet::CompanyType => closed(param, raw, vocab::COMPANY_TYPE),
            Facet::CompanySize => closed(param, raw, vocab::COMPANY_SIZE),
            Facet::RoleType => closed(param, raw, vocab::ROLE_TYPE),
            Facet::Reality => closed(param, raw, vocab::REALITY),
            Facet::Relocation => closed(param, raw, vocab::RELOCATION),
            Facet::AiArchetype => closed(param, raw, vocab::AI_ARCHETYPE),
            Facet::RequiresClearance => match raw {
                "true" => Ok(FacetValue::Flag(true)),
                "false" => Ok(FacetValue::Flag(false)),
                _ => Err(SearchError::unknown(param, raw, vocab::CLEARANCE.allowed())),
            },
            Facet::SalaryCurrency => {
                if raw.len() == 3 && raw.bytes().all(|b| b.is_ascii_alphabetic()) {
                    Ok(FacetValue::Text(raw.to_ascii_uppercase()))
                } else {
                    Err(SearchError::invalid(
                        param,
                        raw,
                        "must be a three-letter ISO 4217 code such as \"EUR\"",
                    ))
                }
            }
            Facet::Cities | Facet::Skills | Facet::Collections | Facet::PostingLanguage => {
                Ok(FacetValue::Text(raw.to_owned()))
            }
        }
    }
}

impl std::fmt::Display for Facet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.param())
    }
}

/// The reserved `regions` value meaning "no region at all".
pub const NO_REGION: &str = "none";

/// One checked facet value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FacetValue {
    /// A string value, compared with `=` / `!=` and always quoted when rendered.
    Text(String),
    /// `regions=none`: the attribute is empty (`IS EMPTY`; excluded: `IS NOT EMPTY`).
    Empty,
    /// `requires_clearance=true|false`: the flag is true, or not true (it is true or absent).
    Flag(bool),
}

/// How the included values of one facet combine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Mode {
    /// Any of the values (the default).
    #[default]
    Or,
    /// Every value (`<facet>_mode=and`); ignored for the geography facets.
    And,
}

/// What a query selects on one facet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Values the job must have (OR, or AND under [`Mode::And`]); de-duplicated, in order.
    pub include: Vec<FacetValue>,
    /// Values the job must not have; each is its own AND group.
    pub exclude: Vec<FacetValue>,
    /// How `include` combines.
    pub mode: Mode,
}

impl Selection {
    /// Whether the selection constrains anything.
    pub fn is_active(&self) -> bool {
        !self.include.is_empty() || !self.exclude.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_complete_and_unique() {
        assert_eq!(Facet::ALL.len(), 25);
        for f in Facet::ALL {
            assert_eq!(Facet::from_param(f.param()), Some(*f));
        }
        let mut params: Vec<_> = Facet::ALL.iter().map(|f| f.param()).collect();
        params.sort_unstable();
        params.dedup();
        assert_eq!(params.len(), 25);
    }

    #[test]
    fn attributes_follow_the_reference() {
        assert_eq!(Facet::Seniority.attribute(), "enrichment.seniority");
        assert_eq!(Facet::Reality.attribute(), "reality.class");
        assert_eq!(Facet::Countries.attribute(), "countries");
        assert_eq!(Facet::PostingLanguage.attribute(), "enrichment.posting_language");
        assert_eq!(Facet::IsTech.attribute(), "is_tech");
    }

    #[test]
    fn closed_values_are_exactly_what_is_accepted() {
        for facet in Facet::ALL {
            let Some(values) = facet.closed_values() else {
                // An open facet takes a value outside any list.
                let sample = match facet {
                    Facet::Countries => "de",
                    Facet::SalaryCurrency => "EUR",
                    _ => "some-value",
                };
                assert!(facet.value(facet.param(), sample).is_ok(), "{facet}");
                continue;
            };
            for v in &values {
                assert!(facet.value(facet.param(), v).is_ok(), "{facet}={v}");
            }
            let refused = facet.value(facet.param(), "not-a-value").unwrap_err().to_string();
            let listed = values.join(", ");
            assert!(refused.ends_with(&listed), "{facet}: {refused} vs {listed}");
        }
    }

    #[test]
    fn values_are_checked_and_canonical() {
        assert_eq!(Facet::Countries.value("countries", "DE"), Ok(FacetValue::Text("de".into())));
        assert_eq!(Facet::Regions.value("regions", "none"), Ok(FacetValue::Empty));
        assert_eq!(
            Facet::SalaryCurrency.value("salary_currency", "eur"),
            Ok(FacetValue::Text("EUR".into()))
        );
        assert_eq!(
            Facet::RequiresClearance.value("requires_clearance", "false"),
            Ok(FacetValue::Flag(false))
        );
        let e = Facet::Regions.value("regions_exclude", "mars").unwrap_err();
        assert_eq!(e.param(), "regions_exclude");
        assert!(e.to_string().ends_with("apac, cis, none"), "{e}");
        let e = Facet::CompanySize.value("company_size", "huge").unwrap_err();
        assert!(e.to_string().contains("1-10, 11-50"), "{e}");
        assert!(Facet::Source.value("source", "Green House").is_err());
        assert!(Facet::Countries.value("countries", "deu").is_err());
    }
}
