//! The assistant (reference §8): sessions, their transcripts and streamed turns, and the
//! caller's plan usage. Every route takes the session cookie or a `full` API key ([`User`])
//! and calls one [`freehire_app::assistant::service::AssistantService`] method.
//!
//! A `{id}` that is not a UUID, or another user's session, is 404 `session not found`;
//! ownership is checked before anything else. The turn routes (`messages`, `retry`,
//! `opening`) refuse with a plain JSON error before any stream opens: 503
//! `assistant_unavailable` without a model, 400 naming `text`, 402 `quota_exceeded` with the
//! `allowance`, 409 `turn_queue_full`, `nothing_to_retry` or `not_openable`. Otherwise they
//! answer `text/event-stream` ([`crate::sse`]): `: open`, then one `event: <type>` /
//! `data: <json>` pair per event (`queued` first when the turn waits behind another), ending
//! with exactly one `result`. Closing the connection does not stop the turn; `cancel` does.

use axum::{
    Json,
    body::Bytes,
    extract::{FromRequestParts, Path, State},
    http::{StatusCode, request::Parts},
    response::Response,
};
use chrono::{DateTime, Utc};
use freehire_app::assistant::SessionId;
use freehire_app::assistant::service::{SessionView, TurnEvents};
use serde::{Deserialize, Serialize};
use utoipa::{
    IntoParams, ToSchema,
    openapi::{
        ObjectBuilder, Required, Type,
        path::{Parameter, ParameterBuilder, ParameterIn},
    },
};

use crate::{
    ApiError, AppState,
    auth::User,
    openapi::{
        Errors,
        code::{
            AssistantUnavailable, Forbidden, InvalidParameter, NotFound, NotOpenable,
            NothingToRetry, QuotaExceeded, TurnQueueFull, Unauthorized, Unavailable,
        },
    },
    view::Single,
};

/// The `{id}` of a session; anything that is not a UUID is a 404, like a session that does
/// not exist.
#[derive(Debug, Clone, Copy)]
pub struct SessionPath(pub SessionId);

impl<S: Send + Sync> FromRequestParts<S> for SessionPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("session not found"))?;
        raw.parse::<SessionId>().map(Self).map_err(|_| ApiError::not_found("session not found"))
    }
}

impl IntoParams for SessionPath {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            ParameterBuilder::new()
                .name("id")
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .description(Some("The session's id (a UUID; anything else is not found)."))
                .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                .build(),
        ]
    }
}

/// `preset` and `job` of `POST /assistant/sessions`.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CreateQuery {
    /// `chat` (default), `profile`, `browse`, `interview` or `debrief`.
    #[serde(default)]
    pub preset: String,
    /// The public slug of the job an interview or debrief is about (one you saved or
    /// applied to); required for those presets.
    pub job: Option<String>,
}

/// A session.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionJson {
    /// Its id (a random UUID).
    pub id: String,
    /// `chat`, `profile`, `browse`, `interview` or `debrief` (`tailor` sessions come from a CV).
    pub preset: String,
    /// The label ("" until the first message names it).
    pub label: String,
    /// The public slug of the job it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub job: Option<String>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it was last used.
    pub updated_at: DateTime<Utc>,
}

impl From<&SessionView> for SessionJson {
    fn from(v: &SessionView) -> Self {
        Self {
            id: v.session.id.to_string(),
            preset: v.session.preset.clone(),
            label: v.session.label.clone().unwrap_or_default(),
            job: v.job.clone(),
            created_at: v.session.created_at,
            updated_at: v.session.updated_at,
        }
    }
}

/// `{"total": n}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionsMeta {
    /// How many sessions the rail holds.
    pub total: u64,
}

/// The rail: `{"data": [session], "meta": {"total"}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionsEnvelope {
    /// The sessions, most recently used first.
    pub data: Vec<SessionJson>,
    /// The count.
    pub meta: SessionsMeta,
}

/// One stored message.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageJson {
    /// Its position, from 1.
    pub seq: i32,
    /// `user`, `assistant` or `tool`.
    pub role: String,
    /// The stored payload, unchanged: `{"text"}` for a user message, `{"text"?,
    /// "tool_calls"?: [{"id","name","arguments"}]}` for an assistant message,
    /// `{"tool_call_id","name","result"}` for a tool result.
    #[schema(value_type = Object)]
    pub content: Box<serde_json::value::RawValue>,
}

