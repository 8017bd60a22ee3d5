//! Market coverage: how much of a filtered slice of the catalogue a set of skills reaches,
//! computed on the search index. The assistant's `market_fit` tool calls it; a future
//! `POST /market/coverage` route can call it as it is.
//!
//! For the vacancies matching the filter (the filter grammar of search, without any `skills`
//! selection):
//!
//! - `covered`: how many list at least one of the skills (one count with the skills OR-ed);
//! - per skill, how many list it (from the skills distribution of the filtered set; a skill
//!   the distribution does not reach, which is capped at the engine's facet-value limit, is
//!   counted on its own);
//! - the gaps: the skills listed by fewer than [`GAP_SHARE_PERCENT`] of the filtered vacancies
//!   (none at all included);
//! - the [`TOP_SKILLS`] most listed skills of the filtered set, each marked when it is one of
//!   the measured skills.

use chrono::{DateTime, Utc};
use freehire_search::{Endpoint, Facet, FacetsRequest, JobQuery, SearchIndex};
use serde::Serialize;

use crate::{AppError, search};

/// The most skills one coverage measures.
pub const MAX_COVERAGE_SKILLS: usize = 20;
/// A measured skill listed by fewer than this share of the filtered vacancies is a gap.
pub const GAP_SHARE_PERCENT: f64 = 2.0;
/// How many of the filtered set's most listed skills are reported.
pub const TOP_SKILLS: usize = 15;

/// One measured skill.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillCoverage {
    /// The skill slug.
    pub skill: String,
    /// Filtered vacancies listing it.
    pub vacancies: u64,
    /// Their share of the filtered vacancies, in percent (one decimal).
    pub percent: f64,
}

/// One of the filtered set's most listed skills.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopSkill {
    /// The skill slug.
    pub skill: String,
    /// Filtered vacancies listing it.
    pub vacancies: u64,
    /// Whether it is one of the measured skills.
    pub measured: bool,
}

/// The coverage of a set of skills over a filtered slice of the catalogue.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coverage {
    /// Vacancies matching the filter.
    pub total: u64,
    /// Of those, the ones listing at least one measured skill.
    pub covered: u64,
    /// `covered` as a share of `total`, in percent (one decimal; 0 when nothing matches).
    pub coverage_percent: f64,
    /// Every measured skill, in the order given.
    pub skills: Vec<SkillCoverage>,
    /// The measured skills listed by fewer than [`GAP_SHARE_PERCENT`] of the vacancies.
    pub gaps: Vec<String>,
    /// The filtered set's most listed skills, most first.
    pub top_skills: Vec<TopSkill>,
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        return 0.0;
    }
    (part as f64 * 1000.0 / whole as f64).round() / 10.0
}

/// The filter parameters without any `skills` selection (`skills`, `skills_exclude`,
/// `skills_mode`).
pub fn without_skills(params: &[(String, String)]) -> Vec<(String, String)> {
    let skills = Facet::Skills.param();
    params
        .iter()
        .filter(|(name, _)| {
            let base = name.strip_suffix("_exclude").or_else(|| name.strip_suffix("_mode"));
            name != skills && base != Some(skills)
        })
        .cloned()
        .collect()
}

async fn count(
    index: &dyn SearchIndex,
    filter: &[(String, String)],
    skills: &[&str],
    now: DateTime<Utc>,
) -> Result<u64, AppError> {
    let mut params = filter.to_vec();
    params.push((Facet::Skills.param().to_owned(), skills.join(",")));
    params.push(("limit".to_owned(), "1".to_owned()));
    let query = JobQuery::parse(&params, Endpoint::Search)?;
    Ok(search::hits(index, &query, now).await?.0.total)
}

/// Measures `skills` (slugs, de-duplicated in order) over the vacancies matching `filter`
/// (search parameters; any `skills` selection in it is dropped). A bad filter value is
/// [`AppError::Query`] naming the parameter.
pub async fn coverage(
    index: &dyn SearchIndex,
    filter: &[(String, String)],
    skills: &[String],
    now: DateTime<Utc>,
) -> Result<Coverage, AppError> {
    let filter = without_skills(filter);
    let mut measured: Vec<&str> = Vec::new();
    for s in skills.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        if !measured.contains(&s) {
            measured.push(s);
        }
    }
    let mut facet_params = filter.clone();
    facet_params.push(("facets".to_owned(), Facet::Skills.param().to_owned()));
    let counts = search::facets(index, &FacetsRequest::parse(&facet_params)?, now).await?;
    let total = counts.total;
    let distribution = counts.facets.get(&Facet::Skills).cloned().unwrap_or_default();
    let covered =
        if measured.is_empty() { 0 } else { count(index, &filter, &measured, now).await? };
    let mut per_skill = Vec::with_capacity(measured.len());
    for skill in &measured {
        let vacancies = match distribution.iter().find(|(v, _)| v == skill) {
            Some((_, n)) => *n,
            None => count(index, &filter, &[skill], now).await?,
        };
        per_skill.push(SkillCoverage {
            skill: (*skill).to_owned(),
            vacancies,
            percent: percent(vacancies, total),
        });
    }
    let gaps = per_skill
        .iter()
        .filter(|s| s.vacancies == 0 || s.percent < GAP_SHARE_PERCENT)
        .map(|s| s.skill.clone())
        .collect();
    let top_skills = distribution
        .iter()
        .take(TOP_SKILLS)
        .map(|(skill, vacancies)| TopSkill {
            skill: skill.clone(),
            vacancies: *vacancies,
            measured: measured.contains(&skill.as_str()),
        })
        .collect();
    Ok(Coverage {
        total,
        covered,
        coverage_percent: percent(covered, total),
        skills: per_skill,
        gaps,
        top_skills,
    })
}
