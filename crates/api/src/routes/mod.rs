//! Route handlers, one file per resource, and [`api`], the one place they are mounted.

pub mod applications;
pub mod assistant;
pub mod auth;
pub mod companies;
pub mod cover_letters;
pub mod cv_import;
pub mod cvs;
pub mod experience;
pub mod ghost;
pub mod health;
pub mod jobs;
pub mod lookup;
pub mod market;
pub mod mcp;
pub mod me;
pub mod metrics;
pub mod notifications;
pub mod openapi;
pub mod saved_searches;
pub mod screening;
pub mod search;
pub mod sitemaps;
pub mod status;
pub mod tailoring;
pub mod tracking;

use utoipa::OpenApi;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, openapi::ApiDoc};

/// Every route, each mounted with its path item (`routes!` reads the handler's
/// `#[utoipa::path]`): the health check at the root, the rest under `/api/v1`. A route is
/// added here and nowhere else (see [`crate::openapi`] for the tests that keep it so).
pub fn api() -> OpenApiRouter<AppState> {
    let v1 = OpenApiRouter::new()
        .routes(routes!(jobs::list))
        .routes(routes!(jobs::show))
        .routes(routes!(lookup::find))
        .routes(routes!(lookup::copies))
        .routes(routes!(lookup::cities))
        .routes(routes!(lookup::suggest))
        .routes(routes!(sitemaps::jobs))
        .routes(routes!(sitemaps::companies))
        .routes(routes!(status::status))
        .routes(routes!(status::catalog))
        .routes(routes!(search::search))
        .routes(routes!(search::facets))
        .routes(routes!(search::agent_search))
        .routes(routes!(market::coverage))
        .routes(routes!(companies::list))
        .routes(routes!(companies::show))
        .routes(routes!(openapi::document))
        .routes(routes!(auth::register))
        .routes(routes!(auth::login))
        .routes(routes!(auth::logout))
        .routes(routes!(auth::logout_all))
        .routes(routes!(auth::me))
        .routes(routes!(auth::verify_request))
        .routes(routes!(auth::verify_confirm))
        .routes(routes!(auth::password_forgot))
        .routes(routes!(auth::password_reset))
        .routes(routes!(me::update))
        .routes(routes!(me::delete))
        .routes(routes!(me::change_password))
        .routes(routes!(me::create_key))
        .routes(routes!(me::list_keys))
        .routes(routes!(me::delete_key))
        .routes(routes!(screening::show))
        .routes(routes!(screening::update))
        .routes(routes!(cover_letters::draft))
        .routes(routes!(cover_letters::list))
        .routes(routes!(cover_letters::show))
        .routes(routes!(cover_letters::delete))
        .routes(routes!(tracking::view))
        .routes(routes!(tracking::apply))
        .routes(routes!(tracking::save))
        .routes(routes!(tracking::unsave))
        .routes(routes!(ghost::report))
        .routes(routes!(ghost::retract))
        .routes(routes!(tracking::dismiss))
        .routes(routes!(tracking::undismiss))
        .routes(routes!(tracking::update))
        .routes(routes!(tracking::clear_track))
        .routes(routes!(tracking::clear_stage))
        .routes(routes!(tracking::list))
        .routes(routes!(tracking::viewed))
        .routes(routes!(tracking::saved))
        .routes(routes!(tracking::dismissed))
        .routes(routes!(tracking::pipeline))
        .routes(routes!(tracking::followups))
        .routes(routes!(tracking::export))
        .routes(routes!(tracking::import))
        .routes(routes!(tracking::detail))
        .routes(routes!(tracking::followup_draft))
        .routes(routes!(tracking::record_followup))
        .routes(routes!(applications::update))
        .routes(routes!(applications::delete))
        .routes(routes!(applications::clear_stage))
        .routes(routes!(saved_searches::list))
        .routes(routes!(saved_searches::create))
        .routes(routes!(saved_searches::update))
        .routes(routes!(saved_searches::delete))
        .routes(routes!(saved_searches::subscribe))
        .routes(routes!(saved_searches::unsubscribe))
        .routes(routes!(saved_searches::shared_board))
        .routes(routes!(experience::bank))
        .routes(routes!(experience::search))
        .routes(routes!(experience::create_employment))
        .routes(routes!(experience::update_employment))
        .routes(routes!(experience::delete_employment))
        .routes(routes!(experience::create_atom))
        .routes(routes!(experience::update_atom))
        .routes(routes!(experience::delete_atom))
        .routes(routes!(experience::confirm_atom))
        .routes(routes!(experience::merge))
        .routes(routes!(experience::settings))
        .routes(routes!(cvs::list))
        .routes(routes!(cvs::create))
        .routes(routes!(cv_import::import))
        .routes(routes!(cvs::show))
        .routes(routes!(cvs::edit))
        .routes(routes!(cvs::revisions))
        .routes(routes!(cvs::undo))
        .routes(routes!(cvs::pdf))
        .routes(routes!(tailoring::tailor))
        .routes(routes!(tailoring::workspace))
        .routes(routes!(tailoring::undo_batch))
        .routes(routes!(tailoring::autopilot))
        .routes(routes!(tailoring::extend))
        .routes(routes!(notifications::list))
        .routes(routes!(notifications::jobs))
        .routes(routes!(notifications::settings))
        .routes(routes!(notifications::put_settings))
        .routes(routes!(assistant::create))
        .routes(routes!(assistant::list))
        .routes(routes!(assistant::show))
        .routes(routes!(assistant::delete))
        .routes(routes!(assistant::message))
        .routes(routes!(assistant::retry))
        .routes(routes!(assistant::opening))
        .routes(routes!(assistant::cancel))
        .routes(routes!(assistant::usage));
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(health::health))
        .routes(routes!(metrics::metrics))
        .routes(routes!(mcp::mcp))
        .nest("/api/v1", v1)
}