/// A session and its whole transcript.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionDetail {
    /// The session.
    pub session: SessionJson,
    /// Every message, by `seq`.
    pub messages: Vec<MessageJson>,
    /// Whether the last turn ended without an assistant answer (the last user message is not
    /// followed by an assistant message with text and no tool calls: the model failed, the
    /// turn was cancelled before any text, a write was lost), so `retry` runs it again.
    pub retryable: bool,
}

/// The body of `POST /assistant/sessions/{id}/messages`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct MessageBody {
    /// The message (trimmed; required; at most `ASSISTANT_MAX_PROMPT` characters, 8000 by
    /// default).
    pub text: String,
}

/// One feature's allowance today.
#[derive(Debug, Serialize, ToSchema)]
pub struct UsageJson {
    /// `tailor`, `match`, `assistant`, `dictation`, `cover-letter` or `auto-apply`.
    pub feature: String,
    /// `free`, `pro` or `ultra`.
    pub tier: String,
    /// Used today.
    pub used: i64,
    /// Today's limit.
    pub limit: i64,
    /// No limit applies.
    pub unlimited: bool,
    /// When the day's count resets (UTC midnight).
    pub resets_at: DateTime<Utc>,
    /// Whether the limit refuses (otherwise it is only counted).
    pub enforced: bool,
}

/// What an SSE route answers.
const STREAM: &str = "The turn's events as `text/event-stream`: `: open`, then `event: <type>` \
    and `data: <json>` per event (`queued`, `user_prompt`, `assistant_text`, \
    `assistant_thought`, `tool_use`, `tool_result`, `usage`), `: keepalive` every 15 s, and \
    exactly one `result` last.";

fn stream(state: &AppState, events: TurnEvents) -> Response {
    crate::sse::response(events, state.sse)
}

/// Creates a session.
#[utoipa::path(
    post, path = "/assistant/sessions", tag = "assistant", operation_id = "create_assistant_session",
    security(("session" = []), ("api_key" = [])),
    params(CreateQuery),
    responses(
        (status = 201, description = "The new session.", body = Single<SessionJson>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn create(
    State(state): State<AppState>,
    User(caller): User,
    query: axum::extract::Query<CreateQuery>,
) -> Result<(StatusCode, Json<Single<SessionJson>>), ApiError> {
    let view = state.assistant.create(caller.user.id, &query.preset, query.job.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(Single { data: SessionJson::from(&view) })))
}

/// The session rail: chat, profile, interview and debrief sessions, most recent first.
#[utoipa::path(
    get, path = "/assistant/sessions", tag = "assistant", operation_id = "list_assistant_sessions",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "Your sessions.", body = SessionsEnvelope),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<SessionsEnvelope>, ApiError> {
    let views = state.assistant.list(caller.user.id).await?;
    let data: Vec<SessionJson> = views.iter().map(SessionJson::from).collect();
    let total = data.len() as u64;
    Ok(Json(SessionsEnvelope { data, meta: SessionsMeta { total } }))
}

