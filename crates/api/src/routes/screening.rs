//! `/api/v1/me/screening-answers`: the candidate's answers to the usual application-form
//! questions (reference assistant.md §10.5), the same answers the assistant's
//! `screening_answers_set` records. `GET` reads them, `PATCH` is a partial update: an absent
//! field is left as it is, `null` forgets it. Cookie or a `full` API key (these are not CV
//! surfaces). The rules are [`freehire_app::screening`]'s and the domain's
//! [`ScreeningPatch::check`]: a bad value is 400 naming its field, and nothing is written.

use axum::{Json, extract::State};
use freehire_app::screening::ScreeningError;
use freehire_domain::screening::RawScreening;
use freehire_domain::{DomainError, ScreeningAnswers, ScreeningPatch};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    ApiError, AppState,
    auth::{User, wire::present},
    body::JsonBody,
    openapi::{
        Errors,
        code::{
            Forbidden, InvalidParameter, NotFound, Unauthorized, Unavailable, UnsupportedMediaType,
        },
    },
    view::Single,
};

impl From<ScreeningError> for ApiError {
    fn from(e: ScreeningError) -> Self {
        match e {
            ScreeningError::NotFound => Self::not_found("account not found"),
            ScreeningError::Store(e) => e.into(),
        }
    }
}

/// The answers: a field absent is not stated yet.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScreeningView {
    /// ISO 3166-1 alpha-2 codes (lower case, sorted) of the countries the candidate may work in.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(["de", "fr"]))]
    pub authorized_countries: Option<Vec<String>>,
    /// Whether they need visa sponsorship.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visa_sponsorship_needed: Option<bool>,
    /// The salary they ask for, in whole currency units.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 85000)]
    pub desired_salary_amount: Option<u64>,
    /// Its ISO 4217 currency, upper case.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "EUR")]
    pub desired_salary_currency: Option<String>,
    /// `year`, `month`, `day` or `hour`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "year")]
    pub desired_salary_period: Option<String>,
    /// Their notice period in days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice_period_days: Option<u16>,
    /// Whether they would relocate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub willing_to_relocate: Option<bool>,
    /// Whether they are 18 or older.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_18_or_older: Option<bool>,
    /// The fields not stated yet.
    pub unstated: Vec<&'static str>,
}

impl From<ScreeningAnswers> for ScreeningView {
    fn from(a: ScreeningAnswers) -> Self {
        let unstated = freehire_app::assistant::tools::screening::unstated(&a);
        Self {
            authorized_countries: a
                .authorized_countries
                .map(|l| l.iter().map(|c| c.as_str().to_owned()).collect()),
            visa_sponsorship_needed: a.visa_sponsorship_needed,
            desired_salary_amount: a.desired_salary_amount,
            desired_salary_currency: a.desired_salary_currency,
            desired_salary_period: a.desired_salary_period.map(|p| p.as_str().to_owned()),
            notice_period_days: a.notice_period_days,
            willing_to_relocate: a.willing_to_relocate,
            age_18_or_older: a.age_18_or_older,
            unstated,
        }
    }
}

/// `PATCH /me/screening-answers`: absent leaves a field, `null` forgets it.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreeningBody {
    /// ISO 3166-1 alpha-2 codes, any case (replaces the list; at most 60).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<Vec<String>>, example = json!(["DE", "FR"]))]
    pub authorized_countries: Option<Option<Vec<String>>>,
    /// Whether they need visa sponsorship.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<bool>)]
    pub visa_sponsorship_needed: Option<Option<bool>>,
    /// 1 to 1,000,000,000 whole currency units.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>, example = 85000)]
    pub desired_salary_amount: Option<Option<i64>>,
    /// An ISO 4217 code, any case.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, example = "EUR")]
    pub desired_salary_currency: Option<Option<String>>,
    /// `year`, `month`, `day` or `hour`.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, example = "year")]
    pub desired_salary_period: Option<Option<String>>,
    /// 0 to 730 days.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>, example = 30)]
    pub notice_period_days: Option<Option<i64>>,
    /// Whether they would relocate.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<bool>)]
    pub willing_to_relocate: Option<Option<bool>>,
    /// Whether they are 18 or older.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<bool>)]
    pub age_18_or_older: Option<Option<bool>>,
}

impl ScreeningBody {
    /// The checked patch.
    pub fn parse(&self) -> Result<ScreeningPatch, DomainError> {
        fn text(v: &Option<Option<String>>) -> Option<Option<&str>> {
            v.as_ref().map(|v| v.as_deref())
        }
        ScreeningPatch::check(RawScreening {
            authorized_countries: self
                .authorized_countries
                .as_ref()
                .map(|v| v.as_ref().map(|l| l.iter().map(String::as_str).collect())),
            visa_sponsorship_needed: self.visa_sponsorship_needed,
            desired_salary_amount: self.desired_salary_amount,
            desired_salary_currency: text(&self.desired_salary_currency),
            desired_salary_period: text(&self.desired_salary_period),
            notice_period_days: self.notice_period_days,
            willing_to_relocate: self.willing_to_relocate,
            age_18_or_older: self.age_18_or_older,
        })
    }
}

/// The candidate's screening answers.
#[utoipa::path(
    get, path = "/me/screening-answers", tag = "accounts", operation_id = "get_screening_answers",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The answers; `unstated` lists the fields not stated yet.", body = Single<ScreeningView>),
        Errors<(Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<ScreeningView>>, ApiError> {
    let answers = state.screening().get(caller.user.id).await?;
    Ok(Json(Single { data: answers.into() }))
}

/// Changes some of the answers: absent fields stay, `null` forgets one.
#[utoipa::path(
    patch, path = "/me/screening-answers", tag = "accounts", operation_id = "update_screening_answers",
    security(("session" = []), ("api_key" = [])),
    request_body = ScreeningBody,
    responses(
        (status = 200, description = "The answers after the change.", body = Single<ScreeningView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    User(caller): User,
    JsonBody(body): JsonBody<ScreeningBody>,
) -> Result<Json<Single<ScreeningView>>, ApiError> {
    let patch = body.parse()?;
    let answers = state.screening().set(caller.user.id, &patch).await?;
    Ok(Json(Single { data: answers.into() }))
}
