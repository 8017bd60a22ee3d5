//! A job's save / unsave, dismiss / undismiss and "mark applied" buttons, on the search hits
//! and the job page ([`Actions`], `templates/actions.html`), and their POST routes
//! (`/jobs/{slug}/save`, `/unsave`, `/dismiss`, `/undismiss`, `/apply`). Each calls one
//! [`Tracking`](freehire_app::tracking::Tracking) method, then redirects to the form's `next`
//! (the page the button was on, a local path) or, for an htmx request (`HX-Request`), answers
//! the buttons block alone in its new state, which htmx swaps in place. Signed out, a POST
//! redirects to the sign-in page, which comes back to `next`.

use askama::Template;
use axum::{
    body::Bytes,
    extract::{Path, State},
    http::HeaderMap,
    response::Response,
};
use std::collections::{HashMap, HashSet};

use chrono::{DateTime, NaiveDate, Utc};
use freehire_app::tracking::{ApplyInput, TrackingError};
use freehire_app::tracking::{SlugSet, TrackState, TrackingFilter};
use freehire_domain::{PublicSlug, Stage, User};

use super::forms::{Fields, local_path, see_other, sign_in_first};
use crate::{WebError, WebState, error::render, layout::Ctx};

/// The buttons of one job for the signed-in viewer.
pub struct Actions {
    /// The job's public slug.
    pub slug: String,
    /// The forms' CSRF token.
    pub csrf: String,
    /// The page the forms come back to.
    pub next: String,
    /// Whether the viewer saved it.
    pub saved: bool,
    /// Whether the viewer dismissed it.
    pub dismissed: bool,
    /// Whether the viewer applied.
    pub applied: bool,
    /// The application's stage label, when it has one.
    pub stage: Option<&'static str>,
}

impl Actions {
    /// The buttons of `track`'s job, coming back to `next`.
    pub fn of(state: &TrackState, csrf: &str, next: &str) -> Self {
        let track = &state.track;
        let application = track.application.as_ref();
        Self {
            slug: track.job_slug.clone(),
            csrf: csrf.to_owned(),
            next: next.to_owned(),
            saved: track.marks.saved_at.is_some(),
            dismissed: track.marks.dismissed_at.is_some(),
            applied: application.is_some_and(|a| a.applied_at.is_some()),
            stage: application.and_then(|a| a.stage).map(|s| s.label()),
        }
    }
}

/// What the viewer did with jobs, for the buttons of a page of them: the saved and
/// dismissed slug sets and the applications' stages (the board, at most
/// [`BOARD_LIMIT`](super::tracking::BOARD_LIMIT) of them).
pub struct ViewerMarks {
    saved: HashSet<String>,
    dismissed: HashSet<String>,
    /// slug → (applied, stage).
    applications: HashMap<String, (bool, Option<Stage>)>,
}

impl ViewerMarks {
    /// The viewer's marks.
    pub async fn load(state: &WebState, user: &User, now: DateTime<Utc>) -> Result<Self, WebError> {
        let t = &state.tracking;
        let saved = t.slugs(user.id, SlugSet::Saved).await?;
        let dismissed = t.slugs(user.id, SlugSet::Dismissed).await?;
        let board =
            t.list(user.id, TrackingFilter::Board, super::tracking::BOARD_LIMIT, 0, now).await?;
        Ok(Self {
            saved: saved.into_iter().collect(),
            dismissed: dismissed.into_iter().collect(),
            applications: board
                .cards
                .iter()
                .filter_map(|c| {
                    let c = &c.card;
                    Some((c.job_slug.clone()?, (c.applied_at.is_some(), c.stage)))
                })
                .collect(),
        })
    }

    /// The buttons of the job `slug`, coming back to `next`.
    pub fn actions(&self, slug: &str, csrf: &str, next: &str) -> Actions {
        let (applied, stage) = self.applications.get(slug).copied().unwrap_or((false, None));
        Actions {
            slug: slug.to_owned(),
            csrf: csrf.to_owned(),
            next: next.to_owned(),
            saved: self.saved.contains(slug),
            dismissed: self.dismissed.contains(slug),
            applied,
            stage: stage.map(Stage::label),
        }
    }
}

/// The buttons block alone (the answer to an htmx POST).
#[derive(Template)]
#[template(path = "actions.html")]
pub struct ActionsFragment {
    /// The buttons.
    pub a: Actions,
}

/// What a button does.
#[derive(Debug, Clone, Copy)]
enum Action {
    Save,
    Unsave,
    Dismiss,
    Undismiss,
    Apply,
}

