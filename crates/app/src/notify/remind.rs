//! The reminder step (reference §7.4): pending saved-job reminders whose time has come are
//! leased; each one whose job is still open, still saved and not applied to becomes a
//! `reminder` notification ("Still interested in <title> at <company>?") with an email
//! delivery (unless the owner turned alert emails off), and is marked fired in the same
//! transaction; the others are cancelled.

use chrono::{DateTime, Utc};
use freehire_domain::{Channel, NotificationKind};
use freehire_store::{DueReminder, NewDelivery, NewNotification, NotifiedJob};

use super::Notifier;
use crate::AppError;

/// Reminders claimed at once.
const BATCH: u32 = 100;
/// Most claim rounds one pass makes.
const MAX_ROUNDS: u32 = 50;

/// "Still interested in <title> at <company>?".
pub fn reminder_title(title: &str, company: &str) -> String {
    if company.trim().is_empty() {
        format!("Still interested in {}?", title.trim())
    } else {
        format!("Still interested in {} at {}?", title.trim(), company.trim())
    }
}

fn notification(r: &DueReminder) -> NewNotification {
    let deliveries = if r.settings.alerts_email {
        vec![NewDelivery {
            channel: Channel::Email,
            destination: r.email.as_str().to_owned(),
            subscription: None,
        }]
    } else {
        Vec::new()
    };
    NewNotification {
        owner: r.owner,
        kind: NotificationKind::Reminder,
        title: reminder_title(&r.title, &r.company),
        body: "You saved this job three days ago. Apply, or dismiss it to clear your list."
            .to_owned(),
        public_slug: Some(r.job_slug.clone()),
        jobs: vec![NotifiedJob {
            slug: r.job_slug.clone(),
            title: r.title.clone(),
            company: r.company.clone(),
            location: r.location.clone(),
            url: None,
        }],
        deliveries,
    }
}

impl Notifier {
    /// Fires or cancels every due reminder; returns `(fired, cancelled)`.
    pub async fn fire_reminders(&self, now: DateTime<Utc>) -> Result<(u64, u64), AppError> {
        let (mut fired, mut cancelled) = (0, 0);
        let worker = self.config.worker_id.as_str();
        for _ in 0..MAX_ROUNDS {
            let due = self.store.claim_reminders(worker, BATCH, self.config.lease, now).await?;
            if due.is_empty() {
                break;
            }
            for r in &due {
                if !r.job_open || !r.saved || r.applied {
                    if self.store.cancel_reminder(r.id, worker).await? {
                        cancelled += 1;
                    }
                    continue;
                }
                if self.store.fire_reminder(r.id, worker, &notification(r), now).await?.is_some() {
                    fired += 1;
                }
            }
        }
        Ok((fired, cancelled))
    }
}
