//! The page handlers, one file per area, and [`routes`], the one place they are mounted.
//!
//! | route | page |
//! |---|---|
//! | `GET /`, `GET /jobs` | search with facets ([`search`]) |
//! | `GET /jobs/{slug}` | one job ([`jobs`]) |
//! | `GET /companies`, `GET /companies/{slug}` | companies ([`companies`]) |
//! | `GET/POST /signup`, `/login`, `/verify`, `/forgot`, `/reset`; `POST /verify/resend`, `/logout` | sign-up, sign-in and codes ([`auth`]) |
//! | `GET /account`; `POST /account/profile`, `/account/password`, `/account/screening`, `/account/keys`, `/account/keys/{id}/revoke`, `/account/delete`, `/account/verify` | the account ([`account`]) |
//! | `POST /jobs/{slug}/save`, `/unsave`, `/dismiss`, `/undismiss`, `/apply` | a job's buttons ([`actions`]) |
//! | `GET /assistant`, `/assistant/{id}`; `POST /assistant`, `/assistant/{id}/opening`, `/assistant/{id}/retry`, `/assistant/{id}/delete` | the assistant's rail and conversation ([`assistant`]) |
//! | `GET /tracking`, `/tracking/followups`, `/tracking/{slug}`; `POST /tracking/applications/{id}/stage`, `/tracking/applications/{id}/notes`, `/tracking/{slug}/followup`, `/tracking/{slug}/clear` | the board, the follow-ups, one application ([`tracking`]) |
//! | `GET/POST /saved-searches`; `POST /saved-searches/{id}/rename`, `/share`, `/subscribe`, `/delete`, `/saved-searches/subscriptions/{id}/delete`; `GET /shared-boards/{slug}` (public) | saved searches ([`saved`]) |
//! | `GET/POST /cvs`; `GET /cvs/{id}`, `/cvs/{id}/pdf`, `/cvs/{id}/preview/{page}`; `POST /cvs/{id}/summary`, `/template`, `/experience`, `/experience/{index}/bullets`, `/revisions/{revision}/undo` | the CVs and the CV editor ([`cvs`]) |
//! | `GET /experience`; `POST /experience/employments`, `/experience/employments/{id}/delete`, `/experience/atoms`, `/experience/atoms/{id}/confirm`, `/experience/atoms/{id}/delete`, `/experience/merge`, `/experience/settings` | the experience bank ([`experience`]) |
//! | `GET /notifications`, `/notifications/{id}`; `GET/POST /notifications/settings` | the notification history and settings ([`notifications`]) |
//! | `GET /assets/{file}` | the stylesheet, htmx and the pages' script ([`crate::assets`]) |
//!
//! Anything else is the 404 page ([`not_found`]).

pub mod account;
pub mod actions;
pub mod assistant;
pub mod auth;
pub mod companies;
pub mod cv_import;
pub mod cvs;
pub mod experience;
pub mod find;
pub(crate) mod forms;
pub mod jobs;
pub mod market;
pub mod notifications;
pub mod saved;
pub mod screening;
pub mod search;
pub mod status;
pub mod tailoring;
pub mod tracking;

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
        .route("/find", get(find::page))
        .route("/market", get(market::page))
        .route("/status", get(status::page))
        .route("/jobs/{slug}", get(jobs::page))
        .route("/jobs/{slug}/save", post(actions::save))
        .route("/jobs/{slug}/unsave", post(actions::unsave))
        .route("/jobs/{slug}/dismiss", post(actions::dismiss))
        .route("/jobs/{slug}/undismiss", post(actions::undismiss))
        .route("/jobs/{slug}/apply", post(actions::apply))
        .route("/jobs/{slug}/ghost-report", post(actions::report_ghost))
        .route("/jobs/{slug}/ghost-report/retract", post(actions::retract_ghost))
        .route("/assistant", get(assistant::index).post(assistant::create))
        .route("/assistant/{id}", get(assistant::show))
        .route("/assistant/{id}/opening", post(assistant::opening))
        .route("/assistant/{id}/retry", post(assistant::retry))
        .route("/assistant/{id}/delete", post(assistant::delete))
        .route("/tracking", get(tracking::board))
        .route("/tracking/followups", get(tracking::followups))
        .route("/tracking/{slug}", get(tracking::application))
        .route("/tracking/{slug}/followup", post(tracking::followed_up))
        .route("/tracking/{slug}/clear", post(tracking::clear))
        .route("/tracking/applications/{id}/stage", post(tracking::set_stage))
        .route("/tracking/applications/{id}/notes", post(tracking::set_notes))
        .route("/saved-searches", get(saved::list).post(saved::create))
        .route("/saved-searches/{id}/rename", post(saved::rename))
        .route("/saved-searches/{id}/share", post(saved::share))
        .route("/saved-searches/{id}/subscribe", post(saved::subscribe))
        .route("/saved-searches/{id}/delete", post(saved::delete))
        .route("/saved-searches/subscriptions/{id}/delete", post(saved::unsubscribe))
        .route("/shared-boards/{slug}", get(saved::shared_board))
        .route("/cvs", get(cvs::list).post(cvs::create))
        .route("/cvs/import", post(cv_import::import))
        .route("/cvs/{id}", get(cvs::show))
        .route("/cvs/{id}/summary", post(cvs::summary))
        .route("/cvs/{id}/template", post(cvs::template))
        .route("/cvs/{id}/experience", post(cvs::add_job))
        .route("/cvs/{id}/experience/{index}/bullets", post(cvs::bullets))
        .route("/cvs/{id}/revisions/{revision}/undo", post(cvs::undo))
        .route("/cvs/{id}/pdf", get(cvs::pdf))
        .route("/cvs/{id}/preview/{page}", get(cvs::preview))
        .route("/cvs/{id}/batches/{batch}/undo", post(tailoring::undo_batch))
        .route("/tailor", post(tailoring::start))
        .route("/cover-letters", post(tailoring::draft_letter))
        .route("/experience", get(experience::show))
        .route("/experience/employments", post(experience::add_employment))
        .route("/experience/employments/{id}/delete", post(experience::delete_employment))
        .route("/experience/atoms", post(experience::add_atom))
        .route("/experience/atoms/{id}/confirm", post(experience::confirm_atom))
        .route("/experience/atoms/{id}/delete", post(experience::delete_atom))
        .route("/experience/merge", post(experience::merge))
        .route("/experience/settings", post(experience::settings))
        .route("/notifications", get(notifications::history))
        .route(
            "/notifications/settings",
            get(notifications::settings).post(notifications::save_settings),
        )
        .route("/notifications/{id}", get(notifications::show))
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
        .route("/account/screening", post(account::screening))
        .route("/account/keys", post(account::mint))
        .route("/account/keys/{id}/revoke", post(account::revoke))
        .route("/account/delete", post(account::delete))
        .route("/assets/{file}", get(assets::serve))
}

/// The 404 page, in the request's layout.
pub async fn not_found(ctx: Ctx) -> Response {
    ctx.error(WebError::NotFound)
}
