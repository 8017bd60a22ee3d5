//! The tracking routes' wire shapes (snake_case, nullable fields present as `null`): `Track`,
//! `Application`, `Card`, `TrackingDetail`, the pipeline, follow-ups and the import report, and
//! the request bodies (`applied_on` and `stage` are parsed here, at the edge, before any
//! database access).

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use freehire_app::tracking::{
    ApplicationState, ApplyInput, CardState, DraftView, Followup, ImportReport, Pipeline,
    TrackPatch, TrackState, TrackedEvent, TrackingDetail,
};
use freehire_domain::{Silence, Stage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::ApiError;

/// `POST /jobs/{slug}/apply`'s optional body.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ApplyBody {
    /// The day you applied (`YYYY-MM-DD`, default today): not in the future, at most a year ago.
    #[schema(example = "2026-11-18", format = Date)]
    pub applied_on: Option<String>,
    /// The CV sent (kept for when CVs exist).
    pub cv_id: Option<i64>,
}

impl ApplyBody {
    /// The checked input: a date that does not parse is a 400 naming `applied_on`.
    pub fn parse(self) -> Result<ApplyInput, ApiError> {
        Ok(ApplyInput { applied_on: applied_on(self.applied_on)?, cv_id: self.cv_id })
    }
}

/// An `applied_on` field: a date that does not parse is a 400 naming it.
pub fn applied_on(raw: Option<String>) -> Result<Option<NaiveDate>, ApiError> {
    raw.map(|raw| {
        NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d")
            .map_err(|_| ApiError::bad_param("applied_on", &raw, "must be a YYYY-MM-DD date"))
    })
    .transpose()
}

/// A change of stage and/or notes (at least one).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TrackBody {
    /// One of `preparing, applied, screening, responded, interview, offer, accepted,
    /// rejected, withdrawn, expired`.
    #[schema(example = "interview")]
    pub stage: Option<String>,
    /// Free text (at most 10,000 characters).
    pub notes: Option<String>,
}

impl TrackBody {
    /// The checked patch: an unknown stage is a 400 naming `stage` with the allowed set.
    pub fn parse(self) -> Result<TrackPatch, ApiError> {
        let stage = self.stage.as_deref().map(Stage::parse).transpose()?;
        Ok(TrackPatch { stage, notes: self.notes })
    }
}

/// The silence clock's three fields (all null when not applied or settled).
struct Clock {
    last_activity_at: Option<DateTime<Utc>>,
    days_silent: Option<u32>,
    silence_state: Option<String>,
}

impl From<Option<Silence>> for Clock {
    fn from(s: Option<Silence>) -> Self {
        Self {
            last_activity_at: s.map(|s| s.last_activity_at),
            days_silent: s.map(|s| s.days_silent),
            silence_state: s.map(|s| s.state.as_str().to_owned()),
        }
    }
}

/// An application record.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ApplicationView {
    /// Its id (addresses it under `/me/applications/{id}`).
    pub id: i64,
    /// The posting's slug (kept after the posting is pruned).
    pub job_slug: Option<String>,
    /// The company's name.
    pub company: String,
    /// The company key.
    pub company_slug: String,
    /// The role's title.
    pub role_title: String,
    /// The stage.
    #[schema(example = "applied")]
    pub stage: Option<String>,
    /// The stage's board column (`preparing, applied, interview, offer, closed`).
    #[schema(example = "applied")]
    pub group: Option<String>,
    /// When you applied.
    pub applied_at: Option<DateTime<Utc>>,
    /// Your notes.
    pub notes: String,
    /// When you last followed up.
    pub followed_up_at: Option<DateTime<Utc>>,
    /// The last activity (the applied date until replies are linked).
    pub last_activity_at: Option<DateTime<Utc>>,
    /// Whole days since the last activity.
    #[schema(minimum = 0)]
    pub days_silent: Option<u32>,
    /// `waiting` or `silent` (past the stage's threshold).
    #[schema(example = "waiting")]
    pub silence_state: Option<String>,
    /// The CV sent.
    pub cv_id: Option<i64>,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
    /// Whether the posting is closed or gone.
    pub job_closed: bool,
}

