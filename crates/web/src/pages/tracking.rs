//! The job seeker's tracking pages: `/tracking` (the board: one column per
//! [`StageGroup`], a card per application with its company, role, stage and days silent, a
//! stage `<select>` with a "Move" button per card, and the saved jobs not applied to yet),
//! `/tracking/{slug}` (one application: facts, stage and notes forms, the follow-up draft when
//! silent, the event timeline, the description as it was when applied) and
//! `/tracking/followups` (the silent applications, most overdue first, each with its draft).
//! The forms: `POST /tracking/applications/{id}/stage`, `/tracking/applications/{id}/notes`
//! (by the application's id, so an application whose posting was pruned can still move),
//! `/tracking/{slug}/followup` and `/tracking/{slug}/clear`. Each calls one
//! [`Tracking`](freehire_app::tracking::Tracking) method and redirects (303) to the form's
//! `next`; a refused value is the 422 page naming the field. Each card and the application
//! page also carry the assistant's "Rehearse the interview" and "Debrief" forms (`POST
//! /assistant` with `preset` and `job`, see [`super::assistant::create`]). Drag-and-drop
//! between columns (`assets/app.js`) posts the card's own "Move" form with the column's
//! [`drop_stage`].
//! Signed out, every page redirects to the sign-in page, which comes back; another user's
//! application is the 404 page.

use askama::Template;
use axum::{
    body::Bytes,
    extract::{Path, RawQuery, State},
    response::Response,
};
use freehire_app::tracking::TrackingFilter;
use freehire_app::tracking::{TrackPatch, TrackingError};
use freehire_domain::{ApplicationId, PublicSlug, SilenceState, Stage, StageGroup};

use super::forms::{Fields, local_path, see_other, sign_in_first};
use crate::{WebError, WebState, format, layout::Ctx, layout::Layout};

/// The most cards the board shows (the list's page limit).
pub const BOARD_LIMIT: u32 = 500;

/// The stage a card dropped on `group`'s column gets: the column's first stage, except the
/// closed column, where the commonest ending (`rejected`) is meant far more often than
/// `accepted` (the select offers the others).
pub const fn drop_stage(group: StageGroup) -> Stage {
    match group {
        StageGroup::Closed => Stage::Rejected,
        g => g.stages()[0],
    }
}

/// The stage choices of one column (an `<optgroup>`).
pub struct StageOptions {
    /// The column's label.
    pub label: &'static str,
    /// `(wire value, label)` of its stages.
    pub stages: Vec<(&'static str, &'static str)>,
}

/// Every stage, by column.
pub fn stage_options() -> Vec<StageOptions> {
    StageGroup::ALL
        .iter()
        .map(|g| StageOptions {
            label: g.label(),
            stages: g.stages().iter().map(|s| (s.as_str(), s.label())).collect(),
        })
        .collect()
}

/// One card of the board.
pub struct BoardCard {
    /// The application's id (its forms).
    pub id: i64,
    /// `/tracking/{slug}`, while the posting's slug is known.
    pub href: Option<String>,
    /// The posting's slug, while known (the assistant's "Rehearse the interview" and
    /// "Debrief" forms).
    pub slug: Option<String>,
    /// The company.
    pub company: String,
    /// The role.
    pub role: String,
    /// The stage's wire value.
    pub stage: &'static str,
    /// The stage's label.
    pub stage_label: &'static str,
    /// Days since the last activity, while the clock runs.
    pub days_silent: Option<u32>,
    /// Whether that is past the stage's patience.
    pub silent: bool,
    /// When the user applied.
    pub applied: Option<String>,
    /// Whether the posting is closed or gone.
    pub closed: bool,
}

/// One column.
pub struct Column {
    /// The group's wire value.
    pub group: &'static str,
    /// Its heading.
    pub label: &'static str,
    /// The stage a card dropped here gets.
    pub drop_stage: &'static str,
    /// Its cards.
    pub cards: Vec<BoardCard>,
}

/// A saved job not applied to yet.
pub struct SavedJob {
    /// Its slug.
    pub slug: String,
    /// Its title.
    pub title: String,
    /// Its company.
    pub company: String,
    /// Its location.
    pub location: String,
    /// When it was saved.
    pub saved: String,
}

/// `/tracking`.
#[derive(Template)]
#[template(path = "tracking.html")]
pub struct BoardPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// A message about a refused move.
    pub error: Option<String>,
    /// The columns, in [`StageGroup::ALL`] order.
    pub columns: Vec<Column>,
    /// Applications on the board.
    pub total: usize,
    /// How many are silent.
    pub silent: usize,
    /// Saved jobs not applied to.
    pub saved: Vec<SavedJob>,
    /// The stage choices.
    pub stages: Vec<StageOptions>,
}

