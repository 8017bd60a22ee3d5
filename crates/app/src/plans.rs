//! Turn metering (reference §13.5) over the store's [`PlanRepo`](freehire_store::PlanRepo):
//! what the assistant routes call before a turn's stream starts, after it fails, and for
//! `GET /api/v1/me/usage`.
//!
//! - The unit charged is one **turn** (not one model call): [`Plans::meter_turn`] charges
//!   `assistant` once with the reference `<session>#turn-<n>`, `n` being the session's user
//!   turns including this one; [`Plans::meter_retry`] names the same reference, so a retry
//!   costs nothing; [`Plans::release`] refunds a turn that failed (detached, 5 s deadline).
//! - Tailoring sessions consume no `assistant` allowance: a turn runs while the session is
//!   under its ceiling (`ceilings × PLAN_TAILOR_TURNS_PER_SESSION` on the free tier; paid
//!   tiers have none), see [`freehire_domain::plan::decide_turn`].
//! - A refusal is a [`Refusal`]: the 402 body, plain JSON with `code: "quota_exceeded"` and
//!   the `allowance` (never SSE framing).
//! - A store failure lets the turn run uncharged (fails open), logged.
//!
//! **Shadow mode by default:** nothing is refused for being over an allowance unless
//! `PLAN_ENFORCE` names the feature (or says `all`); the free allowance (10 assistant turns a
//! day) is counted, and a turn over it is allowed and logged as shadowed. Only a zero
//! allowance (`PLAN_FREE_DAILY_ASSISTANT=0`) and the fair-use guard of the paid tiers refuse
//! regardless.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use freehire_assistant::SessionId;
use freehire_domain::{
    UserId,
    plan::{self, Decision, Feature, PlanPolicy, Standing, decide_turn},
};
use freehire_store::{Store, StoreError};
use serde_json::{Value, json};

use crate::assistant::Preset;

/// How long a release may take; it runs detached from the request that asked for it.
pub const RELEASE_TIMEOUT: Duration = Duration::from_secs(5);

/// The message of a tailoring session that reached its ceiling.
pub const TAILOR_CEILING_MESSAGE: &str =
    "This CV editing session has run as far as today's session covers.";

/// What plan reads can fail with.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A charge a turn holds, to refund if the turn fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    /// The feature charged.
    pub feature: Feature,
    /// The reference it was charged under.
    pub reference: String,
}

/// A refused turn: answer 402 with `body` (plain JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The human message (also the body's `error`).
    pub message: String,
    /// `{"error", "code": "quota_exceeded", "allowance": {...}, ...}`.
    pub body: Value,
}

/// The outcome of metering a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Metered {
    /// The turn may run; the charge to release if it fails (none when nothing was charged:
    /// a tailoring turn, a retry, a failed store, a reference already charged).
    Allowed(Option<Charge>),
    /// The turn must not run.
    Refused(Refusal),
}

/// The reference an assistant turn is charged under: `<session>#turn-<n>`.
pub fn turn_ref(session: SessionId, n: i64) -> String {
    format!("{session}#turn-{n}")
}

/// A standing as the wire shows it (`/me/usage` items and the 402 body's `allowance`):
/// `{"feature", "tier", "used", "limit", "unlimited", "resets_at", "enforced"}`.
pub fn allowance_view(s: &Standing) -> Value {
    json!({
        "feature": s.feature.as_str(),
        "tier": s.tier.as_str(),
        "used": s.used,
        "limit": s.limit,
        "unlimited": s.unlimited,
        "resets_at": s.resets_at.to_rfc3339_opts(SecondsFormat::Secs, true),
        "enforced": s.enforced,
    })
}

/// The 402 of a refused charge.
fn refusal(d: &Decision) -> Refusal {
    let resets = d.resets_at.to_rfc3339_opts(SecondsFormat::Secs, true);
    let message = if d.fair_use {
        format!(
            "You have reached today's fair-use limit of {} {} uses; it resets at {resets}.",
            d.limit, d.feature
        )
    } else if d.limit <= 0 {
        format!("Your plan does not include {}.", d.feature)
    } else {
        format!(
            "You have used today's allowance of {} {} uses; it resets at {resets}.",
            d.limit, d.feature
        )
    };
    let body = json!({
        "error": message,
        "code": "quota_exceeded",
        "allowance": allowance_view(&d.standing()),
    });
    Refusal { message, body }
}

/// Turn metering over a store and a policy. Cheap to clone.
#[derive(Clone)]
pub struct Plans {
    store: Arc<dyn Store>,
    policy: Arc<PlanPolicy>,
    clock: fn() -> DateTime<Utc>,
}

impl std::fmt::Debug for Plans {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plans").field("policy", &self.policy).finish_non_exhaustive()
    }
}

