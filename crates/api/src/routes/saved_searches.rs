//! `/api/v1/me/saved-searches*`, `/api/v1/me/subscriptions/{id}` and the public
//! `/api/v1/shared-boards/{slug}`: a user's saved searches, their subscriptions and the
//! read-only board of a shared one. Signed in by cookie or `full` API key (so the command line
//! works); the shared board needs nobody. The rules are [`freehire_app::saved_searches`]'s;
//! these handlers parse, call the service and render.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use chrono::{DateTime, Utc};
use freehire_app::saved_searches::{
    SavedSearchInput, SavedSearchUpdate, SharedBoard, SubscribeInput, Subscribed,
};
use freehire_domain::{DomainError, SavedSearchId, SubscriptionId};
use freehire_store::{SavedSearch, Subscription};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    ApiError, AppState,
    auth::User,
    body::JsonBody,
    openapi::{
        Errors,
        code::{
            Conflict, Forbidden, InvalidParameter, InvalidQuery, NotFound, SearchUnavailable,
            Unauthorized, Unavailable, UnfilteredSearch, UnsupportedMediaType,
        },
    },
    view::{SearchHit, Single},
};

/// A saved search on the wire.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "id": 3,
    "name": "Rust in Germany",
    "query": "countries=de&skills=rust",
    "shared_slug": null,
    "created_at": "2026-11-20T12:00:00Z",
    "updated_at": "2026-11-20T12:00:00Z",
    "subscriptions": []
}))]
pub struct SavedSearchView {
    /// Addresses it under `/me/saved-searches/{id}`.
    pub id: i64,
    /// Its name (unique per user, compared case-insensitively).
    pub name: String,
    /// The query in the search grammar of `GET /jobs/search`, in canonical form (parameters
    /// in a fixed order, values sorted); empty: every job.
    pub query: String,
    /// The public board's slug (`/shared-boards/{slug}`) while it is shared.
    #[schema(required = true)]
    pub shared_slug: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Its subscriptions, oldest first.
    pub subscriptions: Vec<SubscriptionView>,
}

impl From<&SavedSearch> for SavedSearchView {
    fn from(s: &SavedSearch) -> Self {
        Self {
            id: s.id.get(),
            name: s.name.clone(),
            query: s.query.clone(),
            shared_slug: s.public_slug.clone(),
            created_at: s.created_at,
            updated_at: s.updated_at,
            subscriptions: s.subscriptions.iter().map(SubscriptionView::from).collect(),
        }
    }
}

/// A subscription on the wire (never its secret, but once: [`SubscribedView`]).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SubscriptionView {
    /// Addresses it under `/me/subscriptions/{id}`.
    pub id: i64,
    /// The saved search it follows.
    pub saved_search_id: i64,
    /// `email` or `webhook`.
    #[schema(schema_with = channel)]
    pub channel: String,
    /// The webhook URL (null for email: digests go to the account's address).
    #[schema(required = true)]
    pub url: Option<String>,
    /// Whether digests go out.
    pub active: bool,
    pub created_at: DateTime<Utc>,
    /// When its last digest went out.
    #[schema(required = true)]
    pub last_digest_sent_at: Option<DateTime<Utc>>,
}

fn channel() -> utoipa::openapi::Object {
    crate::openapi::vocab::one_of(freehire_domain::Channel::ALL.iter().map(|c| c.as_str()))
}

impl From<&Subscription> for SubscriptionView {
    fn from(s: &Subscription) -> Self {
        Self {
            id: s.id.get(),
            saved_search_id: s.saved_search_id.get(),
            channel: s.channel.as_str().to_owned(),
            url: s.destination.clone(),
            active: s.active,
            created_at: s.created_at,
            last_digest_sent_at: s.last_digest_sent_at,
        }
    }
}

/// A subscription just created: a webhook's includes its secret, shown this once.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SubscribedView {
    #[serde(flatten)]
    pub subscription: SubscriptionView,
    /// The webhook's HMAC-SHA256 key (64 hex characters): each delivery's body is signed with
    /// it. Only in this answer; absent for email.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub secret: Option<String>,
}

impl From<&Subscribed> for SubscribedView {
    fn from(s: &Subscribed) -> Self {
        Self { subscription: SubscriptionView::from(&s.subscription), secret: s.secret.clone() }
    }
}

