//! [`TurnLocks`]: one running turn per session and at most one waiting, for the API's
//! streamed turns (reference §7, issue 15 item 3).
//!
//! A claim either runs now ([`Claim::Run`]), waits for the running turn ([`Claim::Queued`], at
//! most one per session) or is refused ([`TurnLockError::QueueFull`], the 409 of a third
//! message). [`TurnLocks::cancel`] stops the running turn and the queued one. Two variants
//! behind the same methods:
//!
//! - [`TurnLocks::local`]: the library's per-process [`TurnRegistry`], for the embedded default
//!   (SQLite, one API process).
//! - [`TurnLocks::shared`]: for PostgreSQL, where several API processes serve one database.
//!   The session's row in `assistant_turn_leases` ([`TurnLeaseRepo`]) is the authority:
//!   - a claim takes the running lease (free, expired, and no other live waiter: a newcomer
//!     never overtakes the queued message, in this process or another), else the one queue
//!     place, else it is refused;
//!   - while [`TurnGuard`]s live, one poller per process renews all of its leases in one
//!     statement (TTL [`LeaseTiming::ttl`], every [`LeaseTiming::renew_every`]) and reads
//!     their cancel generations back in one statement every [`LeaseTiming::poll_every`],
//!     cancelling a turn's token when its generation moved, its lease was lost to a
//!     takeover, or it could not be renewed for a whole TTL; each statement has a deadline
//!     (the renewal interval), so a stuck database cannot stall it; dropping the guard
//!     releases the lease;
//!   - a queued claim polls for the lease every [`LeaseTiming::queue_poll`] (woken at once when
//!     a turn of this process ends), renewing its queue place, up to the caller's wait; a
//!     moved generation (Stop) or a lost place ends the wait;
//!   - [`TurnLocks::cancel`] moves the generation (reaching the turn wherever it runs) and
//!     cancels this process's running and queued turns of the session at once;
//!   - a killed process's lease and queue place run out after their TTL and are taken over.
//!
//!   Lease times are the database's clock ([`freehire_store::TurnLeaseRepo::lease_clock`]):
//!   this machine's time plus the offset read on first use and at every renewal, so
//!   processes on machines whose clocks disagree still agree on when a lease runs out.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use chrono::{DateTime, Utc};
use freehire_assistant::{AssistantError, SessionId, TurnRegistry, TurnSlot, Waiter};
use freehire_store::{Backend, HeldLease, Store, StoreError};
use tokio::sync::Notify;
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
    Store(#[source] StoreError),
}

/// The timing of [`TurnLocks::shared`]'s leases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseTiming {
    /// How long a lease or queue place lasts unless renewed (a killed holder's runs out
    /// after this).
    pub ttl: Duration,
    /// How often a running turn renews its lease.
    pub renew_every: Duration,
    /// How often a running turn reads the cancel generation (the bound on how late a cancel
    /// sent to another process stops it).
    pub poll_every: Duration,
    /// How often a queued turn tries to take the lease.
    pub queue_poll: Duration,
}

impl Default for LeaseTiming {
    /// A 30 s lease renewed every 5 s, the cancel generation read every 500 ms, a queued
    /// turn polling every 250 ms.
    fn default() -> Self {
        Self {
            ttl: Duration::from_secs(30),
            renew_every: Duration::from_secs(5),
            poll_every: Duration::from_millis(500),
            queue_poll: Duration::from_millis(250),
        }
    }
}

/// The right to run a turn in one session; released when dropped.
#[derive(Debug)]
pub struct TurnGuard {
    /// The local variant's slot, or
    _local: Option<TurnSlot>,
    /// the shared variant's lease (each released when dropped).
    _shared: Option<SharedHold>,
}

/// The one queue place of a busy session.
#[derive(Debug)]
pub struct QueuedTurn {
    wait: Wait,
}

#[derive(Debug)]
enum Wait {
    Local(Waiter),
    Shared(SharedWait),
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
#[derive(Debug, Clone)]
pub struct TurnLocks {
    inner: Inner,
}

#[derive(Debug, Clone)]
enum Inner {
    Local(TurnRegistry),
    Shared(Arc<Shared>),
}

impl Default for TurnLocks {
    fn default() -> Self {
        Self::local()
    }
}

impl TurnLocks {
    /// Per-process locks (one API process per database: the embedded default).
    pub fn local() -> Self {
        Self { inner: Inner::Local(TurnRegistry::default()) }
    }

