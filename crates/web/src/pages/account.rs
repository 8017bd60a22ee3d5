//! `/account`: the signed-in account's page (profile, language and time zone, screening
//! answers ([`super::screening`]), password change, API keys: mint, list, revoke; account
//! deletion) and its POST actions. Signed out,
//! every one of them redirects to `/login?next=%2Faccount`. Each action calls one
//! [`Accounts`](freehire_app::accounts::Accounts) method, then redirects to the page with a
//! fixed notice, or re-renders it with the message next to the field. A minted key's token is
//! the exception to redirect-after-POST: it is shown once, in the answer to the POST itself
//! (`Cache-Control: no-store`), and never again.

use askama::Template;
use axum::{
    body::Bytes,
    extract::{Path, RawQuery, State},
    http::{HeaderValue, StatusCode, header},
    response::Response,
};
use freehire_app::accounts::KeyRequest;
use freehire_domain::{
    ApiKeyId, ApiKeyName, ApiKeyScope, Email, Language, Password, Timezone, User, Username,
};
use freehire_store::ProfilePatch;

use super::forms::{Errors, Fields, account_message, domain_message, see_other, sign_in_first};
use super::screening::{ScreeningForm, patch_of as screening_patch};
use crate::{WebError, WebState, error::render, layout::Ctx, layout::Layout, session};

/// One API key in the list.
pub struct KeyRow {
    /// Its id (the revoke form's action).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The token's first characters.
    pub prefix: String,
    /// `full` or `cv`.
    pub scope: String,
    /// Minted.
    pub created: String,
    /// Last used, if ever.
    pub last_used: Option<String>,
    /// Expires, if ever.
    pub expires: Option<String>,
}

/// The account page.
#[derive(Template)]
#[template(path = "account.html")]
pub struct AccountPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// Messages by field.
    pub errors: Errors,
    /// The account's address.
    pub email: String,
    /// Whether it is verified.
    pub verified: bool,
    /// The display name (as stored, or as typed after an error).
    pub username: String,
    /// The zone.
    pub timezone: String,
    /// The language.
    pub language: String,
    /// When the account was made.
    pub created: String,
    /// Its keys, newest first.
    pub keys: Vec<KeyRow>,
    /// A key just minted: (name, token), shown this once.
    pub minted: Option<(String, String)>,
    /// The site's origin, for the MCP client configuration.
    pub origin: String,
    /// The screening answers.
    pub screening: ScreeningForm,
}

impl AccountPage {
    /// The key the MCP snippets show: the one just minted, else a placeholder.
    pub fn mcp_key(&self) -> &str {
        self.minted.as_ref().map_or("fhk_…", |(_, token)| token.as_str())
    }
}

fn notice(raw: Option<&str>) -> Option<&'static str> {
    let done = url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "done")
        .map(|(_, v)| v.into_owned())?;
    Some(match done.as_str() {
        "verified" => "Your email address is verified.",
        "profile" => "Your profile is saved.",
        "screening" => "Your screening answers are saved.",
        "password" => "Your password is changed; other sessions are signed out.",
        "revoked" => "The key is revoked.",
        _ => return None,
    })
}

async fn page(
    state: &WebState,
    ctx: &Ctx,
    user: &User,
    errors: Errors,
    typed: Option<&Fields>,
) -> Result<AccountPage, WebError> {
    let keys = state.accounts.keys(user).await?;
    let answers = state.screening.get(user.id).await?;
    // What was typed goes back into the form it was typed in (the screening form says which
    // it is in `form_id`).
    let (screening_typed, profile_typed) = match typed {
        Some(f) if f.get("form_id") == "screening" => (Some(f), None),
        other => (None, other),
    };
    let pick =
        |name: &str, stored: String| profile_typed.map_or(stored, |f| f.get(name).to_owned());
    Ok(AccountPage {
        layout: ctx.layout("Your account"),
        notice: None,
        errors,
        email: user.email.as_str().to_owned(),
        verified: user.email_verified,
        username: pick(
            "username",
            user.username.as_ref().map(|n| n.as_str().to_owned()).unwrap_or_default(),
        ),
        timezone: pick(
            "timezone",
            user.timezone.as_ref().map(|t| t.as_str().to_owned()).unwrap_or_default(),
        ),
        language: pick("language", user.language.as_str().to_owned()),
        created: ctx.date(user.created_at),
        keys: keys
            .iter()
            .map(|k| KeyRow {
                id: k.id.get(),
                name: k.name.as_str().to_owned(),
                prefix: k.prefix.clone(),
                scope: k.scope.as_str().to_owned(),
                created: ctx.date(k.created_at),
                last_used: k.last_used_at.map(|at| ctx.date(at)),
                expires: k.expires_at.map(|at| ctx.date(at)),
            })
            .collect(),
        minted: None,
        origin: ctx.origin.clone(),
        screening: ScreeningForm::new(&answers, screening_typed),
    })
}

/// The page again with `errors` (status 422), keeping what was typed in `typed`.
async fn again(
    state: &WebState,
    ctx: &Ctx,
    user: &User,
    errors: Errors,
    typed: Option<&Fields>,
) -> Response {
    match page(state, ctx, user, errors, typed).await {
        Ok(p) => render(p.errors.status(), &p),
        Err(e) => ctx.error(e),
    }
}

/// The viewer, or (from the calling handler) the redirect to the sign-in page, which comes
/// back to the account page.
macro_rules! signed_in {
    ($ctx:expr) => {
        match $ctx.viewer.clone() {
            Some(user) => user,
            None => return sign_in_first("/account"),
        }
    };
}

