//! `/api/v1/auth/*`: sign-up, sign-in, sign-out, the caller's account, email verification and
//! the forgotten-password flow. Each handler parses its body, calls one
//! [`Accounts`](freehire_app::accounts::Accounts) method and renders; sessions travel in the
//! cookie of [`crate::auth::cookie`]. The sign-up, sign-in, code and reset routes count
//! against their [`Bucket`] per client IP and per account (the email) once the body parses,
//! before any work (reference §6.3).

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
            Accepted, ConfirmBody, EmailBody, LoginBody, RegisterBody, RegisteredEnvelope,
            RegisteredMeta, ResetBody, UserView,
        },
    },
    body::JsonBody,
    client_ip::ClientIp,
    openapi::{
        Errors,
        code::{
            Conflict, Forbidden, InvalidParameter, NotFound, RateLimited, Unauthorized,
            Unavailable, UnsupportedMediaType,
        },
    },
    ratelimit::{Bucket, RateInfo, Subject},
    view::Single,
};

/// A JSON answer that also sets (or clears) the session cookie, with the rate-limit headers.
fn with_cookie(
    status: StatusCode,
    limit: Option<RateInfo>,
    cookie: HeaderValue,
    body: impl serde::Serialize,
) -> Response {
    (status, limit, [(SET_COOKIE, cookie)], Json(body)).into_response()
}

fn signed_in(
    state: &AppState,
    limit: Option<RateInfo>,
    user: &freehire_domain::User,
    session: &Session,
) -> Response {
    let cookie = state.cookie.set(session, state.accounts.session_ttl());
    with_cookie(StatusCode::OK, limit, cookie, Single { data: UserView::from(user) })
}

/// Counts the request against `bucket` for the client IP and, when named, the account (the
/// normalised email): a refusal is 429 before any work is done.
fn limit(
    state: &AppState,
    bucket: Bucket,
    ip: ClientIp,
    account: Option<&Email>,
) -> Result<Option<RateInfo>, ApiError> {
    let mut subjects = vec![Subject::ip(ip.0)];
    subjects.extend(account.map(|e| Subject::account(e.as_str())));
    Ok(state.limits.check(bucket, &subjects)?)
}

/// Creates an account, signs it in (the cookie) and mails a verification code: 201.
#[utoipa::path(
    post, path = "/auth/register", tag = "accounts", operation_id = "register",
    request_body = RegisterBody,
    responses(
        (status = 201, description = "The account, signed in; a verification code is mailed.", body = RegisteredEnvelope, headers(
            ("set-cookie" = String, description = "The session cookie `freehire_session` (HttpOnly, SameSite=Lax, Path=/)."),
            ("x-ratelimit-limit" = u32, description = "Requests the bucket allows at once."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, UnsupportedMediaType, Conflict, RateLimited, Unavailable)>,
    ),
)]
pub async fn register(
    State(state): State<AppState>,
    ip: ClientIp,
    JsonBody(body): JsonBody<RegisterBody>,
) -> Result<Response, ApiError> {
    let (email, password, language) = body.parse()?;
    let rate = limit(&state, Bucket::Register, ip, None)?;
    let registered = state.accounts.register(email, password, language).await?;
    let cookie = state.cookie.set(&registered.session, state.accounts.session_ttl());
    let body = RegisteredEnvelope {
        data: UserView::from(&registered.user),
        meta: RegisteredMeta { verification_sent: registered.verification_sent },
    };
    Ok(with_cookie(StatusCode::CREATED, rate, cookie, body))
}

/// Signs in with email and password; 401 `unauthorized` "wrong email or password" for an
/// unknown email and a wrong password alike.
#[utoipa::path(
    post, path = "/auth/login", tag = "accounts", operation_id = "login",
    request_body = LoginBody,
    responses(
        (status = 200, description = "Signed in.", body = Single<UserView>, headers(
            ("set-cookie" = String, description = "The session cookie `freehire_session` (HttpOnly, SameSite=Lax, Path=/)."),
            ("x-ratelimit-limit" = u32, description = "Requests the bucket allows at once."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, RateLimited, Unavailable)>,
    ),
)]
pub async fn login(
    State(state): State<AppState>,
    ip: ClientIp,
    JsonBody(body): JsonBody<LoginBody>,
) -> Result<Response, ApiError> {
    let (email, password) = body.parse()?;
    let rate = limit(&state, Bucket::Login, ip, Some(&email))?;
    let (user, session) = state.accounts.login(&email, password.as_ref()).await?;
    Ok(signed_in(&state, rate, &user, &session))
}

