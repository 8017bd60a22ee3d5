//! The shapes [`TrackingRepo`](crate::TrackingRepo) takes and returns: a user's marks on a job
//! (view, save, dismiss), the durable application record (which outlives its posting), its
//! event ledger, the tracking list's cards and the per-stage counts.
//!
//! Values computed at read time (the silence clock, the board group) are not here: the
//! application service derives them from `stage` and `applied_at` with the domain's rules.

use chrono::{DateTime, Utc};
use freehire_domain::{ApplicationId, EventKind, EventSource, JobId, Stage};

/// Which tracked jobs a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrackingFilter {
    /// Every job with a mark or an application.
    #[default]
    All,
    /// Viewed ones.
    Viewed,
    /// Saved ones.
    Saved,
    /// Applied ones (an application with an applied date).
    Applied,
    /// The board: applications with a stage.
    Board,
    /// Dismissed ones.
    Dismissed,
}

impl TrackingFilter {
    /// Every filter, in wire order.
    pub const ALL: [Self; 6] =
        [Self::All, Self::Viewed, Self::Saved, Self::Applied, Self::Board, Self::Dismissed];

    /// The wire value (also what the list statement compares).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Viewed => "viewed",
            Self::Saved => "saved",
            Self::Applied => "applied",
            Self::Board => "board",
            Self::Dismissed => "dismissed",
        }
    }

    /// The filter of a wire value; `None` outside the vocabulary.
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == raw)
    }
}

/// Which slug set to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlugSet {
    /// Jobs the user viewed.
    Viewed,
    /// Jobs the user saved.
    Saved,
    /// Jobs the user dismissed.
    Dismissed,
}

/// One user's marks on one job.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// Last viewed.
    pub viewed_at: Option<DateTime<Utc>>,
    /// Saved (until unsaved).
    pub saved_at: Option<DateTime<Utc>>,
    /// Dismissed (until undismissed).
    pub dismissed_at: Option<DateTime<Utc>>,
}

/// The posting as it was when the user applied (kept after it closes or is pruned).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// The posting's URL.
    pub url: Option<String>,
    /// Its location line.
    pub location: Option<String>,
    /// Its description (HTML, as stored).
    pub description: Option<String>,
    /// Its facts: title, company, work mode, countries, seniority, salary, … (JSON object).
    pub facts: Option<serde_json::Value>,
}

/// An application record.
#[derive(Debug, Clone, PartialEq)]
pub struct Application {
    /// Its id (addresses it after a prune).
    pub id: ApplicationId,
    /// The posting, while it exists.
    pub job_id: Option<JobId>,
    /// The posting's public slug (kept after a prune).
    pub job_slug: Option<String>,
    /// The company's display name.
    pub company: String,
    /// The company key.
    pub company_slug: String,
    /// The role's title.
    pub role_title: String,
    /// Where it is in the pipeline.
    pub stage: Option<Stage>,
    /// When the user applied.
    pub applied_at: Option<DateTime<Utc>>,
    /// The user's notes.
    pub notes: String,
    /// When the user last followed up.
    pub followed_up_at: Option<DateTime<Utc>>,
    /// The CV sent, once CVs exist.
    pub cv_id: Option<i64>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
    /// Whether the posting is closed or gone.
    pub job_closed: bool,
    /// The posting as applied to.
    pub snapshot: Snapshot,
}

/// A job's tracking state for one user: the marks and the application, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The job's public slug.
    pub job_slug: String,
    /// The marks (all `None` when the user has none).
    pub marks: Marks,
    /// The application.
    pub application: Option<Application>,
}

/// One row of the tracking list: a job with a mark or an application (or an application
/// whose posting is gone), without the description.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// The application's id; `None` for a job with marks only.
    pub application_id: Option<ApplicationId>,
    /// The posting's slug (the application's kept one after a prune).
    pub job_slug: Option<String>,
    /// The company's display name.
    pub company: String,
    /// The company key.
    pub company_slug: String,
    /// The role's title (the application's, else the posting's title).
    pub role_title: String,
    /// The posting's title (the role title after a prune).
    pub title: String,
    /// The posting's location (the snapshot's after a prune).
    pub location: String,
    /// The posting's URL (the snapshot's after a prune).
    pub url: String,
    /// The application's stage.
    pub stage: Option<Stage>,
    /// When the user applied.
    pub applied_at: Option<DateTime<Utc>>,
    /// The notes ("" without an application).
    pub notes: String,
    /// When the user last followed up.
    pub followed_up_at: Option<DateTime<Utc>>,
    /// The CV sent.
    pub cv_id: Option<i64>,
    /// The application's creation.
    pub created_at: Option<DateTime<Utc>>,
    /// The last change of the application or the marks (the list's order, newest first).
    pub updated_at: DateTime<Utc>,
    /// The marks.
    pub marks: Marks,
    /// Whether the posting is closed or gone.
    pub job_closed: bool,
}

