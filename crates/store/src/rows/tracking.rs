//! Tracking rows as read (`user_jobs`, `applications`, `application_events` and the list's
//! cards), decoded on both backends through the [`bind`](crate::bind) types and parsed totally
//! into the model: a stored stage, kind or source outside its vocabulary is
//! [`StoreError::Corrupt`] naming its column.

use freehire_domain::{ApplicationId, EventKind, EventSource, JobId, Stage};

use crate::{
    Result, StoreError,
    bind::{Stamp, StoredJson},
    tracking::{Application, Card, ExportRow, Marks, Snapshot, TrackedEvent},
};

fn stage(raw: Option<String>) -> Result<Option<Stage>> {
    raw.as_deref().map(Stage::parse).transpose().map_err(|e| StoreError::corrupt("stage", e))
}

fn application_id(id: i64) -> Result<ApplicationId> {
    ApplicationId::new(id).map_err(|e| StoreError::corrupt("id", e))
}

/// A `user_jobs` row.
#[derive(sqlx::FromRow)]
pub(crate) struct MarksRecord {
    viewed_at: Option<Stamp>,
    saved_at: Option<Stamp>,
    dismissed_at: Option<Stamp>,
    applied_counted: bool,
}

impl MarksRecord {
    /// The marks and whether the user was counted in `applied_count`.
    pub fn into_marks(self) -> (Marks, bool) {
        (
            Marks {
                viewed_at: self.viewed_at.map(Into::into),
                saved_at: self.saved_at.map(Into::into),
                dismissed_at: self.dismissed_at.map(Into::into),
            },
            self.applied_counted,
        )
    }
}

/// An application row (the columns of `application_columns!`).
#[derive(sqlx::FromRow)]
pub(crate) struct ApplicationRecord {
    id: i64,
    job_id: Option<i64>,
    job_slug: Option<String>,
    company: String,
    company_slug: String,
    role_title: String,
    stage: Option<String>,
    applied_at: Option<Stamp>,
    notes: String,
    followed_up_at: Option<Stamp>,
    cv_id: Option<i64>,
    created_at: Stamp,
    updated_at: Stamp,
    job_closed: bool,
    snapshot_url: Option<String>,
    snapshot_location: Option<String>,
    snapshot_description: Option<String>,
    snapshot_facts: Option<StoredJson>,
}

impl ApplicationRecord {
    pub fn into_application(self) -> Result<Application> {
        Ok(Application {
            id: application_id(self.id)?,
            job_id: self
                .job_id
                .map(JobId::new)
                .transpose()
                .map_err(|e| StoreError::corrupt("job_id", e))?,
            job_slug: self.job_slug,
            company: self.company,
            company_slug: self.company_slug,
            role_title: self.role_title,
            stage: stage(self.stage)?,
            applied_at: self.applied_at.map(Into::into),
            notes: self.notes,
            followed_up_at: self.followed_up_at.map(Into::into),
            cv_id: self.cv_id,
            created_at: self.created_at.into(),
            updated_at: self.updated_at.into(),
            job_closed: self.job_closed,
            snapshot: Snapshot {
                url: self.snapshot_url,
                location: self.snapshot_location,
                description: self.snapshot_description,
                facts: self.snapshot_facts.map(|f| f.parse("snapshot_facts")).transpose()?,
            },
        })
    }
}

/// A card row (the columns of `cards_from!`).
#[derive(sqlx::FromRow)]
pub(crate) struct CardRecord {
    application_id: Option<i64>,
    job_slug: Option<String>,
    company: String,
    company_slug: String,
    role_title: String,
    title: String,
    location: String,
    url: String,
    stage: Option<String>,
    applied_at: Option<Stamp>,
    notes: String,
    followed_up_at: Option<Stamp>,
    cv_id: Option<i64>,
    created_at: Option<Stamp>,
    updated_at: Stamp,
    viewed_at: Option<Stamp>,
    saved_at: Option<Stamp>,
    dismissed_at: Option<Stamp>,
    job_closed: bool,
}

