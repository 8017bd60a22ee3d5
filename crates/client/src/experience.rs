//! The experience-bank routes (`/me/experience*`): the bank, and adding achievements and
//! employments. A `cv`-scoped key is enough.

use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::wire::Envelope;
use crate::{Client, ClientError};

/// A `{year, month?}` date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub struct Period {
    /// The year.
    pub year: i32,
    /// The month (1–12), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub month: Option<u8>,
}

/// An employment (`EmploymentView`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Employment {
    /// Its id.
    pub id: i64,
    /// `job` or `project`.
    pub kind: String,
    /// A job's employer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// A project's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The role.
    pub role: String,
    /// Where.
    pub location: String,
    /// From.
    pub start: Option<Period>,
    /// To.
    pub end: Option<Period>,
    /// Still going.
    pub current: bool,
    /// Canonical skills.
    pub stack: Vec<String>,
}

/// An achievement (`AtomView`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Atom {
    /// Its id.
    pub id: i64,
    /// Its employment.
    pub employment_id: Option<i64>,
    /// The claim.
    pub claim: String,
    /// Its context.
    pub context: String,
    /// Its figures.
    pub metrics: Vec<String>,
    /// Canonical skills.
    pub skills: Vec<String>,
    /// Where it came from.
    pub provenance: String,
    /// Whether a CV may cite it.
    pub confirmed: bool,
}

/// The bank (`BankView`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Bank {
    /// Employments, current first.
    pub employments: Vec<Employment>,
    /// Achievements.
    pub atoms: Vec<Atom>,
    /// Near-duplicate clusters (ids).
    pub soft_duplicates: Vec<Vec<i64>>,
    /// The require-context preference.
    pub require_context: bool,
}

/// A new achievement (`AtomBody`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct NewAtom {
    /// The claim.
    pub claim: String,
    /// Its employment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub employment_id: Option<i64>,
    /// Its context.
    pub context: String,
    /// Its figures.
    pub metrics: Vec<String>,
    /// Its skills.
    pub skills: Vec<String>,
}

/// A new employment (`EmploymentBody`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct NewEmployment {
    /// `job` or `project`.
    pub kind: String,
    /// A job's employer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// A project's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The role.
    pub role: String,
    /// From.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Period>,
    /// To.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<Period>,
    /// Still going.
    pub current: bool,
    /// Skills.
    pub stack: Vec<String>,
}

impl Client {
    /// `GET /me/experience`.
    pub async fn experience(&self) -> Result<Bank, ClientError> {
        let bank: Envelope<Bank> = self.call(Method::GET, "me/experience", None::<&()>).await?;
        Ok(bank.data)
    }

    /// `POST /me/experience/atoms` (recorded as the candidate's own, `manual`).
    pub async fn add_atom(&self, atom: &NewAtom) -> Result<Atom, ClientError> {
        let created: Envelope<Atom> =
            self.call(Method::POST, "me/experience/atoms", Some(atom)).await?;
        Ok(created.data)
    }

    /// `POST /me/experience/employments`.
    pub async fn add_employment(&self, e: &NewEmployment) -> Result<Employment, ClientError> {
        let created: Envelope<Employment> =
            self.call(Method::POST, "me/experience/employments", Some(e)).await?;
        Ok(created.data)
    }
}
