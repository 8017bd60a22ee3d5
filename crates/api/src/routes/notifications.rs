//! `/api/v1/me/notifications*` and `/api/v1/me/notification-settings`: the user's
//! notification history (digests, reminders, nudges: written by the worker's engines, read
//! here) and their notification settings. Signed in by cookie or `full` API key.

use axum::{
    Json,
    extract::{Path, State},
};
use chrono::{DateTime, Utc};
use freehire_app::saved_searches::SettingsInput;
use freehire_domain::NotificationId;
use freehire_store::{Notification, NotificationJobs, NotificationSettings, NotifiedJob};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    ApiError, AppState,
    auth::User,
    body::JsonBody,
    extract::ListQuery,
    openapi::{
        Errors,
        code::{
            Forbidden, InvalidParameter, NotFound, Unauthorized, Unavailable, UnsupportedMediaType,
        },
    },
    routes::saved_searches::path_id,
    view::Single,
};

/// An entry of the history.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NotificationView {
    /// Addresses it under `/me/notifications/{id}`.
    pub id: i64,
    /// `digest`, `reminder`, `nudge_silent` or `nudge_interview`.
    #[schema(schema_with = kind)]
    pub kind: String,
    pub title: String,
    pub body: String,
    pub created_at: DateTime<Utc>,
    /// When it was first opened (`GET /me/notifications/{id}/jobs`); null while unread.
    #[schema(required = true)]
    pub read_at: Option<DateTime<Utc>>,
    /// How many jobs matched in all (the jobs route lists at most 200).
    pub total: u32,
    /// The saved search a digest came from, while its subscription exists.
    #[schema(required = true)]
    pub saved_search_id: Option<i64>,
}

fn kind() -> utoipa::openapi::Object {
    crate::openapi::vocab::one_of(freehire_domain::NotificationKind::ALL.iter().map(|k| k.as_str()))
}

impl From<&Notification> for NotificationView {
    fn from(n: &Notification) -> Self {
        Self {
            id: n.id.get(),
            kind: n.kind.as_str().to_owned(),
            title: n.title.clone(),
            body: n.body.clone(),
            created_at: n.created_at,
            read_at: n.read_at,
            total: n.total,
            saved_search_id: n.saved_search_id.map(|id| id.get()),
        }
    }
}

/// `{"data": [notification…], "total": n, "unread": n}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationList {
    /// The page, newest first.
    pub data: Vec<NotificationView>,
    /// Every notification of the user.
    pub total: u64,
    /// Those not opened yet.
    pub unread: u64,
}

/// One job a notification lists, as it was when the notification was recorded.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NotifiedJobView {
    /// The job's public slug (`/jobs/{slug}`).
    pub slug: String,
    pub title: String,
    pub company: String,
    pub location: String,
    /// Where to apply, when it was recorded.
    #[schema(required = true)]
    pub url: Option<String>,
}

impl From<&NotifiedJob> for NotifiedJobView {
    fn from(j: &NotifiedJob) -> Self {
        Self {
            slug: j.slug.clone(),
            title: j.title.clone(),
            company: j.company.clone(),
            location: j.location.clone(),
            url: j.url.clone(),
        }
    }
}

/// A notification with the jobs it lists.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificationJobsView {
    pub notification: NotificationView,
    /// The jobs, in the order recorded (at most 200).
    pub jobs: Vec<NotifiedJobView>,
}

impl From<&NotificationJobs> for NotificationJobsView {
    fn from(n: &NotificationJobs) -> Self {
        Self {
            notification: NotificationView::from(&n.notification),
            jobs: n.jobs.iter().map(NotifiedJobView::from).collect(),
        }
    }
}

/// Notification settings on the wire (also `PUT`'s body).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "enabled": true,
    "digest_frequency": "daily",
    "digest_hour": 9,
    "quiet_hours_start": 22,
    "quiet_hours_end": 7,
    "timezone": "Europe/Berlin"
}))]
pub struct SettingsView {
    /// Whether anything is sent at all.
    pub enabled: bool,
    /// `instant`, `daily` or `weekly` (Mondays).
    #[schema(schema_with = frequency)]
    pub digest_frequency: String,
    /// The local hour (0–23) daily and weekly digests go out at.
    #[schema(minimum = 0, maximum = 23)]
    pub digest_hour: i64,
    /// Local quiet hours' start (0–23), when nothing is sent until `quiet_hours_end`; both
    /// or neither.
    #[serde(default)]
    #[schema(required = true, minimum = 0, maximum = 23)]
    pub quiet_hours_start: Option<i64>,
    /// Local quiet hours' end (0–23, exclusive).
    #[serde(default)]
    #[schema(required = true, minimum = 0, maximum = 23)]
    pub quiet_hours_end: Option<i64>,
    /// An IANA time zone (`Europe/Berlin`); null: the account's, else UTC.
    #[serde(default)]
    #[schema(required = true)]
    pub timezone: Option<String>,
}

