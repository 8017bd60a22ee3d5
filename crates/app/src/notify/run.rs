//! The worker's side of the engines: their settings from the environment ([`NotifyArgs`],
//! flattened into the worker's command line) and the loop that runs each on its cadence
//! ([`run_engines`]) until cancelled. An engine's error is logged and the loop goes on: the
//! next tick retries, and every claim it made runs out on its own.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use secrecy::SecretString;
use tokio_util::sync::CancellationToken;

use super::{DEFAULT_PUBLIC_URL, Notifier, NotifyConfig, WebhookConfig, WebhookSender};
use crate::AppError;
use crate::saved_searches::WebhookPolicy;
use freehire_store::Store;

/// The notification engines' settings (`FREEHIRE_NOTIFY_*`, the mail settings the API reads,
/// the public URL digests link to).
#[derive(Debug, Clone, clap::Args)]
pub struct NotifyArgs {
    /// Seconds between match-and-digest passes (at least 1).
    #[arg(long, env = "FREEHIRE_NOTIFY_EVERY_SECS", default_value_t = 300,
        value_parser = clap::value_parser!(u64).range(1..))]
    pub notify_every_secs: u64,

    /// Seconds between reminder passes (at least 1).
    #[arg(long, env = "FREEHIRE_REMIND_EVERY_SECS", default_value_t = 900,
        value_parser = clap::value_parser!(u64).range(1..))]
    pub remind_every_secs: u64,

    /// Seconds between nudge passes (at least 1).
    #[arg(long, env = "FREEHIRE_NUDGE_EVERY_SECS", default_value_t = 3600,
        value_parser = clap::value_parser!(u64).range(1..))]
    pub nudge_every_secs: u64,

    /// Seconds between delivery passes (at least 1).
    #[arg(long, env = "FREEHIRE_DELIVER_EVERY_SECS", default_value_t = 60,
        value_parser = clap::value_parser!(u64).range(1..))]
    pub deliver_every_secs: u64,

    /// Seconds a claimed delivery or reminder stays this worker's (a killed worker's claims
    /// are taken over after it; at least 1).
    #[arg(long, env = "FREEHIRE_NOTIFY_LEASE_SECS", default_value_t = 300,
        value_parser = clap::value_parser!(i64).range(1..))]
    pub notify_lease_secs: i64,

    /// The public site digests and reminders link to.
    #[arg(long, env = "FREEHIRE_PUBLIC_URL", default_value = DEFAULT_PUBLIC_URL)]
    pub public_url: String,

    /// Let webhooks reach loopback and private addresses (tests, closed networks).
    #[arg(long, env = "FREEHIRE_WEBHOOK_ALLOW_PRIVATE", default_value_t = false,
        action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub webhook_allow_private: bool,

    /// The SMTP server mail goes through; unset writes `.eml` files under the mail folder.
    #[arg(long, env = "FREEHIRE_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<SecretString>,

    /// The sender of every mail.
    #[arg(long, env = "FREEHIRE_MAIL_FROM")]
    pub mail_from: Option<String>,

    /// Where mail is written when no SMTP server is configured.
    #[arg(long, env = "FREEHIRE_MAIL_DIR")]
    pub mail_dir: Option<PathBuf>,
}

/// How often each engine runs.
#[derive(Debug, Clone, Copy)]
pub struct Cadences {
    /// Match and digests.
    pub notify: Duration,
    /// Reminders.
    pub remind: Duration,
    /// Nudges.
    pub nudge: Duration,
    /// Deliveries.
    pub deliver: Duration,
}

impl NotifyArgs {
    /// The engines' cadences.
    pub fn cadences(&self) -> Cadences {
        Cadences {
            notify: Duration::from_secs(self.notify_every_secs),
            remind: Duration::from_secs(self.remind_every_secs),
            nudge: Duration::from_secs(self.nudge_every_secs),
            deliver: Duration::from_secs(self.deliver_every_secs),
        }
    }

    /// The engines over `store` as worker `worker_id`, with the mailer and webhook sender
    /// these settings choose.
    pub fn notifier(&self, store: Arc<dyn Store>, worker_id: &str) -> Result<Notifier, AppError> {
        let config_error =
            |e: &dyn std::error::Error| AppError::Config(freehire_ingest::error_chain(e));
        let mail = freehire_mail::MailConfig::from_settings(
            self.smtp_url.clone(),
            self.mail_from.as_deref(),
            self.mail_dir.clone(),
        )
        .map_err(|e| config_error(&e))?;
        let mailer = freehire_mail::mailer(&mail).map_err(|e| config_error(&e))?;
        let policy = if self.webhook_allow_private {
            WebhookPolicy::AllowPrivate
        } else {
            WebhookPolicy::PublicOnly
        };
        let webhook = WebhookSender::new(WebhookConfig { policy, ..WebhookConfig::default() })
            .map_err(|e| config_error(&e))?;
        let mut config = NotifyConfig::new(worker_id);
        config.public_url = self.public_url.clone();
        config.lease = chrono::Duration::seconds(self.notify_lease_secs);
        tracing::info!(mailer = %mailer.describe(), public_url = %config.public_url, "notification engines");
        Ok(Notifier::new(store, mailer, webhook, config))
    }
}

/// Logs an engine's failure (the loop goes on).
fn log_failure<T>(engine: &str, result: Result<T, AppError>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(e) => {
            tracing::error!(engine, error = %freehire_ingest::error_chain(&e), "engine pass failed");
            None
        }
    }
}

/// Runs each engine on its cadence until `cancel` (the first pass of each at once).
pub async fn run_engines(
    notifier: &Notifier,
    cadences: Cadences,
    cancel: &CancellationToken,
    clock: &(dyn Fn() -> DateTime<Utc> + Send + Sync),
) {
    let mut notify = tokio::time::interval(cadences.notify);
    let mut remind = tokio::time::interval(cadences.remind);
    let mut nudge = tokio::time::interval(cadences.nudge);
    let mut deliver = tokio::time::interval(cadences.deliver);
    for tick in [&mut notify, &mut remind, &mut nudge, &mut deliver] {
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    }
    loop {
        tokio::select! {
            () = cancel.cancelled() => break,
            _ = notify.tick() => {
                if let Some((jobs, matches)) = log_failure("match", notifier.match_new_jobs(clock()).await) {
                    tracing::debug!(jobs, matches, "match pass");
                }
                log_failure("digest", notifier.send_digests(clock()).await);
                log_failure("deliver", notifier.deliver(clock()).await);
            }
            _ = remind.tick() => {
                log_failure("remind", notifier.fire_reminders(clock()).await);
                log_failure("deliver", notifier.deliver(clock()).await);
            }
            _ = nudge.tick() => {
                log_failure("nudge", notifier.nudge(clock()).await);
                log_failure("deliver", notifier.deliver(clock()).await);
            }
            _ = deliver.tick() => {
                log_failure("deliver", notifier.deliver(clock()).await);
            }
        }
    }
}