impl From<&ApplicationState> for ApplicationView {
    fn from(s: &ApplicationState) -> Self {
        let a = &s.application;
        let clock = Clock::from(s.silence);
        Self {
            id: a.id.get(),
            job_slug: a.job_slug.clone(),
            company: a.company.clone(),
            company_slug: a.company_slug.clone(),
            role_title: a.role_title.clone(),
            stage: a.stage.map(|s| s.as_str().to_owned()),
            group: a.stage.map(|s| s.group().as_str().to_owned()),
            applied_at: a.applied_at,
            notes: a.notes.clone(),
            followed_up_at: a.followed_up_at,
            last_activity_at: clock.last_activity_at,
            days_silent: clock.days_silent,
            silence_state: clock.silence_state,
            cv_id: a.cv_id,
            created_at: a.created_at,
            updated_at: a.updated_at,
            job_closed: a.job_closed,
        }
    }
}

/// A job's tracking state: your marks and your application.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TrackView {
    /// The job.
    pub job_slug: String,
    /// When you last viewed it.
    pub viewed_at: Option<DateTime<Utc>>,
    /// When you saved it.
    pub saved_at: Option<DateTime<Utc>>,
    /// When you dismissed it.
    pub dismissed_at: Option<DateTime<Utc>>,
    /// Your application.
    pub application: Option<ApplicationView>,
}

impl From<&TrackState> for TrackView {
    fn from(s: &TrackState) -> Self {
        let t = &s.track;
        Self {
            job_slug: t.job_slug.clone(),
            viewed_at: t.marks.viewed_at,
            saved_at: t.marks.saved_at,
            dismissed_at: t.marks.dismissed_at,
            application: s.application().as_ref().map(ApplicationView::from),
        }
    }
}

/// A tracked job as listed: the application's fields (null without one) and the posting's
/// (the snapshot's after a prune), without the description.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CardView {
    /// The application's id; null for a job you only viewed, saved or dismissed.
    pub id: Option<i64>,
    /// The posting's slug.
    pub job_slug: Option<String>,
    /// The company's name.
    pub company: String,
    /// The company key.
    pub company_slug: String,
    /// The role's title.
    pub role_title: String,
    /// The stage.
    pub stage: Option<String>,
    /// The stage's board column.
    pub group: Option<String>,
    /// When you applied.
    pub applied_at: Option<DateTime<Utc>>,
    /// Your notes ("" without an application).
    pub notes: String,
    /// When you last followed up.
    pub followed_up_at: Option<DateTime<Utc>>,
    /// The last activity.
    pub last_activity_at: Option<DateTime<Utc>>,
    /// Whole days since the last activity.
    #[schema(minimum = 0)]
    pub days_silent: Option<u32>,
    /// `waiting` or `silent`.
    pub silence_state: Option<String>,
    /// The CV sent.
    pub cv_id: Option<i64>,
    /// The application's creation.
    pub created_at: Option<DateTime<Utc>>,
    /// The last change (the list's order, newest first).
    pub updated_at: DateTime<Utc>,
    /// Whether the posting is closed or gone.
    pub job_closed: bool,
    /// The posting's title.
    pub title: String,
    /// The posting's location.
    pub location: String,
    /// The posting's URL.
    pub url: String,
    /// When you saved it.
    pub saved_at: Option<DateTime<Utc>>,
    /// When you last viewed it.
    pub viewed_at: Option<DateTime<Utc>>,
    /// When you dismissed it.
    pub dismissed_at: Option<DateTime<Utc>>,
}

impl From<&CardState> for CardView {
    fn from(s: &CardState) -> Self {
        let c = &s.card;
        let clock = Clock::from(s.silence);
        Self {
            id: c.application_id.map(|a| a.get()),
            job_slug: c.job_slug.clone(),
            company: c.company.clone(),
            company_slug: c.company_slug.clone(),
            role_title: c.role_title.clone(),
            stage: c.stage.map(|s| s.as_str().to_owned()),
            group: c.stage.map(|s| s.group().as_str().to_owned()),
            applied_at: c.applied_at,
            notes: c.notes.clone(),
            followed_up_at: c.followed_up_at,
            last_activity_at: clock.last_activity_at,
            days_silent: clock.days_silent,
            silence_state: clock.silence_state,
            cv_id: c.cv_id,
            created_at: c.created_at,
            updated_at: c.updated_at,
            job_closed: c.job_closed,
            title: c.title.clone(),
            location: c.location.clone(),
            url: c.url.clone(),
            saved_at: c.marks.saved_at,
            viewed_at: c.marks.viewed_at,
            dismissed_at: c.marks.dismissed_at,
        }
    }
}

