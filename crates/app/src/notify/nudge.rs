//! The nudge step (reference §7.4, beyond it: pushed, not only shown): an application whose
//! silence clock ([`freehire_domain::silence`]) says `silent` gets one `nudge_silent`
//! notification per episode (`<stage>:<applied date>`: a new stage or a re-dated application
//! starts a new one), titled with its follow-up draft's subject; a `stage_set interview` event
//! gets one `nudge_interview` notification. The episode's unique key makes both idempotent,
//! also between two workers.

use chrono::{DateTime, Utc};
use freehire_domain::{
    Channel, FollowupInput, NotificationKind, SilenceState, Stage, followup_draft, silence,
};
use freehire_store::{
    NewDelivery, NewNotification, NewNudge, NotifiedJob, NudgeCandidate, NudgeKind,
};

use super::Notifier;
use crate::AppError;

/// The silence episode's key: the stage and the date the clock started.
pub fn episode_key(stage: Option<Stage>, applied_at: DateTime<Utc>) -> String {
    let stage = stage.unwrap_or(Stage::Applied);
    format!("{}:{}", stage.as_str(), applied_at.date_naive())
}

fn base(
    c: &NudgeCandidate,
    kind: NotificationKind,
    title: String,
    body: String,
) -> NewNotification {
    let deliveries = if c.settings.alerts_email {
        vec![NewDelivery {
            channel: Channel::Email,
            destination: c.email.as_str().to_owned(),
            subscription: None,
        }]
    } else {
        Vec::new()
    };
    let jobs = c
        .job_slug
        .as_ref()
        .map(|slug| NotifiedJob {
            slug: slug.clone(),
            title: c.role_title.clone(),
            company: c.company.clone(),
            location: String::new(),
            url: None,
        })
        .into_iter()
        .collect();
    NewNotification {
        owner: c.owner,
        kind,
        title,
        body,
        public_slug: c.job_slug.clone(),
        jobs,
        deliveries,
    }
}

/// The silent nudge of `c` at `now`, if its clock says silent and this episode was not nudged.
fn silent_nudge(c: &NudgeCandidate, now: DateTime<Utc>) -> Option<NewNudge> {
    let applied_at = c.applied_at?;
    let clock = silence(c.stage, Some(applied_at), now)?;
    if clock.state != SilenceState::Silent {
        return None;
    }
    let key = episode_key(c.stage, applied_at);
    if c.silent_episodes.contains(&key) {
        return None;
    }
    let draft = followup_draft(&FollowupInput {
        role: &c.role_title,
        company: &c.company,
        stage: c.stage,
        days_silent: clock.days_silent,
        contact_name: None,
        strength: None,
    });
    let title = format!("No reply in {} days — {}", clock.days_silent, draft.subject);
    let body = format!("A follow-up you can send:\n\n{}", draft.body);
    Some(NewNudge {
        application: c.application,
        job: c.job,
        kind: NudgeKind::Silent,
        episode_key: key,
        notification: base(c, NotificationKind::NudgeSilent, title, body),
    })
}

fn interview_nudge(c: &NudgeCandidate, event: i64) -> NewNudge {
    let company = if c.company.trim().is_empty() {
        String::new()
    } else {
        format!(" at {}", c.company.trim())
    };
    let title = format!("Interview coming up: {}{company}", c.role_title.trim());
    let body = "Prepare: reread the posting, line up two stories for its main requirements, \
                and write down the questions you want to ask."
        .to_owned();
    NewNudge {
        application: c.application,
        job: c.job,
        kind: NudgeKind::InterviewPrep,
        episode_key: format!("event:{event}"),
        notification: base(c, NotificationKind::NudgeInterview, title, body),
    }
}

impl Notifier {
    /// Records every due nudge; returns how many were new.
    pub async fn nudge(&self, now: DateTime<Utc>) -> Result<u64, AppError> {
        let since = now - self.config.interview_window;
        let mut recorded = 0;
        for c in self.store.nudge_candidates(since).await? {
            let mut nudges: Vec<NewNudge> = silent_nudge(&c, now).into_iter().collect();
            nudges.extend(c.interview_events.iter().map(|e| interview_nudge(&c, *e)));
            for nudge in &nudges {
                if self.store.record_nudge(nudge, now).await?.is_some() {
                    recorded += 1;
                }
            }
        }
        Ok(recorded)
    }
}
