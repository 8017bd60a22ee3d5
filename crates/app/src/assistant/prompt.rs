//! System prompts (reference §9): one per preset, plus the language directive.
//!
//! The language directive lives here, not in the assistant library, because it is freehire's
//! wording ("the candidate", CV bullets in the vacancy's language for tailor sessions) and
//! depends on the preset; a service embedding the library writes its own.
//!
//! The texts live in `src/assistant/prompts/*.md`. They are our own wording of the reference's rules;
//! the tests pin every phrase the rules depend on and check that a prompt names only tools
//! its preset registers.
//!
//! [`system_prompt`] is the full prompt of a fully equipped preset. What a session actually
//! runs with is [`session_prompt`]: the prompt for the tools its registry holds. A preset whose
//! own tools are not registered (tailor without the CV tools, interview and debrief without
//! `interview_context`, profile without the experience bank) takes the chat prompt, as its
//! registry is the chat-style set; the mail and browse sections are appended only when their
//! tools are registered; and every line that names, in backticks, a tool the registry lacks
//! (a bank sentence in the interview prompt) is left out. Every prompt ends with its
//! `LANGUAGE` directive.

use super::{
    BANK_TOOLS, BROWSE_TOOLS, CV_TOOLS, INTERVIEW_TOOLS, MAIL_TOOLS, Preset, all_tool_names,
    normalize_preset,
};

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

/// `text` without the lines that name, in backticks, a tool of the catalogue that `registered`
/// lacks.
pub fn only_registered(text: &str, registered: &[&str]) -> String {
    let every = all_tool_names();
    let missing = |line: &str| {
        line.split('`').skip(1).step_by(2).any(|w| every.contains(&w) && !registered.contains(&w))
    };
    let kept: Vec<&str> = text.lines().filter(|line| !missing(line)).collect();
    kept.join("\n").trim_end().to_owned()
}

/// The system prompt of a session of `preset` whose registry holds the tools `registered`,
/// for a profile `language` (see the module docs): it names only registered tools.
pub fn session_prompt(preset: Preset, registered: &[&str], language: &str) -> String {
    let has = |group: &[&str]| group.iter().any(|t| registered.contains(t));
    let (base, shown_as) = match preset {
        Preset::Tailor if has(CV_TOOLS) => (TAILOR_PROMPT, Preset::Tailor),
        Preset::Profile if has(BANK_TOOLS) => (PROFILE_PROMPT, Preset::Profile),
        Preset::Interview if has(INTERVIEW_TOOLS) => (INTERVIEW_PROMPT, Preset::Interview),
        Preset::Debrief if has(INTERVIEW_TOOLS) => (DEBRIEF_PROMPT, Preset::Debrief),
        _ => (CHAT_PROMPT, Preset::Chat),
    };
    let mut prompt = only_registered(base, registered);
    for (section, group) in [(MAIL_PROMPT, MAIL_TOOLS), (BROWSE_PROMPT, BROWSE_TOOLS)] {
        if has(group) {
            prompt.push_str("\n\n");
            prompt.push_str(only_registered(section, registered).trim_start());
        }
    }
    prompt.push_str(&language_directive(shown_as, language));
    prompt
}