/// `POST /me/saved-searches`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    /// 1–100 characters (trimmed), unique among the user's saved searches.
    #[schema(example = "Rust in Germany")]
    pub name: String,
    /// At most 2,000 characters in the search grammar of `GET /jobs/search` (`skills=rust&
    /// countries=de`); empty or absent: every job.
    #[serde(default)]
    #[schema(example = "skills=rust&countries=de")]
    pub query: String,
}

/// `PATCH /me/saved-searches/{id}`: at least one field.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateBody {
    /// A new name.
    #[serde(default)]
    pub name: Option<String>,
    /// A new query.
    #[serde(default)]
    pub query: Option<String>,
    /// `true` shares it on a public board (keeping the slug it already has), `false` takes
    /// the board down.
    #[serde(default)]
    pub shared: Option<bool>,
}

/// `POST /me/saved-searches/{id}/subscriptions`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscribeBody {
    /// `email` (to the account's address) or `webhook` (with `url`).
    #[schema(schema_with = channel, example = "email")]
    pub channel: String,
    /// The webhook's `http(s)` URL; it must not point at a private, loopback or link-local
    /// address. Only with `webhook`.
    #[serde(default)]
    pub url: Option<String>,
}

impl SubscribeBody {
    fn parse(self) -> Result<SubscribeInput, ApiError> {
        let channel = freehire_domain::Channel::parse(self.channel.trim())?;
        match (channel, self.url) {
            (freehire_domain::Channel::Email, None) => Ok(SubscribeInput::Email),
            (freehire_domain::Channel::Email, Some(_)) => Err(ApiError::new(
                crate::ErrorCode::InvalidParameter,
                "an email subscription takes no url",
            )
            .with_param("url")),
            (freehire_domain::Channel::Webhook, Some(url)) => Ok(SubscribeInput::Webhook { url }),
            (freehire_domain::Channel::Webhook, None) => Err(ApiError::new(
                crate::ErrorCode::InvalidParameter,
                "a webhook subscription needs a url",
            )
            .with_param("url")),
        }
    }
}

/// A shared board: the saved search's name and query, and the first page of its results.
#[derive(Debug, Serialize, ToSchema)]
pub struct SharedBoardView {
    /// The saved search's name.
    pub name: String,
    /// Its query.
    pub query: String,
    /// The first page of matching jobs (20), as search hits.
    pub jobs: Vec<SearchHit>,
    /// How many jobs match in all.
    pub total: u64,
}

impl From<&SharedBoard> for SharedBoardView {
    fn from(b: &SharedBoard) -> Self {
        Self {
            name: b.name.clone(),
            query: b.query.clone(),
            jobs: b.jobs.iter().map(SearchHit::new).collect(),
            total: b.total,
        }
    }
}

/// A path id, or a 400 naming `id`.
pub(crate) fn path_id<T: std::str::FromStr<Err = DomainError>>(raw: &str) -> Result<T, ApiError> {
    raw.parse().map_err(|e: DomainError| ApiError::from(e).with_param("id"))
}

/// The user's saved searches with their subscriptions, oldest first.
#[utoipa::path(
    get, path = "/me/saved-searches", tag = "saved searches", operation_id = "list_saved_searches",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The saved searches, oldest first.", body = Single<Vec<SavedSearchView>>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn list(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Json<Single<Vec<SavedSearchView>>>, ApiError> {
    let searches = state.saved_searches().list(caller.user.id).await?;
    Ok(Json(Single { data: searches.iter().map(SavedSearchView::from).collect() }))
}

/// Saves a search: 201. A taken name is 409 `conflict` naming `name`; the 51st search is
/// 409 naming `saved_searches`; a query the grammar refuses is 400 naming `query`.
#[utoipa::path(
    post, path = "/me/saved-searches", tag = "saved searches", operation_id = "create_saved_search",
    security(("session" = []), ("api_key" = [])),
    request_body = CreateBody,
    responses(
        (status = 201, description = "The saved search.", body = Single<SavedSearchView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, Conflict, Unavailable)>,
    ),
)]
pub async fn create(
    State(state): State<AppState>,
    User(caller): User,
    JsonBody(body): JsonBody<CreateBody>,
) -> Result<(StatusCode, Json<Single<SavedSearchView>>), ApiError> {
    let input = SavedSearchInput { name: body.name, query: body.query };
    let search = state.saved_searches().create(caller.user.id, &input, (state.clock)()).await?;
    Ok((StatusCode::CREATED, Json(Single { data: SavedSearchView::from(&search) })))
}

