//! `/api/v1/me*`: the signed-in account's own settings: password change, profile, deletion
//! and API keys. Key management, password change and deletion take the cookie only.

use axum::{
    Json,
    extract::{Path, State},
    http::{StatusCode, header::SET_COOKIE},
    response::{IntoResponse, Response},
};
use freehire_domain::{ApiKeyId, Email};

use crate::{
    ApiError, AppState,
    auth::{
        CookieUser, User,
        wire::{
            ApiKeyView, DeleteBody, KeyBody, MintedKeyView, PasswordBody, ProfileBody, UserView,
        },
    },
    body::JsonBody,
    openapi::{
        Errors,
        code::{
            Forbidden, InvalidParameter, NotFound, Unauthorized, Unavailable, UnsupportedMediaType,
        },
    },
    view::Single,
};

/// Changes the password (the current one is required), revokes every other session and
/// signs this client in afresh.
#[utoipa::path(
    post, path = "/me/password", tag = "accounts", operation_id = "change_password",
    security(("session" = [])),
    request_body = PasswordBody,
    responses(
        (status = 200, description = "The password is changed, every other session revoked, this client signed in afresh.", body = Single<UserView>, headers(
            ("set-cookie" = String, description = "The new session cookie `freehire_session`."),
        )),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn change_password(
    State(state): State<AppState>,
    CookieUser(user): CookieUser,
    JsonBody(body): JsonBody<PasswordBody>,
) -> Result<Response, ApiError> {
    let (current, new) = body.parse()?;
    let current = current.ok_or(freehire_app::accounts::AccountError::WrongCurrentPassword)?;
    let (user, session) = state.accounts.change_password(&user, &current, &new).await?;
    let cookie = state.cookie.set(&session, state.accounts.session_ttl());
    Ok(([(SET_COOKIE, cookie)], Json(Single { data: UserView::from(&user) })).into_response())
}

/// Changes the display name, time zone or answer language.
#[utoipa::path(
    patch, path = "/me", tag = "accounts", operation_id = "update_me",
    security(("session" = []), ("api_key" = [])),
    request_body = ProfileBody,
    responses(
        (status = 200, description = "The account, changed.", body = Single<UserView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn update(
    State(state): State<AppState>,
    User(caller): User,
    JsonBody(body): JsonBody<ProfileBody>,
) -> Result<Json<Single<UserView>>, ApiError> {
    let patch = body.parse()?;
    let user = state.accounts.update_profile(&caller.user, &patch).await?;
    Ok(Json(Single { data: UserView::from(&user) }))
}

/// Deletes the account and everything it owns; the body repeats the account's email: 204.
#[utoipa::path(
    delete, path = "/me", tag = "accounts", operation_id = "delete_me",
    security(("session" = [])),
    request_body = DeleteBody,
    responses(
        (status = 204, description = "The account and everything it owns are deleted.", headers(
            ("set-cookie" = String, description = "`freehire_session` emptied, `Max-Age=0`."),
        )),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn delete(
    State(state): State<AppState>,
    CookieUser(user): CookieUser,
    JsonBody(body): JsonBody<DeleteBody>,
) -> Result<Response, ApiError> {
    state.accounts.delete_account(&user, &Email::parse(&body.email)?).await?;
    Ok((StatusCode::NO_CONTENT, [(SET_COOKIE, state.cookie.clear())]).into_response())
}

/// Mints an API key (verified accounts only): 201 with the token, shown this once.
#[utoipa::path(
    post, path = "/me/api-keys", tag = "accounts", operation_id = "create_api_key",
    security(("session" = [])),
    request_body = KeyBody,
    responses(
        (status = 201, description = "The key and its token, shown this once.", body = Single<MintedKeyView>),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn create_key(
    State(state): State<AppState>,
    CookieUser(user): CookieUser,
    JsonBody(body): JsonBody<KeyBody>,
) -> Result<(StatusCode, Json<Single<MintedKeyView>>), ApiError> {
    let minted = state.accounts.create_key(&user, &body.parse()?).await?;
    let data = MintedKeyView { key: ApiKeyView::from(&minted.key), token: minted.token };
    Ok((StatusCode::CREATED, Json(Single { data })))
}

/// The account's keys, newest first (never their tokens).
#[utoipa::path(
    get, path = "/me/api-keys", tag = "accounts", operation_id = "list_api_keys",
    security(("session" = [])),
    responses(
        (status = 200, description = "The account's keys, newest first, without their tokens.", body = Single<Vec<ApiKeyView>>),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn list_keys(
    State(state): State<AppState>,
    CookieUser(user): CookieUser,
) -> Result<Json<Single<Vec<ApiKeyView>>>, ApiError> {
    let keys = state.accounts.keys(&user).await?;
    Ok(Json(Single { data: keys.iter().map(ApiKeyView::from).collect() }))
}

/// Deletes one of the account's keys: 204; another account's key is not found.
#[utoipa::path(
    delete, path = "/me/api-keys/{id}", tag = "accounts", operation_id = "delete_api_key",
    security(("session" = [])),
    params(("id" = i64, Path, description = "The key's id (from the list).", minimum = 1)),
    responses(
        (status = 204, description = "The key is deleted."),
        Errors<(InvalidParameter, Unauthorized, Forbidden, NotFound, Unavailable)>,
    ),
)]
pub async fn delete_key(
    State(state): State<AppState>,
    CookieUser(user): CookieUser,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let id: ApiKeyId =
        id.parse().map_err(|e: freehire_domain::DomainError| ApiError::from(e).with_param("id"))?;
    state.accounts.delete_key(&user, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
