//! freehire's assistant: the presets, prompts, tool-name groups and step caps that the
//! generic `freehire-assistant` library deliberately leaves to its embedder.
//!
//! A session's owner is freehire's [`UserId`]: the library is generic over the owner type, so
//! freehire's runners, registries and transcript stores are `Runner<UserId>`,
//! `Registry<UserId>` and `TranscriptStore<UserId>`, and every tool receives the owner's
//! `UserId` without any conversion.
//!
//! [`compose`] turns a (possibly unknown) preset name and a profile language into what one
//! turn runs with: the system prompt (the preset's prompt plus its `LANGUAGE` directive),
//! the preset's tools picked by name from the catalogue of tools the caller has built for the
//! session, in the preset's order, and the preset's step cap. Unknown presets are `chat`
//! ([`normalize_preset`]).
//!
//! [`compose_session`] is what a session's turns run with: the registry of the tools built for
//! it ([`tools::registry_for`]: the catalogue of [`tools`], bound to the session's owner, job
//! and CV) and the system prompt naming only those tools ([`session_prompt`]).
//!
//! [`model`] configures the model ([`AssistantModel`]: `LLM_*`, per-user gateway keys) and
//! the spend tags of a turn ([`spend_tags`]).
//!
//! [`cover_letters`] drafts a cover letter from the candidate's publishable achievements on the
//! same model (metered, gated, signed, saved), for the route, the workspace and the tailor
//! session's `cover_letter_draft`.
//!
//! [`turns`] holds [`TurnLocks`](turns::TurnLocks), one running turn per session and one
//! waiting.
//!
//! [`needs_retry`] says whether a stored transcript's last turn ended without an answer (the
//! web page's Retry after a reload and the API's `retryable`).
//!
//! Step caps (the server's choice, reference §6.2): interactive tailor turns and their
//! retries take [`TAILOR_MAX_STEPS`] (16) model calls with tools, autopilot turns
//! [`AUTOPILOT_MAX_STEPS`] (30); every other preset takes the runner's own bound (the
//! library's default is 8). Tool results are capped at [`ASSISTANT_RESULT_CAP`] bytes
//! (60,000), enough for a page of search hits while keeping one result from crowding the
//! context window.

pub mod cover_letters;
pub mod model;
mod preset;
mod prompt;
mod retry;
pub mod service;
pub mod tools;
pub mod turns;

pub use freehire_assistant::{Event, SessionId, StepLimit, StopReason};

use freehire_domain::UserId;
use freehire_tools::Registry;

pub use model::{AssistantModel, MODEL_VARIABLES, spend_tags};
pub use preset::{
    BANK_TOOLS, BROWSE_TOOLS, CV_TOOLS, DISCOVERY_TOOLS, INTERVIEW_TOOLS, MAIL_TOOLS, Preset,
    SCREENING_TOOLS, TRACKING_TOOLS, all_tool_names, normalize_preset,
};
pub use prompt::{
    BROWSE_PROMPT, CHAT_PROMPT, DEBRIEF_PROMPT, INTERVIEW_PROMPT, MAIL_PROMPT, PROFILE_PROMPT,
    TAILOR_PROMPT, base_prompt, language_directive, language_name, only_registered, session_prompt,
    system_prompt,
};
pub use retry::needs_retry;
pub use tools::{Binding, ToolDeps, registry_for};

/// Step cap of interactive tailor turns and their retries (reference §6.2).
pub const TAILOR_MAX_STEPS: StepLimit = StepLimit::new(16);
/// Step cap of autopilot turns (reference §6.2).
pub const AUTOPILOT_MAX_STEPS: StepLimit = StepLimit::new(30);
/// The result cap the assistant's registries use, in bytes.
pub const ASSISTANT_RESULT_CAP: usize = 60_000;

/// What a session of one preset runs with.
#[derive(Debug, Clone)]
pub struct Composed {
    /// The preset, after normalisation.
    pub preset: Preset,
    /// The system prompt: the preset's prompt and its `LANGUAGE` directive.
    pub system: String,
    /// The preset's tools, in its order, capped at [`ASSISTANT_RESULT_CAP`].
    pub registry: Registry<UserId>,
    /// The preset's step cap for interactive turns; `None` leaves the runner's.
    pub max_steps: Option<StepLimit>,
}

/// Composes `preset` (any string; unknown is chat) for a profile `language` from
/// `catalogue`, the tools built for this session. A preset tool the catalogue lacks (a CV
/// tool in a tailor session not bound to a CV yet) is left out.
pub fn compose(preset: &str, language: &str, catalogue: &Registry<UserId>) -> Composed {
    let preset = normalize_preset(preset);
    Composed {
        preset,
        system: system_prompt(preset.as_str(), language),
        registry: catalogue
            .subset(&preset.tool_names())
            .with_max_result_bytes(ASSISTANT_RESULT_CAP),
        max_steps: preset.max_steps(),
    }
}

/// What one turn of the session runs with: [`registry_for`], the system prompt for the preset
/// and the account `language` naming only the tools that registry holds ([`session_prompt`]),
/// and the preset's step cap.
pub fn compose_session(deps: &ToolDeps, binding: &Binding, language: &str) -> Composed {
    let registry = registry_for(deps, binding);
    let system = session_prompt(binding.preset, &registry.names(), language);
    Composed { preset: binding.preset, system, registry, max_steps: binding.preset.max_steps() }
}