fn frequency() -> utoipa::openapi::Object {
    crate::openapi::vocab::one_of(freehire_domain::DigestFrequency::ALL.iter().map(|f| f.as_str()))
}

impl From<&NotificationSettings> for SettingsView {
    fn from(s: &NotificationSettings) -> Self {
        Self {
            enabled: s.enabled,
            digest_frequency: s.digest_frequency.as_str().to_owned(),
            digest_hour: i64::from(s.digest_hour),
            quiet_hours_start: s.quiet_hours.map(|(start, _)| i64::from(start)),
            quiet_hours_end: s.quiet_hours.map(|(_, end)| i64::from(end)),
            timezone: s.timezone.as_ref().map(|t| t.as_str().to_owned()),
        }
    }
}

/// A page of the history, newest first, with how many there are and how many are unread.
#[utoipa::path(
    get, path = "/me/notifications", tag = "notifications", operation_id = "list_notifications",
    security(("session" = []), ("api_key" = [])),
    params(ListQuery),
    responses(
        (status = 200, description = "A page of the history, newest first.", body = NotificationList),
        Errors<(InvalidParameter, Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    User(caller): User,
    ListQuery(page): ListQuery,
) -> Result<Json<NotificationList>, ApiError> {
    let page = state.saved_searches().notifications(caller.user.id, page).await?;
    Ok(Json(NotificationList {
        data: page.notifications.iter().map(NotificationView::from).collect(),
        total: page.total,
        unread: page.unread,
    }))
}

/// One notification with the jobs it lists; opening it marks it read.
#[utoipa::path(
    get, path = "/me/notifications/{id}/jobs", tag = "notifications", operation_id = "get_notification_jobs",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The notification's id.", minimum = 1)),
    responses(
        (status = 200, description = "The notification, now read, and its jobs.", body = Single<NotificationJobsView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn jobs(
    State(state): State<AppState>,
    User(caller): User,
    Path(id): Path<String>,
) -> Result<Json<Single<NotificationJobsView>>, ApiError> {
    let id: NotificationId = path_id(&id)?;
    let found =
        state.saved_searches().notification_jobs(caller.user.id, id, (state.clock)()).await?;
    Ok(Json(Single { data: NotificationJobsView::from(&found) }))
}

/// The user's notification settings (the defaults until they write some).
#[utoipa::path(
    get, path = "/me/notification-settings", tag = "notifications", operation_id = "get_notification_settings",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The settings.", body = Single<SettingsView>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn settings(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<SettingsView>>, ApiError> {
    let settings = state.saved_searches().settings(caller.user.id).await?;
    Ok(Json(Single { data: SettingsView::from(&settings) }))
}

/// Replaces the user's notification settings (every field; optional ones absent or null
/// clear).
#[utoipa::path(
    put, path = "/me/notification-settings", tag = "notifications", operation_id = "put_notification_settings",
    security(("session" = []), ("api_key" = [])),
    request_body = SettingsView,
    responses(
        (status = 200, description = "The settings as stored.", body = Single<SettingsView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn put_settings(
    State(state): State<AppState>,
    User(caller): User,
    JsonBody(body): JsonBody<SettingsView>,
) -> Result<Json<Single<SettingsView>>, ApiError> {
    let input = SettingsInput {
        enabled: body.enabled,
        digest_frequency: body.digest_frequency,
        digest_hour: body.digest_hour,
        quiet_hours_start: body.quiet_hours_start,
        quiet_hours_end: body.quiet_hours_end,
        timezone: body.timezone,
    };
    let settings =
        state.saved_searches().put_settings(caller.user.id, &input, (state.clock)()).await?;
    Ok(Json(Single { data: SettingsView::from(&settings) }))
}