/// Clears the session cookie: 204. The token itself stays valid until it expires or the
/// account signs out everywhere.
#[utoipa::path(
    post, path = "/auth/logout", tag = "accounts", operation_id = "logout",
    responses(
        (status = 204, description = "The session cookie is cleared.", headers(
            ("set-cookie" = String, description = "`freehire_session` emptied, `Max-Age=0`."),
        )),
        Errors<()>,
    ),
)]
pub async fn logout(State(state): State<AppState>) -> Response {
    (StatusCode::NO_CONTENT, [(SET_COOKIE, state.cookie.clear())]).into_response()
}

/// Revokes every session of the account (cookie or full key) and clears this one's cookie:
/// 204. API keys keep working: delete them under `/me/api-keys`.
#[utoipa::path(
    post, path = "/auth/logout-all", tag = "accounts", operation_id = "logout_everywhere",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 204, description = "Every session of the account is revoked; this cookie is cleared.", headers(
            ("set-cookie" = String, description = "`freehire_session` emptied, `Max-Age=0`."),
        )),
        Errors<(Unauthorized, Forbidden, Unavailable)>,
    ),
)]
pub async fn logout_all(
    State(state): State<AppState>,
    User(caller): User,
) -> Result<Response, ApiError> {
    state.accounts.logout_everywhere(&caller.user).await?;
    Ok((StatusCode::NO_CONTENT, [(SET_COOKIE, state.cookie.clear())]).into_response())
}

/// The caller's account (cookie or a key of either scope).
#[utoipa::path(
    get, path = "/auth/me", tag = "accounts", operation_id = "me",
    security(("session" = []), ("api_key" = [])),
    responses(
        (status = 200, description = "The caller's account (cookie or a key of either scope).", body = Single<UserView>),
        Errors<(Unauthorized, Unavailable)>,
    ),
)]
pub async fn me(CvUser(caller): CvUser) -> Json<Single<UserView>> {
    Json(Single { data: UserView::from(&caller.user) })
}

const MAILED: &str = "if the address has an account that needs it, a code is on its way";

/// Mails a new verification code: to the signed-in account, or to the account of `email`
/// (202 either way, with the same answer whether or not the address has an account).
#[utoipa::path(
    post, path = "/auth/verify/request", tag = "accounts", operation_id = "request_verification",
    security((), ("session" = []), ("api_key" = [])),
    request_body(content = Option<EmailBody>, description = "The address; optional when signed in."),
    responses(
        (status = 202, description = "A code is on its way if the address has an unverified account (the same answer either way).", body = Single<Accepted>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the bucket allows at once."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, NotFound, RateLimited, Unavailable)>,
    ),
)]
pub async fn verify_request(
    State(state): State<AppState>,
    ip: ClientIp,
    OptionalUser(caller): OptionalUser,
    body: Option<JsonBody<EmailBody>>,
) -> Result<(StatusCode, Option<RateInfo>, Json<Single<Accepted>>), ApiError> {
    let body = body.map(|JsonBody(b)| b).unwrap_or_default();
    let rate = match (body.email.as_deref(), caller) {
        (Some(email), _) => {
            let email = Email::parse(email)?;
            let rate = limit(&state, Bucket::VerifyRequest, ip, Some(&email))?;
            state.accounts.request_verification_by_email(&email).await?;
            rate
        }
        (None, Some(caller)) => {
            let rate = limit(&state, Bucket::VerifyRequest, ip, Some(&caller.user.email))?;
            state.accounts.request_verification(&caller.user).await?;
            rate
        }
        (None, None) => {
            return Err(ApiError::bad_param("email", "", "is required when not signed in"));
        }
    };
    Ok((StatusCode::ACCEPTED, rate, Json(Single { data: Accepted { message: MAILED } })))
}

