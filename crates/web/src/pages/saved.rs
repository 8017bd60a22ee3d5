//! Saved searches on the pages: `/saved-searches` (the list with its forms: rename, delete,
//! "Subscribe by email" / unsubscribe, share / stop sharing, and a new search by name and
//! query), the search page's "Save this search" form (the current query string), and the
//! public `/shared-boards/{slug}` page of a shared search. Each POST calls one
//! [`SavedSearches`](freehire_app::saved_searches::SavedSearches) method and redirects back to
//! the list (303); a refused name or query is the list again (422) with the message next to the
//! field. Signed out, the pages redirect to the sign-in page; another user's search or
//! subscription is the 404 page.

use askama::Template;
use axum::{
    body::Bytes,
    extract::{Path, RawQuery, State},
    response::Response,
};
use freehire_app::saved_searches::{
    SavedSearchError, SavedSearchInput, SavedSearchUpdate, SubscribeInput,
};
use freehire_domain::{Channel, SavedSearchId, SubscriptionId, User};
use freehire_store::SavedSearch;

use super::forms::{Errors, Fields, see_other, sign_in_first};
use super::tracking::signed_in;
use crate::{WebError, WebState, error::render, format, layout::Ctx, layout::Layout};

/// An email subscription, as listed.
pub struct EmailSub {
    /// Its id (the unsubscribe form).
    pub id: i64,
    /// When its last digest went out.
    pub last_sent: Option<String>,
}

/// A webhook subscription, as listed.
pub struct WebhookSub {
    /// Its id.
    pub id: i64,
    /// Its URL.
    pub url: String,
}

/// One saved search in the list.
pub struct Row {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Its query string.
    pub query: String,
    /// The search page for it.
    pub href: String,
    /// The email subscription, if any.
    pub email: Option<EmailSub>,
    /// Webhook subscriptions.
    pub webhooks: Vec<WebhookSub>,
    /// The public board, while shared.
    pub share_href: Option<String>,
    /// A refused change of this search (rename, subscribe).
    pub error: Option<String>,
}

/// `/saved-searches`.
#[derive(Template)]
#[template(path = "saved_searches.html")]
pub struct SavedSearchesPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// Messages of the new-search form by field.
    pub errors: Errors,
    /// The searches, oldest first.
    pub searches: Vec<Row>,
    /// The new search's name as typed.
    pub typed_name: String,
    /// The new search's query as typed.
    pub typed_query: String,
}

fn notice(raw: Option<&str>) -> Option<&'static str> {
    let done = url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "done")
        .map(|(_, v)| v.into_owned())?;
    Some(match done.as_str() {
        "created" => "The search is saved.",
        "renamed" => "The search is renamed.",
        "deleted" => "The search is deleted.",
        "subscribed" => "Subscribed: its new jobs will be emailed to you.",
        "unsubscribed" => "Unsubscribed.",
        "shared" => "The search is shared: anyone with its link sees its jobs.",
        "unshared" => "The search is no longer shared.",
        _ => return None,
    })
}

/// The search page's address for a saved query.
pub fn search_href(query: &str) -> String {
    if query.is_empty() { "/jobs".to_owned() } else { format!("/jobs?{query}") }
}

fn row(s: &SavedSearch, ctx: &Ctx) -> Row {
    let mut email = None;
    let mut webhooks = Vec::new();
    for sub in s.subscriptions.iter().filter(|s| s.active) {
        match sub.channel {
            Channel::Email => {
                email = Some(EmailSub {
                    id: sub.id.get(),
                    last_sent: sub.last_digest_sent_at.map(|at| ctx.date(at)),
                });
            }
            Channel::Webhook => webhooks.push(WebhookSub {
                id: sub.id.get(),
                url: sub.destination.clone().unwrap_or_default(),
            }),
        }
    }
    Row {
        id: s.id.get(),
        name: s.name.clone(),
        query: s.query.clone(),
        href: search_href(&s.query),
        email,
        webhooks,
        share_href: s.public_slug.as_ref().map(|slug| format!("/shared-boards/{slug}")),
        error: None,
    }
}

