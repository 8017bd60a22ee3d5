//! Tracking tools (reference §10.3): `save_job`, `unsave_job`, `apply_job`, `track_job`,
//! `my_jobs`, over [`Tracking`](crate::tracking::Tracking) as the tracking routes call it, for
//! the session's owner only.
//!
//! `apply_job` records the candidate's own application with the event source `assistant`; it
//! submits nothing to the employer. `track_job`'s `note` is appended to the application's
//! notes (a line of its own), so the assistant never overwrites what the candidate wrote.

use std::sync::Arc;

use freehire_domain::{PublicSlug, Stage, UserId};
use freehire_tools::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::discovery::{SlugArgs, required_slug};
use super::view::{CardView, TrackView};
use super::{Services, internal, tool};
use crate::tracking::{ApplyInput, TrackPatch, TrackState, TrackingError, TrackingFilter};

/// `my_jobs`' page size when none (or a non-positive one) is given.
pub const DEFAULT_MY_JOBS_LIMIT: u32 = 10;
/// `my_jobs`' largest page.
pub const MAX_MY_JOBS_LIMIT: u32 = 20;

pub(super) fn tools(s: &Arc<Services>) -> Vec<Arc<dyn Tool<UserId>>> {
    vec![
        tool(
            s,
            "save_job",
            "Saves a vacancy to the candidate's list (idempotent). Returns its tracking state.",
            save_job,
        ),
        tool(
            s,
            "unsave_job",
            "Removes a vacancy from the candidate's saved list (idempotent).",
            unsave_job,
        ),
        tool(
            s,
            "apply_job",
            "Records that the candidate applied to a vacancy themselves (idempotent). It submits \
             nothing to the employer.",
            apply_job,
        ),
        tool(
            s,
            "track_job",
            "Moves a tracked vacancy to another application stage and/or adds a note to it.",
            track_job,
        ),
        tool(
            s,
            "my_jobs",
            "The candidate's tracked vacancies: the board (applications with a stage) by \
             default, or all, viewed, saved, applied or dismissed ones. Returns {filter, total, \
             jobs}.",
            my_jobs,
        ),
    ]
}

/// The slug as the tracking service takes it; a malformed one is unknown.
fn slug_of(raw: &str) -> Result<PublicSlug, String> {
    PublicSlug::parse(raw).map_err(|_| unknown_slug(raw))
}

fn unknown_slug(raw: &str) -> String {
    format!("no vacancy with slug {raw:?} — use the public_slug from a search result")
}

fn failure(tool: &str, raw: &str, e: TrackingError) -> String {
    match e {
        TrackingError::NotFound(_) => unknown_slug(raw),
        TrackingError::Store(e) => internal(tool, e),
        other => other.to_string(),
    }
}

fn view(state: TrackState) -> TrackView {
    TrackView::new(&state.track)
}

async fn save_job(s: Arc<Services>, owner: UserId, a: SlugArgs) -> Result<TrackView, String> {
    let raw = required_slug(&a.slug)?;
    let state = s.tracking.save(owner, &slug_of(raw)?, s.now()).await;
    state.map(view).map_err(|e| failure("save_job", raw, e))
}

async fn unsave_job(s: Arc<Services>, owner: UserId, a: SlugArgs) -> Result<TrackView, String> {
    let raw = required_slug(&a.slug)?;
    let state = s.tracking.unsave(owner, &slug_of(raw)?, s.now()).await;
    state.map(view).map_err(|e| failure("unsave_job", raw, e))
}

async fn apply_job(s: Arc<Services>, owner: UserId, a: SlugArgs) -> Result<TrackView, String> {
    let raw = required_slug(&a.slug)?;
    let slug = slug_of(raw)?;
    let input = ApplyInput::default();
    let state = s.tracking.apply_from(owner, &slug, input, s.source, s.now()).await;
    state.map(view).map_err(|e| failure("apply_job", raw, e))
}

/// `track_job` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TrackJobArgs {
    /// The vacancy's public_slug.
    pub slug: String,
    /// The new application stage.
    #[schemars(extend("enum" = ["preparing", "applied", "screening", "responded", "interview", "offer", "accepted", "rejected", "withdrawn", "expired"]))]
    pub stage: Option<String>,
    /// A note to add to the application (appended on a line of its own).
    pub note: Option<String>,
}

