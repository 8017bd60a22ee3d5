//! The notification engines the worker runs (reference §8.1–§8.2, §7.4): [`Notifier`] holds
//! the store, the mailer and the webhook sender, and runs one pass of each engine on demand.
//!
//! - **match** ([`Notifier::match_new_jobs`], every 5 min): the open jobs after the `notify`
//!   cursor, as search documents, percolated against every active subscription whose saved
//!   search narrows; matches and the cursor are written in one transaction.
//! - **digest** ([`Notifier::send_digests`]): each subscription with waiting matches that its
//!   owner's settings make due gets one digest of at most [`SNAPSHOT_CAP`] matches, recorded
//!   (notification, delivery, matches marked) before anything is sent.
//! - **deliver** ([`Notifier::deliver`], every minute): leased deliveries are sent by email or
//!   signed webhook; a failure is retried with backoff ([`schedule::retry_delay`]) and recorded
//!   with its error, and fails for good after [`MAX_ATTEMPTS`].
//! - **remind** ([`Notifier::fire_reminders`], every 15 min): due saved-job reminders become a
//!   notification and an email, unless the job closed, the user applied or unsaved it.
//! - **nudge** ([`Notifier::nudge`], hourly): a silent application is nudged once per episode
//!   (stage and applied date), a move into `interview` once per event.
//!
//! Every claim is safe with several workers and across a kill: a delivery's lease runs out and
//! it is sent again under the same key (the file mailer's one file per delivery, the
//! webhook's `X-Freehire-Delivery`), and nothing is recorded twice.

mod deliver;
mod digest;
mod matching;
pub mod message;
mod nudge;
mod remind;
pub mod run;
pub mod schedule;
pub mod webhook;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_mail::Mailer;
use freehire_store::Store;

pub use message::{LIST_LIMIT, Links};
pub use run::{Cadences, NotifyArgs, run_engines};
pub use webhook::{WebhookConfig, WebhookError, WebhookSender};

use crate::AppError;

/// Most matches one digest takes (`SnapshotCap`, reference §8.2).
pub const SNAPSHOT_CAP: u32 = 200;
/// Attempts at a delivery before it fails for good.
pub const MAX_ATTEMPTS: u32 = 8;
/// The public site digests link to when none is configured.
pub const DEFAULT_PUBLIC_URL: &str = "http://127.0.0.1:8080";
/// The match cursor's name in `engine_cursors`.
pub const CURSOR: &str = "notify";

/// The engines' settings.
#[derive(Debug, Clone)]
pub struct NotifyConfig {
    /// This worker's name in leases.
    pub worker_id: String,
    /// The public site (`FREEHIRE_PUBLIC_URL`).
    pub public_url: String,
    /// How long a claimed delivery or reminder is this worker's before another may take it.
    pub lease: chrono::Duration,
    /// Deliveries claimed at once.
    pub delivery_batch: u32,
    /// Jobs percolated per batch (the store reads at most 1,000 per call).
    pub match_batch: u32,
    /// How far back `stage_set interview` events are nudged.
    pub interview_window: chrono::Duration,
}

impl NotifyConfig {
    /// The defaults for worker `worker_id`: a 5-minute lease, batches of 100 deliveries and
    /// 1,000 jobs, interview moves of the last 14 days.
    pub fn new(worker_id: impl Into<String>) -> Self {
        Self {
            worker_id: worker_id.into(),
            public_url: DEFAULT_PUBLIC_URL.to_owned(),
            lease: chrono::Duration::minutes(5),
            delivery_batch: 100,
            match_batch: 1000,
            interview_window: chrono::Duration::days(14),
        }
    }
}

/// What one pass of every engine did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PassStats {
    /// Jobs percolated.
    pub jobs_matched: u64,
    /// Matches recorded (new or already known).
    pub matches: u64,
    /// Digests recorded.
    pub digests: u64,
    /// Deliveries sent.
    pub sent: u64,
    /// Deliveries that failed (retried later or for good).
    pub failed: u64,
    /// Reminders fired.
    pub reminders: u64,
    /// Reminders cancelled.
    pub cancelled: u64,
    /// Nudges recorded.
    pub nudges: u64,
}

/// The notification engines over one store.
pub struct Notifier {
    store: Arc<dyn Store>,
    mailer: Arc<dyn Mailer>,
    webhook: WebhookSender,
    config: NotifyConfig,
    links: Links,
}

impl Notifier {
    /// The engines over `store`, sending through `mailer` and `webhook`.
    pub fn new(
        store: Arc<dyn Store>,
        mailer: Arc<dyn Mailer>,
        webhook: WebhookSender,
        config: NotifyConfig,
    ) -> Self {
        let links = Links::new(&config.public_url);
        Self { store, mailer, webhook, config, links }
    }

    /// The settings in force.
    pub fn config(&self) -> &NotifyConfig {
        &self.config
    }

    /// One pass of every engine, in order: match, digest, remind, nudge, deliver (so what a
    /// pass records is sent in the same pass).
    pub async fn run_pass(&self, now: DateTime<Utc>) -> Result<PassStats, AppError> {
        let (jobs_matched, matches) = self.match_new_jobs(now).await?;
        let digests = self.send_digests(now).await?;
        let (reminders, cancelled) = self.fire_reminders(now).await?;
        let nudges = self.nudge(now).await?;
        let (sent, failed) = self.deliver(now).await?;
        Ok(PassStats { jobs_matched, matches, digests, sent, failed, reminders, cancelled, nudges })
    }
}
