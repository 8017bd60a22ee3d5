//! Signing up and in without JavaScript: `/signup`, `/login`, `/verify`, `/forgot`,
//! `/reset` (GET shows the form, POST acts) and `POST /logout`. Each POST calls one
//! [`Accounts`](freehire_app::accounts::Accounts) method, then redirects (303) on success or
//! re-renders the form with the message next to the field it names, keeping what was typed
//! but never a password or a code. Sessions are the JSON API's cookie ([`crate::session`]).
//! The CSRF token was checked before any of these run ([`crate::csrf`]); the attempts count
//! against the JSON API's buckets (per client IP and account) through the state's throttle,
//! and a refusal is the form again, answered 429 with the wait.

use askama::Template;
use axum::{
    body::Bytes,
    extract::{RawQuery, State},
    http::StatusCode,
    response::Response,
};
use freehire_app::throttle::AuthAction;
use freehire_domain::{Email, Language, Password};

use super::forms::{Errors, Fields, account_message, domain_message, local_path, see_other};
use crate::{WebState, error::render, layout::Ctx, layout::Layout, session};

/// A message shown above a form after a redirect (`?done=…`): fixed texts, never reflected.
fn notice(raw: Option<&str>) -> Option<&'static str> {
    let done = url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "done")
        .map(|(_, v)| v.into_owned())?;
    Some(match done.as_str() {
        "signed-up" => "Your account is ready. We mailed you a six-digit code: enter it below.",
        "sent" => "If the address has an account that needs it, a code is on its way.",
        "reset-sent" => "If the address has an account, a reset code is on its way.",
        "signed-out" => "You are signed out.",
        "verified" => "Your email address is verified: sign in.",
        "deleted" => "Your account and everything it owned are deleted.",
        _ => return None,
    })
}

fn query_value(raw: Option<&str>, name: &str) -> String {
    url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

/// The sign-up form.
#[derive(Template)]
#[template(path = "signup.html")]
pub struct SignupPage {
    /// The layout.
    pub layout: Layout,
    /// Messages by field.
    pub errors: Errors,
    /// The address typed.
    pub email: String,
    /// The language typed.
    pub language: String,
}

/// `GET /signup`.
pub async fn signup_form(ctx: Ctx) -> Response {
    let page = SignupPage {
        layout: ctx.layout("Sign up"),
        errors: Errors::none(),
        email: String::new(),
        language: "en".to_owned(),
    };
    ctx.page(&page)
}

/// `POST /signup`: creates the account, signs it in and mails the verification code.
pub async fn signup(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let again = |errors: Errors| {
        let status = errors.status();
        let page = SignupPage {
            layout: ctx.layout("Sign up"),
            errors,
            email: f.get("email").to_owned(),
            language: f.get("language").to_owned(),
        };
        render(status, &page)
    };
    let parsed = (|| {
        Ok::<_, freehire_domain::DomainError>((
            Email::parse(f.get("email"))?,
            Password::parse(f.get("password"))?,
            f.optional("language").map(Language::parse).transpose()?,
        ))
    })();
    let (email, password, language) = match parsed {
        Ok(v) => v,
        Err(e) => {
            let (field, message) = domain_message(&e);
            return again(Errors::one(field, message));
        }
    };
    if let Some(errors) = ctx.limited(&state, AuthAction::Register, None) {
        return again(errors);
    }
    match state.accounts.register(email, password, language).await {
        Ok(registered) => {
            let cookie =
                session::set(&registered.session, state.accounts.session_ttl(), ctx.secure);
            see_other("/verify?done=signed-up", &[cookie])
        }
        Err(e) => match account_message(e) {
            Ok(errors) => again(errors),
            Err(e) => ctx.error(e),
        },
    }
}

/// The sign-in form.
#[derive(Template)]
#[template(path = "login.html")]
pub struct LoginPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// Messages by field.
    pub errors: Errors,
    /// The address typed.
    pub email: String,
    /// Where to go once signed in (a local path; empty: the account page).
    pub next: String,
}

/// `GET /login` (`?next=/tracking`: where to go once signed in, a path on this site).
pub async fn login_form(ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let next = query_value(raw.as_deref(), "next");
    let page = LoginPage {
        layout: ctx.layout("Sign in"),
        notice: notice(raw.as_deref()),
        errors: Errors::none(),
        email: String::new(),
        next: local_path(&next).unwrap_or_default().to_owned(),
    };
    ctx.page(&page)
}