/// `GET /account`.
pub async fn show(State(state): State<WebState>, ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let user = signed_in!(ctx);
    match page(&state, &ctx, &user, Errors::none(), None).await {
        Ok(p) => ctx.page(&AccountPage { notice: notice(raw.as_deref()), ..p }),
        Err(e) => ctx.error(e),
    }
}

fn profile_patch(f: &Fields) -> Result<ProfilePatch, freehire_domain::DomainError> {
    Ok(ProfilePatch {
        username: Some(f.optional("username").map(Username::parse).transpose()?),
        timezone: Some(f.optional("timezone").map(Timezone::parse).transpose()?),
        language: Some(Language::parse(f.get("language"))?),
    })
}

/// `POST /account/profile`: display name, time zone (blank clears them) and language.
pub async fn profile(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx);
    let f = Fields::parse(&body);
    let patch = match profile_patch(&f) {
        Ok(p) => p,
        Err(e) => {
            let (field, message) = domain_message(&e);
            return again(&state, &ctx, &user, Errors::one(field, message), Some(&f)).await;
        }
    };
    match state.accounts.update_profile(&user, &patch).await {
        Ok(_) => see_other("/account?done=profile", &[]),
        Err(e) => match account_message(e) {
            Ok(errors) => again(&state, &ctx, &user, errors, Some(&f)).await,
            Err(e) => ctx.error(e),
        },
    }
}

/// `POST /account/screening`: the whole screening form; a blank field is forgotten.
pub async fn screening(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx);
    let f = Fields::parse(&body);
    let patch = match screening_patch(&f) {
        Ok(p) => p,
        Err(e) => {
            let (field, message) = domain_message(&e);
            return again(&state, &ctx, &user, Errors::one(field, message), Some(&f)).await;
        }
    };
    match state.screening.set(user.id, &patch).await {
        Ok(_) => see_other("/account?done=screening#screening", &[]),
        Err(e) => ctx.error(WebError::from(e)),
    }
}

/// `POST /account/password`: the current password and a new one; signs in afresh.
pub async fn password(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx);
    let f = Fields::parse(&body);
    let new = match Password::parse(f.get("new_password")) {
        Ok(p) => p,
        Err(e) => {
            let (_, message) = domain_message(&e);
            return again(&state, &ctx, &user, Errors::one("new_password", message), None).await;
        }
    };
    let Ok(current) = Password::parse(f.get("current_password")) else {
        let e = freehire_app::accounts::AccountError::WrongCurrentPassword;
        return again(&state, &ctx, &user, Errors::one("current_password", e.to_string()), None)
            .await;
    };
    match state.accounts.change_password(&user, &current, &new).await {
        Ok((_, s)) => see_other(
            "/account?done=password",
            &[session::set(&s, state.accounts.session_ttl(), ctx.secure)],
        ),
        Err(e) => match account_message(e) {
            Ok(errors) => again(&state, &ctx, &user, errors, None).await,
            Err(e) => ctx.error(e),
        },
    }
}

/// `POST /account/keys`: mints a key and shows its token once.
pub async fn mint(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx);
    let f = Fields::parse(&body);
    let request = ApiKeyName::parse(f.get("name")).and_then(|name| {
        let scope = f.optional("scope").map(ApiKeyScope::parse).transpose()?;
        Ok(KeyRequest { name, scope: scope.unwrap_or(ApiKeyScope::Full), expires_at: None })
    });
    let request = match request {
        Ok(r) => r,
        Err(e) => {
            let (field, message) = domain_message(&e);
            return again(&state, &ctx, &user, Errors::one(field, message), None).await;
        }
    };
    let minted = match state.accounts.create_key(&user, &request).await {
        Ok(m) => m,
        Err(e) => {
            return match account_message(e) {
                Ok(errors) => again(&state, &ctx, &user, errors, None).await,
                Err(e) => ctx.error(e),
            };
        }
    };
    match page(&state, &ctx, &user, Errors::none(), None).await {
        Ok(p) => {
            let p = AccountPage {
                minted: Some((minted.key.name.as_str().to_owned(), minted.token)),
                ..p
            };
            let mut response = render(StatusCode::CREATED, &p);
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(e) => ctx.error(e),
    }
}

/// `POST /account/keys/{id}/revoke`: deletes one of the account's keys (another account's
/// is not found).
pub async fn revoke(State(state): State<WebState>, ctx: Ctx, Path(id): Path<String>) -> Response {
    let user = signed_in!(ctx);
    let Ok(id) = id.parse::<ApiKeyId>() else {
        return ctx.error(WebError::NotFound);
    };
    match state.accounts.delete_key(&user, id).await {
        Ok(()) => see_other("/account?done=revoked", &[]),
        Err(freehire_app::accounts::AccountError::NotFound(_)) => ctx.error(WebError::NotFound),
        Err(e) => ctx.error(e),
    }
}

/// `POST /account/delete`: deletes the account when the address typed is its own.
pub async fn delete(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx);
    let f = Fields::parse(&body);
    let confirmation = match Email::parse(f.get("email")) {
        Ok(e) => e,
        Err(_) => {
            let errors = Errors::one("email", "type your account's email address to confirm");
            return again(&state, &ctx, &user, errors, None).await;
        }
    };
    match state.accounts.delete_account(&user, &confirmation).await {
        Ok(()) => see_other("/login?done=deleted", &[session::clear(ctx.secure)]),
        Err(e) => match account_message(e) {
            Ok(errors) => again(&state, &ctx, &user, errors, None).await,
            Err(e) => ctx.error(e),
        },
    }
}
