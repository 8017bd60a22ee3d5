//! The gates as axum extractors (the table in [`crate::auth`]). Each resolves the caller once:
//! a bearer key through [`Accounts::key_user`](freehire_app::accounts::Accounts::key_user),
//! else the session cookie through
//! [`Accounts::session_user`](freehire_app::accounts::Accounts::session_user).

use axum::{
    extract::FromRequestParts,
    http::{HeaderMap, header::AUTHORIZATION, request::Parts},
};
use freehire_app::accounts::Credential;
use freehire_domain::{ApiKeyScope, Role};

use super::cookie::session_token;
use crate::{ApiError, AppState, ErrorCode};

/// A signed-in caller and what they signed in with.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The account.
    pub user: freehire_domain::User,
    /// The cookie or a key of some scope.
    pub credential: Credential,
}

/// Anyone: the caller if there is one (a bad key is still refused: a client that sends one
/// means to be someone).
#[derive(Debug, Clone)]
pub struct OptionalUser(pub Option<Caller>);

/// A bearer API key if one is sent, with its scope (a key that is not valid is refused);
/// the session cookie is not read (the MCP endpoint answers programs, not the browser).
#[derive(Debug, Clone)]
pub struct KeyCaller(pub Option<(freehire_domain::User, ApiKeyScope)>);

/// The cookie or a `full` key.
#[derive(Debug, Clone)]
pub struct User(pub Caller);

/// The cookie or a key of either scope.
#[derive(Debug, Clone)]
pub struct CvUser(pub Caller);

/// The cookie only.
#[derive(Debug, Clone)]
pub struct CookieUser(pub freehire_domain::User);

/// A moderator, by cookie or `full` key.
#[derive(Debug, Clone)]
pub struct Moderator(pub Caller);

fn unauthorized() -> ApiError {
    ApiError::new(
        ErrorCode::Unauthorized,
        "sign in (the session cookie) or send an API key (Authorization: Bearer fhk_…)",
    )
}

/// The bearer token a request sends: `None` without an `Authorization` header, a 401 for one
/// that is not `Bearer <token>`.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<Result<&str, ApiError>> {
    let header = headers.get(AUTHORIZATION)?;
    Some(
        header
            .to_str()
            .ok()
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .map(str::trim)
            .ok_or_else(|| {
                ApiError::new(
                    ErrorCode::Unauthorized,
                    "the Authorization header must be `Bearer <API key>`",
                )
            }),
    )
}

/// The 401 of a key that is not (or no longer) valid.
pub(crate) fn invalid_key() -> ApiError {
    ApiError::new(ErrorCode::Unauthorized, "the API key is not valid: unknown, deleted or expired")
}

/// The caller of a request, if any.
async fn caller(parts: &Parts, state: &AppState) -> Result<Option<Caller>, ApiError> {
    if let Some(token) = bearer(&parts.headers) {
        return match state.accounts.key_user(token?).await? {
            Some((user, scope)) => Ok(Some(Caller { user, credential: Credential::Key(scope) })),
            None => Err(invalid_key()),
        };
    }
    let Some(token) = session_token(&parts.headers) else {
        return Ok(None);
    };
    let user = state.accounts.session_user(&token).await?;
    Ok(user.map(|user| Caller { user, credential: Credential::Session }))
}

impl FromRequestParts<AppState> for OptionalUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        Ok(Self(caller(parts, state).await?))
    }
}

impl FromRequestParts<AppState> for KeyCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(token) = bearer(&parts.headers) else {
            return Ok(Self(None));
        };
        match state.accounts.key_user(token?).await? {
            Some(found) => Ok(Self(Some(found))),
            None => Err(invalid_key()),
        }
    }
}

impl FromRequestParts<AppState> for CvUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        caller(parts, state).await?.map(Self).ok_or_else(unauthorized)
    }
}

impl FromRequestParts<AppState> for User {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let caller = caller(parts, state).await?.ok_or_else(unauthorized)?;
        match caller.credential {
            Credential::Session | Credential::Key(ApiKeyScope::Full) => Ok(Self(caller)),
            Credential::Key(ApiKeyScope::Cv) => Err(ApiError::new(
                ErrorCode::Forbidden,
                "this API key has the cv scope, which reaches only /auth/me and the CV routes",
            )),
        }
    }
}

impl FromRequestParts<AppState> for CookieUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let caller = caller(parts, state).await?.ok_or_else(unauthorized)?;
        match caller.credential {
            Credential::Session => Ok(Self(caller.user)),
            Credential::Key(_) => Err(ApiError::new(
                ErrorCode::Forbidden,
                "this route needs a signed-in session (the cookie), not an API key",
            )),
        }
    }
}

impl FromRequestParts<AppState> for Moderator {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let User(caller) = User::from_request_parts(parts, state).await?;
        if caller.user.role == Role::Moderator {
            Ok(Self(caller))
        } else {
            Err(ApiError::new(ErrorCode::Forbidden, "this route is for moderators"))
        }
    }
}
