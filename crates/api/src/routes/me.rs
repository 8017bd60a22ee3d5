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
    view::Single,
};

/// Changes the password (the current one is required), revokes every other session and
/// signs this client in afresh.
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
pub async fn delete(
    State(state): State<AppState>,
    CookieUser(user): CookieUser,
    JsonBody(body): JsonBody<DeleteBody>,
) -> Result<Response, ApiError> {
    state.accounts.delete_account(&user, &Email::parse(&body.email)?).await?;
    Ok((StatusCode::NO_CONTENT, [(SET_COOKIE, state.cookie.clear())]).into_response())
}

/// Mints an API key (verified accounts only): 201 with the token, shown this once.
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
pub async fn list_keys(
    State(state): State<AppState>,
    CookieUser(user): CookieUser,
) -> Result<Json<Single<Vec<ApiKeyView>>>, ApiError> {
    let keys = state.accounts.keys(&user).await?;
    Ok(Json(Single { data: keys.iter().map(ApiKeyView::from).collect() }))
}

/// Deletes one of the account's keys: 204; another account's key is not found.
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