async fn act(
    state: WebState,
    ctx: Ctx,
    headers: HeaderMap,
    raw: String,
    body: Bytes,
    action: Action,
) -> Response {
    let f = Fields::parse(&body);
    let next = local_path(f.get("next")).unwrap_or("/tracking").to_owned();
    let Some(user) = ctx.viewer.as_ref() else {
        return sign_in_first(&next);
    };
    let Ok(slug) = PublicSlug::parse(&raw) else {
        return ctx.error(WebError::NotFound);
    };
    let t = &state.tracking;
    let (owner, now) = (user.id, ctx.now);
    let done = match action {
        Action::Save => t.save(owner, &slug, now).await,
        Action::Unsave => t.unsave(owner, &slug, now).await,
        Action::Dismiss => t.dismiss(owner, &slug, now).await,
        Action::Undismiss => t.undismiss(owner, &slug, now).await,
        Action::Apply => {
            let applied_on = match applied_on(&ctx, &f) {
                Ok(day) => day,
                Err(refused) => return refused,
            };
            t.apply(owner, &slug, ApplyInput { applied_on, cv_id: None }, now).await
        }
    };
    let track = match done {
        Ok(track) => track,
        Err(TrackingError::Invalid { field, message, .. }) => {
            return super::tracking::refused(&ctx, field, &message);
        }
        Err(e) => return ctx.error(e),
    };
    if headers.contains_key("hx-request") {
        return render(
            axum::http::StatusCode::OK,
            &ActionsFragment { a: Actions::of(&track, &ctx.csrf, &next) },
        );
    }
    see_other(&next, &[])
}

/// The form's optional `applied_on` day, or the page refusing it.
#[allow(clippy::result_large_err)] // the refusal is the response itself
fn applied_on(ctx: &Ctx, f: &Fields) -> Result<Option<NaiveDate>, Response> {
    match f.optional("applied_on").map(str::parse::<NaiveDate>) {
        None => Ok(None),
        Some(Ok(day)) => Ok(Some(day)),
        Some(Err(_)) => {
            Err(super::tracking::refused(ctx, "applied_on", "must be a date (YYYY-MM-DD)"))
        }
    }
}

/// `POST /jobs/{slug}/save`.
pub async fn save(
    State(state): State<WebState>,
    ctx: Ctx,
    headers: HeaderMap,
    Path(slug): Path<String>,
    body: Bytes,
) -> Response {
    act(state, ctx, headers, slug, body, Action::Save).await
}

/// `POST /jobs/{slug}/unsave`.
pub async fn unsave(
    State(state): State<WebState>,
    ctx: Ctx,
    headers: HeaderMap,
    Path(slug): Path<String>,
    body: Bytes,
) -> Response {
    act(state, ctx, headers, slug, body, Action::Unsave).await
}

/// `POST /jobs/{slug}/dismiss`.
pub async fn dismiss(
    State(state): State<WebState>,
    ctx: Ctx,
    headers: HeaderMap,
    Path(slug): Path<String>,
    body: Bytes,
) -> Response {
    act(state, ctx, headers, slug, body, Action::Dismiss).await
}

/// `POST /jobs/{slug}/undismiss`.
pub async fn undismiss(
    State(state): State<WebState>,
    ctx: Ctx,
    headers: HeaderMap,
    Path(slug): Path<String>,
    body: Bytes,
) -> Response {
    act(state, ctx, headers, slug, body, Action::Undismiss).await
}

/// `POST /jobs/{slug}/apply` (optional `applied_on`, `YYYY-MM-DD`).
pub async fn apply(
    State(state): State<WebState>,
    ctx: Ctx,
    headers: HeaderMap,
    Path(slug): Path<String>,
    body: Bytes,
) -> Response {
    act(state, ctx, headers, slug, body, Action::Apply).await
}

/// `POST /jobs/{slug}/ghost-report`: the viewer reports the job as a ghost job (the day they
/// applied, default today), back to the job page.
pub async fn report_ghost(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    body: Bytes,
) -> Response {
    ghost(state, ctx, raw, body, true).await
}

/// `POST /jobs/{slug}/ghost-report/retract`: the viewer takes their report back.
pub async fn retract_ghost(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    body: Bytes,
) -> Response {
    ghost(state, ctx, raw, body, false).await
}

async fn ghost(state: WebState, ctx: Ctx, raw: String, body: Bytes, report: bool) -> Response {
    let f = Fields::parse(&body);
    let here = format!("/jobs/{raw}");
    let Some(user) = ctx.viewer.as_ref() else {
        return sign_in_first(&here);
    };
    let Ok(slug) = PublicSlug::parse(&raw) else {
        return ctx.error(WebError::NotFound);
    };
    let t = &state.tracking;
    let done = if report {
        let applied_on = match applied_on(&ctx, &f) {
            Ok(day) => day,
            Err(refused) => return refused,
        };
        t.report_ghost(user.id, &slug, applied_on, ctx.now).await.map(|_| ())
    } else {
        t.retract_ghost(user.id, &slug, ctx.now).await.map(|_| ())
    };
    match done {
        Ok(()) => see_other(&here, &[]),
        Err(TrackingError::Invalid { field, message, .. }) => {
            super::tracking::refused(&ctx, field, &message)
        }
        Err(e) => ctx.error(e),
    }
}
