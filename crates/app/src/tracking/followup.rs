//! Silence and follow-up (reference §7.3): the follow-ups list (silent applications, most
//! overdue first) and the draft of one, written by [`freehire_domain::followup_draft`] with the
//! application's company name. Only a `silent` application has a draft; nothing sends mail.

use chrono::{DateTime, Utc};
use freehire_domain::{FollowupDraft, FollowupInput, SilenceState, UserId, followup_draft};
use freehire_store::TrackingFilter;

use super::{CardState, DraftView, Followup, MAX_LIMIT, Tracking, TrackingError};

/// The draft of a card (its clock must be there: the caller checked it is silent).
fn draft_of(card: &CardState, days_silent: u32) -> FollowupDraft {
    followup_draft(&FollowupInput {
        role: &card.card.role_title,
        company: &card.card.company,
        stage: card.card.stage,
        days_silent,
        contact_name: None,
        strength: None,
    })
}

/// How far past its stage's threshold a silent card is (the list's order, largest first).
fn overdue(card: &CardState) -> i64 {
    let days = card.silence.map_or(0, |s| i64::from(s.days_silent));
    let threshold = card
        .card
        .stage
        .unwrap_or(freehire_domain::Stage::Applied)
        .silence_threshold_days()
        .map_or(0, i64::from);
    days - threshold
}

impl Tracking {
    /// The silent applications, most overdue first (days silent minus the stage's threshold),
    /// each with its draft.
    pub async fn followups(
        &self,
        owner: UserId,
        now: DateTime<Utc>,
    ) -> Result<Vec<Followup>, TrackingError> {
        let mut silent = Vec::new();
        let mut offset = 0u64;
        loop {
            let page = self.list(owner, TrackingFilter::Applied, MAX_LIMIT, offset, now).await?;
            let got = page.cards.len() as u64;
            silent.extend(
                page.cards
                    .into_iter()
                    .filter(|c| c.silence.is_some_and(|s| s.state == SilenceState::Silent)),
            );
            offset += got;
            if got < u64::from(MAX_LIMIT) || offset >= page.total {
                break;
            }
        }
        silent.sort_by_key(|c| std::cmp::Reverse(overdue(c)));
        Ok(silent
            .into_iter()
            .map(|card| {
                let days = card.silence.map_or(0, |s| s.days_silent);
                let draft = draft_of(&card, days);
                Followup { card, draft }
            })
            .collect())
    }

    /// The draft for one tracked job: only when its application is silent
    /// ([`TrackingError::NotSilent`] otherwise; not found when it is not tracked or has no
    /// application).
    pub async fn followup_draft(
        &self,
        owner: UserId,
        slug: &str,
        now: DateTime<Utc>,
    ) -> Result<DraftView, TrackingError> {
        let detail = self.detail(owner, slug, now).await?;
        if detail.card.card.application_id.is_none() {
            return Err(TrackingError::NotFound("no application for this job"));
        }
        match detail.card.silence {
            Some(s) if s.state == SilenceState::Silent => Ok(DraftView {
                draft: draft_of(&detail.card, s.days_silent),
                days_silent: s.days_silent,
            }),
            _ => Err(TrackingError::NotSilent),
        }
    }
}
