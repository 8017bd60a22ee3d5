//! `screening_answers_set` (reference assistant.md §10.5): records the facts application forms
//! ask (work authorisation, visa, desired salary, notice period, relocation, age) whenever the
//! candidate mentions them, in every preset. The arguments are a partial update: an omitted
//! field is left untouched (the model cannot clear one; the candidate can, on `/account` or
//! through `PATCH /me/screening-answers`). Values are checked by
//! [`ScreeningPatch::check`], so a bad one is refused naming its field and the allowed form,
//! and nothing is written. The result is the answers after the update and the fields still
//! unstated, which the model may ask about when they matter.

use std::sync::Arc;

use freehire_domain::screening::RawScreening;
use freehire_domain::{ScreeningAnswers, ScreeningPatch, UserId};
use freehire_tools::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Services, internal, tool};
use crate::screening::ScreeningError;

/// The fields of the answers, in the order the tool lists the unstated ones.
pub const FIELDS: [&str; 8] = [
    "authorized_countries",
    "visa_sponsorship_needed",
    "desired_salary_amount",
    "desired_salary_currency",
    "desired_salary_period",
    "notice_period_days",
    "willing_to_relocate",
    "age_18_or_older",
];

pub(super) fn tool_for(s: &Arc<Services>) -> Arc<dyn Tool<UserId>> {
    tool(
        s,
        "screening_answers_set",
        "Records the candidate's answers to the usual application-form questions as soon as \
         they state one: countries they may work in, visa sponsorship, desired salary, notice \
         period, relocation, being 18 or older. Send only what they said; omitted fields stay \
         as they are. Returns {screening_answers, unstated}.",
        set,
    )
}

/// What the desired salary is paid per.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PeriodArg {
    Year,
    Month,
    Day,
    Hour,
}

impl PeriodArg {
    fn as_str(self) -> &'static str {
        match self {
            Self::Year => "year",
            Self::Month => "month",
            Self::Day => "day",
            Self::Hour => "hour",
        }
    }
}

/// `screening_answers_set` arguments: only what the candidate stated.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetArgs {
    /// ISO 3166-1 alpha-2 codes of the countries they may work in without sponsorship
    /// (replaces the list).
    pub authorized_countries: Option<Vec<String>>,
    /// Whether they need visa sponsorship.
    pub visa_sponsorship_needed: Option<bool>,
    /// The salary they ask for, in whole currency units.
    pub desired_salary_amount: Option<i64>,
    /// The ISO 4217 code of that salary, e.g. EUR.
    pub desired_salary_currency: Option<String>,
    /// What that salary is paid per.
    pub desired_salary_period: Option<PeriodArg>,
    /// Their notice period in days.
    pub notice_period_days: Option<i64>,
    /// Whether they would relocate.
    pub willing_to_relocate: Option<bool>,
    /// Whether they are 18 or older.
    pub age_18_or_older: Option<bool>,
}

impl SetArgs {
    /// The checked patch: every present argument set, the rest untouched.
    pub fn patch(&self) -> Result<ScreeningPatch, freehire_domain::DomainError> {
        ScreeningPatch::check(RawScreening {
            authorized_countries: self
                .authorized_countries
                .as_ref()
                .map(|l| Some(l.iter().map(String::as_str).collect())),
            visa_sponsorship_needed: self.visa_sponsorship_needed.map(Some),
            desired_salary_amount: self.desired_salary_amount.map(Some),
            desired_salary_currency: self.desired_salary_currency.as_deref().map(Some),
            desired_salary_period: self.desired_salary_period.map(|p| Some(p.as_str())),
            notice_period_days: self.notice_period_days.map(Some),
            willing_to_relocate: self.willing_to_relocate.map(Some),
            age_18_or_older: self.age_18_or_older.map(Some),
        })
    }
}

/// The fields of `answers` nobody has stated yet, in [`FIELDS`] order.
pub fn unstated(answers: &ScreeningAnswers) -> Vec<&'static str> {
    let stated = serde_json::to_value(answers).unwrap_or(Value::Null);
    FIELDS.into_iter().filter(|f| stated.get(f).is_none()).collect()
}

async fn set(s: Arc<Services>, owner: UserId, args: SetArgs) -> Result<Value, String> {
    let patch = args.patch().map_err(|e| e.to_string())?;
    if patch.is_empty() {
        return Err(format!(
            "nothing to record: send at least one of {} with what the candidate said",
            FIELDS.join(", ")
        ));
    }
    match s.screening.set(owner, &patch).await {
        Ok(answers) => Ok(json!({
            "screening_answers": answers,
            "unstated": unstated(&answers),
        })),
        Err(ScreeningError::NotFound) => Err("the candidate's account is gone".to_owned()),
        Err(e) => Err(internal("screening_answers_set", e)),
    }
}
