//! The turn registry (reference §7): one running turn per session, at most one waiting.
//!
//! [`TurnRegistry::claim`] either hands out the session's [`TurnSlot`] or, when a turn is
//! running, a [`Waiter`] for the one queue place; a third claim is refused
//! ([`AssistantError::QueueFull`]). [`TurnRegistry::cancel`] cancels the running turn **and**
//! the waiter, so Stop cannot be followed by the queued message starting. A slot is released
//! when dropped, and only the slot that holds the session can release it. The registry is
//! per process.
//!
//! The queue keeps its order: when the running slot is released while a (not cancelled)
//! waiter exists, the slot passes straight to that waiter, under the same lock, so a claim
//! arriving meanwhile finds the session busy and queues behind it (or is refused when
//! someone already waits) instead of overtaking. A waiter that gives up after the hand-over
//! releases the slot it was handed, which passes it on the same way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::{AssistantError, SessionId};

/// How long a queued message waits for the running turn before giving up (reference
/// `turnQueueWait`).
pub const TURN_QUEUE_WAIT: Duration = Duration::from_secs(60);

struct Running {
    id: u64,
    cancel: CancellationToken,
    /// Cancelled when the slot is released or handed over: waiters wait on it.
    done: CancellationToken,
    /// The waiter this slot was handed to, until it enters.
    handed_to: Option<u64>,
}

struct Waiting {
    id: u64,
    cancel: CancellationToken,
}

#[derive(Default)]
struct Inner {
    running: HashMap<SessionId, Running>,
    waiting: HashMap<SessionId, Waiting>,
    next_id: u64,
}

/// Per-process turn bookkeeping. Cheap to clone; clones share state.
#[derive(Clone, Default)]
pub struct TurnRegistry {
    inner: Arc<Mutex<Inner>>,
}

impl std::fmt::Debug for TurnRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnRegistry").field("running", &self.len()).finish()
    }
}

/// The right to run a turn in a session. Released on drop.
#[derive(Debug)]
pub struct TurnSlot {
    registry: TurnRegistry,
    session: SessionId,
    id: u64,
}

/// The one queue place of a busy session.
#[derive(Debug)]
pub struct Waiter {
    registry: TurnRegistry,
    session: SessionId,
    id: u64,
    cancel: CancellationToken,
}

/// What [`TurnRegistry::claim`] gives.
#[derive(Debug)]
pub enum Claim {
    /// Nothing was running: run now.
    Run(TurnSlot),
    /// A turn is running: wait with [`Waiter::enter`].
    Queued(Waiter),
}

