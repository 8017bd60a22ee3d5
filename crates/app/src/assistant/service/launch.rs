//! Launching a turn on its own task (reference §8.6 steps 7–8, without the HTTP): the turn
//! outlives whoever reads its events, and its reader gets exactly one terminal `result`
//! whatever happens.
//!
//! [`launch`] spawns the turn with [`tokio::spawn`] and returns [`TurnEvents`], a stream of
//! its events. The task:
//!
//! 1. when the claim was queued, emits [`Event::Queued`] and waits up to the queue wait for
//!    the running turn; a timeout or a Stop releases the charge and ends with
//!    `result(cancelled)`;
//! 2. runs the turn ([`Runner::run`] for a prompt, [`Runner::continue_turn`] for a retry)
//!    while holding the session's [`TurnGuard`];
//! 3. releases the charge when the turn fails (the model failed, a write failed, a crash).
//!
//! The sending side never blocks the turn: events go into a bounded channel with
//! `try_send`, so a reader that is slow or gone simply misses events (the transcript has
//! them all). The terminal event travels apart, on a one-shot channel the reader takes after
//! the last event, so it is never dropped for a full buffer; when the task dies without one
//! (a panic outside the runner's own guard) the reader yields `result(error)` in its place.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::Duration;

use freehire_assistant::{
    AssistantError, Event, EventSink, Runner, SessionId, StopReason, Turn, TurnConfig,
};
use freehire_domain::UserId;
use freehire_tools::Registry;
use futures::future::BoxFuture;
use futures::{FutureExt, Stream};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::super::turns::{QueuedTurn, TurnGuard};

/// Events buffered for a reader before the newest are dropped (text deltas are small: a
/// reader that falls this far behind has stopped reading).
pub const EVENT_BUFFER: usize = 1024;

/// The message of the terminal event a reader gets when the turn's task died without one.
pub const CRASHED: &str = "the turn stopped unexpectedly";

/// What the turn does once it may run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnInput {
    /// A new prompt (a message, or an opening brief).
    Prompt(String),
    /// A retry: the loop again on the stored transcript.
    Continue,
}

/// How the turn got its session.
#[derive(Debug)]
pub enum Start {
    /// Nothing was running: run now.
    Run(TurnGuard),
    /// Behind a running turn: wait (at most the given time) first.
    Queued(QueuedTurn, Duration),
}

/// Called once when the turn's charge must be given back (a failed turn, a queue timeout).
pub type Release = Box<dyn FnOnce() -> BoxFuture<'static, ()> + Send>;

/// Everything one spawned turn needs.
pub struct Launch {
    /// The runner, already bound to the caller's model.
    pub runner: Runner<UserId>,
    /// The session.
    pub session: SessionId,
    /// Its owner.
    pub owner: UserId,
    /// The session's tools.
    pub registry: Registry<UserId>,
    /// The system prompt.
    pub system: String,
    /// The per-turn settings (step cap, spend tags).
    pub config: TurnConfig,
    /// What to run.
    pub input: TurnInput,
    /// The claim.
    pub start: Start,
    /// The turn's own token (Stop cancels it; the request does not).
    pub cancel: CancellationToken,
    /// Gives the charge back; `None` when nothing was charged.
    pub release: Option<Release>,
    /// The preset the turn runs as (its metrics' label).
    pub preset: &'static str,
}

/// The events of a spawned turn, ending with exactly one [`Event::Result`]. Dropping it does
/// not stop the turn.
pub struct TurnEvents {
    events: mpsc::Receiver<Event>,
    result: Option<oneshot::Receiver<Event>>,
}

impl std::fmt::Debug for TurnEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnEvents").finish_non_exhaustive()
    }
}

impl TurnEvents {
    /// The events of a turn that already happened, `events` then `result` (for readers
    /// tested without a turn).
    pub fn finished(events: Vec<Event>, result: Event) -> Self {
        let (tx, rx) = mpsc::channel(events.len().max(1));
        for event in events {
            let _ = tx.try_send(event);
        }
        let (done, result_rx) = oneshot::channel();
        let _ = done.send(result);
        Self { events: rx, result: Some(result_rx) }
    }

    /// The next event; `None` after the terminal one.
    pub async fn next(&mut self) -> Option<Event> {
        futures::StreamExt::next(self).await
    }
}