    /// Locks shared through `store`'s turn leases by every process on its database, with
    /// the default [`LeaseTiming`].
    pub fn shared(store: Arc<dyn Store>) -> Self {
        Self::shared_with(store, LeaseTiming::default())
    }

    /// [`TurnLocks::shared`] with its own timing.
    pub fn shared_with(store: Arc<dyn Store>, timing: LeaseTiming) -> Self {
        Self { inner: Inner::Shared(Arc::new(Shared::new(store, timing))) }
    }

    /// The variant for `store`'s backend: shared on PostgreSQL (several API processes may
    /// serve it), local on SQLite (one process).
    pub fn for_store(store: Arc<dyn Store>) -> Self {
        match store.backend() {
            Backend::Postgres => Self::shared(store),
            Backend::Sqlite => Self::local(),
        }
    }

    /// Whether the locks are shared across processes.
    pub fn is_shared(&self) -> bool {
        matches!(self.inner, Inner::Shared(_))
    }

    /// Claims `session` for a turn that `cancel` stops.
    pub async fn claim(
        &self,
        session: SessionId,
        cancel: CancellationToken,
    ) -> Result<Claim, TurnLockError> {
        match &self.inner {
            Inner::Local(registry) => match registry.claim(session, cancel) {
                Ok(freehire_assistant::Claim::Run(slot)) => {
                    Ok(Claim::Run(TurnGuard { _local: Some(slot), _shared: None }))
                }
                Ok(freehire_assistant::Claim::Queued(waiter)) => {
                    Ok(Claim::Queued(QueuedTurn { wait: Wait::Local(waiter) }))
                }
                Err(AssistantError::QueueFull) => Err(TurnLockError::QueueFull),
                Err(_) => Err(TurnLockError::WaitCancelled),
            },
            Inner::Shared(shared) => shared.clone().claim(session, cancel).await,
        }
    }

    /// Cancels the running turn and the queued one (on PostgreSQL wherever they run); true
    /// when a turn was running.
    pub async fn cancel(&self, session: SessionId) -> Result<bool, TurnLockError> {
        match &self.inner {
            Inner::Local(registry) => Ok(registry.cancel(session)),
            Inner::Shared(shared) => shared.cancel(session).await,
        }
    }

    /// Number of turns running in this process.
    pub fn running(&self) -> usize {
        match &self.inner {
            Inner::Local(registry) => registry.len(),
            Inner::Shared(shared) => {
                shared.lock().values().filter(|slots| slots.running.is_some()).count()
            }
        }
    }
}

impl QueuedTurn {
    /// Waits at most `wait` for the running turn to end, then takes the slot;
    /// [`TurnLockError::WaitCancelled`] on Stop or when the wait runs out.
    pub async fn enter_within(self, wait: Duration) -> Result<TurnGuard, TurnLockError> {
        match self.wait {
            Wait::Local(waiter) => waiter
                .enter_within(wait)
                .await
                .map(|slot| TurnGuard { _local: Some(slot), _shared: None })
                .map_err(|_| TurnLockError::WaitCancelled),
            Wait::Shared(waiting) => waiting.enter_within(wait).await,
        }
    }
}

// ---- the shared variant ----

/// One claim of this process: its lease or queue id and the turn's token.
#[derive(Debug)]
struct Participant {
    id: uuid::Uuid,
    cancel: CancellationToken,
    /// The cancel generation it started with (running claims).
    generation: i64,
    /// When its lease was last known renewed: taken, or the send of the last renewal that
    /// answered with it.
    renewed: tokio::time::Instant,
}

/// This process's running and queued claims of one session.
#[derive(Debug, Default)]
struct LocalSlots {
    running: Option<Participant>,
    waiting: Option<Participant>,
}

struct Shared {
    store: Arc<dyn Store>,
    timing: LeaseTiming,
    /// This coordinator's id on the lease rows: one statement renews or reads all of them.
    process: uuid::Uuid,
    local: Mutex<HashMap<SessionId, LocalSlots>>,
    /// Woken when a turn of this process ends, so its queued turns try at once.
    released: Notify,
    /// The database clock minus this machine's, once read (see [`Shared::now`]).
    skew: Mutex<Option<chrono::Duration>>,
    /// Whether the poller task runs.
    polling: AtomicBool,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("backend", &self.store.backend())
            .field("timing", &self.timing)
            .field("process", &self.process)
            .field("local", &self.local)
            .finish_non_exhaustive()
    }
}