async fn track_job(s: Arc<Services>, owner: UserId, a: TrackJobArgs) -> Result<TrackView, String> {
    let raw = required_slug(&a.slug)?;
    let stage = match a.stage.as_deref().map(str::trim).filter(|x| !x.is_empty()) {
        Some(x) => Some(Stage::parse(x).map_err(|_| {
            format!("unknown stage {x:?} — valid stages are: {}", Stage::allowed())
        })?),
        None => None,
    };
    let note = a.note.as_deref().map(str::trim).filter(|n| !n.is_empty());
    if stage.is_none() && note.is_none() {
        return Err("nothing to change — pass a stage, a note, or both".to_owned());
    }
    let slug = slug_of(raw)?;
    let notes = match note {
        Some(note) => {
            let track =
                s.store.track_of(owner, &slug).await.map_err(|e| internal("track_job", e))?;
            let existing = track.and_then(|t| t.application).map(|a| a.notes).unwrap_or_default();
            Some(if existing.trim().is_empty() {
                note.to_owned()
            } else {
                format!("{existing}\n{note}")
            })
        }
        None => None,
    };
    let state = s.tracking.update(owner, &slug, TrackPatch { stage, notes }, s.now()).await;
    state.map(view).map_err(|e| failure("track_job", raw, e))
}

/// `stage` arguments (the MCP server's half of `track_job`).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct StageArgs {
    /// The vacancy's public_slug.
    pub slug: String,
    /// The new application stage.
    #[schemars(extend("enum" = ["preparing", "applied", "screening", "responded", "interview", "offer", "accepted", "rejected", "withdrawn", "expired"]))]
    pub stage: String,
}

/// `note` arguments (the MCP server's other half of `track_job`).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NoteArgs {
    /// The vacancy's public_slug.
    pub slug: String,
    /// The note to add to the application (appended on a line of its own).
    pub note: String,
}

/// `track_job` split in two for the MCP server: `stage` moves a tracked vacancy to another
/// stage, `note` appends a note (both [`track_job`] underneath).
pub(crate) fn stage_and_note(s: &Arc<Services>) -> Vec<Arc<dyn Tool<UserId>>> {
    vec![
        tool(
            s,
            "stage",
            "Moves a tracked vacancy to another application stage.",
            |s, owner, a: StageArgs| {
                track_job(s, owner, TrackJobArgs { slug: a.slug, stage: Some(a.stage), note: None })
            },
        ),
        tool(
            s,
            "note",
            "Adds a note to a tracked vacancy's application (appended on a line of its own).",
            |s, owner, a: NoteArgs| {
                track_job(s, owner, TrackJobArgs { slug: a.slug, stage: None, note: Some(a.note) })
            },
        ),
    ]
}

/// `my_jobs` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct MyJobsArgs {
    /// Which tracked vacancies: the board by default.
    #[schemars(extend("enum" = ["all", "viewed", "saved", "applied", "board", "dismissed"]))]
    pub filter: Option<String>,
    /// Page size: default 10, at most 20.
    pub limit: Option<i64>,
}

async fn my_jobs(s: Arc<Services>, owner: UserId, a: MyJobsArgs) -> Result<Value, String> {
    let filter = match a.filter.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        None => TrackingFilter::Board,
        Some(f) => TrackingFilter::parse(f).ok_or_else(|| {
            format!("unknown filter {f:?} — use all, viewed, saved, applied, board or dismissed")
        })?,
    };
    let limit = match a.limit {
        Some(n) if n > 0 => u32::try_from(n).unwrap_or(MAX_MY_JOBS_LIMIT).min(MAX_MY_JOBS_LIMIT),
        _ => DEFAULT_MY_JOBS_LIMIT,
    };
    let page = s
        .tracking
        .list(owner, filter, limit, 0, s.now())
        .await
        .map_err(|e| failure("my_jobs", "", e))?;
    let jobs: Vec<CardView> = page.cards.iter().map(|c| CardView::new(&c.card)).collect();
    Ok(json!({ "filter": filter.as_str(), "total": page.total, "jobs": jobs }))
}