/// A session, its whole transcript and whether its last turn may be retried.
#[utoipa::path(
    get, path = "/assistant/sessions/{id}", tag = "assistant", operation_id = "get_assistant_session",
    security(("session" = []), ("api_key" = [])),
    params(SessionPath),
    responses(
        (status = 200, description = "The session and its messages.", body = Single<SessionDetail>),
        Errors<(Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn show(
    State(state): State<AppState>,
    User(caller): User,
    SessionPath(id): SessionPath,
) -> Result<Json<Single<SessionDetail>>, ApiError> {
    let (view, messages) = state.assistant.get(caller.user.id, id).await?;
    let retryable = freehire_app::assistant::needs_retry(&messages);
    let messages = messages
        .into_iter()
        .map(|m| {
            let content =
                serde_json::value::RawValue::from_string(m.content).map_err(ApiError::internal)?;
            Ok(MessageJson { seq: m.seq, role: m.role.as_str().to_owned(), content })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let session = SessionJson::from(&view);
    Ok(Json(Single { data: SessionDetail { session, messages, retryable } }))
}

/// Deletes a session and its transcript (its running turn is stopped).
#[utoipa::path(
    delete, path = "/assistant/sessions/{id}", tag = "assistant", operation_id = "delete_assistant_session",
    security(("session" = []), ("api_key" = [])),
    params(SessionPath),
    responses(
        (status = 204, description = "Deleted."),
        Errors<(Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn delete(
    State(state): State<AppState>,
    User(caller): User,
    SessionPath(id): SessionPath,
) -> Result<StatusCode, ApiError> {
    state.assistant.delete(caller.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Sends a message and streams the turn.
#[utoipa::path(
    post, path = "/assistant/sessions/{id}/messages", tag = "assistant", operation_id = "send_assistant_message",
    security(("session" = []), ("api_key" = [])),
    params(SessionPath),
    request_body = MessageBody,
    responses(
        (status = 200, description = STREAM, content_type = "text/event-stream", body = String),
        Errors<(InvalidParameter, Unauthorized, QuotaExceeded, Forbidden, NotFound, TurnQueueFull, AssistantUnavailable, Unavailable)>,
    ),
)]
pub async fn message(
    State(state): State<AppState>,
    User(caller): User,
    SessionPath(id): SessionPath,
    body: Bytes,
) -> Result<Response, ApiError> {
    // Parsed here, not by an extractor: ownership and the model come first (§8.3).
    let text = serde_json::from_slice::<MessageBody>(&body).ok().map(|b| b.text);
    let events = state.assistant.send(&caller.user, id, text.as_deref()).await?;
    Ok(stream(&state, events))
}

/// Runs the last turn again (after an error) and streams it.
#[utoipa::path(
    post, path = "/assistant/sessions/{id}/retry", tag = "assistant", operation_id = "retry_assistant_turn",
    security(("session" = []), ("api_key" = [])),
    params(SessionPath),
    responses(
        (status = 200, description = STREAM, content_type = "text/event-stream", body = String),
        Errors<(Unauthorized, QuotaExceeded, Forbidden, NotFound, TurnQueueFull, NothingToRetry, AssistantUnavailable, Unavailable)>,
    ),
)]
pub async fn retry(
    State(state): State<AppState>,
    User(caller): User,
    SessionPath(id): SessionPath,
) -> Result<Response, ApiError> {
    let events = state.assistant.retry(&caller.user, id).await?;
    Ok(stream(&state, events))
}

/// Opens an interview or debrief session (the assistant speaks first) and streams it.
#[utoipa::path(
    post, path = "/assistant/sessions/{id}/opening", tag = "assistant", operation_id = "open_assistant_session",
    security(("session" = []), ("api_key" = [])),
    params(SessionPath),
    responses(
        (status = 200, description = STREAM, content_type = "text/event-stream", body = String),
        Errors<(Unauthorized, QuotaExceeded, Forbidden, NotFound, TurnQueueFull, NotOpenable, AssistantUnavailable, Unavailable)>,
    ),
)]
pub async fn opening(
    State(state): State<AppState>,
    User(caller): User,
    SessionPath(id): SessionPath,
) -> Result<Response, ApiError> {
    let events = state.assistant.open(&caller.user, id).await?;
    Ok(stream(&state, events))
}

/// Stops the running turn and the queued one (whether or not anything runs).
#[utoipa::path(
    post, path = "/assistant/sessions/{id}/cancel", tag = "assistant", operation_id = "cancel_assistant_turn",
    security(("session" = []), ("api_key" = [])),
    params(SessionPath),
    responses(
        (status = 204, description = "Stopped, or nothing was running."),
        Errors<(Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn cancel(
    State(state): State<AppState>,
    User(caller): User,
    SessionPath(id): SessionPath,
) -> Result<StatusCode, ApiError> {
    state.assistant.cancel(caller.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Your plan's allowances today, per feature.
#[utoipa::path(
    get, path = "/me/usage", tag = "assistant", operation_id = "my_usage",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "One entry per feature.", body = Single<Vec<UsageJson>>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn usage(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<Vec<UsageJson>>>, ApiError> {
    let standings = state.assistant.plans().usage(caller.user.id).await?;
    let data = standings
        .iter()
        .map(|s| UsageJson {
            feature: s.feature.as_str().to_owned(),
            tier: s.tier.as_str().to_owned(),
            used: s.used,
            limit: s.limit,
            unlimited: s.unlimited,
            resets_at: s.resets_at,
            enforced: s.enforced,
        })
        .collect();
    Ok(Json(Single { data }))
}