impl Plans {
    /// Metering with `policy`.
    pub fn new(store: Arc<dyn Store>, policy: PlanPolicy, clock: fn() -> DateTime<Utc>) -> Self {
        Self { store, policy: Arc::new(policy), clock }
    }

    /// Metering with the policy of the `PLAN_*` environment variables (each bad value logged
    /// and its default kept).
    pub fn from_env(store: Arc<dyn Store>, clock: fn() -> DateTime<Utc>) -> Self {
        let (policy, warnings) = PlanPolicy::from_vars(std::env::vars());
        for warning in warnings {
            tracing::warn!("{warning}");
        }
        let enforced: Vec<&str> =
            Feature::ALL.iter().filter(|f| policy.enforced(**f)).map(|f| f.as_str()).collect();
        tracing::info!(enforced = ?enforced, "plans: allowances outside this list are counted, not enforced");
        Self::new(store, policy, clock)
    }

    /// The policy in force.
    pub fn policy(&self) -> &PlanPolicy {
        &self.policy
    }

    /// §13.5 `meterTurn`, before a new turn; `turns` is the session's user turns before it.
    /// Fails open.
    pub async fn meter_turn(
        &self,
        user: UserId,
        session: SessionId,
        preset: Preset,
        turns: i64,
    ) -> Metered {
        if preset == Preset::Tailor {
            return self.allow_tailor_turn(user, session, turns).await;
        }
        self.charge_turn(user, session, turns + 1).await
    }

    /// §13.5 `meterRetry`, before a retry; `turns` is the session's user turns (the retried
    /// turn included). A retry names the turn's own reference, so it costs nothing unless
    /// that charge was released. Fails open.
    pub async fn meter_retry(
        &self,
        user: UserId,
        session: SessionId,
        preset: Preset,
        turns: i64,
    ) -> Metered {
        if turns <= 0 || preset == Preset::Tailor {
            return Metered::Allowed(None);
        }
        self.charge_turn(user, session, turns).await
    }

    /// §13.5 `releaseTurn`: refunds `charge`, on a task of its own (a cancelled caller does
    /// not stop it) with a 5 s deadline. Never fails; a failure is logged.
    pub async fn release(&self, user: UserId, charge: &Charge) {
        let store = Arc::clone(&self.store);
        let now = (self.clock)();
        let charge = charge.clone();
        let task = tokio::spawn(async move {
            let released = tokio::time::timeout(
                RELEASE_TIMEOUT,
                store.release(user, charge.feature, &charge.reference, now),
            )
            .await;
            let failure = match released {
                Ok(Ok(_)) => return,
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("no answer within {RELEASE_TIMEOUT:?}"),
            };
            tracing::warn!(reference = %charge.reference, %failure, "plans: releasing a turn's charge failed");
        });
        if let Err(e) = task.await {
            tracing::warn!(error = &e as &dyn std::error::Error, "plans: the release task failed");
        }
    }

    /// What `user` has of every reported feature today (`GET /me/usage`).
    pub async fn usage(&self, user: UserId) -> Result<Vec<Standing>, PlanError> {
        Ok(self.store.usage(user, &self.policy, (self.clock)()).await?)
    }

    /// What `user` has of `feature` today.
    pub async fn standing(&self, user: UserId, feature: Feature) -> Result<Standing, PlanError> {
        Ok(self.store.standing(user, feature, &self.policy, (self.clock)()).await?)
    }

    /// Charges one use of `feature` under `reference` (a reference already charged costs
    /// nothing): the charge to release if the work fails (none when nothing was charged), or
    /// the refusal. A storage failure is the caller's to fail open on.
    pub async fn consume(
        &self,
        user: UserId,
        feature: Feature,
        reference: &str,
    ) -> Result<Result<Option<Charge>, Refusal>, PlanError> {
        let now = (self.clock)();
        let d = self.store.consume(user, feature, reference, &self.policy, now).await?;
        if d.shadowed {
            tracing::info!(
                user = user.get(),
                feature = feature.as_str(),
                used = d.used,
                limit = d.limit,
                "plans: over the allowance (shadow mode)"
            );
        }
        if !d.allowed {
            return Ok(Err(refusal(&d)));
        }
        Ok(Ok((d.charge > 0).then(|| Charge { feature, reference: reference.to_owned() })))
    }