/// The list page with `errors` (and, on one search, `row_error`), keeping what was typed.
async fn list_page(
    state: &WebState,
    ctx: &Ctx,
    user: &User,
    errors: Errors,
    typed: Option<&Fields>,
    row_error: Option<(i64, String)>,
) -> Response {
    let searches = match state.saved.list(user.id).await {
        Ok(s) => s,
        Err(e) => return ctx.error(e),
    };
    let mut rows: Vec<Row> = searches.iter().map(|s| row(s, ctx)).collect();
    if let Some((id, message)) = row_error
        && let Some(r) = rows.iter_mut().find(|r| r.id == id)
    {
        r.error = Some(message);
    }
    let status = if errors.any() || rows.iter().any(|r| r.error.is_some()) {
        axum::http::StatusCode::UNPROCESSABLE_ENTITY
    } else {
        axum::http::StatusCode::OK
    };
    let page = SavedSearchesPage {
        layout: ctx.layout("Saved searches"),
        notice: None,
        errors,
        searches: rows,
        typed_name: typed.map(|f| f.get("name").to_owned()).unwrap_or_default(),
        typed_query: typed.map(|f| f.get("query").to_owned()).unwrap_or_default(),
    };
    render(status, &page)
}

/// `GET /saved-searches`.
pub async fn list(State(state): State<WebState>, ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let user = signed_in!(ctx, "/saved-searches");
    let searches = match state.saved.list(user.id).await {
        Ok(s) => s,
        Err(e) => return ctx.error(e),
    };
    ctx.page(&SavedSearchesPage {
        layout: ctx.layout("Saved searches"),
        notice: notice(raw.as_deref()),
        errors: Errors::none(),
        searches: searches.iter().map(|s| row(s, &ctx)).collect(),
        typed_name: String::new(),
        typed_query: String::new(),
    })
}

/// The field a refusal names and its message; anything not the user's to fix is a page error.
fn refusal(e: SavedSearchError) -> Result<(&'static str, String), WebError> {
    match e {
        SavedSearchError::Invalid { field, message } => Ok((field, message)),
        SavedSearchError::Conflict { field, message } => Ok((field, message)),
        e @ SavedSearchError::UnfilteredSearch => Ok(("query", e.to_string())),
        e @ SavedSearchError::LimitReached => Ok(("saved_searches", e.to_string())),
        e => Err(e.into()),
    }
}

/// `POST /saved-searches` (`name`, `query`): from the list's form or the search page's.
pub async fn create(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx, "/saved-searches");
    let f = Fields::parse(&body);
    let input = SavedSearchInput {
        name: f.get("name").trim().to_owned(),
        query: f.get("query").trim().to_owned(),
    };
    match state.saved.create(user.id, &input, ctx.now).await {
        Ok(_) => see_other("/saved-searches?done=created", &[]),
        Err(e) => match refusal(e) {
            Ok((field, message)) => {
                let field = if field == "name" || field == "query" { field } else { "form" };
                list_page(&state, &ctx, &user, Errors::one(field, message), Some(&f), None).await
            }
            Err(e) => ctx.error(e),
        },
    }
}

fn saved_search_id(raw: &str) -> Option<SavedSearchId> {
    raw.parse().ok()
}

/// What a form on one search does.
enum Change {
    Rename,
    Share,
    Subscribe,
    Delete,
}