/// Renames, re-queries, shares or unshares a saved search. Widening a subscribed search to
/// every job is 400 `unfiltered_search`.
#[utoipa::path(
    patch, path = "/me/saved-searches/{id}", tag = "saved searches", operation_id = "update_saved_search",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The saved search's id.", minimum = 1)),
    request_body = UpdateBody,
    responses(
        (status = 200, description = "The saved search, changed.", body = Single<SavedSearchView>),
        Errors<(InvalidParameter, UnfilteredSearch, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Conflict, Unavailable)>,
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    User(caller): User,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<UpdateBody>,
) -> Result<Json<Single<SavedSearchView>>, ApiError> {
    let id: SavedSearchId = path_id(&id)?;
    let update = SavedSearchUpdate { name: body.name, query: body.query, shared: body.shared };
    let search =
        state.saved_searches().update(caller.user.id, id, &update, (state.clock)()).await?;
    Ok(Json(Single { data: SavedSearchView::from(&search) }))
}

/// Deletes a saved search and its subscriptions: 204.
#[utoipa::path(
    delete, path = "/me/saved-searches/{id}", tag = "saved searches", operation_id = "delete_saved_search",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The saved search's id.", minimum = 1)),
    responses(
        (status = 204, description = "The saved search and its subscriptions are deleted."),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn delete(
    State(state): State<AppState>,
    User(caller): User,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.saved_searches().delete(caller.user.id, path_id(&id)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Subscribes a saved search on a channel, from now on: 201 (a webhook's answer carries its
/// secret, this once). A search for every job is 400 `unfiltered_search`; a webhook URL to a
/// private, loopback or link-local address is 400 naming `url`.
#[utoipa::path(
    post, path = "/me/saved-searches/{id}/subscriptions", tag = "saved searches", operation_id = "subscribe_saved_search",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The saved search's id.", minimum = 1)),
    request_body = SubscribeBody,
    responses(
        (status = 201, description = "The subscription (a webhook's with its secret).", body = Single<SubscribedView>),
        Errors<(InvalidParameter, UnfilteredSearch, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Conflict, Unavailable)>,
    ),
)]
pub async fn subscribe(
    State(state): State<AppState>,
    User(caller): User,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<SubscribeBody>,
) -> Result<(StatusCode, Json<Single<SubscribedView>>), ApiError> {
    let id: SavedSearchId = path_id(&id)?;
    let input = body.parse()?;
    let subscribed =
        state.saved_searches().subscribe(caller.user.id, id, &input, (state.clock)()).await?;
    Ok((StatusCode::CREATED, Json(Single { data: SubscribedView::from(&subscribed) })))
}

/// Deletes a subscription: 204.
#[utoipa::path(
    delete, path = "/me/subscriptions/{id}", tag = "saved searches", operation_id = "delete_subscription",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The subscription's id.", minimum = 1)),
    responses(
        (status = 204, description = "The subscription is deleted."),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn unsubscribe(
    State(state): State<AppState>,
    User(caller): User,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let id: SubscriptionId = path_id(&id)?;
    state.saved_searches().unsubscribe(caller.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The public, read-only board of a shared saved search: its name, query and the first page
/// of its results. No sign-in.
#[utoipa::path(
    get, path = "/shared-boards/{slug}", tag = "saved searches", operation_id = "get_shared_board",
    params(("slug" = String, Path, description = "The board's slug (`shared_slug` of the saved search).")),
    responses(
        (status = 200, description = "The board.", body = Single<SharedBoardView>),
        Errors<(NotFound, InvalidQuery, SearchUnavailable, Unavailable)>,
    ),
)]
pub async fn shared_board(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> Result<Json<Single<SharedBoardView>>, ApiError> {
    let board = state.saved_searches().shared_board(&slug, (state.clock)()).await?;
    Ok(Json(Single { data: SharedBoardView::from(&board) }))
}