    /// `chargeTurn(n)`: consume `assistant` under `<session>#turn-<n>`.
    async fn charge_turn(&self, user: UserId, session: SessionId, n: i64) -> Metered {
        let reference = turn_ref(session, n);
        let now = (self.clock)();
        let d =
            match self.store.consume(user, Feature::Assistant, &reference, &self.policy, now).await
            {
                Ok(d) => d,
                Err(e) => {
                    tracing::warn!(
                        error = &e as &dyn std::error::Error,
                        %reference,
                        "plans: metering failed; the turn runs uncharged"
                    );
                    return Metered::Allowed(None);
                }
            };
        if d.fair_use {
            tracing::warn!(user = user.get(), tier = %d.tier, used = d.used, "plans: the fair-use guard refused an assistant turn");
        } else if d.shadowed {
            tracing::info!(
                user = user.get(),
                used = d.used,
                limit = d.limit,
                "plans: assistant turn over the allowance (shadow mode)"
            );
        }
        if !d.allowed {
            return Metered::Refused(refusal(&d));
        }
        Metered::Allowed(
            (d.charge > 0).then_some(Charge { feature: Feature::Assistant, reference }),
        )
    }

    /// §13.4 `StartSession`: a new tailoring session consumes `tailor` under `<session>#1`.
    /// A failure is only logged (the session still starts).
    pub async fn start_session(&self, user: UserId, session: SessionId) {
        let reference = plan::session_ref(&session.to_string(), 1);
        let now = (self.clock)();
        match self.store.consume(user, Feature::Tailor, &reference, &self.policy, now).await {
            Ok(d) if !d.allowed => {
                tracing::info!(user = user.get(), %reference, "plans: a tailoring session started past the allowance")
            }
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(error = &e as &dyn std::error::Error, %reference, "plans: charging a tailoring session failed")
            }
        }
    }

    /// §13.4 `ExtendSession` and §13.6: one more ceiling for a tailoring session, consumed
    /// under `<session>#<held + 1>` (a double click reads as already charged and costs once).
    /// A refusal is the 402; otherwise the session's turns, ceiling and allowance now.
    pub async fn extend_session(
        &self,
        user: UserId,
        session: SessionId,
        turns: i64,
    ) -> Result<Result<Value, Refusal>, PlanError> {
        let prefix = plan::session_prefix(&session.to_string());
        let refs = self.store.consumption_refs(user, Feature::Tailor, &prefix).await?;
        let slot = plan::highest_slot(&prefix, refs.iter().map(String::as_str));
        let reference = plan::session_ref(&session.to_string(), plan::ceilings_held(slot) + 1);
        let now = (self.clock)();
        let d = self.store.consume(user, Feature::Tailor, &reference, &self.policy, now).await?;
        if !d.allowed {
            return Ok(Err(refusal(&d)));
        }
        let refs = self.store.consumption_refs(user, Feature::Tailor, &prefix).await?;
        let slot = plan::highest_slot(&prefix, refs.iter().map(String::as_str));
        let standing = self.standing(user, Feature::Tailor).await?;
        let t = decide_turn(&self.policy, standing.tier, slot, turns);
        Ok(Ok(json!({
            "turns": t.turns,
            "ceiling": t.ceiling,
            "unlimited": t.unlimited,
            "allowance": allowance_view(&standing),
        })))
    }

    /// §13.4 `AllowTurn` for a tailoring session.
    async fn allow_tailor_turn(&self, user: UserId, session: SessionId, turns: i64) -> Metered {
        match self.tailor_turn(user, session, turns).await {
            Ok(metered) => metered,
            Err(e) => {
                tracing::warn!(
                    error = &e as &dyn std::error::Error,
                    "plans: checking a tailoring turn failed; the turn runs"
                );
                Metered::Allowed(None)
            }
        }
    }

    async fn tailor_turn(
        &self,
        user: UserId,
        session: SessionId,
        turns: i64,
    ) -> Result<Metered, PlanError> {
        let standing = self.standing(user, Feature::Tailor).await?;
        let prefix = plan::session_prefix(&session.to_string());
        let refs = self.store.consumption_refs(user, Feature::Tailor, &prefix).await?;
        let slot = plan::highest_slot(&prefix, refs.iter().map(String::as_str));
        let t = decide_turn(&self.policy, standing.tier, slot, turns);
        if t.shadowed {
            tracing::info!(
                user = user.get(),
                turns,
                ceiling = t.ceiling,
                "plans: tailoring turn past its ceiling (shadow mode)"
            );
        }
        if t.allowed {
            return Ok(Metered::Allowed(None));
        }
        let body = json!({
            "error": TAILOR_CEILING_MESSAGE,
            "code": "quota_exceeded",
            "allowance": allowance_view(&standing),
            "session": { "id": session.to_string(), "turns": t.turns, "ceiling": t.ceiling },
            "can_extend": !standing.refuses(),
        });
        Ok(Metered::Refused(Refusal { message: TAILOR_CEILING_MESSAGE.to_owned(), body }))
    }
}
