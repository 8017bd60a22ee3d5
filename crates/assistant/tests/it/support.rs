//! Shared fixtures: a store that fails on demand, a small registry, a turn builder.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use freehire_assistant::{
    AssistantError, Event, EventLog, MemoryStore, Message, NewMessage, Role, Runner, RunnerConfig,
    SessionId, StopReason, TranscriptStore, Turn, TurnConfig,
};
use freehire_assistant::{HistoryLimit, StepLimit};
use freehire_llm::ScriptedModel;
use freehire_tools::{NoArgs, Registry, Tool, from_fn};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// A [`MemoryStore`] with failure switches.
#[derive(Default)]
pub struct FlakyStore {
    pub inner: MemoryStore<Uuid>,
    /// Every append fails.
    pub fail_all_appends: AtomicBool,
    /// The inserts with these 0-based indices fail.
    pub fail_appends_at: Mutex<HashSet<usize>>,
    /// This many upcoming inserts report a sequence conflict.
    pub conflicts: AtomicUsize,
    /// Label and touch fail.
    pub fail_bookkeeping: AtomicBool,
    /// Each insert waits this long first.
    pub append_delay: Mutex<Option<Duration>>,
    /// Inserts attempted.
    pub inserts: AtomicUsize,
    /// Reads (recent, transcript) never return.
    pub hang_reads: AtomicBool,
}

impl FlakyStore {
    async fn maybe_hang(&self) {
        if self.hang_reads.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
    }
}

#[async_trait]
impl TranscriptStore<Uuid> for FlakyStore {
    async fn insert_next(
        &self,
        session: SessionId,
        owner: &Uuid,
        msg: &NewMessage,
    ) -> Result<Message, AssistantError> {
        let n = self.inserts.fetch_add(1, Ordering::SeqCst);
        let delay = *self.append_delay.lock().unwrap();
        if let Some(d) = delay {
            tokio::time::sleep(d).await;
        }
        if self.fail_all_appends.load(Ordering::SeqCst)
            || self.fail_appends_at.lock().unwrap().contains(&n)
        {
            return Err(AssistantError::Store("disk on fire".into()));
        }
        let left = self.conflicts.load(Ordering::SeqCst);
        if left > 0 {
            self.conflicts.store(left - 1, Ordering::SeqCst);
            return Err(AssistantError::SeqConflict);
        }
        self.inner.insert_next(session, owner, msg).await
    }

    async fn recent(
        &self,
        session: SessionId,
        owner: &Uuid,
        limit: usize,
    ) -> Result<Vec<Message>, AssistantError> {
        self.maybe_hang().await;
        self.inner.recent(session, owner, limit).await
    }

    async fn transcript(
        &self,
        session: SessionId,
        owner: &Uuid,
    ) -> Result<Vec<Message>, AssistantError> {
        self.maybe_hang().await;
        self.inner.transcript(session, owner).await
    }

    async fn touch(&self, session: SessionId, owner: &Uuid) -> Result<(), AssistantError> {
        if self.fail_bookkeeping.load(Ordering::SeqCst) {
            return Err(AssistantError::Store("touch failed".into()));
        }
        self.inner.touch(session, owner).await
    }

