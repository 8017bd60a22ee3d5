//! [`TurnLocks`]: one running turn per session and at most one waiting, for the API's
//! streamed turns (reference §7).
//!
//! [`TurnLocks::local`] is the library's per-process [`TurnRegistry`]: what the embedded
//! default (SQLite, one API process) uses. A claim either runs now ([`Claim::Run`]), waits for
//! the running turn ([`Claim::Queued`], at most one per session) or is refused
//! ([`TurnLockError::QueueFull`], the 409 of a third message). [`TurnLocks::cancel`] stops the
//! running turn and the queued one.

use std::time::Duration;

use freehire_assistant::{AssistantError, SessionId, TurnRegistry, TurnSlot, Waiter};
use tokio_util::sync::CancellationToken;

/// Why a claim or a wait did not give a turn.
#[derive(Debug, thiserror::Error)]
pub enum TurnLockError {
    /// A turn runs and another waits: a third message is refused.
    #[error("this session already has a message waiting")]
    QueueFull,
    /// The queued turn was cancelled (Stop) or gave up waiting.
    #[error("the queued turn was cancelled before it could start")]
    WaitCancelled,
    /// The shared lock state could not be read or written.
    #[error("the turn lock could not be taken")]
    Store(#[source] freehire_store::StoreError),
}

/// The right to run a turn in one session; released when dropped.
#[derive(Debug)]
pub struct TurnGuard {
    _slot: TurnSlot,
}

/// The one queue place of a busy session.
#[derive(Debug)]
pub struct QueuedTurn {
    waiter: Waiter,
}

/// What [`TurnLocks::claim`] gives.
#[derive(Debug)]
pub enum Claim {
    /// Nothing was running: run now.
    Run(TurnGuard),
    /// A turn is running: wait with [`QueuedTurn::enter_within`].
    Queued(QueuedTurn),
}

/// The turn locks of one API process. Cheap to clone; clones share state.
#[derive(Debug, Clone, Default)]
pub struct TurnLocks {
    registry: TurnRegistry,
}

impl TurnLocks {
    /// Per-process locks (one API process per database: the embedded default).
    pub fn local() -> Self {
        Self::default()
    }

    /// Claims `session` for a turn that `cancel` stops.
    pub async fn claim(
        &self,
        session: SessionId,
        cancel: CancellationToken,
    ) -> Result<Claim, TurnLockError> {
        match self.registry.claim(session, cancel) {
            Ok(freehire_assistant::Claim::Run(slot)) => Ok(Claim::Run(TurnGuard { _slot: slot })),
            Ok(freehire_assistant::Claim::Queued(waiter)) => {
                Ok(Claim::Queued(QueuedTurn { waiter }))
            }
            Err(AssistantError::QueueFull) => Err(TurnLockError::QueueFull),
            Err(_) => Err(TurnLockError::WaitCancelled),
        }
    }

    /// Cancels the running turn and the queued one; true when a turn was running.
    pub async fn cancel(&self, session: SessionId) -> Result<bool, TurnLockError> {
        Ok(self.registry.cancel(session))
    }

    /// Number of turns running in this process.
    pub fn running(&self) -> usize {
        self.registry.len()
    }
}

impl QueuedTurn {
    /// Waits at most `wait` for the running turn to end, then takes the slot;
    /// [`TurnLockError::WaitCancelled`] on Stop or when the wait runs out.
    pub async fn enter_within(self, wait: Duration) -> Result<TurnGuard, TurnLockError> {
        self.waiter
            .enter_within(wait)
            .await
            .map(|slot| TurnGuard { _slot: slot })
            .map_err(|_| TurnLockError::WaitCancelled)
    }
}