impl Stream for TurnEvents {
    type Item = Event;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Event>> {
        let this = &mut *self;
        if let Some(event) = std::task::ready!(this.events.poll_recv(cx)) {
            return Poll::Ready(Some(event));
        }
        let Some(result) = this.result.as_mut() else { return Poll::Ready(None) };
        let terminal =
            std::task::ready!(Pin::new(result).poll(cx)).unwrap_or_else(|_| Event::failed(CRASHED));
        this.result = None;
        Poll::Ready(Some(terminal))
    }
}

/// The turn's sink: events into the bounded channel (dropped when full or unread), the first
/// terminal event into the one-shot, later ones nowhere.
struct ChannelSink {
    events: mpsc::Sender<Event>,
    result: Mutex<Option<oneshot::Sender<Event>>>,
    /// The preset and the turn's start, for its metrics.
    preset: &'static str,
    started: std::time::Instant,
}

impl ChannelSink {
    fn finish(&self, event: Event) {
        if let Event::Result { stop_reason, .. } = &event {
            crate::telemetry::turn_ended(self.preset, stop_reason.as_str(), self.started.elapsed());
        }
        let sender = self.result.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if let Some(sender) = sender {
            // A reader that has gone does not want it; the turn goes on regardless.
            let _ = sender.send(event);
        }
    }
}

impl EventSink for ChannelSink {
    fn emit(&self, event: Event) {
        if let Event::Usage { input_tokens, output_tokens } = &event {
            crate::telemetry::turn_tokens(self.preset, *input_tokens, *output_tokens);
        }
        if event.is_terminal() {
            self.finish(event);
        } else {
            // Full (a slow reader) or closed (no reader): the event is dropped, never awaited.
            let _ = self.events.try_send(event);
        }
    }
}

/// Spawns the turn on its own task and returns its events.
pub fn launch(launch: Launch) -> TurnEvents {
    let (events, events_rx) = mpsc::channel(EVENT_BUFFER);
    let (result, result_rx) = oneshot::channel();
    let sink = ChannelSink {
        events,
        result: Mutex::new(Some(result)),
        preset: launch.preset,
        started: std::time::Instant::now(),
    };
    tokio::spawn(drive(launch, sink));
    TurnEvents { events: events_rx, result: Some(result_rx) }
}

async fn drive(launch: Launch, sink: ChannelSink) {
    let Launch {
        runner,
        session,
        owner,
        registry,
        system,
        config,
        input,
        start,
        cancel,
        release,
        ..
    } = launch;
    let mut release = release;
    let guard = match start {
        Start::Run(guard) => guard,
        Start::Queued(queued, wait) => {
            sink.emit(Event::Queued);
            match queued.enter_within(wait).await {
                Ok(guard) => guard,
                Err(e) => {
                    tracing::info!(%session, error = %e, "a queued turn did not start");
                    give_back(&mut release).await;
                    sink.emit(Event::result(StopReason::Cancelled));
                    return;
                }
            }
        }
    };
    let turn = Turn {
        session,
        owner: &owner,
        registry: &registry,
        system: &system,
        config: &config,
        cancel: &cancel,
        events: &sink,
    };
    let body = async {
        match &input {
            TurnInput::Prompt(text) => runner.run(turn, text).await,
            TurnInput::Continue => runner.continue_turn(turn).await,
        }
    };
    let outcome = AssertUnwindSafe(body).catch_unwind().await;
    drop(guard);
    match outcome {
        Ok(Ok(_)) => {}
        Ok(Err(AssistantError::NothingToContinue)) => {
            give_back(&mut release).await;
            // The runner emits nothing here; the reader still gets its one terminal event.
            sink.emit(Event::failed("nothing to retry — send a message first"));
        }
        Ok(Err(e)) => {
            tracing::warn!(%session, error = %e, "assistant turn failed; its charge is released");
            give_back(&mut release).await;
        }
        Err(_) => {
            tracing::error!(%session, "assistant turn panicked outside the runner's guard");
            give_back(&mut release).await;
            sink.emit(Event::failed(CRASHED));
        }
    }
    // The runner already emitted the terminal event on every other path; a second one here
    // would be ignored, so this only covers a path that somehow emitted none.
    sink.emit(Event::failed(CRASHED));
}