    async fn label(
        &self,
        session: SessionId,
        owner: &Uuid,
        label: &str,
    ) -> Result<(), AssistantError> {
        if self.fail_bookkeeping.load(Ordering::SeqCst) {
            return Err(AssistantError::Store("label failed".into()));
        }
        self.inner.label(session, owner, label).await
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct EchoArgs {
    pub text: String,
}

/// `echo {text}` → `{"echoed": text}`, `fail` → error, `boom` → panic, `stop` → cancels
/// `cancel` and answers.
pub fn registry(cancel: &CancellationToken) -> Registry<Uuid> {
    let echo: Arc<dyn Tool<Uuid>> =
        Arc::new(from_fn("echo", "Echoes its text.", |_ctx, _, a: EchoArgs| async move {
            Ok::<_, String>(json!({ "echoed": a.text }))
        }));
    let fail: Arc<dyn Tool<Uuid>> =
        Arc::new(from_fn("fail", "Always fails.", |_ctx, _, _: NoArgs| async {
            Err::<serde_json::Value, _>("the backend said no")
        }));
    let boom: Arc<dyn Tool<Uuid>> =
        Arc::new(from_fn("boom", "Panics.", |_ctx, _, _: NoArgs| async {
            let v: Vec<u8> = Vec::new();
            if v.is_empty() {
                panic!("tool exploded");
            }
            Ok::<_, String>(v)
        }));
    let token = cancel.clone();
    let stop: Arc<dyn Tool<Uuid>> =
        Arc::new(from_fn("stop", "Presses Stop.", move |_ctx, _, _: NoArgs| {
            let token = token.clone();
            async move {
                token.cancel();
                Ok::<_, String>(json!({ "stopped": true }))
            }
        }));
    Registry::new([echo, fail, boom, stop]).with_max_result_bytes(60_000)
}

/// The session owner: a UUID principal, as a service other than freehire would use.
pub fn owner() -> Uuid {
    Uuid::from_u128(42)
}

/// One test scenario: a store, a session, a scripted model, a runner (MaxSteps 3,
/// HistoryLimit 50 as in the reference tests) and an event log.
pub struct Fixture {
    pub owner: Uuid,
    pub store: Arc<FlakyStore>,
    pub session: SessionId,
    pub model: ScriptedModel,
    pub runner: Runner<Uuid>,
    pub cancel: CancellationToken,
    pub registry: Registry<Uuid>,
    pub log: EventLog,
    pub config: TurnConfig,
}

impl Fixture {
    pub fn new(model: ScriptedModel) -> Self {
        Self::with_config(
            model,
            RunnerConfig {
                max_steps: StepLimit::new(3),
                history_limit: HistoryLimit::new(50),
                ..RunnerConfig::default()
            },
        )
    }

    pub fn with_config(model: ScriptedModel, config: RunnerConfig) -> Self {
        let store = Arc::new(FlakyStore::default());
        let session = store.inner.create_session(owner());
        let runner = Runner::new(Arc::new(model.clone()), store.clone(), config);
        let cancel = CancellationToken::new();
        let registry = registry(&cancel);
        Self {
            owner: owner(),
            store,
            session,
            model,
            runner,
            cancel,
            registry,
            log: EventLog::new(),
            config: TurnConfig::default(),
        }
    }

    pub fn turn(&self) -> Turn<'_, Uuid> {
        Turn {
            session: self.session,
            owner: &self.owner,
            registry: &self.registry,
            system: "You are a test.",
            config: &self.config,
            cancel: &self.cancel,
            events: &self.log,
        }
    }

    pub async fn run(&self, prompt: &str) -> Result<StopReason, AssistantError> {
        self.runner.run(self.turn(), prompt).await
    }

    pub async fn seed(&self, msgs: Vec<NewMessage>) {
        for m in msgs {
            self.store.inner.append(self.session, &self.owner, &m).await.unwrap();
        }
    }

    pub async fn persisted(&self) -> Vec<Message> {
        self.store.inner.transcript(self.session, &self.owner).await.unwrap()
    }

    pub async fn roles(&self) -> Vec<Role> {
        self.persisted().await.iter().map(|m| m.role).collect()
    }

    pub fn events(&self) -> Vec<Event> {
        self.log.events()
    }

    pub fn results(&self) -> Vec<Event> {
        self.events().into_iter().filter(Event::is_terminal).collect()
    }

    pub fn last_result(&self) -> Event {
        let events = self.events();
        let last = events.last().cloned().expect("at least one event");
        assert!(last.is_terminal(), "the last event is the result: {events:?}");
        assert_eq!(self.results().len(), 1, "exactly one result: {events:?}");
        last
    }

    /// The terminal event's message, when it has one.
    pub fn failure(&self) -> Option<String> {
        match self.last_result() {
            Event::Result { message, .. } => message,
            _ => None,
        }
    }

    pub fn tool_results(&self) -> Vec<(String, String, bool)> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                Event::ToolResult { name, result, is_error, .. } => Some((name, result, is_error)),
                _ => None,
            })
            .collect()
    }

    pub fn texts(&self) -> Vec<String> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                Event::AssistantText { text } | Event::Note { text } => Some(text),
                _ => None,
            })
            .collect()
    }
}