/// `POST /login`: one answer for an unknown address and a wrong password; signed in, goes
/// to the form's `next` (a local path) or the account page.
pub async fn login(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let next = local_path(f.get("next")).unwrap_or("/account").to_owned();
    let again = |errors: Errors| {
        let status = errors.status();
        let page = LoginPage {
            layout: ctx.layout("Sign in"),
            notice: None,
            errors,
            email: f.get("email").to_owned(),
            next: local_path(f.get("next")).unwrap_or_default().to_owned(),
        };
        render(status, &page)
    };
    let email = match Email::parse(f.get("email")) {
        Ok(email) => email,
        Err(e) => {
            let (field, message) = domain_message(&e);
            return again(Errors::one(field, message));
        }
    };
    if let Some(errors) = ctx.limited(&state, AuthAction::Login, Some(email.as_str())) {
        return again(errors);
    }
    let password = Password::parse(f.get("password")).ok();
    match state.accounts.login(&email, password.as_ref()).await {
        Ok((_, s)) => {
            see_other(&next, &[session::set(&s, state.accounts.session_ttl(), ctx.secure)])
        }
        Err(e) => match account_message(e) {
            Ok(errors) => again(errors),
            Err(e) => ctx.error(e),
        },
    }
}

/// `POST /logout`: clears the session cookie.
pub async fn logout(ctx: Ctx) -> Response {
    see_other("/login?done=signed-out", &[session::clear(ctx.secure)])
}

/// The verification form.
#[derive(Template)]
#[template(path = "verify.html")]
pub struct VerifyPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// Messages by field.
    pub errors: Errors,
    /// The address (asked for when not signed in).
    pub email: String,
    /// Whether the viewer is signed in (no address field then).
    pub signed_in: bool,
    /// Whether the signed-in account is verified already.
    pub verified: bool,
}

/// `GET /verify`.
pub async fn verify_form(ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let page = VerifyPage {
        layout: ctx.layout("Verify your email"),
        notice: notice(raw.as_deref()),
        errors: Errors::none(),
        email: query_value(raw.as_deref(), "email"),
        signed_in: ctx.viewer.is_some(),
        verified: ctx.viewer.as_ref().is_some_and(|u| u.email_verified),
    };
    ctx.page(&page)
}

/// `POST /verify`: redeems the code for the signed-in account or the address given.
pub async fn verify(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let again = |errors: Errors| {
        let status = errors.status();
        let page = VerifyPage {
            layout: ctx.layout("Verify your email"),
            notice: None,
            errors,
            email: f.get("email").to_owned(),
            signed_in: ctx.viewer.is_some(),
            verified: false,
        };
        render(status, &page)
    };
    let email = match (&ctx.viewer, f.optional("email")) {
        (_, Some(raw)) => match Email::parse(raw) {
            Ok(email) => email,
            Err(e) => {
                let (field, message) = domain_message(&e);
                return again(Errors::one(field, message));
            }
        },
        (Some(user), None) => user.email.clone(),
        (None, None) => return again(Errors::one("email", "enter the address you signed up with")),
    };
    if let Some(errors) = ctx.limited(&state, AuthAction::VerifyConfirm, Some(email.as_str())) {
        return again(errors);
    }
    match state.accounts.confirm_verification(&email, f.get("code").trim()).await {
        Ok(_) if ctx.viewer.is_some() => see_other("/account?done=verified", &[]),
        Ok(_) => see_other("/login?done=verified", &[]),
        Err(e) => match account_message(e) {
            Ok(errors) => again(errors),
            Err(e) => ctx.error(e),
        },
    }
}

