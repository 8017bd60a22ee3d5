//! The page handlers, one file per area, and [`routes`], the one place they are mounted.
//!
//! | route | page |
//! |---|---|
//! | `GET /`, `GET /jobs` | search with facets ([`search`]) |
//! | `GET /jobs/{slug}` | one job ([`jobs`]) |
//! | `GET /companies`, `GET /companies/{slug}` | companies ([`companies`]) |
//! | `GET/POST /signup`, `/login`, `/verify`, `/forgot`, `/reset`; `POST /logout` | sign-up, sign-in and codes ([`auth`]) |
//! | `GET /account`; `POST /account/profile`, `/account/password`, `/account/keys`, `/account/keys/{id}/revoke`, `/account/delete`, `/account/verify` | the account ([`account`]) |
//! | `GET /assets/{file}` | the stylesheet and htmx ([`crate::assets`]) |
//!
//! Anything else is the 404 page ([`not_found`]).

pub mod companies;
pub mod jobs;
pub mod search;

use axum::{Router, response::Response, routing::get};

use crate::{WebError, WebState, assets, layout::Ctx};

/// Every page route.
pub fn routes() -> Router<WebState> {
    Router::new()
        .route("/", get(search::page))
        .route("/jobs", get(search::page))
        .route("/jobs/{slug}", get(jobs::page))
        .route("/companies", get(companies::list))
        .route("/companies/{slug}", get(companies::show))
        .route("/assets/{file}", get(assets::serve))
}

/// The 404 page, in the request's layout.
pub async fn not_found(ctx: Ctx) -> Response {
    ctx.error(WebError::NotFound)
}