/// A fixed message after a redirect (`?done=…`), never reflected.
fn notice(raw: Option<&str>) -> Option<&'static str> {
    let done = url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "done")
        .map(|(_, v)| v.into_owned())?;
    Some(match done.as_str() {
        "moved" => "The stage is changed.",
        "notes" => "Your notes are saved.",
        "followed-up" => "Recorded: you followed up today.",
        "cleared" => "The job is no longer tracked.",
        _ => return None,
    })
}

/// A form value the service refused: the 422 page naming the field.
pub fn refused(ctx: &Ctx, field: &'static str, message: &str) -> Response {
    ctx.error(WebError::Refused { field, message: message.to_owned() })
}

/// The viewer, or (from the calling handler) the redirect to the sign-in page and back to
/// `$here`.
macro_rules! signed_in {
    ($ctx:expr, $here:expr) => {
        match $ctx.viewer.clone() {
            Some(user) => user,
            None => return sign_in_first(&$here),
        }
    };
}
pub(crate) use signed_in;

/// `GET /tracking`.
pub async fn board(State(state): State<WebState>, ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let user = signed_in!(ctx, "/tracking");
    let t = &state.tracking;
    let board = t.list(user.id, TrackingFilter::Board, BOARD_LIMIT, 0, ctx.now).await;
    let saved = t.list(user.id, TrackingFilter::Saved, BOARD_LIMIT, 0, ctx.now).await;
    let (board, saved) = match (board, saved) {
        (Ok(b), Ok(s)) => (b, s),
        (Err(e), _) | (_, Err(e)) => return ctx.error(e),
    };
    let mut columns: Vec<Column> = StageGroup::ALL
        .iter()
        .map(|g| Column {
            group: g.as_str(),
            label: g.label(),
            drop_stage: drop_stage(*g).as_str(),
            cards: Vec::new(),
        })
        .collect();
    let mut silent = 0;
    let mut total = 0;
    for state in &board.cards {
        let card = &state.card;
        let (Some(id), Some(stage)) = (card.application_id, card.stage) else { continue };
        let is_silent = state.silence.is_some_and(|s| s.state == SilenceState::Silent);
        silent += usize::from(is_silent);
        total += 1;
        let Some(column) = columns.iter_mut().find(|c| c.group == stage.group().as_str()) else {
            continue;
        };
        column.cards.push(BoardCard {
            id: id.get(),
            href: card.job_slug.as_ref().map(|s| format!("/tracking/{s}")),
            slug: card.job_slug.clone(),
            company: card.company.clone(),
            role: card.role_title.clone(),
            stage: stage.as_str(),
            stage_label: stage.label(),
            days_silent: state.silence.map(|s| s.days_silent),
            silent: is_silent,
            applied: card.applied_at.map(|at| format::day(at, ctx.tz)),
            closed: card.job_closed,
        });
    }
    let saved = saved
        .cards
        .iter()
        .map(|c| &c.card)
        .filter(|c| c.applied_at.is_none())
        .filter_map(|c| {
            Some(SavedJob {
                slug: c.job_slug.clone()?,
                title: c.title.clone(),
                company: c.company.clone(),
                location: c.location.clone(),
                saved: format::day(c.marks.saved_at?, ctx.tz),
            })
        })
        .collect();
    ctx.page(&BoardPage {
        layout: ctx.layout("Tracking"),
        notice: notice(raw.as_deref()),
        error: None,
        columns,
        total,
        silent,
        saved,
        stages: stage_options(),
    })
}

/// One event of the timeline.
pub struct TimelineEvent {
    /// When it happened.
    pub at: String,
    /// What happened.
    pub what: String,
    /// Who recorded it, when not the user.
    pub source: Option<&'static str>,
}

/// The follow-up draft.
pub struct Draft {
    /// The mail's subject.
    pub subject: String,
    /// The mail's body.
    pub body: String,
    /// Days without an answer.
    pub days_silent: u32,
}