fn until(now: DateTime<Utc>, ttl: Duration) -> DateTime<Utc> {
    now + chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::seconds(30))
}

impl Shared {
    fn new(store: Arc<dyn Store>, timing: LeaseTiming) -> Self {
        Self {
            store,
            timing,
            process: uuid::Uuid::new_v4(),
            local: Mutex::new(HashMap::new()),
            released: Notify::new(),
            skew: Mutex::new(None),
            polling: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<SessionId, LocalSlots>> {
        self.local.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The lease clock: this machine's time corrected by the database clock's offset, read
    /// on first use and again at every renewal (so processes on machines whose clocks
    /// disagree still agree on when a lease runs out).
    async fn now(&self) -> DateTime<Utc> {
        let known = *self.skew.lock().unwrap_or_else(PoisonError::into_inner);
        match known {
            Some(skew) => Utc::now() + skew,
            None => self.read_clock().await,
        }
    }

    /// Reads the database clock (bounded by the renewal interval) and keeps its offset;
    /// this machine's time when it does not answer.
    async fn read_clock(&self) -> DateTime<Utc> {
        let asked = Utc::now();
        match tokio::time::timeout(self.timing.renew_every, self.store.lease_clock()).await {
            Ok(Ok(db)) => {
                // The answer left the server somewhere in the round trip: its middle.
                let local = asked + (Utc::now() - asked) / 2;
                *self.skew.lock().unwrap_or_else(PoisonError::into_inner) = Some(db - local);
                Utc::now() + (db - local)
            }
            Ok(Err(e)) => {
                tracing::warn!(
                    error = &e as &dyn std::error::Error,
                    "cannot read the lease clock; using this machine's"
                );
                Utc::now()
            }
            Err(_) => {
                tracing::warn!("the lease clock did not answer; using this machine's");
                Utc::now()
            }
        }
    }

    /// Records (or, with `None`, forgets) this process's running or queued claim `id`.
    fn set_local(
        &self,
        session: SessionId,
        running: bool,
        who: Option<Participant>,
        id: uuid::Uuid,
    ) {
        let mut local = self.lock();
        let slots = local.entry(session).or_default();
        let place = if running { &mut slots.running } else { &mut slots.waiting };
        match who {
            Some(p) => *place = Some(p),
            None if place.as_ref().is_some_and(|p| p.id == id) => *place = None,
            None => {}
        }
        if slots.running.is_none() && slots.waiting.is_none() {
            local.remove(&session);
        }
    }

    fn participant(id: uuid::Uuid, cancel: CancellationToken, generation: i64) -> Participant {
        Participant { id, cancel, generation, renewed: tokio::time::Instant::now() }
    }

    async fn claim(
        self: Arc<Self>,
        session: SessionId,
        cancel: CancellationToken,
    ) -> Result<Claim, TurnLockError> {
        // This process already runs one and queues one: refused without a round trip.
        if self.lock().get(&session).is_some_and(|s| s.running.is_some() && s.waiting.is_some()) {
            return Err(TurnLockError::QueueFull);
        }
        let id = uuid::Uuid::new_v4();
        let now = self.now().await;
        let store = &self.store;
        let lease = store
            .acquire_turn_lease(session, id, self.process, until(now, self.timing.ttl), now)
            .await
            .map_err(TurnLockError::Store)?;
        if let Some(generation) = lease {
            return Ok(Claim::Run(self.hold(session, id, cancel, generation)));
        }
        let place = store
            .queue_for_turn(session, id, until(now, self.timing.ttl), now)
            .await
            .map_err(TurnLockError::Store)?;
        let Some(generation) = place else {
            return Err(TurnLockError::QueueFull);
        };
        self.set_local(session, false, Some(Self::participant(id, cancel.clone(), generation)), id);
        Ok(Claim::Queued(QueuedTurn {
            wait: Wait::Shared(SharedWait {
                shared: self,
                session,
                id,
                cancel,
                generation,
                done: false,
            }),
        }))
    }

    /// The guard of lease `id`, recorded locally for the poller.
    fn hold(
        self: &Arc<Self>,
        session: SessionId,
        id: uuid::Uuid,
        cancel: CancellationToken,
        generation: i64,
    ) -> TurnGuard {
        self.set_local(session, true, Some(Self::participant(id, cancel, generation)), id);
        if !self.polling.swap(true, Ordering::SeqCst) {
            tokio::spawn(Self::poll(Arc::downgrade(self)));
        }
        TurnGuard { _local: None, _shared: Some(SharedHold { shared: self.clone(), session, id }) }
    }

    /// The process's one poller, while the locks live: every
    /// [`LeaseTiming::renew_every`] one statement renews every lease this process holds,
    /// and in between, every [`LeaseTiming::poll_every`], one statement reads them back.
    /// A turn whose generation moved (a Stop sent anywhere) or whose lease is no longer this
    /// process's (taken over) is cancelled; so is one whose lease could not be renewed for a
    /// whole TTL (it may be someone else's by now). Each statement is bounded by the renewal
    /// interval, so a stuck database never stalls the loop.
    async fn poll(shared: Weak<Self>) {
        let Some(timing) = shared.upgrade().map(|s| s.timing) else { return };
        let mut renewed = tokio::time::Instant::now();
        loop {
            tokio::time::sleep(timing.poll_every.min(timing.renew_every)).await;
            let Some(this) = shared.upgrade() else { return };
            if !this.lock().values().any(|s| s.running.is_some()) {
                continue;
            }
            let renew = renewed.elapsed() >= timing.renew_every;
            let asked = tokio::time::Instant::now();
            let read = if renew {
                let at = until(this.read_clock().await, timing.ttl);
                tokio::time::timeout(
                    timing.renew_every,
                    this.store.renew_turn_leases(this.process, at),
                )
                .await
            } else {
                tokio::time::timeout(timing.renew_every, this.store.held_turn_leases(this.process))
                    .await
            };
            match read {
                Ok(Ok(held)) => {
                    if renew {
                        renewed = asked;
                    }
                    this.reconcile(&held, asked, renew);
                }
                Ok(Err(e)) => tracing::warn!(
                    error = &e as &dyn std::error::Error,
                    "cannot read or renew the turn leases"
                ),
                Err(_) => tracing::warn!(
                    within = ?timing.renew_every,
                    "the turn leases could not be read or renewed in time"
                ),
            }
            this.stop_unrenewed();
        }
    }

    /// Compares what the database says this process holds (read after `asked`) with its
    /// running claims.
    fn reconcile(&self, held: &[HeldLease], asked: tokio::time::Instant, renewed: bool) {
        let held: HashMap<SessionId, &HeldLease> = held.iter().map(|h| (h.session, h)).collect();
        let mut local = self.lock();
        for (session, slots) in local.iter_mut() {
            let Some(p) = slots.running.as_mut() else { continue };
            if p.renewed > asked {
                continue; // Taken after the statement was sent: not in its answer yet.
            }
            match held.get(session) {
                Some(h) if h.holder == p.id => {
                    if renewed {
                        p.renewed = asked;
                    }
                    if h.generation != p.generation {
                        p.cancel.cancel();
                    }
                }
                _ => {
                    if !p.cancel.is_cancelled() {
                        tracing::warn!(%session, "the turn lost its lease (taken over); stopping it");
                        p.cancel.cancel();
                    }
                }
            }
        }
    }

    /// Cancels running turns whose lease was not renewed for a whole TTL.
    fn stop_unrenewed(&self) {
        let ttl = self.timing.ttl;
        for (session, slots) in self.lock().iter() {
            let Some(p) = slots.running.as_ref() else { continue };
            if p.renewed.elapsed() >= ttl && !p.cancel.is_cancelled() {
                tracing::warn!(%session, ?ttl, "the turn's lease could not be renewed within its TTL; stopping it");
                p.cancel.cancel();
            }
        }
    }

    async fn cancel(&self, session: SessionId) -> Result<bool, TurnLockError> {
        let local_running = {
            let local = self.lock();
            let slots = local.get(&session);
            for p in slots.into_iter().flat_map(|s| s.running.iter().chain(s.waiting.iter())) {
                p.cancel.cancel();
            }
            slots.is_some_and(|s| s.running.is_some())
        };
        let now = self.now().await;
        let running = self.store.cancel_turn(session, now).await.map_err(TurnLockError::Store)?;
        Ok(running || local_running)
    }

    /// Gives lease `id` back (detached: called from drops) and wakes this process's waiters.
    fn release(self: &Arc<Self>, session: SessionId, id: uuid::Uuid) {
        self.set_local(session, true, None, id);
        let shared = self.clone();
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return; // No runtime left (shutting down): the lease runs out by itself.
        };
        runtime.spawn(async move {
            if let Err(e) = shared.store.release_turn_lease(session, id).await {
                tracing::warn!(
                    %session,
                    error = &e as &dyn std::error::Error,
                    "cannot release the turn lease; it runs out by itself"
                );
            }
            shared.released.notify_waiters();
        });
    }

    /// Gives queue place `id` back (detached).
    fn leave(self: &Arc<Self>, session: SessionId, id: uuid::Uuid) {
        self.set_local(session, false, None, id);
        let shared = self.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(e) = shared.store.leave_turn_queue(session, id).await {
                    tracing::warn!(
                        %session,
                        error = &e as &dyn std::error::Error,
                        "cannot leave the turn queue; the place runs out by itself"
                    );
                }
            });
        }
    }
}

