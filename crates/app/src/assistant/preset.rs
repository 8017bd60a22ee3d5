//! Presets (reference §2.1, §9.1, §10.1): the one switch that picks a session's system prompt
//! and its tools, so the two can never disagree.
//!
//! The tools themselves are built in [`tools`](super::tools); this module declares, per
//! preset, the tool names a session registers when it is fully bound and every group exists (a
//! tailor session with its CV and job, an interview or debrief session with its job), so the
//! full prompts can be checked against them and [`compose`](super::compose) can pick them from
//! a catalogue. What a session registers today is [`registry_for`](super::registry_for).

use freehire_assistant::StepLimit;

use super::TAILOR_MAX_STEPS;

/// A session's preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The general job-search assistant (with application mail).
    Chat,
    /// Tailoring one CV copy to one vacancy.
    Tailor,
    /// Interviewing the candidate to fill their experience bank.
    Profile,
    /// The browser side panel, reading the current page.
    Browse,
    /// A mock interview for one vacancy.
    Interview,
    /// Reviewing a real interview after it happened.
    Debrief,
}

/// Discovery tools: every preset.
pub const DISCOVERY_TOOLS: &[&str] = &[
    "get_profile",
    "facets",
    "search_jobs",
    "get_job",
    "get_company",
    "market_fit",
    "present_jobs",
];
/// Tracking tools: every preset.
pub const TRACKING_TOOLS: &[&str] =
    &["save_job", "unsave_job", "apply_job", "track_job", "my_jobs"];
/// Experience-bank tools: every preset.
pub const BANK_TOOLS: &[&str] = &[
    "experience_search",
    "experience_get",
    "experience_employments",
    "experience_add",
    "experience_update",
    "experience_merge",
    "experience_set_require_context",
];
/// The screening tool: every preset.
pub const SCREENING_TOOLS: &[&str] = &["screening_answers_set"];
/// CV tools: a tailor session bound to a CV and a job.
pub const CV_TOOLS: &[&str] = &[
    "cv_context",
    "cv_get",
    "cv_edit",
    "tailor_report",
    "request_confirmation",
    "job_match",
    "check_evidence_fidelity",
    "cv_page_count",
    "cover_letter_draft",
];
/// Mail tools: chat only.
pub const MAIL_TOOLS: &[&str] = &[
    "inbox_overview",
    "inbox_search",
    "inbox_triage",
    "inbox_resolve_suggestion",
    "inbox_link",
    "inbox_unlink",
    "inbox_record_application",
];
/// Interview tools: interview and debrief sessions bound to a job.
pub const INTERVIEW_TOOLS: &[&str] = &["interview_context"];
/// Browse tools: browse only.
pub const BROWSE_TOOLS: &[&str] = &["read_current_page"];

/// Every tool name any preset may register.
pub fn all_tool_names() -> Vec<&'static str> {
    [
        DISCOVERY_TOOLS,
        TRACKING_TOOLS,
        BANK_TOOLS,
        SCREENING_TOOLS,
        CV_TOOLS,
        MAIL_TOOLS,
        INTERVIEW_TOOLS,
        BROWSE_TOOLS,
    ]
    .concat()
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 6] =
        [Self::Chat, Self::Tailor, Self::Profile, Self::Browse, Self::Interview, Self::Debrief];

    /// The stored spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Chat => "chat",
            Self::Tailor => "tailor",
            Self::Profile => "profile",
            Self::Browse => "browse",
            Self::Interview => "interview",
            Self::Debrief => "debrief",
        }
    }

    /// Parses the exact stored spelling.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// The tool names a fully bound session of this preset gets, in registry order.
    pub fn tool_names(self) -> Vec<&'static str> {
        let common = [DISCOVERY_TOOLS, TRACKING_TOOLS, BANK_TOOLS, SCREENING_TOOLS];
        let extra: &[&str] = match self {
            Self::Chat => MAIL_TOOLS,
            Self::Tailor => CV_TOOLS,
            Self::Profile => &[],
            Self::Browse => BROWSE_TOOLS,
            Self::Interview | Self::Debrief => INTERVIEW_TOOLS,
        };
        let mut names = common.concat();
        names.extend_from_slice(extra);
        names
    }

    /// The step cap of this preset's interactive turns: [`TAILOR_MAX_STEPS`] for tailor,
    /// `None` (the runner's own) for every other preset.
    pub fn max_steps(self) -> Option<StepLimit> {
        (self == Self::Tailor).then_some(TAILOR_MAX_STEPS)
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The preset for any string: the exact spelling of `tailor`, `profile`, `browse`,
/// `interview` or `debrief`, and `chat` for everything else (`""`, `wizard`, `browze`…).
pub fn normalize_preset(p: &str) -> Preset {
    Preset::parse(p).unwrap_or(Preset::Chat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_presets_are_chat() {
        for p in ["", "wizard", "browze", "Tailor", " tailor"] {
            assert_eq!(normalize_preset(p), Preset::Chat, "{p:?}");
        }
        for p in Preset::ALL {
            assert_eq!(normalize_preset(p.as_str()), p);
        }
    }

    #[test]
    fn groups_follow_the_matrix() {
        assert!(Preset::Chat.tool_names().contains(&"inbox_search"));
        assert!(!Preset::Tailor.tool_names().contains(&"inbox_search"));
        assert!(Preset::Tailor.tool_names().contains(&"cv_edit"));
        assert!(!Preset::Profile.tool_names().contains(&"cv_edit"));
        assert!(Preset::Browse.tool_names().contains(&"read_current_page"));
        assert!(Preset::Debrief.tool_names().contains(&"interview_context"));
        for p in Preset::ALL {
            assert!(p.tool_names().starts_with(DISCOVERY_TOOLS));
        }
    }

    #[test]
    fn only_tailor_turns_have_their_own_step_cap() {
        assert_eq!(Preset::Tailor.max_steps().map(StepLimit::get), Some(16));
        for p in Preset::ALL.into_iter().filter(|p| *p != Preset::Tailor) {
            assert_eq!(p.max_steps(), None, "{p}");
        }
        assert_eq!(super::super::AUTOPILOT_MAX_STEPS.get(), 30);
    }
}