/// `{"data": [Card], "total": n}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CardsEnvelope {
    /// The page.
    pub data: Vec<CardView>,
    /// Every card the filter matches.
    #[schema(minimum = 0)]
    pub total: u64,
}

/// One event of the timeline.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EventView {
    /// `viewed, saved, unsaved, dismissed, undismissed, applied, stage_set, stage_cleared,
    /// note, followed_up, track_cleared`.
    #[schema(example = "stage_set")]
    pub kind: String,
    /// Its value (the stage, the note, the applied date).
    pub signal: Option<String>,
    /// When it happened.
    pub occurred_at: DateTime<Utc>,
    /// When it was recorded.
    pub recorded_at: DateTime<Utc>,
    /// `user`, `import`, `mail` or `assistant`.
    #[schema(example = "user")]
    pub source: String,
}

impl From<&TrackedEvent> for EventView {
    fn from(e: &TrackedEvent) -> Self {
        Self {
            kind: e.kind.as_str().to_owned(),
            signal: e.signal.clone(),
            occurred_at: e.occurred_at,
            recorded_at: e.recorded_at,
            source: e.source.as_str().to_owned(),
        }
    }
}

/// The full view of a tracked job: the card, the description and the timeline.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrackingDetailView {
    /// The card's fields.
    #[serde(flatten)]
    pub card: CardView,
    /// The description (sanitised HTML): the posting's, else the snapshot taken when you applied.
    pub description_html: Option<String>,
    /// The events, oldest first.
    pub events: Vec<EventView>,
}

impl From<&TrackingDetail> for TrackingDetailView {
    fn from(d: &TrackingDetail) -> Self {
        Self {
            card: CardView::from(&d.card),
            description_html: d.description_html.clone(),
            events: d.events.iter().map(EventView::from).collect(),
        }
    }
}

/// Counts per stage and per board column.
#[derive(Debug, Serialize, ToSchema)]
pub struct PipelineView {
    /// Every stage with its count.
    pub stages: BTreeMap<String, u64>,
    /// Every board column with its count.
    pub groups: BTreeMap<String, u64>,
    /// Applications with a stage.
    #[schema(minimum = 0)]
    pub total: u64,
}

impl From<&Pipeline> for PipelineView {
    fn from(p: &Pipeline) -> Self {
        Self {
            stages: p.stages.iter().map(|(s, n)| (s.as_str().to_owned(), *n)).collect(),
            groups: p.groups.iter().map(|(g, n)| (g.as_str().to_owned(), *n)).collect(),
            total: p.total,
        }
    }
}

/// A follow-up message to copy into your own mail.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DraftBody {
    /// "Following up: <Role> application".
    pub subject: String,
    /// The message, paragraphs separated by blank lines.
    pub body: String,
}

/// The draft and how long the application has been silent.
#[derive(Debug, Serialize, ToSchema)]
pub struct DraftResponse {
    /// The subject.
    pub subject: String,
    /// The message.
    pub body: String,
    /// Whole days since the last activity.
    #[schema(minimum = 0)]
    pub days_silent: u32,
}

impl From<&DraftView> for DraftResponse {
    fn from(d: &DraftView) -> Self {
        Self {
            subject: d.draft.subject.clone(),
            body: d.draft.body.clone(),
            days_silent: d.days_silent,
        }
    }
}

/// A silent application and its draft.
#[derive(Debug, Serialize, ToSchema)]
pub struct FollowupView {
    /// The card.
    pub card: CardView,
    /// The draft.
    pub draft: DraftBody,
}

impl From<&Followup> for FollowupView {
    fn from(f: &Followup) -> Self {
        Self {
            card: CardView::from(&f.card),
            draft: DraftBody { subject: f.draft.subject.clone(), body: f.draft.body.clone() },
        }
    }
}

/// A refused row of an import.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportIssueView {
    /// The file's line (1 is the header).
    pub line: u64,
    /// The column at fault.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// What an import did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportReportView {
    /// Applications created.
    pub applications_created: u64,
    /// Events recorded.
    pub events_created: u64,
    /// Good rows already there.
    pub skipped: u64,
    /// Refused rows.
    pub errors: Vec<ImportIssueView>,
}

impl From<ImportReport> for ImportReportView {
    fn from(r: ImportReport) -> Self {
        Self {
            applications_created: r.applications_created,
            events_created: r.events_created,
            skipped: r.skipped,
            errors: r
                .errors
                .into_iter()
                .map(|e| ImportIssueView { line: e.line, field: e.field, message: e.message })
                .collect(),
        }
    }
}
