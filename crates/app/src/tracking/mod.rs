//! Application tracking as a use case (reference §6.4 "Signed in: tracking", §7): [`Tracking`],
//! one service over the store that the JSON routes and the web pages both call.
//!
//! - marks: [`Tracking::view`], [`Tracking::save`] / [`Tracking::unsave`],
//!   [`Tracking::dismiss`] / [`Tracking::undismiss`];
//! - the application: [`Tracking::apply`] (the `applied_on` window of §15.5),
//!   [`Tracking::update`] (stage and/or notes), [`Tracking::clear_stage`],
//!   [`Tracking::clear_track`], and the same by row id for pruned postings;
//! - reads: [`Tracking::list`] (cards, ≤ 500 a page), [`Tracking::slugs`],
//!   [`Tracking::pipeline`], [`Tracking::detail`];
//! - silence and follow-up ([`followup`]): [`Tracking::followups`], [`Tracking::followup_draft`]
//!   (only when silent), [`Tracking::record_followup`];
//! - CSV ([`csv`]): [`Tracking::export_csv`] and the idempotent [`Tracking::import_csv`].
//!
//! Every read that shows an application adds its silence clock at `now`
//! ([`freehire_domain::silence`]). `now` comes from the caller.

mod csv;
mod error;
mod followup;
mod ghost;

use std::sync::Arc;

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use freehire_domain::{
    ApplicationId, EventSource, FollowupDraft, PublicSlug, Silence, Stage, StageGroup, UserId,
    check_applied_on, silence,
};
pub use freehire_store::{Application, Card, SlugSet, Track, TrackedEvent, TrackingFilter};
use freehire_store::{ApplyOptions, Store, TrackChange};

pub use self::csv::{COLUMNS, ImportIssue, ImportReport};
pub use error::TrackingError;

/// The largest page of [`Tracking::list`].
pub const MAX_LIMIT: u32 = 500;
/// The page size of [`Tracking::list`] when none is asked for.
pub const DEFAULT_LIMIT: u32 = 100;
/// The longest notes accepted, in characters.
pub const MAX_NOTES_CHARS: usize = 10_000;

/// How to apply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ApplyInput {
    /// The day the user applied (default today): not in the future, at most a year ago.
    pub applied_on: Option<NaiveDate>,
    /// The CV sent, once CVs exist.
    pub cv_id: Option<i64>,
}

/// A change of stage and/or notes; at least one must be given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrackPatch {
    /// The new stage.
    pub stage: Option<Stage>,
    /// The new notes.
    pub notes: Option<String>,
}

/// An application with its silence clock at the time of the read.
#[derive(Debug, Clone, PartialEq)]
pub struct ApplicationState {
    /// The record.
    pub application: Application,
    /// Its silence clock (`None` when not applied or settled).
    pub silence: Option<Silence>,
}

/// A job's tracking state with the application's silence clock.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackState {
    /// The marks and the application.
    pub track: Track,
    /// The application's silence clock.
    pub silence: Option<Silence>,
}

impl TrackState {
    /// The application with its clock, if there is one.
    pub fn application(&self) -> Option<ApplicationState> {
        self.track
            .application
            .clone()
            .map(|application| ApplicationState { application, silence: self.silence })
    }
}

/// A card with its silence clock.
#[derive(Debug, Clone, PartialEq)]
pub struct CardState {
    /// The card.
    pub card: Card,
    /// Its silence clock.
    pub silence: Option<Silence>,
}

/// A page of cards and the total.
#[derive(Debug, Clone)]
pub struct CardPage {
    /// The page, most recently changed first.
    pub cards: Vec<CardState>,
    /// Every card the filter matches.
    pub total: u64,
}

/// The full view of a tracked job.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackingDetail {
    /// The card.
    pub card: CardState,
    /// The description (HTML as stored): the live posting's, else the snapshot's.
    pub description_html: Option<String>,
    /// The timeline, oldest first.
    pub events: Vec<TrackedEvent>,
}

/// Per-stage and per-group counts of the user's applications.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pipeline {
    /// Every stage, in pipeline order, with its count.
    pub stages: Vec<(Stage, u64)>,
    /// Every board column, in order, with its count.
    pub groups: Vec<(StageGroup, u64)>,
    /// Applications with a stage.
    pub total: u64,
}

