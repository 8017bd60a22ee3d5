//! freehire's assistant presets (reference §18.3): every prompt keeps the phrases its rules
//! depend on and names only tools its preset registers; composing a preset picks its prompt,
//! its tools from a catalogue and its step cap.

use std::sync::Arc;

use freehire_app::assistant::{
    ASSISTANT_RESULT_CAP, CV_TOOLS, Preset, TAILOR_MAX_STEPS, all_tool_names, base_prompt, compose,
    language_name, system_prompt,
};
use freehire_domain::UserId;
use freehire_tools::{NoArgs, Registry, Tool, from_fn};

fn p(preset: &str) -> String {
    system_prompt(preset, "en")
}

#[test]
fn prompts_are_distinct_and_non_empty() {
    let (chat, tailor, browse) = (p("chat"), p("tailor"), p("browse"));
    assert!(!chat.is_empty() && !tailor.is_empty() && !browse.is_empty());
    assert_ne!(chat, tailor);
    assert_ne!(chat, browse);
    assert_ne!(tailor, browse);
    let all: std::collections::BTreeSet<String> =
        Preset::ALL.iter().map(|x| p(x.as_str())).collect();
    assert_eq!(all.len(), 6);
}

// scenario: Unknown preset
#[test]
fn the_chat_prompt() {
    let chat = p("chat");
    for w in
        ["`get_profile`", "`facets`", "`present_jobs`", "/account", "APPLICATION MAIL", "untrusted"]
    {
        assert!(chat.contains(w), "{w}");
    }
    assert!(!chat.contains("/jobs/"));
    assert_eq!(p("wizard"), chat, "an unknown preset gets the chat prompt");
    assert_eq!(p(""), chat);
}

#[test]
fn the_tailor_prompt_keeps_every_rule() {
    let t = p("tailor");
    let lower = t.to_lowercase();
    for w in [
        "handled outside this conversation",
        "Do NOT spend an edit renaming a skill for wording",
        "missing_have",
        "missing_gap",
        "`set`",
        "`remove`",
        "all-or-nothing",
        "only the tool result",
        "section headings",
        "template",
        "do not invent",
        "`projects[]`",
        "`projects[i]`",
        "`experience[]`",
        "tailor_report",
        "closed_bank",
        "closed_candidate",
        "open",
        "not_reached",
        "evidence_id",
        "FIRST open one",
        "cv_context",
        "evidence",
        "do not restate",
        "one requirement at a time",
        "as you go",
    ] {
        assert!(t.contains(w), "{w}");
    }
    assert!(!t.contains("already aligned"));
    assert!(lower.contains("ask"));
    assert!(lower.contains("bullet ceiling") || lower.contains("at most"));
    assert!(lower.contains("refused"));
}

#[test]
fn the_unattended_section() {
    let t = p("tailor");
    let start = t.find("UNATTENDED RUNS").expect("section exists");
    let end = t[start..].find("\n\nLANGUAGE").map_or(t.len(), |i| start + i);
    let section = &t[start..end];
    for w in ["job_match", "\"warn\"", "tailor_report", "check_evidence_fidelity"] {
        assert!(section.contains(w), "{w}");
    }
    assert!(!section.contains("missing_have") && !section.contains("missing_gap"));
    assert!(section.find("job_match").unwrap() < section.find("tailor_report").unwrap());
}

#[test]
fn the_honesty_rule_points_at_the_fidelity_check() {
    let t = p("tailor");
    let at = t.find("Never invent, inflate or imply").expect("honesty rule");
    let window: String = t[at..].chars().take(700).collect();
    assert!(window.contains("check_evidence_fidelity"));
    assert!(window.contains("cv_edit"));
    assert!(["scope", "seniority", "metric"].iter().any(|w| window.contains(w)));
}

#[test]
fn the_browse_prompt_reads_the_page_first() {
    let b = p("browse");
    assert!(b.contains("read_current_page"));
    assert!(b.contains("FIRST thing you do"));
    let chat_part = base_prompt(Preset::Chat);
    let chat_head = chat_part.split("\n\nAPPLICATION MAIL").next().unwrap();
    assert!(b.starts_with(chat_head));
    assert!(b[chat_head.len()..].contains("get_profile"));
    assert!(!b.contains("inbox_"), "mail is chat-only");
}