/// A page of cards and how many match.
#[derive(Debug, Clone)]
pub struct CardList {
    /// The page, most recently changed first.
    pub cards: Vec<Card>,
    /// Every match.
    pub total: u64,
}

/// One ledger row as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackedEvent {
    /// What happened.
    pub kind: EventKind,
    /// Its value (the stage set, the note, the applied date).
    pub signal: Option<String>,
    /// When it happened.
    pub occurred_at: DateTime<Utc>,
    /// When it was recorded.
    pub recorded_at: DateTime<Utc>,
    /// Who recorded it.
    pub source: EventSource,
}

/// The full view of one tracked job: its card, the description (live, else the snapshot's)
/// and the events of the job and its application, oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackedDetail {
    /// The card.
    pub card: Card,
    /// The description (HTML), when there is one.
    pub description: Option<String>,
    /// The timeline.
    pub events: Vec<TrackedEvent>,
}

/// How to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApplyOptions {
    /// When the user applied.
    pub applied_at: DateTime<Utc>,
    /// Whether `applied_at` was given by the user (an `applied_on` date): a re-apply on another
    /// day re-dates the application and its `applied` event.
    pub explicit_date: bool,
    /// The CV sent.
    pub cv_id: Option<i64>,
    /// Who recorded the application (`user` on the routes and pages, `assistant` through
    /// the assistant's `apply_job`): the source of its `applied` event.
    pub source: EventSource,
}

/// A change to an application: `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrackChange {
    /// The new stage.
    pub stage: Option<Stage>,
    /// The new notes.
    pub notes: Option<String>,
}

/// Per-stage counts of the user's applications.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StageCounts {
    /// `(stage, count)` for each stage with at least one application.
    pub counts: Vec<(Stage, u64)>,
}

/// One exported row: an application and one of its events (none for an application without
/// events).
#[derive(Debug, Clone, PartialEq)]
pub struct ExportRow {
    /// The application.
    pub application_id: ApplicationId,
    /// Its posting's slug.
    pub job_slug: Option<String>,
    /// The company's name.
    pub company: String,
    /// The company key.
    pub company_slug: String,
    /// The role.
    pub role_title: String,
    /// The stage.
    pub stage: Option<Stage>,
    /// When the user applied.
    pub applied_at: Option<DateTime<Utc>>,
    /// The notes.
    pub notes: String,
    /// The event, if any.
    pub event: Option<TrackedEvent>,
}

/// One imported row, parsed: the application it belongs to and the event it carries.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportRow<'a> {
    /// The posting's slug, if the row names one (matched first when the job exists).
    pub job_slug: Option<&'a str>,
    /// The company's name.
    pub company: &'a str,
    /// The company key (with `role_title`, matches an application without a live posting).
    pub company_slug: &'a str,
    /// The role.
    pub role_title: &'a str,
    /// The stage, for a new application.
    pub stage: Option<Stage>,
    /// The applied date, for a new application.
    pub applied_at: Option<DateTime<Utc>>,
    /// The notes, for a new application.
    pub notes: &'a str,
    /// The event, if the row carries one.
    pub event: Option<ImportEvent<'a>>,
}

/// An imported event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportEvent<'a> {
    /// What happened.
    pub kind: EventKind,
    /// Its value.
    pub signal: Option<&'a str>,
    /// When.
    pub occurred_at: DateTime<Utc>,
    /// The stable key of the row (unique per user among imports).
    pub source_ref: &'a str,
}

/// What importing one row did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Imported {
    /// A new application was created.
    pub application_created: bool,
    /// A new event was recorded (false: it was there already).
    pub event_created: bool,
}
