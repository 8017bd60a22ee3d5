//! The delivery step: lease due deliveries, send each on its channel, record the outcome. A
//! failure is retried after [`schedule::retry_delay`] with its error recorded, and fails for
//! good after [`MAX_ATTEMPTS`] (or at once when retrying cannot help: a refused webhook
//! target, an unparseable address). A lease that runs out (a killed worker) makes the delivery
//! claimable again; it is resent under the same key, so the receiver sees one delivery.

use chrono::{DateTime, Utc};
use freehire_domain::{Channel, Email};
use freehire_mail::Message;
use freehire_store::{DeliveryOutcome, DueDelivery};

use super::{MAX_ATTEMPTS, Notifier, message, schedule};
use crate::AppError;

/// Most claim rounds one pass makes (each up to the batch size).
const MAX_ROUNDS: u32 = 50;

/// Why one send failed, and whether retrying can help.
struct Failure {
    error: String,
    permanent: bool,
}

impl Notifier {
    /// Sends every due delivery; returns `(sent, failed)`.
    pub async fn deliver(&self, now: DateTime<Utc>) -> Result<(u64, u64), AppError> {
        let (mut sent, mut failed) = (0, 0);
        for _ in 0..MAX_ROUNDS {
            let due = self
                .store
                .claim_deliveries(
                    &self.config.worker_id,
                    self.config.delivery_batch,
                    self.config.lease,
                    now,
                )
                .await?;
            if due.is_empty() {
                break;
            }
            for delivery in &due {
                let outcome = match self.send(delivery, now).await {
                    Ok(()) => {
                        sent += 1;
                        DeliveryOutcome::Sent
                    }
                    Err(failure) => {
                        failed += 1;
                        let attempts = delivery.attempts + 1;
                        tracing::warn!(
                            delivery = %delivery.id,
                            attempts,
                            error = %failure.error,
                            "delivery failed"
                        );
                        if failure.permanent || attempts >= MAX_ATTEMPTS {
                            DeliveryOutcome::Failed { error: failure.error }
                        } else {
                            DeliveryOutcome::Retry {
                                error: failure.error,
                                next_attempt_at: now + schedule::retry_delay(attempts),
                            }
                        }
                    }
                };
                self.store
                    .finish_delivery(delivery.id, &self.config.worker_id, &outcome, now)
                    .await?;
            }
        }
        crate::telemetry::deliveries(sent, failed);
        Ok((sent, failed))
    }

    async fn send(&self, d: &DueDelivery, now: DateTime<Utc>) -> Result<(), Failure> {
        let key = format!("delivery-{}", d.id);
        match d.channel {
            Channel::Email => {
                let to = Email::parse(&d.destination)
                    .map_err(|e| Failure { error: e.to_string(), permanent: true })?;
                let text = message::email_text(d, &self.links);
                let mail = Message::new(to, d.title.clone(), text).with_key(&key);
                self.mailer
                    .send(&mail)
                    .await
                    .map(|_| ())
                    .map_err(|e| Failure { error: e.to_string(), permanent: false })
            }
            Channel::Webhook => {
                let secret = d.secret.as_deref().ok_or_else(|| Failure {
                    error: "the subscription has no secret".to_owned(),
                    permanent: true,
                })?;
                let body = serde_json::to_vec(&message::payload(d, &self.links))
                    .map_err(|e| Failure { error: e.to_string(), permanent: true })?;
                self.webhook
                    .send(&d.destination, secret, &d.id.to_string(), now.timestamp(), body)
                    .await
                    .map_err(|e| Failure { permanent: e.is_permanent(), error: e.to_string() })
            }
        }
    }
}