impl CardRecord {
    pub fn into_card(self) -> Result<Card> {
        Ok(Card {
            application_id: self.application_id.map(application_id).transpose()?,
            job_slug: self.job_slug,
            company: self.company,
            company_slug: self.company_slug,
            role_title: self.role_title,
            title: self.title,
            location: self.location,
            url: self.url,
            stage: stage(self.stage)?,
            applied_at: self.applied_at.map(Into::into),
            notes: self.notes,
            followed_up_at: self.followed_up_at.map(Into::into),
            cv_id: self.cv_id,
            created_at: self.created_at.map(Into::into),
            updated_at: self.updated_at.into(),
            marks: Marks {
                viewed_at: self.viewed_at.map(Into::into),
                saved_at: self.saved_at.map(Into::into),
                dismissed_at: self.dismissed_at.map(Into::into),
            },
            job_closed: self.job_closed,
        })
    }
}

fn event(
    kind: String,
    signal: Option<String>,
    occurred_at: Stamp,
    recorded_at: Stamp,
    source: String,
) -> Result<TrackedEvent> {
    Ok(TrackedEvent {
        kind: EventKind::parse(&kind).map_err(|e| StoreError::corrupt("kind", e))?,
        signal,
        occurred_at: occurred_at.into(),
        recorded_at: recorded_at.into(),
        source: EventSource::parse(&source).map_err(|e| StoreError::corrupt("source", e))?,
    })
}

/// An `application_events` row.
#[derive(sqlx::FromRow)]
pub(crate) struct EventRecord {
    kind: String,
    signal: Option<String>,
    occurred_at: Stamp,
    recorded_at: Stamp,
    source: String,
}

impl EventRecord {
    pub fn into_event(self) -> Result<TrackedEvent> {
        event(self.kind, self.signal, self.occurred_at, self.recorded_at, self.source)
    }
}

/// An application joined with one of its events (or none).
#[derive(sqlx::FromRow)]
pub(crate) struct ExportRecord {
    application_id: i64,
    job_slug: Option<String>,
    company: String,
    company_slug: String,
    role_title: String,
    stage: Option<String>,
    applied_at: Option<Stamp>,
    notes: String,
    kind: Option<String>,
    signal: Option<String>,
    occurred_at: Option<Stamp>,
    recorded_at: Option<Stamp>,
    source: Option<String>,
}

impl ExportRecord {
    pub fn into_row(self) -> Result<ExportRow> {
        let event = match (self.kind, self.occurred_at, self.recorded_at, self.source) {
            (Some(kind), Some(occurred_at), Some(recorded_at), Some(source)) => {
                Some(event(kind, self.signal, occurred_at, recorded_at, source)?)
            }
            _ => None,
        };
        Ok(ExportRow {
            application_id: application_id(self.application_id)?,
            job_slug: self.job_slug,
            company: self.company,
            company_slug: self.company_slug,
            role_title: self.role_title,
            stage: stage(self.stage)?,
            applied_at: self.applied_at.map(Into::into),
            notes: self.notes,
            event,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::Utc;

    use super::*;

    #[test]
    fn a_stored_value_outside_its_vocabulary_is_corrupt_naming_its_column() {
        let now = Stamp(Utc::now());
        let err = EventRecord {
            kind: "teleported".into(),
            signal: None,
            occurred_at: now,
            recorded_at: now,
            source: "user".into(),
        }
        .into_event()
        .unwrap_err();
        assert!(matches!(err, StoreError::Corrupt { column: "kind", .. }), "{err:?}");
        assert!(matches!(
            stage(Some("ghosted".into())),
            Err(StoreError::Corrupt { column: "stage", .. })
        ));
        assert_eq!(stage(Some("offer".into())).unwrap(), Some(Stage::Offer));
    }
}