/// A silent application and its draft.
#[derive(Debug, Clone, PartialEq)]
pub struct Followup {
    /// The card (its silence state is `silent`).
    pub card: CardState,
    /// The draft to copy.
    pub draft: FollowupDraft,
}

/// A follow-up draft and how long the application has been silent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftView {
    /// The draft.
    pub draft: FollowupDraft,
    /// Whole days since the last activity.
    pub days_silent: u32,
}

/// Application tracking over the store.
#[derive(Clone)]
pub struct Tracking {
    store: Arc<dyn Store>,
}

fn clock(
    stage: Option<Stage>,
    applied_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Option<Silence> {
    silence(stage, applied_at, now)
}

fn job_missing() -> TrackingError {
    TrackingError::NotFound("job not found")
}

fn application_missing() -> TrackingError {
    TrackingError::NotFound("application not found")
}

impl Tracking {
    /// The service over `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self { store }
    }

    fn state(track: Option<Track>, now: DateTime<Utc>) -> Result<TrackState, TrackingError> {
        let track = track.ok_or_else(job_missing)?;
        let silence = track.application.as_ref().and_then(|a| clock(a.stage, a.applied_at, now));
        Ok(TrackState { track, silence })
    }

    fn app_state(
        app: Option<Application>,
        now: DateTime<Utc>,
    ) -> Result<ApplicationState, TrackingError> {
        let application = app.ok_or_else(application_missing)?;
        let silence = clock(application.stage, application.applied_at, now);
        Ok(ApplicationState { application, silence })
    }

    fn card_state(card: Card, now: DateTime<Utc>) -> CardState {
        let silence = clock(card.stage, card.applied_at, now);
        CardState { card, silence }
    }

    /// Checks a patch: at least one field, notes within [`MAX_NOTES_CHARS`].
    fn change(patch: TrackPatch) -> Result<TrackChange, TrackingError> {
        if patch.stage.is_none() && patch.notes.is_none() {
            return Err(TrackingError::invalid("body", "give at least one of stage and notes"));
        }
        if let Some(notes) = &patch.notes
            && notes.chars().count() > MAX_NOTES_CHARS
        {
            return Err(TrackingError::invalid(
                "notes",
                format!("must be at most {MAX_NOTES_CHARS} characters"),
            ));
        }
        Ok(TrackChange { stage: patch.stage, notes: patch.notes })
    }

    /// Records a view.
    pub async fn view(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        Self::state(self.store.track_view(owner, slug, now).await?, now)
    }

    /// Saves the job (a reminder is due three days on, at the digest hour).
    pub async fn save(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        Self::state(self.store.track_save(owner, slug, true, now).await?, now)
    }

    /// Unsaves the job.
    pub async fn unsave(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        Self::state(self.store.track_save(owner, slug, false, now).await?, now)
    }

    /// Dismisses the job.
    pub async fn dismiss(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        Self::state(self.store.track_dismiss(owner, slug, true, now).await?, now)
    }

    /// Undismisses the job.
    pub async fn undismiss(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        Self::state(self.store.track_dismiss(owner, slug, false, now).await?, now)
    }

    /// Applies (or re-dates the application when `applied_on` is another day). An
    /// `applied_on` today is `now`; another day is that day at 12:00 UTC.
    pub async fn apply(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        input: ApplyInput,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        self.apply_from(owner, slug, input, EventSource::User, now).await
    }

    /// [`Tracking::apply`] recorded through `source` (the assistant's `apply_job` records
    /// [`EventSource::Assistant`]): the source of the `applied` event.
    pub async fn apply_from(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        input: ApplyInput,
        source: EventSource,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        let today = now.date_naive();
        let applied_at = match input.applied_on {
            Some(day) => {
                let day = check_applied_on(day, today)?;
                if day == today {
                    now
                } else {
                    day.and_time(NaiveTime::MIN).and_utc() + chrono::Duration::hours(12)
                }
            }
            None => now,
        };
        let options = ApplyOptions {
            applied_at,
            explicit_date: input.applied_on.is_some(),
            cv_id: input.cv_id,
            source,
        };
        Self::state(self.store.track_apply(owner, slug, &options, now).await?, now)
    }

    /// Sets the stage and/or the notes (a stage past `preparing` also applies, dated now).
    pub async fn update(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        patch: TrackPatch,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        let change = Self::change(patch)?;
        Self::state(self.store.track_update(owner, slug, &change, now).await?, now)
    }

    /// Clears the stage and the applied date; keeps the save and the notes.
    pub async fn clear_stage(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        Self::state(self.store.track_clear_stage(owner, slug, now).await?, now)
    }

    /// Clears the save and the application; keeps the view.
    pub async fn clear_track(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        Self::state(self.store.track_clear(owner, slug, now).await?, now)
    }

    /// [`Tracking::update`] by the application's id.
    pub async fn update_application(
        &self,
        owner: UserId,
        id: ApplicationId,
        patch: TrackPatch,
        now: DateTime<Utc>,
    ) -> Result<ApplicationState, TrackingError> {
        let change = Self::change(patch)?;
        Self::app_state(self.store.update_application(owner, id, &change, now).await?, now)
    }

    /// Deletes the application and its events.
    pub async fn delete_application(
        &self,
        owner: UserId,
        id: ApplicationId,
    ) -> Result<(), TrackingError> {
        if self.store.delete_application(owner, id).await? {
            Ok(())
        } else {
            Err(application_missing())
        }
    }

    /// [`Tracking::clear_stage`] by the application's id.
    pub async fn clear_application_stage(
        &self,
        owner: UserId,
        id: ApplicationId,
        now: DateTime<Utc>,
    ) -> Result<ApplicationState, TrackingError> {
        Self::app_state(self.store.clear_application_stage(owner, id, now).await?, now)
    }

    /// A page of cards (`limit` 1..=500).
    pub async fn list(
        &self,
        owner: UserId,
        filter: TrackingFilter,
        limit: u32,
        offset: u64,
        now: DateTime<Utc>,
    ) -> Result<CardPage, TrackingError> {
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(TrackingError::invalid(
                "limit",
                format!("must be between 1 and {MAX_LIMIT}"),
            ));
        }
        let list = self.store.tracking_list(owner, filter, limit, offset).await?;
        let cards = list.cards.into_iter().map(|c| Self::card_state(c, now)).collect();
        Ok(CardPage { cards, total: list.total })
    }

    /// The slugs of the viewed, saved or dismissed jobs.
    pub async fn slugs(&self, owner: UserId, set: SlugSet) -> Result<Vec<String>, TrackingError> {
        Ok(self.store.tracking_slugs(owner, set).await?)
    }

    /// Counts per stage (all ten) and per board column (all five).
    pub async fn pipeline(&self, owner: UserId) -> Result<Pipeline, TrackingError> {
        let counts = self.store.stage_counts(owner).await?.counts;
        let of = |stage: Stage| counts.iter().find(|(s, _)| *s == stage).map_or(0, |(_, n)| *n);
        let stages: Vec<(Stage, u64)> = Stage::ALL.iter().map(|s| (*s, of(*s))).collect();
        let groups =
            StageGroup::ALL.iter().map(|g| (*g, g.stages().iter().map(|s| of(*s)).sum())).collect();
        let total = stages.iter().map(|(_, n)| n).sum();
        Ok(Pipeline { stages, groups, total })
    }

    /// The full view of a tracked job (by the kept slug after a prune).
    pub async fn detail(
        &self,
        owner: UserId,
        slug: &str,
        now: DateTime<Utc>,
    ) -> Result<TrackingDetail, TrackingError> {
        let detail = self
            .store
            .tracking_detail(owner, slug)
            .await?
            .ok_or(TrackingError::NotFound("this job is not tracked"))?;
        Ok(TrackingDetail {
            card: Self::card_state(detail.card, now),
            description_html: detail.description,
            events: detail.events,
        })
    }

    /// Records a follow-up (`followed_up_at` and its event); the job must have an application.
    pub async fn record_followup(
        &self,
        owner: UserId,
        slug: &PublicSlug,
        now: DateTime<Utc>,
    ) -> Result<TrackState, TrackingError> {
        let state = Self::state(self.store.track_followed_up(owner, slug, now).await?, now)?;
        if state.track.application.is_none() {
            return Err(TrackingError::NotFound("no application for this job"));
        }
        Ok(state)
    }
}