/// `/tracking/{slug}`.
#[derive(Template)]
#[template(path = "application.html")]
pub struct ApplicationPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// A refused change.
    pub error: Option<String>,
    /// The job's slug.
    pub slug: String,
    /// The application's id, when there is an application.
    pub application_id: Option<i64>,
    /// The role.
    pub role: String,
    /// The company.
    pub company: String,
    /// The location.
    pub location: String,
    /// The posting's URL.
    pub url: String,
    /// Whether the posting is closed or gone.
    pub closed: bool,
    /// Whether the job page still exists (the posting is open).
    pub job_open_href: bool,
    /// The stage's wire value ("" without one).
    pub stage_value: &'static str,
    /// The stage's label.
    pub stage_label: Option<&'static str>,
    /// Days since the last activity.
    pub days_silent: Option<u32>,
    /// Whether that is past the stage's patience.
    pub silent: bool,
    /// Whether the job is saved.
    pub saved: bool,
    /// When it was saved.
    pub saved_at: Option<String>,
    /// When the user applied.
    pub applied: Option<String>,
    /// The last activity.
    pub last_activity: Option<String>,
    /// The last follow-up.
    pub followed_up: Option<String>,
    /// The notes.
    pub notes: String,
    /// The follow-up draft, when silent.
    pub draft: Option<Draft>,
    /// The timeline, oldest first.
    pub events: Vec<TimelineEvent>,
    /// The description (sanitised HTML: the live posting's, else the snapshot's).
    pub description: String,
    /// Today in the viewer's zone (the apply date's maximum).
    pub today: String,
    /// The stage choices.
    pub stages: Vec<StageOptions>,
}

/// How an event reads.
fn event_text(kind: freehire_domain::EventKind, signal: Option<&str>) -> String {
    use freehire_domain::EventKind as K;
    let stage = || {
        signal
            .and_then(|s| Stage::parse(s).ok())
            .map_or_else(|| signal.unwrap_or_default().to_owned(), |s| s.label().to_owned())
    };
    match kind {
        K::Viewed => "Viewed".to_owned(),
        K::Saved => "Saved".to_owned(),
        K::Unsaved => "Unsaved".to_owned(),
        K::Dismissed => "Dismissed".to_owned(),
        K::Undismissed => "Undismissed".to_owned(),
        K::Applied => "Applied".to_owned(),
        K::StageSet => format!("Stage set to {}", stage()),
        K::StageCleared => "Stage cleared".to_owned(),
        K::Note => "Notes changed".to_owned(),
        K::FollowedUp => "Followed up".to_owned(),
        K::TrackCleared => "Tracking cleared".to_owned(),
    }
}

/// `GET /tracking/{slug}`.
pub async fn application(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let user = signed_in!(ctx, format!("/tracking/{raw}"));
    let Ok(slug) = PublicSlug::parse(&raw) else {
        return ctx.error(WebError::NotFound);
    };
    let detail = match state.tracking.detail(user.id, slug.as_str(), ctx.now).await {
        Ok(d) => d,
        Err(e) => return ctx.error(e),
    };
    let silence = detail.card.silence;
    let silent = silence.is_some_and(|s| s.state == SilenceState::Silent);
    let draft = if silent && detail.card.card.application_id.is_some() {
        match state.tracking.followup_draft(user.id, slug.as_str(), ctx.now).await {
            Ok(d) => Some(Draft {
                subject: d.draft.subject,
                body: d.draft.body,
                days_silent: d.days_silent,
            }),
            Err(TrackingError::NotSilent) => None,
            Err(e) => return ctx.error(e),
        }
    } else {
        None
    };
    let card = &detail.card.card;
    let date = |at: Option<chrono::DateTime<chrono::Utc>>| at.map(|at| ctx.date(at));
    ctx.page(&ApplicationPage {
        layout: ctx.layout(format!("{} at {}", card.role_title, card.company)),
        notice: notice(query.as_deref()),
        error: None,
        slug: slug.as_str().to_owned(),
        application_id: card.application_id.map(ApplicationId::get),
        role: card.role_title.clone(),
        company: card.company.clone(),
        location: card.location.clone(),
        url: card.url.clone(),
        closed: card.job_closed,
        job_open_href: !card.job_closed,
        stage_value: card.stage.map_or("", Stage::as_str),
        stage_label: card.stage.map(Stage::label),
        days_silent: silence.map(|s| s.days_silent),
        silent,
        saved: card.marks.saved_at.is_some(),
        saved_at: date(card.marks.saved_at),
        applied: date(card.applied_at),
        last_activity: date(silence.map(|s| s.last_activity_at)),
        followed_up: date(card.followed_up_at),
        notes: card.notes.clone(),
        draft,
        events: detail
            .events
            .iter()
            .map(|e| TimelineEvent {
                at: ctx.date(e.occurred_at),
                what: event_text(e.kind, e.signal.as_deref()),
                source: (e.source != freehire_domain::EventSource::User).then(|| e.source.as_str()),
            })
            .collect(),
        description: detail.description_html.clone().unwrap_or_default(),
        today: format::day(ctx.now, ctx.tz),
        stages: stage_options(),
    })
}

