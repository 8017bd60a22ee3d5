//! `/me/applications/{id}`: an application addressed by its id, for applications whose
//! posting was pruned (no slug reaches them any more). Cookie or API key; another user's id is
//! not found.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use freehire_domain::{ApplicationId, DomainError};

use super::tracking::wire::{ApplicationView, TrackBody};
use crate::{
    ApiError, AppState,
    auth::User,
    body::JsonBody,
    openapi::{
        Errors,
        code::{
            Forbidden, InvalidParameter, NotFound, Unauthorized, Unavailable, UnsupportedMediaType,
        },
    },
    view::Single,
};

fn id(raw: &str) -> Result<ApplicationId, ApiError> {
    raw.parse().map_err(|e: DomainError| ApiError::from(e).with_param("id"))
}

/// Sets the application's stage and/or notes (at least one).
#[utoipa::path(
    patch, path = "/me/applications/{id}", tag = "tracking", operation_id = "update_application",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The application's id.", minimum = 1)),
    request_body = TrackBody,
    responses(
        (status = 200, description = "The application.", body = Single<ApplicationView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    User(caller): User,
    Path(raw): Path<String>,
    JsonBody(body): JsonBody<TrackBody>,
) -> Result<Json<Single<ApplicationView>>, ApiError> {
    let id = id(&raw)?;
    let patch = body.parse()?;
    let app =
        state.tracking().update_application(caller.user.id, id, patch, (state.clock)()).await?;
    Ok(Json(Single { data: ApplicationView::from(&app) }))
}

/// Deletes the application and its events: 204.
#[utoipa::path(
    delete, path = "/me/applications/{id}", tag = "tracking", operation_id = "delete_application",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The application's id.", minimum = 1)),
    responses(
        (status = 204, description = "The application and its events are deleted."),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn delete(
    State(state): State<AppState>,
    User(caller): User,
    Path(raw): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.tracking().delete_application(caller.user.id, id(&raw)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Clears the application's stage and applied date.
#[utoipa::path(
    delete, path = "/me/applications/{id}/stage", tag = "tracking", operation_id = "clear_application_stage",
    security(("session" = []), ("api_key" = [])),
    params(("id" = i64, Path, description = "The application's id.", minimum = 1)),
    responses(
        (status = 200, description = "The application.", body = Single<ApplicationView>),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn clear_stage(
    State(state): State<AppState>,
    User(caller): User,
    Path(raw): Path<String>,
) -> Result<Json<Single<ApplicationView>>, ApiError> {
    let app = state
        .tracking()
        .clear_application_stage(caller.user.id, id(&raw)?, (state.clock)())
        .await?;
    Ok(Json(Single { data: ApplicationView::from(&app) }))
}