impl TurnRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn start(&self, inner: &mut Inner, session: SessionId, cancel: CancellationToken) -> TurnSlot {
        inner.next_id += 1;
        let id = inner.next_id;
        inner.running.insert(
            session,
            Running { id, cancel, done: CancellationToken::new(), handed_to: None },
        );
        TurnSlot { registry: self.clone(), session, id }
    }

    /// Claims the session for a turn cancelled by `cancel`: the slot when idle, the queue
    /// place when a turn runs and nobody waits, [`AssistantError::QueueFull`] otherwise.
    pub fn claim(
        &self,
        session: SessionId,
        cancel: CancellationToken,
    ) -> Result<Claim, AssistantError> {
        let mut inner = self.lock();
        if !inner.running.contains_key(&session) {
            return Ok(Claim::Run(self.start(&mut inner, session, cancel)));
        }
        if inner.waiting.contains_key(&session) {
            return Err(AssistantError::QueueFull);
        }
        inner.next_id += 1;
        let id = inner.next_id;
        inner.waiting.insert(session, Waiting { id, cancel: cancel.clone() });
        Ok(Claim::Queued(Waiter { registry: self.clone(), session, id, cancel }))
    }

    /// The slot when the session is idle, `None` when busy. Never takes the queue place.
    pub fn try_claim(&self, session: SessionId, cancel: CancellationToken) -> Option<TurnSlot> {
        let mut inner = self.lock();
        (!inner.running.contains_key(&session)).then(|| self.start(&mut inner, session, cancel))
    }

    /// Cancels the running turn and the waiting one; true when a turn was running.
    pub fn cancel(&self, session: SessionId) -> bool {
        let inner = self.lock();
        if let Some(w) = inner.waiting.get(&session) {
            w.cancel.cancel();
        }
        match inner.running.get(&session) {
            Some(r) => {
                r.cancel.cancel();
                true
            }
            None => false,
        }
    }

    /// Number of running turns.
    pub fn len(&self) -> usize {
        self.lock().running.len()
    }

    /// True when no turn runs.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of waiting turns.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }

    fn release(&self, session: SessionId, id: u64) {
        let mut inner = self.lock();
        Self::release_locked(&mut inner, session, id);
    }

    /// Releases slot `id` of `session` if it still holds the session, handing it to the
    /// waiter when there is one that was not cancelled.
    fn release_locked(inner: &mut Inner, session: SessionId, id: u64) {
        if inner.running.get(&session).is_none_or(|r| r.id != id) {
            return;
        }
        let Some(old) = inner.running.remove(&session) else { return };
        // A cancelled waiter is not handed anything (its `enter` fails anyway).
        if let Some(w) = inner.waiting.remove(&session)
            && !w.cancel.is_cancelled()
        {
            inner.next_id += 1;
            let next = Running {
                id: inner.next_id,
                cancel: w.cancel,
                done: CancellationToken::new(),
                handed_to: Some(w.id),
            };
            inner.running.insert(session, next);
        }
        old.done.cancel();
    }
}

impl TurnSlot {
    /// The session this slot runs.
    pub fn session(&self) -> SessionId {
        self.session
    }

    /// Releases the slot now (dropping it does the same).
    pub fn release(self) {}
}

impl Drop for TurnSlot {
    fn drop(&mut self) {
        self.registry.release(self.session, self.id);
    }
}

impl Waiter {
    /// Waits until the running turn ends, then takes the slot. Fails with
    /// [`AssistantError::WaitCancelled`] when the waiter's token is cancelled first (Stop, or a
    /// caller's timeout). The queue place is given back either way.
    pub async fn enter(self) -> Result<TurnSlot, AssistantError> {
        loop {
            if self.cancel.is_cancelled() {
                return Err(AssistantError::WaitCancelled);
            }
            let done = {
                let mut inner = self.registry.lock();
                match inner.running.get_mut(&self.session) {
                    Some(r) if r.handed_to == Some(self.id) => {
                        r.handed_to = None;
                        return Ok(TurnSlot {
                            registry: self.registry.clone(),
                            session: self.session,
                            id: r.id,
                        });
                    }
                    Some(r) => r.done.clone(),
                    None => {
                        return Ok(self.registry.start(
                            &mut inner,
                            self.session,
                            self.cancel.clone(),
                        ));
                    }
                }
            };
            tokio::select! {
                () = done.cancelled() => {}
                () = self.cancel.cancelled() => return Err(AssistantError::WaitCancelled),
            }
        }
    }
}

impl Waiter {
    /// [`Waiter::enter`], giving up with [`AssistantError::WaitCancelled`] after `wait`
    /// (normally [`TURN_QUEUE_WAIT`]).
    pub async fn enter_within(self, wait: Duration) -> Result<TurnSlot, AssistantError> {
        tokio::time::timeout(wait, self.enter()).await.unwrap_or(Err(AssistantError::WaitCancelled))
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        let mut inner = self.registry.lock();
        if inner.waiting.get(&self.session).is_some_and(|w| w.id == self.id) {
            inner.waiting.remove(&self.session);
        }
        // Handed the slot but never entered (gave up, cancelled): pass it on.
        let handed =
            inner.running.get(&self.session).filter(|r| r.handed_to == Some(self.id)).map(|r| r.id);
        if let Some(id) = handed {
            TurnRegistry::release_locked(&mut inner, self.session, id);
        }
    }
}