#[test]
fn the_profile_prompt() {
    let pr = p("profile");
    assert!(pr.contains("experience_get"));
    assert!(pr.contains("CANNOT find an achievement by its id"));
    assert!(!pr.contains("(search them"));
    let lower = pr.to_lowercase();
    assert!(lower.contains("never merge or update an achievement you have not read"));
    assert!(lower.contains("replaced whole"));
}

#[test]
fn the_interview_and_debrief_prompts() {
    for preset in ["interview", "debrief"] {
        let x = p(preset);
        assert!(
            x.contains("interview_context") && x.contains("untrusted") && x.contains("`said`"),
            "{preset}"
        );
    }
    assert!(p("interview").contains("one question at a time"));
    assert!(p("debrief").contains("no score"));
}

// scenario: Language
#[test]
fn the_language_directive() {
    assert!(system_prompt("chat", "ru").contains("Reply to the candidate in Russian"));
    assert!(system_prompt("chat", "es").contains("Reply to the candidate in Spanish"));
    for code in ["en", "xx", ""] {
        assert!(
            system_prompt("chat", code).contains("Reply to the candidate in English"),
            "{code:?}"
        );
    }
    for preset in ["chat", "tailor", "profile", "browse", "interview", "debrief", "nonsense"] {
        let x = system_prompt(preset, "ru");
        assert!(
            x.contains("\n\nLANGUAGE\n\nReply to the candidate in Russian, regardless of"),
            "{preset}"
        );
    }
    let t = system_prompt("tailor", "ru");
    assert!(
        t.contains("vacancy's own language instead") && t.contains("in the vacancy's language")
    );
    for preset in ["chat", "profile", "browse", "interview", "debrief"] {
        assert!(
            !system_prompt(preset, "ru")
                .contains("cv_edit` follows the vacancy's own language instead")
        );
    }
    assert_eq!(language_name("ru"), "Russian");
    for code in ["xx", "", "EN", "ru "] {
        assert_eq!(language_name(code), "English", "{code:?}");
    }
}

// scenario: A prompt names only its own tools
/// Every backticked word in a prompt that names a tool anywhere must be a tool the preset
/// registers (reference `TestPromptOnlyNamesToolsThePresetHas`).
#[test]
fn each_prompt_names_only_tools_its_preset_registers() {
    let every = all_tool_names();
    for preset in Preset::ALL {
        let prompt = system_prompt(preset.as_str(), "ru");
        let own = preset.tool_names();
        let named: Vec<&str> =
            prompt.split('`').skip(1).step_by(2).filter(|w| every.contains(w)).collect();
        assert!(!named.is_empty(), "{preset} names some tools");
        for w in named {
            assert!(own.contains(&w), "{preset} prompt names `{w}`, which it does not register");
        }
    }
    // The check is not vacuous: the tailor prompt does name CV tools.
    assert!(p("tailor").contains(&format!("`{}`", CV_TOOLS[2])));
}

/// A catalogue holding one no-op tool for every name any preset registers.
fn catalogue() -> Registry<UserId> {
    Registry::new(all_tool_names().into_iter().map(|name| -> Arc<dyn Tool<UserId>> {
        Arc::new(from_fn(name, "A stand-in.", |_ctx, owner: UserId, _: NoArgs| async move {
            Ok::<_, String>(owner.get())
        }))
    }))
}

// scenario: Composing a preset
#[test]
fn composing_a_preset_picks_its_prompt_tools_and_step_cap() {
    let catalogue = catalogue();
    for preset in Preset::ALL {
        let c = compose(preset.as_str(), "ru", &catalogue);
        assert_eq!(c.preset, preset);
        assert_eq!(c.system, system_prompt(preset.as_str(), "ru"));
        assert_eq!(c.registry.names(), preset.tool_names(), "{preset}");
        assert_eq!(c.registry.max_result_bytes(), ASSISTANT_RESULT_CAP);
    }
    assert_eq!(compose("tailor", "en", &catalogue).max_steps, Some(TAILOR_MAX_STEPS));
    assert_eq!(TAILOR_MAX_STEPS.get(), 16);
    assert_eq!(compose("chat", "en", &catalogue).max_steps, None);
    let unknown = compose("wizard", "en", &catalogue);
    assert_eq!(unknown.preset, Preset::Chat);
    assert_eq!(unknown.system, p("chat"));
    // A tool the session has not been given (no CV bound yet) is left out, not invented.
    let unbound = catalogue.subset(&["get_profile", "cv_edit"]);
    let c = compose("tailor", "en", &unbound);
    assert_eq!(c.registry.names(), ["get_profile", "cv_edit"]);
}
