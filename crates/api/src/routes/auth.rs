//! `/api/v1/auth/*`: sign-up, sign-in, sign-out, the caller's account, email verification and
//! the forgotten-password flow. Each handler parses its body, calls one
//! [`Accounts`](freehire_app::accounts::Accounts) method and renders; sessions travel in the
//! cookie of [`crate::auth::cookie`].

use axum::{
    Json,
    extract::State,
    http::{HeaderValue, StatusCode, header::SET_COOKIE},
    response::{IntoResponse, Response},
};
use freehire_app::accounts::Session;
use freehire_domain::{Email, Password};

use crate::{
    ApiError, AppState,
    auth::{
        CvUser, OptionalUser, User,
        wire::{
            Accepted, ConfirmBody, EmailBody, LoginBody, RegisterBody, RegisteredMeta, ResetBody,
            UserView,
        },
    },
    body::JsonBody,
    view::Single,
};

/// A JSON answer that also sets (or clears) the session cookie.
fn with_cookie(status: StatusCode, cookie: HeaderValue, body: impl serde::Serialize) -> Response {
    (status, [(SET_COOKIE, cookie)], Json(body)).into_response()
}

fn signed_in(
    state: &AppState,
    status: StatusCode,
    user: &freehire_domain::User,
    session: &Session,
) -> Response {
    let cookie = state.cookie.set(session, state.accounts.session_ttl());
    with_cookie(status, cookie, Single { data: UserView::from(user) })
}

/// Creates an account, signs it in (the cookie) and mails a verification code: 201.
pub async fn register(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<RegisterBody>,
) -> Result<Response, ApiError> {
    let (email, password, language) = body.parse()?;
    let registered = state.accounts.register(email, password, language).await?;
    let cookie = state.cookie.set(&registered.session, state.accounts.session_ttl());
    let body = serde_json::json!({
        "data": UserView::from(&registered.user),
        "meta": RegisteredMeta { verification_sent: registered.verification_sent },
    });
    Ok(with_cookie(StatusCode::CREATED, cookie, body))
}

/// Signs in with email and password; 401 `unauthorized` "wrong email or password" for an
/// unknown email and a wrong password alike.
pub async fn login(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<LoginBody>,
) -> Result<Response, ApiError> {
    let (email, password) = body.parse()?;
    let (user, session) = state.accounts.login(&email, password.as_ref()).await?;
    Ok(signed_in(&state, StatusCode::OK, &user, &session))
}

/// Clears the session cookie: 204. The token itself stays valid until it expires or the
/// account signs out everywhere.
pub async fn logout(State(state): State<AppState>) -> Response {
    (StatusCode::NO_CONTENT, [(SET_COOKIE, state.cookie.clear())]).into_response()
}

/// Revokes every session of the account (cookie or full key) and clears this one's cookie:
/// 204. API keys keep working: delete them under `/me/api-keys`.
pub async fn logout_all(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Response, ApiError> {
    state.accounts.logout_everywhere(&caller.user).await?;
    Ok((StatusCode::NO_CONTENT, [(SET_COOKIE, state.cookie.clear())]).into_response())
}

/// The caller's account (cookie or a key of either scope).
pub async fn me(CvUser(caller): CvUser) -> Json<Single<UserView>> {
    Json(Single { data: UserView::from(&caller.user) })
}

const MAILED: &str = "if the address has an account that needs it, a code is on its way";

/// Mails a new verification code: to the signed-in account, or to the account of `email`
/// (202 either way, with the same answer whether or not the address has an account).
pub async fn verify_request(
    State(state): State<AppState>,
    OptionalUser(caller): OptionalUser,
    body: Option<JsonBody<EmailBody>>,
) -> Result<(StatusCode, Json<Single<Accepted>>), ApiError> {
    let body = body.map(|JsonBody(b)| b).unwrap_or_default();
    match (body.email.as_deref(), caller) {
        (Some(email), _) => {
            state.accounts.request_verification_by_email(&Email::parse(email)?).await?;
        }
        (None, Some(caller)) => state.accounts.request_verification(&caller.user).await?,
        (None, None) => {
            return Err(ApiError::bad_param("email", "", "is required when not signed in"));
        }
    }
    Ok((StatusCode::ACCEPTED, Json(Single { data: Accepted { message: MAILED } })))
}

/// Redeems a verification code for `email` (or the signed-in account).
pub async fn verify_confirm(
    State(state): State<AppState>,
    OptionalUser(caller): OptionalUser,
    JsonBody(body): JsonBody<ConfirmBody>,
) -> Result<Json<Single<UserView>>, ApiError> {
    let email = match (body.email.as_deref(), caller) {
        (Some(email), _) => Email::parse(email)?,
        (None, Some(caller)) => caller.user.email,
        (None, None) => {
            return Err(ApiError::bad_param("email", "", "is required when not signed in"));
        }
    };
    let user = state.accounts.confirm_verification(&email, &body.code).await?;
    Ok(Json(Single { data: UserView::from(&user) }))
}

/// Mails a password-reset code to the account of `email`, if any: 202 either way.
pub async fn password_forgot(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<EmailBody>,
) -> Result<(StatusCode, Json<Single<Accepted>>), ApiError> {
    let email =
        body.email.as_deref().ok_or_else(|| ApiError::bad_param("email", "", "is required"))?;
    state.accounts.forgot_password(&Email::parse(email)?).await?;
    Ok((StatusCode::ACCEPTED, Json(Single { data: Accepted { message: MAILED } })))
}

/// Sets a new password with a reset code, revokes every session and signs in afresh.
pub async fn password_reset(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<ResetBody>,
) -> Result<Response, ApiError> {
    let email = Email::parse(&body.email)?;
    let password = Password::parse(&body.password)?;
    let (user, session) = state.accounts.reset_password(&email, &body.code, &password).await?;
    Ok(signed_in(&state, StatusCode::OK, &user, &session))
}
