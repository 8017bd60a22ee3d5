//! `POST /api/v1/market/coverage` (reference search-ingest §5.12): how much of a filtered slice
//! of the catalogue a set of skills reaches ([`freehire_app::market::coverage`], the
//! computation the assistant's `market_fit` tool runs). The body names the skills; the filter
//! is the search grammar in the query string. Public, in the public reads' bucket.

use axum::{Json, extract::State};
use freehire_app::market::{self, Coverage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    ApiError, AppState,
    body::JsonBody,
    extract::MarketQuery,
    openapi::{
        Errors,
        code::{
            InvalidParameter, InvalidQuery, RateLimited, SearchUnavailable, Unauthorized,
            UnsupportedMediaType,
        },
    },
    routes::search::index,
};

/// `{"skills": ["rust", "go"]}`: the canonical skill slugs to measure.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CoverageBody {
    /// 1 to 20 skill slugs (duplicates and blanks are dropped).
    skills: Vec<String>,
}

/// One measured skill.
#[derive(Debug, Serialize, ToSchema)]
pub struct SkillCoverageView {
    skill: String,
    /// Filtered vacancies listing it.
    vacancies: u64,
    /// Their share of the filtered vacancies, in percent (one decimal).
    percent: f64,
}

/// One of the filtered set's most listed skills.
#[derive(Debug, Serialize, ToSchema)]
pub struct TopSkillView {
    skill: String,
    vacancies: u64,
    /// Whether it is one of the measured skills.
    measured: bool,
}

/// The coverage of the skills over the filtered vacancies.
#[derive(Debug, Serialize, ToSchema)]
pub struct CoverageView {
    /// Vacancies matching the filter.
    total: u64,
    /// Of those, the ones listing at least one of the skills.
    covered: u64,
    /// `covered` as a share of `total`, in percent (one decimal).
    coverage_percent: f64,
    /// Every measured skill, in the order given.
    skills: Vec<SkillCoverageView>,
    /// The measured skills listed by fewer than 2 % of the vacancies.
    gaps: Vec<String>,
    /// The filtered set's most listed skills (at most 15), most first.
    top_skills: Vec<TopSkillView>,
}

impl From<Coverage> for CoverageView {
    fn from(c: Coverage) -> Self {
        Self {
            total: c.total,
            covered: c.covered,
            coverage_percent: c.coverage_percent,
            skills: c
                .skills
                .into_iter()
                .map(|s| SkillCoverageView {
                    skill: s.skill,
                    vacancies: s.vacancies,
                    percent: s.percent,
                })
                .collect(),
            gaps: c.gaps,
            top_skills: c
                .top_skills
                .into_iter()
                .map(|t| TopSkillView {
                    skill: t.skill,
                    vacancies: t.vacancies,
                    measured: t.measured,
                })
                .collect(),
        }
    }
}

/// `{"data": coverage}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CoverageAnswer {
    data: CoverageView,
}

/// The share of the vacancies matching the filter that list at least one of the skills, each
/// skill's count, the gaps and the filtered set's most listed skills.
#[utoipa::path(
    post, path = "/market/coverage", tag = "search", operation_id = "market_coverage",
    security((), ("api_key" = [])),
    params(MarketQuery),
    request_body = CoverageBody,
    responses(
        (status = 200, description = "The coverage.", body = CoverageAnswer, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the caller's bucket allows at once (absent when the limits are off)."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, InvalidQuery, UnsupportedMediaType, SearchUnavailable, Unauthorized, RateLimited)>,
    ),
)]
pub async fn coverage(
    State(state): State<AppState>,
    MarketQuery(filter): MarketQuery,
    JsonBody(body): JsonBody<CoverageBody>,
) -> Result<Json<CoverageAnswer>, ApiError> {
    let mut skills: Vec<String> = Vec::new();
    for skill in body.skills.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        if !skills.iter().any(|k| k == skill) {
            skills.push(skill.to_owned());
        }
    }
    if skills.is_empty() || skills.len() > market::MAX_COVERAGE_SKILLS {
        return Err(ApiError::bad_param(
            "skills",
            &body.skills.join(","),
            &format!("must list 1 to {} skill slugs", market::MAX_COVERAGE_SKILLS),
        ));
    }
    let index = index(&state).await?;
    let coverage = market::coverage(index.as_ref(), &filter, &skills, (state.clock)()).await?;
    Ok(Json(CoverageAnswer { data: coverage.into() }))
}
