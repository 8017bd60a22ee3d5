//! The screening-answers routes (`/me/screening-answers`): read them, change some of them.
//! A `full` key is needed (a `cv` key is refused).

use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::wire::Envelope;
use crate::{Client, ClientError};

/// The answers (`ScreeningView`): `None` is not stated.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct ScreeningAnswers {
    /// Country codes (lower case) they may work in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorized_countries: Option<Vec<String>>,
    /// Whether they need visa sponsorship.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visa_sponsorship_needed: Option<bool>,
    /// The desired salary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_amount: Option<u64>,
    /// Its currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_currency: Option<String>,
    /// What it is paid per.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_period: Option<String>,
    /// Notice period in days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice_period_days: Option<u16>,
    /// Whether they would relocate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub willing_to_relocate: Option<bool>,
    /// Whether they are 18 or older.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_18_or_older: Option<bool>,
    /// The fields not stated yet.
    pub unstated: Vec<String>,
}

/// A change (`ScreeningBody`): `None` leaves a field, `Some(None)` forgets it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ScreeningUpdate {
    /// Country codes, any case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorized_countries: Option<Option<Vec<String>>>,
    /// Whether they need visa sponsorship.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visa_sponsorship_needed: Option<Option<bool>>,
    /// The desired salary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_amount: Option<Option<i64>>,
    /// Its currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_currency: Option<Option<String>>,
    /// `year`, `month`, `day` or `hour`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_period: Option<Option<String>>,
    /// Notice period in days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice_period_days: Option<Option<i64>>,
    /// Whether they would relocate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub willing_to_relocate: Option<Option<bool>>,
    /// Whether they are 18 or older.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_18_or_older: Option<Option<bool>>,
}

impl Client {
    /// `GET /me/screening-answers`.
    pub async fn screening_answers(&self) -> Result<ScreeningAnswers, ClientError> {
        let got: Envelope<ScreeningAnswers> =
            self.call(Method::GET, "me/screening-answers", None::<&()>).await?;
        Ok(got.data)
    }

    /// `PATCH /me/screening-answers`.
    pub async fn update_screening_answers(
        &self,
        change: &ScreeningUpdate,
    ) -> Result<ScreeningAnswers, ClientError> {
        let got: Envelope<ScreeningAnswers> =
            self.call(Method::PATCH, "me/screening-answers", Some(change)).await?;
        Ok(got.data)
    }
}