async fn give_back(release: &mut Option<Release>) {
    if let Some(release) = release.take() {
        release().await;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use freehire_assistant::{MemoryStore, RunnerConfig, TranscriptStore};
    use freehire_llm::{Scripted, ScriptedModel};

    use super::*;
    use crate::assistant::turns::{Claim, TurnLocks};

    fn ada() -> UserId {
        UserId::new(1).unwrap()
    }

    struct Fixture {
        store: Arc<MemoryStore<UserId>>,
        session: SessionId,
        locks: TurnLocks,
        released: Arc<AtomicUsize>,
    }

    impl Fixture {
        fn new() -> Self {
            let store = Arc::new(MemoryStore::new());
            let session = store.create_session(ada());
            Self { store, session, locks: TurnLocks::local(), released: Arc::default() }
        }

        async fn launch(&self, model: ScriptedModel, input: TurnInput) -> TurnEvents {
            self.launch_waiting(model, input, Duration::from_secs(60)).await
        }

        async fn launch_waiting(
            &self,
            model: ScriptedModel,
            input: TurnInput,
            wait: Duration,
        ) -> TurnEvents {
            self.launch_with(model, input, wait, Registry::default()).await
        }

        async fn launch_with(
            &self,
            model: ScriptedModel,
            input: TurnInput,
            wait: Duration,
            registry: Registry<UserId>,
        ) -> TurnEvents {
            let cancel = CancellationToken::new();
            let start = match self.locks.claim(self.session, cancel.clone()).await.unwrap() {
                Claim::Run(guard) => Start::Run(guard),
                Claim::Queued(queued) => Start::Queued(queued, wait),
            };
            let released = self.released.clone();
            let release: Release = Box::new(move || {
                Box::pin(async move {
                    released.fetch_add(1, Ordering::SeqCst);
                })
            });
            launch(Launch {
                runner: Runner::new(Arc::new(model), self.store.clone(), RunnerConfig::default()),
                session: self.session,
                owner: ada(),
                registry,
                system: "be brief".into(),
                config: TurnConfig::default(),
                input,
                start,
                cancel,
                release: Some(release),
                preset: "chat",
            })
        }
    }

    async fn all(mut events: TurnEvents) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(e) = events.next().await {
            out.push(e);
        }
        out
    }

    fn results(events: &[Event]) -> usize {
        events.iter().filter(|e| e.is_terminal()).count()
    }

    #[tokio::test]
    async fn a_turn_streams_its_events_and_ends_with_one_result() {
        let f = Fixture::new();
        let events = all(f
            .launch(ScriptedModel::new([Scripted::text("hello")]), TurnInput::Prompt("hi".into()))
            .await)
        .await;
        assert_eq!(events.first(), Some(&Event::UserPrompt { text: "hi".into() }));
        assert_eq!(events.last(), Some(&Event::result(StopReason::EndTurn)));
        assert_eq!(results(&events), 1);
        assert_eq!(f.released.load(Ordering::SeqCst), 0, "a turn that ends well keeps its charge");
    }

    #[tokio::test]
    async fn a_failed_model_releases_the_charge() {
        let f = Fixture::new();
        let events = all(f
            .launch(ScriptedModel::new([Scripted::fail("down")]), TurnInput::Prompt("hi".into()))
            .await)
        .await;
        assert!(
            matches!(events.last(), Some(Event::Result { stop_reason: StopReason::Error, .. })),
            "{events:?}"
        );
        assert_eq!(results(&events), 1);
        assert_eq!(f.released.load(Ordering::SeqCst), 1);
    }

    // scenario: A panicking tool still ends the turn with one result
    #[tokio::test]
    async fn a_panicking_tool_is_a_failed_result_and_the_turn_ends_once() {
        let f = Fixture::new();
        let boom = freehire_tools::from_fn(
            "boom",
            "Panics.",
            |_ctx, _owner: UserId, _: freehire_tools::NoArgs| async {
                if std::hint::black_box(true) {
                    panic!("the tool exploded");
                }
                Ok::<_, String>(serde_json::Value::Null)
            },
        );
        let registry = Registry::new([
            std::sync::Arc::new(boom) as std::sync::Arc<dyn freehire_tools::Tool<UserId>>
        ]);
        let model =
            ScriptedModel::new([Scripted::call("c1", "boom", "{}"), Scripted::text("sorry")]);
        let events = all(f
            .launch_with(model, TurnInput::Prompt("go".into()), Duration::from_secs(60), registry)
            .await)
        .await;
        let failed = events
            .iter()
            .any(|e| matches!(e, Event::ToolResult { name, is_error: true, .. } if name == "boom"));
        assert!(failed, "{events:?}");
        assert_eq!(results(&events), 1, "{events:?}");
        assert_eq!(events.last(), Some(&Event::result(StopReason::EndTurn)));
    }

    #[tokio::test]
    async fn a_dropped_reader_does_not_stop_the_turn() {
        let f = Fixture::new();
        let model = ScriptedModel::new([Scripted::text("the answer")])
            .with_latency(Duration::from_millis(50));
        drop(f.launch(model, TurnInput::Prompt("hi".into())).await);
        for _ in 0..100 {
            if f.store.transcript(f.session, &ada()).await.unwrap().len() == 2 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the turn did not finish without its reader");
    }

    // scenario: A reader that never reads cannot block the turn
    #[tokio::test]
    async fn a_full_buffer_drops_events_but_never_the_result() {
        let (events, events_rx) = mpsc::channel(EVENT_BUFFER);
        let (result, result_rx) = oneshot::channel();
        let sink = ChannelSink {
            events,
            result: Mutex::new(Some(result)),
            preset: "chat",
            started: std::time::Instant::now(),
        };
        for n in 0..EVENT_BUFFER * 3 {
            sink.emit(Event::AssistantText { text: n.to_string() });
        }
        sink.emit(Event::result(StopReason::EndTurn));
        sink.emit(Event::failed("a second terminal event is ignored"));
        drop(sink);
        let got = all(TurnEvents { events: events_rx, result: Some(result_rx) }).await;
        assert_eq!(got.len(), EVENT_BUFFER + 1, "the overflow is dropped, not awaited");
        assert_eq!(got.last(), Some(&Event::result(StopReason::EndTurn)));
        assert_eq!(results(&got), 1);
    }

    #[tokio::test]
    async fn a_queued_turn_says_so_then_runs() {
        let f = Fixture::new();
        let slow =
            ScriptedModel::new([Scripted::text("first")]).with_latency(Duration::from_millis(100));
        let first = f.launch(slow, TurnInput::Prompt("one".into())).await;
        let second = f
            .launch(ScriptedModel::new([Scripted::text("second")]), TurnInput::Prompt("two".into()))
            .await;
        let second = all(second).await;
        assert_eq!(second.first(), Some(&Event::Queued));
        assert_eq!(second.last(), Some(&Event::result(StopReason::EndTurn)));
        assert_eq!(all(first).await.last(), Some(&Event::result(StopReason::EndTurn)));
    }

    #[tokio::test]
    async fn a_queue_timeout_releases_the_charge_and_ends_cancelled() {
        let f = Fixture::new();
        let slow =
            ScriptedModel::new([Scripted::text("first")]).with_latency(Duration::from_millis(500));
        let _first = f.launch(slow, TurnInput::Prompt("one".into())).await;
        let second = f
            .launch_waiting(
                ScriptedModel::new([]),
                TurnInput::Prompt("two".into()),
                Duration::from_millis(20),
            )
            .await;
        let second = all(second).await;
        assert_eq!(second, vec![Event::Queued, Event::result(StopReason::Cancelled)]);
        assert_eq!(f.released.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_retry_with_nothing_to_retry_still_ends_with_a_result() {
        let f = Fixture::new();
        let events = all(f.launch(ScriptedModel::new([]), TurnInput::Continue).await).await;
        assert_eq!(results(&events), 1, "{events:?}");
        assert_eq!(f.released.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_reader_of_a_task_that_died_gets_an_error_result() {
        let (events, events_rx) = mpsc::channel(4);
        let (result, result_rx) = oneshot::channel::<Event>();
        drop((events, result));
        let got = all(TurnEvents { events: events_rx, result: Some(result_rx) }).await;
        assert_eq!(got, vec![Event::failed(CRASHED)]);
    }
}
