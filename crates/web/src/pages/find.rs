//! `/find?url=`: a job seeker pastes a posting's address and lands on its page. The address
//! is canonicalised as `GET /api/v1/jobs/find` does (scheme, case, `www.`, trailing slash,
//! fragment and tracking parameters do not matter); found, the answer is a redirect to
//! `/jobs/{slug}`; not found or not an address, the form again with the reason (404 and 400).

use askama::Template;
use axum::{
    extract::{RawQuery, State},
    http::StatusCode,
    response::Response,
};
use freehire_app::posting_url::PostingUrl;

use super::forms::see_other;
use crate::{WebState, error::render, layout::Ctx, layout::Layout};

/// The find page.
#[derive(Template)]
#[template(path = "find.html")]
pub struct FindPage {
    /// The layout.
    pub layout: Layout,
    /// The address as typed.
    pub url: String,
    /// Why nothing was found, if the form was sent.
    pub problem: Option<String>,
}

/// `GET /find`.
pub async fn page(State(state): State<WebState>, ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let url = url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "url")
        .map(|(_, v)| v.trim().to_owned());
    let Some(url) = url.filter(|u| !u.is_empty()) else {
        return ctx.page(&FindPage {
            layout: ctx.layout("Find a posting"),
            url: String::new(),
            problem: None,
        });
    };
    let (status, problem) = match PostingUrl::parse(&url) {
        Err(_) => (
            StatusCode::BAD_REQUEST,
            "That is not a web address: paste the whole link, starting with https://.".to_owned(),
        ),
        Ok(address) => match state.catalogue.find_by_url(&address).await {
            Ok(Some(job)) => return see_other(&format!("/jobs/{}", job.public_slug.as_str()), &[]),
            Ok(None) => (
                StatusCode::NOT_FOUND,
                "No posting in the catalogue has this address yet.".to_owned(),
            ),
            Err(e) => return ctx.error(e),
        },
    };
    let page = FindPage { layout: ctx.layout("Find a posting"), url, problem: Some(problem) };
    render(status, &page)
}
