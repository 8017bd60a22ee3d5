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
    /// A list's `meta` (its `total`), on the routes that answer one.
    #[serde(default)]
    pub meta: Meta,
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

/// `{"meta": {"total": n}}` beside a list's `data`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Meta {
    /// The list's total.
    pub total: Option<u64>,
}

/// An assistant session (`AssistantSession`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct AssistantSession {
    /// Its id (a UUID: `/assistant/sessions/{id}`).
    pub id: String,
    /// `chat`, `profile`, `browse`, `interview` or `debrief`.
    pub preset: String,
    /// Its label (empty until the first message names it).
    pub label: String,
    /// The public slug of the job an interview or debrief is about.
    pub job: Option<String>,
    /// When it was created.
    pub created_at: Option<DateTime<Utc>>,
    /// When it last changed.
    pub updated_at: Option<DateTime<Utc>>,
}

/// One stored transcript message: `content` is the stored JSON (`{"text"}` for `user`,
/// `{"text"?, "tool_calls"?}` for `assistant`, `{"tool_call_id","name","result"}` for `tool`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct StoredMessage {
    /// Its position, from 1.
    pub seq: i64,
    /// `user`, `assistant` or `tool`.
    pub role: String,
    /// The stored payload.
    pub content: serde_json::Value,
}

/// `GET /assistant/sessions/{id}`: the session and its whole transcript.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct SessionTranscript {
    /// The session.
    pub session: AssistantSession,
    /// Its messages in order.
    pub messages: Vec<StoredMessage>,
}

/// One feature's standing for today (`GET /me/usage`, and the `allowance` of a 402).
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct Allowance {
    /// `assistant`, `tailor`, …
    pub feature: String,
    /// `free`, `pro` or `ultra`.
    pub tier: String,
    /// Used today.
    pub used: i64,
    /// Today's allowance.
    pub limit: i64,
    /// True when the tier has no daily ceiling (a fair-use guard only).
    pub unlimited: bool,
    /// When the count starts again (the next UTC midnight).
    pub resets_at: Option<DateTime<Utc>>,
    /// Whether the allowance is enforced (else counted only).
    pub enforced: bool,
}

/// The body of `POST /assistant/sessions/{id}/messages`.
#[derive(Debug, Clone, Serialize)]
pub struct Prompt<'a> {
    /// The message.
    pub text: &'a str,
}

/// One event of a streamed turn (the `data` of an SSE event; its `type` names the variant).
/// Exactly one [`TurnEvent::Result`] ends every turn.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TurnEvent {
    /// The message waits behind a running turn of the session.
    Queued,
    /// The prompt was recorded.
    UserPrompt {
        /// The prompt.
        #[serde(default)]
        text: String,
    },
    /// A delta of the answer (or, `synthetic`, a note the server wrote itself).
    AssistantText {
        /// The delta.
        #[serde(default)]
        text: String,
        /// True for a note the runner wrote (an empty reply, the step limit).
        #[serde(default)]
        synthetic: bool,
    },
    /// A delta of the model's reasoning.
    AssistantThought {
        /// The delta.
        #[serde(default)]
        text: String,
    },
    /// A tool is about to run.
    ToolUse {
        /// The call's id (pairs it with its result).
        #[serde(default)]
        id: String,
        /// The tool.
        #[serde(default)]
        name: String,
        /// Its arguments (the JSON itself, or the raw string when it was not JSON).
        #[serde(default)]
        input: serde_json::Value,
    },
    /// A tool ran.
    ToolResult {
        /// The id of the call it answers.
        #[serde(default)]
        id: String,
        /// The tool.
        #[serde(default)]
        name: String,
        /// The result: a string holding JSON.
        #[serde(default)]
        result: String,
        /// True when the result is an error (`{"error": …}`).
        #[serde(default)]
        is_error: bool,
    },
    /// Token counts of the turn.
    Usage {
        /// Prompt tokens.
        #[serde(default)]
        input_tokens: u64,
        /// Completion tokens.
        #[serde(default)]
        output_tokens: u64,
    },
    /// The end of the turn.
    Result {
        /// `end_turn`, `max_steps`, `cancelled` or `error`.
        #[serde(default)]
        stop_reason: String,
        /// True for an error.
        #[serde(default)]
        is_error: bool,
        /// What failed, for an error.
        #[serde(default)]
        message: Option<String>,
    },
    /// An event type this client does not know (a newer server's): skipped by callers.
    #[serde(other)]
    Other,
}

impl TurnEvent {
    /// True for the terminal event.
    pub fn is_terminal(&self) -> bool {
        matches!(self, TurnEvent::Result { .. })
    }
}
