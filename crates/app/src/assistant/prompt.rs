//! System prompts (reference §9): one per preset, plus the language directive.
//!
//! The language directive lives here, not in the assistant library, because it is freehire's
//! wording ("the candidate", CV bullets in the vacancy's language for tailor sessions) and
//! depends on the preset; a service embedding the library writes its own.
//!
//! The texts live in `src/assistant/prompts/*.md`. They are our own wording of the reference's rules;
//! the tests pin every phrase the rules depend on and check that a prompt names only tools
//! its preset registers.

use super::{Preset, normalize_preset};

/// The general assistant.
pub const CHAT_PROMPT: &str = include_str!("prompts/chat.md");
/// The application-mail section appended to the chat prompt.
pub const MAIL_PROMPT: &str = include_str!("prompts/mail.md");
/// The browse section appended to the chat prompt.
pub const BROWSE_PROMPT: &str = include_str!("prompts/browse.md");
/// The CV-tailoring assistant.
pub const TAILOR_PROMPT: &str = include_str!("prompts/tailor.md");
/// The mock-interview coach.
pub const INTERVIEW_PROMPT: &str = include_str!("prompts/interview.md");
/// The interview debrief.
pub const DEBRIEF_PROMPT: &str = include_str!("prompts/debrief.md");
/// The experience interviewer.
pub const PROFILE_PROMPT: &str = include_str!("prompts/profile.md");

/// The language name for a profile language code: `en`, `ru`, `es`, `pt`, `de`, `fr`; anything
/// else (matched exactly, case-sensitive, untrimmed) is English.
pub fn language_name(code: &str) -> &'static str {
    match code {
        "ru" => "Russian",
        "es" => "Spanish",
        "pt" => "Portuguese",
        "de" => "German",
        "fr" => "French",
        _ => "English",
    }
}

/// The `LANGUAGE` section appended to every prompt.
pub fn language_directive(preset: Preset, language: &str) -> String {
    let name = language_name(language);
    let mut out = format!(
        "\n\nLANGUAGE\n\nReply to the candidate in {name}, regardless of what language they write in or what language any source material (a job posting, a CV, an employer's message) is in."
    );
    if preset == Preset::Tailor {
        out.push_str(
            " This governs your own words to the candidate only: a bullet you write with `cv_edit` follows the vacancy's own language instead, so write CV bullets in the vacancy's language.",
        );
    }
    out
}

/// The base prompt of a preset, before the language directive.
pub fn base_prompt(preset: Preset) -> String {
    match preset {
        Preset::Tailor => TAILOR_PROMPT.trim_end().to_owned(),
        Preset::Profile => PROFILE_PROMPT.trim_end().to_owned(),
        Preset::Browse => format!("{}{}", CHAT_PROMPT.trim_end(), BROWSE_PROMPT.trim_end()),
        Preset::Interview => INTERVIEW_PROMPT.trim_end().to_owned(),
        Preset::Debrief => DEBRIEF_PROMPT.trim_end().to_owned(),
        Preset::Chat => format!("{}{}", CHAT_PROMPT.trim_end(), MAIL_PROMPT.trim_end()),
    }
}

/// The system prompt for a (possibly unknown) preset and a profile language code.
pub fn system_prompt(preset: &str, language: &str) -> String {
    let preset = normalize_preset(preset);
    let mut prompt = base_prompt(preset);
    prompt.push_str(&language_directive(preset, language));
    prompt
}
