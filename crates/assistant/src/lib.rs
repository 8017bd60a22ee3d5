//! The assistant's turn runner: a bounded, in-process tool-calling loop over any
//! [`ChatModel`](freehire_llm::ChatModel), safe to run on a metered gateway, and a library
//! other Rust services can link. It knows nothing of freehire's storage, routes, tools,
//! presets or prompts: it sees a [`SessionId`], the owner's id of whatever type `O` the
//! embedding service chooses ([`Owner`](freehire_tools::Owner); a service with UUID
//! principals uses `Uuid`), a model, a [`Registry<O>`](freehire_tools::Registry), a system
//! prompt string and a [`TranscriptStore<O>`](TranscriptStore).
//!
//! # The contract of a turn
//!
//! [`Runner::run`] records the prompt (a failed write ends the turn with an error result and
//! the model is never called; a session the turn's owner does not own is
//! [`AssistantError::NotFound`] before anything is written), emits `user_prompt`, then loops;
//! [`Runner::continue_turn`] reads the stored transcript and loops without a new prompt, and
//! refuses a transcript with no user message ([`AssistantError::NothingToContinue`], no
//! event). The loop:
//!
//! 1. Builds the history: the system prompt, then a block-aligned window of the transcript
//!    ([`history`]), so the prompt prefix stays byte-identical across turns and provider
//!    prompt caching keeps working. Blank assistant answers are left out of the replay.
//!    Store reads inside a turn have a deadline ([`READ_TIMEOUT`], 5 s) and are abandoned as
//!    soon as the turn is cancelled.
//! 2. For at most `max_steps` steps (a [`StepLimit`], default 8; a per-turn [`TurnConfig`]
//!    value chosen by the server replaces it; zero or negative means the default, never
//!    unbounded): calls the model with the tools, streaming `assistant_text` /
//!    `assistant_thought` deltas, makes the reply's call ids non-empty and unique, and
//!    persists the answer (even an empty one). Plain text ends the turn (`end_turn`; a blank
//!    answer gets a note, an `Event::Note`, so it does not vanish). Tool calls run in order,
//!    each emitting `tool_use` then `tool_result` (with the call's id) and persisted as it
//!    happens. Every call of a round gets a result: a call is raced with the registry's
//!    deadline and with cancellation (a cancelled turn's remaining calls answer "cancelled"
//!    without running), a call without a name is answered with the offered tools, and calls
//!    beyond `max_tool_calls` ([`ToolCallLimit`], default 16) are answered without running.
//! 3. At the cap, one more call **without tools** (the wrap-up). Tool calls it still returns
//!    are executed, so the transcript never ends on an unanswered call; a blank wrap-up gets
//!    the step-limit note. The turn ends with `max_steps`.
//!
//! Every turn ends with **exactly one** [`Event::Result`] (`end_turn`, `max_steps`,
//! `cancelled` or `error`, an error carrying a message), preceded by one `usage` summing every
//! model call of the turn when the provider reported any: also when a store write fails, the
//! model fails, the [`CancellationToken`](tokio_util::sync::CancellationToken) fires at any
//! point, a tool or the model panics, or the caller's sink panics (the terminal emits are
//! retried once if the sink panics on them). Transcript writes run on their own task with a
//! 5 s deadline ([`PERSIST_TIMEOUT`]), so they survive cancellation and a dropped turn
//! future. (A caller that drops the turn future itself gets no event at all: cancel the token
//! instead.)
//!
//! Nothing said is lost silently: text a model call already streamed is persisted as an
//! assistant message when that call is cancelled or fails. A failed write after the prompt
//! (an assistant message, a tool result) ends the turn right there with an error result
//! naming the lost write ([`AssistantError::WriteLost`]), so no later message depends on it;
//! no tool of a reply whose write failed runs, and for a lost tool result the runner first
//! stores [`LOST_RESULT`] in its place, so the next turn replays "it ran, its result was lost"
//! rather than the invented interruption history gives a call with no result at all.
//!
//! Turns run on a Tokio runtime (writes are spawned as tasks) and their futures are `Send`,
//! so a server can spawn one per request and let it outlive the client's connection.
//!
//! # The pieces
//!
//! - [`message`]: stored payloads, encoding, decoding and the one argument repair.
//! - [`history`]: the block-aligned window, orphan and dangling-call repair (replay only).
//! - [`TranscriptStore`] and [`MemoryStore`]: the storage port and an in-memory adapter.
//! - [`TurnRegistry`]: one running turn per session, one waiting, a third refused; a released
//!   slot passes to the waiter, so a new claim never overtakes it.
//! - [`StepLimit`], [`HistoryLimit`] and [`ToolCallLimit`]: the bounds, built once (zero or
//!   negative is the default).
//!
//! Deliberately absent: HTTP and SSE framing, metering, the tool catalogue, per-user keys,
//! presets, prompts and their language directive (an embedding service composes its own
//! system prompt and registry per session; freehire's live in its app layer).

mod error;
mod event;
pub mod history;
mod ids;
mod limit;
mod memory;
pub mod message;
mod runner;
mod store;
mod turns;

pub use error::AssistantError;
pub use event::{Event, EventLog, EventSink, StopReason};
pub use ids::SessionId;
pub use limit::{HistoryLimit, Limit, StepLimit, ToolCallLimit};
pub use memory::MemoryStore;
pub use message::{Message, NewMessage, Role};
pub use runner::{
    EMPTY_REPLY_NOTE, LABEL_MAX_CHARS, LOST_RESULT, PERSIST_TIMEOUT, READ_TIMEOUT, Runner,
    RunnerConfig, STEP_LIMIT_NOTE, Turn, TurnConfig,
};
pub use store::{APPEND_ATTEMPTS, TranscriptStore};
pub use turns::{Claim, TURN_QUEUE_WAIT, TurnRegistry, TurnSlot, Waiter};