/// Redeems a verification code for `email` (or the signed-in account).
#[utoipa::path(
    post, path = "/auth/verify/confirm", tag = "accounts", operation_id = "confirm_verification",
    security((), ("session" = []), ("api_key" = [])),
    request_body = ConfirmBody,
    responses(
        (status = 200, description = "The account, verified.", body = Single<UserView>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the bucket allows at once."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, UnsupportedMediaType, Unauthorized, RateLimited, Unavailable)>,
    ),
)]
pub async fn verify_confirm(
    State(state): State<AppState>,
    ip: ClientIp,
    OptionalUser(caller): OptionalUser,
    JsonBody(body): JsonBody<ConfirmBody>,
) -> Result<(Option<RateInfo>, Json<Single<UserView>>), ApiError> {
    let email = match (body.email.as_deref(), caller) {
        (Some(email), _) => Email::parse(email)?,
        (None, Some(caller)) => caller.user.email,
        (None, None) => {
            return Err(ApiError::bad_param("email", "", "is required when not signed in"));
        }
    };
    let rate = limit(&state, Bucket::VerifyConfirm, ip, Some(&email))?;
    let user = state.accounts.confirm_verification(&email, &body.code).await?;
    Ok((rate, Json(Single { data: UserView::from(&user) })))
}

/// Mails a password-reset code to the account of `email`, if any: 202 either way.
#[utoipa::path(
    post, path = "/auth/password/forgot", tag = "accounts", operation_id = "forgot_password",
    request_body = EmailBody,
    responses(
        (status = 202, description = "A reset code is on its way if the address has an account (the same answer either way).", body = Single<Accepted>, headers(
            ("x-ratelimit-limit" = u32, description = "Requests the bucket allows at once."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, UnsupportedMediaType, RateLimited, Unavailable)>,
    ),
)]
pub async fn password_forgot(
    State(state): State<AppState>,
    ip: ClientIp,
    JsonBody(body): JsonBody<EmailBody>,
) -> Result<(StatusCode, Option<RateInfo>, Json<Single<Accepted>>), ApiError> {
    let email =
        body.email.as_deref().ok_or_else(|| ApiError::bad_param("email", "", "is required"))?;
    let email = Email::parse(email)?;
    let rate = limit(&state, Bucket::PasswordForgot, ip, Some(&email))?;
    state.accounts.forgot_password(&email).await?;
    Ok((StatusCode::ACCEPTED, rate, Json(Single { data: Accepted { message: MAILED } })))
}

/// Sets a new password with a reset code, revokes every session and signs in afresh.
#[utoipa::path(
    post, path = "/auth/password/reset", tag = "accounts", operation_id = "reset_password",
    request_body = ResetBody,
    responses(
        (status = 200, description = "The new password is set, every older session revoked, and this client signed in.", body = Single<UserView>, headers(
            ("set-cookie" = String, description = "The session cookie `freehire_session` (HttpOnly, SameSite=Lax, Path=/)."),
            ("x-ratelimit-limit" = u32, description = "Requests the bucket allows at once."),
            ("x-ratelimit-remaining" = u32, description = "Requests left now."),
            ("x-ratelimit-reset" = u64, description = "Seconds until the bucket is full again."),
        )),
        Errors<(InvalidParameter, UnsupportedMediaType, RateLimited, Unavailable)>,
    ),
)]
pub async fn password_reset(
    State(state): State<AppState>,
    ip: ClientIp,
    JsonBody(body): JsonBody<ResetBody>,
) -> Result<Response, ApiError> {
    let email = Email::parse(&body.email)?;
    let password = Password::parse(&body.password)?;
    let rate = limit(&state, Bucket::PasswordReset, ip, Some(&email))?;
    let (user, session) = state.accounts.reset_password(&email, &body.code, &password).await?;
    Ok(signed_in(&state, rate, &user, &session))
}