/// `POST /verify/resend`: mails a new code to the signed-in account or the address given.
pub async fn verify_resend(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let email = match (&ctx.viewer, f.optional("email").map(Email::parse)) {
        (_, Some(Ok(email))) => Some(email),
        (Some(user), None) => Some(user.email.clone()),
        (_, Some(Err(_))) | (None, None) => None,
    };
    let Some(email) = email else {
        return see_other("/verify?done=sent", &[]);
    };
    if let Some(errors) = ctx.limited(&state, AuthAction::VerifyRequest, Some(email.as_str())) {
        let page = VerifyPage {
            layout: ctx.layout("Verify your email"),
            notice: None,
            email: f.get("email").to_owned(),
            signed_in: ctx.viewer.is_some(),
            verified: false,
            errors,
        };
        return render(StatusCode::TOO_MANY_REQUESTS, &page);
    }
    let result = match &ctx.viewer {
        Some(user) if user.email == email => state.accounts.request_verification(user).await,
        _ => state.accounts.request_verification_by_email(&email).await,
    };
    match result.map_err(account_message) {
        Ok(()) | Err(Ok(_)) => see_other("/verify?done=sent", &[]),
        Err(Err(e)) => ctx.error(e),
    }
}

/// The forgotten-password form.
#[derive(Template)]
#[template(path = "forgot.html")]
pub struct ForgotPage {
    /// The layout.
    pub layout: Layout,
    /// Messages by field.
    pub errors: Errors,
    /// The address typed.
    pub email: String,
}

/// `GET /forgot`.
pub async fn forgot_form(ctx: Ctx) -> Response {
    ctx.page(&ForgotPage {
        layout: ctx.layout("Forgot your password"),
        errors: Errors::none(),
        email: String::new(),
    })
}

/// `POST /forgot`: mails a reset code if the address has an account (the same answer
/// either way), then shows the reset form.
pub async fn forgot(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let email = match Email::parse(f.get("email")) {
        Ok(email) => email,
        Err(e) => {
            let (field, message) = domain_message(&e);
            let page = ForgotPage {
                layout: ctx.layout("Forgot your password"),
                errors: Errors::one(field, message),
                email: f.get("email").to_owned(),
            };
            return render(StatusCode::UNPROCESSABLE_ENTITY, &page);
        }
    };
    if let Some(errors) = ctx.limited(&state, AuthAction::PasswordForgot, Some(email.as_str())) {
        let page = ForgotPage {
            layout: ctx.layout("Forgot your password"),
            errors,
            email: f.get("email").to_owned(),
        };
        return render(StatusCode::TOO_MANY_REQUESTS, &page);
    }
    if let Err(e) = state.accounts.forgot_password(&email).await
        && let Err(e) = account_message(e)
    {
        return ctx.error(e);
    }
    let mut to = url::form_urlencoded::Serializer::new(String::new());
    to.append_pair("done", "reset-sent").append_pair("email", email.as_str());
    see_other(&format!("/reset?{}", to.finish()), &[])
}

/// The reset form.
#[derive(Template)]
#[template(path = "reset.html")]
pub struct ResetPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// Messages by field.
    pub errors: Errors,
    /// The address.
    pub email: String,
}

/// `GET /reset`.
pub async fn reset_form(ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    ctx.page(&ResetPage {
        layout: ctx.layout("Choose a new password"),
        notice: notice(raw.as_deref()),
        errors: Errors::none(),
        email: query_value(raw.as_deref(), "email"),
    })
}

/// `POST /reset`: sets the new password with the code, revokes every session and signs in.
pub async fn reset(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let again = |errors: Errors| {
        let status = errors.status();
        let page = ResetPage {
            layout: ctx.layout("Choose a new password"),
            notice: None,
            errors,
            email: f.get("email").to_owned(),
        };
        render(status, &page)
    };
    let parsed = Email::parse(f.get("email"))
        .and_then(|e| Password::parse(f.get("password")).map(|p| (e, p)));
    let (email, password) = match parsed {
        Ok(v) => v,
        Err(e) => {
            let (field, message) = domain_message(&e);
            return again(Errors::one(field, message));
        }
    };
    if let Some(errors) = ctx.limited(&state, AuthAction::PasswordReset, Some(email.as_str())) {
        return again(errors);
    }
    match state.accounts.reset_password(&email, f.get("code").trim(), &password).await {
        Ok((_, s)) => see_other(
            "/account?done=password",
            &[session::set(&s, state.accounts.session_ttl(), ctx.secure)],
        ),
        Err(e) => match account_message(e) {
            Ok(errors) => again(errors),
            Err(e) => ctx.error(e),
        },
    }
}
