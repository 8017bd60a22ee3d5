//! The API's answers as this client reads them: the fields the command line shows, each
//! optional where the server may leave it out, so a newer server's extra fields never break
//! an older client.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// `{"data": …}`, the envelope of every answer.
#[derive(Debug, Clone, Deserialize)]
pub struct Envelope<T> {
    /// The payload.
    pub data: T,
    /// A list's total, when the route pages.
    #[serde(default)]
    pub total: Option<u64>,
}

/// An application record (`Application` in the OpenAPI document).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Application {
    /// Its row id (`/me/applications/{id}`).
    pub id: Option<i64>,
    /// The posting's slug, while it exists.
    pub job_slug: Option<String>,
    /// The company's name.
    pub company: Option<String>,
    /// The role's title.
    pub role_title: Option<String>,
    /// The stage.
    pub stage: Option<String>,
    /// When it was applied for.
    pub applied_at: Option<DateTime<Utc>>,
    /// The candidate's notes.
    pub notes: Option<String>,
    /// Days since the last activity, for an applied, unsettled application.
    pub days_silent: Option<u32>,
    /// `waiting` or `silent`.
    pub silence_state: Option<String>,
}

/// A job's tracking state (`Track`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Track {
    /// The job.
    pub job_slug: Option<String>,
    /// When it was first viewed.
    pub viewed_at: Option<DateTime<Utc>>,
    /// When it was saved.
    pub saved_at: Option<DateTime<Utc>>,
    /// When it was dismissed.
    pub dismissed_at: Option<DateTime<Utc>>,
    /// The application, once there is one.
    pub application: Option<Application>,
}

/// One tracked job in a list (`Card`: the application's fields and the job's).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Card {
    /// The posting's slug.
    pub job_slug: Option<String>,
    /// The job's title.
    pub title: Option<String>,
    /// The role's title on the application.
    pub role_title: Option<String>,
    /// The company.
    pub company: Option<String>,
    /// The stage, once there is one.
    pub stage: Option<String>,
    /// When it was saved.
    pub saved_at: Option<DateTime<Utc>>,
    /// When it was applied for.
    pub applied_at: Option<DateTime<Utc>>,
    /// Days since the last activity.
    pub days_silent: Option<u32>,
    /// `waiting` or `silent`.
    pub silence_state: Option<String>,
}

/// A saved search (`SavedSearch`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct SavedSearch {
    /// Its id (`/me/saved-searches/{id}`).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The query, in the search grammar.
    pub query: String,
    /// Its subscriptions.
    pub subscriptions: Vec<Subscription>,
}

/// A saved search's subscription.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Subscription {
    /// Its id.
    pub id: i64,
    /// `email` or `webhook`.
    pub channel: String,
}

/// The body of `POST /jobs/{slug}/apply`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ApplyBody {
    /// The day it was applied on (today when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_on: Option<NaiveDate>,
}

/// The body of `PATCH /jobs/{slug}/track`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TrackPatch {
    /// The new stage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    /// The new notes (replacing the old).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// The body of `POST /me/saved-searches`.
#[derive(Debug, Clone, Serialize)]
pub struct NewSavedSearch<'a> {
    /// Its name.
    pub name: &'a str,
    /// The query, in the search grammar.
    pub query: &'a str,
}
