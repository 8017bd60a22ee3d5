//! The assistant's turn runner: a bounded, in-process tool-calling loop over any
//! [`ChatModel`](freehire_llm::ChatModel), safe to run on a metered gateway, and a library
//! other Rust services can link. It knows nothing of freehire's storage, routes or tools: it
//! sees a [`SessionId`], the owner's [`UserId`](freehire_domain::UserId), a model, a
//! [`Registry`](freehire_tools::Registry) and a [`TranscriptStore`].
//!
//! # The contract of a turn
//!
//! [`Runner::run`] records the prompt (a failed write ends the turn with an error result and
//! the model is never called), emits `user_prompt`, then loops; [`Runner::continue_turn`]
//! loops on the stored transcript without a new prompt and refuses a transcript with no user
//! message ([`AssistantError::NothingToContinue`], no event). The loop:
//!
//! 1. Builds the history: the system prompt, then a block-aligned window of the transcript
//!    ([`history`]), so the prompt prefix stays byte-identical across turns and provider
//!    prompt caching keeps working.
//! 2. For at most `max_steps` steps (default 8; a per-turn [`TurnConfig`] value chosen by the
//!    server replaces it; zero or negative means the default, never unbounded): calls the
//!    model with the tools, streaming `assistant_text` / `assistant_thought` deltas, and
//!    persists its answer (even an empty one). Plain text ends the turn (`end_turn`; a blank
//!    answer gets a note so it does not vanish). Tool calls run in order, each emitting
//!    `tool_use` then `tool_result` and persisted as it happens; a round always finishes,
//!    even when the turn is cancelled meanwhile.
//! 3. At the cap, one more call **without tools** (the wrap-up). Tool calls it still returns
//!    are executed, so the transcript never ends on an unanswered call; a blank wrap-up gets
//!    the step-limit note. The turn ends with `max_steps`.
//!
//! Every turn ends with **exactly one** [`Event::Result`] (`end_turn`, `max_steps`,
//! `cancelled` or `error`), preceded by `usage` when the provider reported it: also when a
//! store write fails, the model fails, the [`CancellationToken`](tokio_util::sync::CancellationToken)
//! fires at any point, or a tool or the model panics. Transcript writes run on their own
//! task with a 5 s deadline, so they survive cancellation and a dropped turn future. (A
//! caller that drops the turn future itself gets no event at all: cancel the token instead.)
//!
//! Turns run on a Tokio runtime (writes are spawned as tasks) and their futures are `Send`,
//! so a server can spawn one per request and let it outlive the client's connection.
//!
//! # The pieces
//!
//! - [`message`]: stored payloads, encoding, decoding and the one argument repair.
//! - [`history`]: the block-aligned window, orphan and dangling-call repair (replay only).
//! - [`TranscriptStore`] and [`MemoryStore`]: the storage port and an in-memory adapter.
//! - [`TurnRegistry`]: one running turn per session, one waiting, a third refused.
//! - [`Preset`], [`normalize_preset`] and [`system_prompt`]: the prompt per preset with its
//!   `LANGUAGE` directive, and the tool names each preset registers.
//!
//! Deliberately absent: HTTP and SSE framing, metering, the tool catalogue, per-user keys.

mod error;
mod event;
pub mod history;
mod ids;
mod memory;
pub mod message;
mod preset;
mod prompt;
mod runner;
mod store;
mod turns;

pub use error::AssistantError;
pub use event::{Event, EventLog, EventSink, StopReason};
pub use ids::SessionId;
pub use memory::MemoryStore;
pub use message::{Message, NewMessage, Role};
pub use preset::{
    BANK_TOOLS, BROWSE_TOOLS, CV_TOOLS, DISCOVERY_TOOLS, INTERVIEW_TOOLS, MAIL_TOOLS, Preset,
    SCREENING_TOOLS, TRACKING_TOOLS, all_tool_names, normalize_preset,
};
pub use prompt::{base_prompt, language_directive, language_name, system_prompt};
pub use runner::{
    DEFAULT_MAX_STEPS, EMPTY_REPLY_NOTE, LABEL_MAX_CHARS, PERSIST_TIMEOUT, Runner, RunnerConfig,
    STEP_LIMIT_NOTE, Turn, TurnConfig,
};
pub use store::{APPEND_ATTEMPTS, TranscriptStore};
pub use turns::{Claim, TURN_QUEUE_WAIT, TurnRegistry, TurnSlot, Waiter};

/// Step cap of interactive tailor turns and their retries (the server's choice, reference §6.2).
pub const TAILOR_MAX_STEPS: i64 = 16;
/// Step cap of autopilot turns (the server's choice, reference §6.2).
pub const AUTOPILOT_MAX_STEPS: i64 = 30;
/// The result cap the assistant's registries use, in bytes.
pub const ASSISTANT_RESULT_CAP: usize = 60_000;