/// One silent application of `/tracking/followups`.
pub struct Followup {
    /// Its job's slug.
    pub slug: String,
    /// The role.
    pub role: String,
    /// The company.
    pub company: String,
    /// The stage's label.
    pub stage_label: &'static str,
    /// Days without an answer.
    pub days_silent: u32,
    /// The draft's subject.
    pub subject: String,
    /// The draft's body.
    pub body: String,
}

/// `/tracking/followups`.
#[derive(Template)]
#[template(path = "followups.html")]
pub struct FollowupsPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// The silent applications, most overdue first.
    pub items: Vec<Followup>,
}

/// `GET /tracking/followups`.
pub async fn followups(
    State(state): State<WebState>,
    ctx: Ctx,
    RawQuery(raw): RawQuery,
) -> Response {
    let user = signed_in!(ctx, "/tracking/followups");
    let items = match state.tracking.followups(user.id, ctx.now).await {
        Ok(items) => items,
        Err(e) => return ctx.error(e),
    };
    let items = items
        .into_iter()
        .filter_map(|f| {
            let days_silent = f.card.silence.map_or(0, |s| s.days_silent);
            let card = f.card.card;
            Some(Followup {
                slug: card.job_slug?,
                role: card.role_title,
                company: card.company,
                stage_label: card.stage.map_or("", Stage::label),
                days_silent,
                subject: f.draft.subject,
                body: f.draft.body,
            })
        })
        .collect();
    ctx.page(&FollowupsPage {
        layout: ctx.layout("Follow-ups"),
        notice: notice(raw.as_deref()),
        items,
    })
}

/// The redirect after a change: the form's `next` with `done`, else `fallback`.
fn back(f: &Fields, fallback: &str, done: &str) -> Response {
    let to = local_path(f.get("next")).unwrap_or(fallback);
    let sep = if to.contains('?') { '&' } else { '?' };
    see_other(&format!("{to}{sep}done={done}"), &[])
}

async fn patch_application(
    state: WebState,
    ctx: Ctx,
    raw: String,
    body: Bytes,
    notes: bool,
) -> Response {
    let f = Fields::parse(&body);
    let user = signed_in!(ctx, local_path(f.get("next")).unwrap_or("/tracking"));
    let Ok(id) = raw.parse::<ApplicationId>() else {
        return ctx.error(WebError::NotFound);
    };
    let patch = if notes {
        TrackPatch { stage: None, notes: Some(f.get("notes").to_owned()) }
    } else {
        match Stage::parse(f.get("stage")) {
            Ok(stage) => TrackPatch { stage: Some(stage), notes: None },
            Err(e) => {
                let (field, message) = super::forms::domain_message(&e);
                return refused(&ctx, field, &message);
            }
        }
    };
    match state.tracking.update_application(user.id, id, patch, ctx.now).await {
        Ok(_) => back(&f, "/tracking", if notes { "notes" } else { "moved" }),
        Err(TrackingError::Invalid { field, message, .. }) => refused(&ctx, field, &message),
        Err(e) => ctx.error(e),
    }
}

/// `POST /tracking/applications/{id}/stage` (`stage`).
pub async fn set_stage(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    patch_application(state, ctx, id, body, false).await
}

/// `POST /tracking/applications/{id}/notes` (`notes`).
pub async fn set_notes(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    patch_application(state, ctx, id, body, true).await
}

/// `POST /tracking/{slug}/followup`: records that the user followed up now.
pub async fn followed_up(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    body: Bytes,
) -> Response {
    let f = Fields::parse(&body);
    let user = signed_in!(ctx, format!("/tracking/{raw}"));
    let Ok(slug) = PublicSlug::parse(&raw) else {
        return ctx.error(WebError::NotFound);
    };
    match state.tracking.record_followup(user.id, &slug, ctx.now).await {
        Ok(_) => back(&f, &format!("/tracking/{}", slug.as_str()), "followed-up"),
        Err(e) => ctx.error(e),
    }
}

/// `POST /tracking/{slug}/clear`: stops tracking the job (save, application, stage, notes).
pub async fn clear(State(state): State<WebState>, ctx: Ctx, Path(raw): Path<String>) -> Response {
    let user = signed_in!(ctx, format!("/tracking/{raw}"));
    let Ok(slug) = PublicSlug::parse(&raw) else {
        return ctx.error(WebError::NotFound);
    };
    match state.tracking.clear_track(user.id, &slug, ctx.now).await {
        Ok(_) => see_other("/tracking?done=cleared", &[]),
        Err(e) => ctx.error(e),
    }
}
