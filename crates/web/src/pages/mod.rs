//! The page handlers, one file per area, and [`routes`], the one place they are mounted.
//!
//! | route | page |
//! |---|---|
//! | `GET /`, `GET /jobs` | search with facets ([`search`]) |
//! | `GET /jobs/{slug}` | one job ([`jobs`]) |
//! | `GET /companies`, `GET /companies/{slug}` | companies ([`companies`]) |
//! | `GET/POST /signup`, `/login`, `/verify`, `/forgot`, `/reset`; `POST /verify/resend`, `/logout` | sign-up, sign-in and codes ([`auth`]) |
//! | `GET /account`; `POST /account/profile`, `/account/password`, `/account/keys`, `/account/keys/{id}/revoke`, `/account/delete`, `/account/verify` | the account ([`account`]) |
//! | `GET /assets/{file}` | the stylesheet and htmx ([`crate::assets`]) |
//!
//! Anything else is the 404 page ([`not_found`]).

pub mod account;
pub mod auth;
pub mod companies;
pub(crate) mod forms;
pub mod jobs;
pub mod search;

use axum::{
    Router,
    response::Response,
    routing::{get, post},
};

use crate::{WebError, WebState, assets, layout::Ctx};

/// Every page route.
pub fn routes() -> Router<WebState> {
    Router::new()
        .route("/", get(search::page))
        .route("/jobs", get(search::page))
        .route("/jobs/{slug}", get(jobs::page))
        .route("/companies", get(companies::list))
        .route("/companies/{slug}", get(companies::show))
        .route("/signup", get(auth::signup_form).post(auth::signup))
        .route("/login", get(auth::login_form).post(auth::login))
        .route("/logout", post(auth::logout))
        .route("/verify", get(auth::verify_form).post(auth::verify))
        .route("/verify/resend", post(auth::verify_resend))
        .route("/forgot", get(auth::forgot_form).post(auth::forgot))
        .route("/reset", get(auth::reset_form).post(auth::reset))
        .route("/account", get(account::show))
        .route("/account/profile", post(account::profile))
        .route("/account/password", post(account::password))
        .route("/account/keys", post(account::mint))
        .route("/account/keys/{id}/revoke", post(account::revoke))
        .route("/account/delete", post(account::delete))
        .route("/assets/{file}", get(assets::serve))
}

/// The 404 page, in the request's layout.
pub async fn not_found(ctx: Ctx) -> Response {
    ctx.error(WebError::NotFound)
}