async fn change(state: WebState, ctx: Ctx, raw: String, body: Bytes, change: Change) -> Response {
    let user = signed_in!(ctx, "/saved-searches");
    let Some(id) = saved_search_id(&raw) else {
        return ctx.error(WebError::NotFound);
    };
    let f = Fields::parse(&body);
    let s = &state.saved;
    let (done, result) = match change {
        Change::Rename => {
            let update = SavedSearchUpdate {
                name: Some(f.get("name").trim().to_owned()),
                ..SavedSearchUpdate::default()
            };
            ("renamed", s.update(user.id, id, &update, ctx.now).await.map(drop))
        }
        Change::Share => {
            let on = f.get("shared") == "true";
            let update = SavedSearchUpdate { shared: Some(on), ..SavedSearchUpdate::default() };
            (
                if on { "shared" } else { "unshared" },
                s.update(user.id, id, &update, ctx.now).await.map(drop),
            )
        }
        Change::Subscribe => (
            "subscribed",
            s.subscribe(user.id, id, &SubscribeInput::Email, ctx.now).await.map(drop),
        ),
        Change::Delete => ("deleted", s.delete(user.id, id).await),
    };
    match result {
        Ok(()) => see_other(&format!("/saved-searches?done={done}"), &[]),
        Err(e) => match refusal(e) {
            Ok((field, message)) => {
                let message = format!("{field}: {message}");
                list_page(&state, &ctx, &user, Errors::none(), None, Some((id.get(), message)))
                    .await
            }
            Err(e) => ctx.error(e),
        },
    }
}

/// `POST /saved-searches/{id}/rename` (`name`).
pub async fn rename(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    change(state, ctx, id, body, Change::Rename).await
}

/// `POST /saved-searches/{id}/share` (`shared`: `true` or `false`).
pub async fn share(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    change(state, ctx, id, body, Change::Share).await
}

/// `POST /saved-searches/{id}/subscribe`: digests of its new jobs by email.
pub async fn subscribe(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    change(state, ctx, id, body, Change::Subscribe).await
}

/// `POST /saved-searches/{id}/delete`.
pub async fn delete(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    change(state, ctx, id, body, Change::Delete).await
}

/// `POST /saved-searches/subscriptions/{id}/delete`: unsubscribes.
pub async fn unsubscribe(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
) -> Response {
    let user = signed_in!(ctx, "/saved-searches");
    let Ok(id) = raw.parse::<SubscriptionId>() else {
        return ctx.error(WebError::NotFound);
    };
    match state.saved.unsubscribe(user.id, id).await {
        Ok(()) => see_other("/saved-searches?done=unsubscribed", &[]),
        Err(e) => ctx.error(e),
    }
}

/// A job of a shared board or a notification.
pub struct JobLink {
    /// `/jobs/{slug}`.
    pub href: String,
    /// Its title.
    pub title: String,
    /// Its company.
    pub company: String,
    /// Its location.
    pub location: String,
}

/// `/shared-boards/{slug}`.
#[derive(Template)]
#[template(path = "shared_board.html")]
pub struct SharedBoardPage {
    /// The layout.
    pub layout: Layout,
    /// The search's name.
    pub name: String,
    /// Its query.
    pub query: String,
    /// The search page for it.
    pub search_href: String,
    /// Its first page of open jobs.
    pub jobs: Vec<JobLink>,
}

/// `GET /shared-boards/{slug}`: public, read-only.
pub async fn shared_board(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(slug): Path<String>,
) -> Response {
    let board = match state.saved.shared_board(&slug, ctx.now).await {
        Ok(b) => b,
        Err(e) => return ctx.error(e),
    };
    ctx.page(&SharedBoardPage {
        layout: ctx.layout(board.name.clone()),
        search_href: search_href(&board.query),
        name: board.name,
        query: board.query,
        jobs: board
            .jobs
            .iter()
            .map(|j| JobLink {
                href: format!("/jobs/{}", j.public_slug),
                title: j.title.clone(),
                company: j.company.clone(),
                location: j.location.clone(),
            })
            .collect(),
    })
}

/// `2026-11-20` of an instant in the viewer's zone (for the list's dates).
pub fn day(ctx: &Ctx, at: chrono::DateTime<chrono::Utc>) -> String {
    format::day(at, ctx.tz)
}