/// A running turn's lease.
#[derive(Debug)]
struct SharedHold {
    shared: Arc<Shared>,
    session: SessionId,
    id: uuid::Uuid,
}

impl Drop for SharedHold {
    fn drop(&mut self) {
        self.shared.release(self.session, self.id);
    }
}

/// A queued turn's place.
#[derive(Debug)]
struct SharedWait {
    shared: Arc<Shared>,
    session: SessionId,
    id: uuid::Uuid,
    cancel: CancellationToken,
    /// The cancel generation when the place was taken.
    generation: i64,
    /// Whether the place became the lease (nothing to give back).
    done: bool,
}

impl SharedWait {
    async fn enter_within(mut self, wait: Duration) -> Result<TurnGuard, TurnLockError> {
        let deadline = tokio::time::Instant::now() + wait;
        let shared = self.shared.clone();
        let timing = shared.timing;
        loop {
            if self.cancel.is_cancelled() {
                return Err(TurnLockError::WaitCancelled);
            }
            // Registered before trying, so a release between the try and the wait wakes it.
            let released = shared.released.notified();
            let now = shared.now().await;
            let store = &shared.store;
            let at = until(now, timing.ttl);
            match store.acquire_turn_lease(self.session, self.id, shared.process, at, now).await {
                Ok(Some(generation)) => {
                    self.done = true;
                    shared.set_local(self.session, false, None, self.id);
                    let guard = shared.hold(self.session, self.id, self.cancel.clone(), generation);
                    if generation != self.generation {
                        // Stopped while it waited: the guard's drop gives the lease back.
                        return Err(TurnLockError::WaitCancelled);
                    }
                    return Ok(guard);
                }
                Ok(None) => {
                    match store
                        .queue_for_turn(self.session, self.id, until(now, timing.ttl), now)
                        .await
                    {
                        Ok(Some(generation)) if generation == self.generation => {}
                        Ok(_) => return Err(TurnLockError::WaitCancelled),
                        Err(e) => tracing::warn!(
                            session = %self.session,
                            error = &e as &dyn std::error::Error,
                            "cannot renew the turn queue place"
                        ),
                    }
                }
                Err(e) => tracing::warn!(
                    session = %self.session,
                    error = &e as &dyn std::error::Error,
                    "cannot try the turn lease"
                ),
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return Err(TurnLockError::WaitCancelled);
            }
            tokio::select! {
                () = tokio::time::sleep(timing.queue_poll.min(left)) => {}
                () = released => {}
                () = self.cancel.cancelled() => return Err(TurnLockError::WaitCancelled),
            }
        }
    }
}

impl Drop for SharedWait {
    fn drop(&mut self) {
        if !self.done {
            self.shared.leave(self.session, self.id);
        }
    }
}
