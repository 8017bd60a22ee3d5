//! The silence clock and the follow-up draft (reference §7.3, §16.6). Deterministic: no model,
//! no clock of its own (the caller passes `now`), no IO.
//!
//! An applied, unsettled application has a [`Silence`]: when it last moved
//! (`last_activity_at`, the applied date until a mail surface links replies), how many whole
//! days have passed since, and whether that is past its stage's threshold
//! ([`SilenceState::Silent`]). Only a silent application gets a [`FollowupDraft`].

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::Stage;

/// Where an application stands on the silence ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SilenceState {
    /// Within its stage's tolerated days.
    Waiting,
    /// Past them: a follow-up is due.
    Silent,
}

impl SilenceState {
    /// The wire value.
    pub const fn as_str(self) -> &'static str {
        match self {
            SilenceState::Waiting => "waiting",
            SilenceState::Silent => "silent",
        }
    }
}

/// An applied application's silence clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Silence {
    /// The later of the applied date and the newest linked reply.
    pub last_activity_at: DateTime<Utc>,
    /// Whole days since then (0 when it is in the future).
    pub days_silent: u32,
    /// Whether that is past the stage's threshold.
    pub state: SilenceState,
}

/// The silence clock of an application at `stage`, applied at `applied_at` (reference §7.3).
/// `None` (all three fields null on the wire) when it has not been applied, has no stage past
/// `preparing`, or is settled. A missing stage with an applied date counts as `applied`.
pub fn silence(
    stage: Option<Stage>,
    applied_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Option<Silence> {
    let applied_at = applied_at?;
    let stage = stage.unwrap_or(Stage::Applied);
    if !stage.is_applied() {
        return None;
    }
    let threshold = stage.silence_threshold_days()?;
    let last_activity_at = applied_at;
    let days = (now - last_activity_at).num_days().max(0);
    let days_silent = u32::try_from(days).unwrap_or(u32::MAX);
    let state = if days_silent > threshold { SilenceState::Silent } else { SilenceState::Waiting };
    Some(Silence { last_activity_at, days_silent, state })
}

/// How long ago, in the draft's words (reference §7.3, the table of §16.6): from 45 days on,
/// months = (d + 15) / 30, else weeks = (d + 3) / 7 (integer division); ≤ 1 is "a week" /
/// "a month", 2–9 are words, ≥ 10 is "several".
pub fn elapsed_wording(days: u32) -> String {
    let (count, unit) =
        if days >= 45 { ((days + 15) / 30, "month") } else { ((days + 3) / 7, "week") };
    const WORDS: [&str; 10] =
        ["", "", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    match count {
        0 | 1 => format!("a {unit}"),
        2..=9 => format!("{} {unit}s", WORDS[count as usize]),
        _ => format!("several {unit}s"),
    }
}

/// What the draft is written from.
#[derive(Debug, Clone)]
pub struct FollowupInput<'a> {
    /// The role's title.
    pub role: &'a str,
    /// The company's display name.
    pub company: &'a str,
    /// The application's stage (`None` counts as `applied`).
    pub stage: Option<Stage>,
    /// Days since the last activity.
    pub days_silent: u32,
    /// The recruiter's or hiring manager's name, when known.
    pub contact_name: Option<&'a str>,
    /// One strength from the cached fit analysis, when there is one.
    pub strength: Option<&'a str>,
}

/// A follow-up message to copy into the candidate's own mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FollowupDraft {
    /// "Following up: <Role> application".
    pub subject: String,
    /// Paragraphs joined by blank lines.
    pub body: String,
}

/// The deterministic follow-up draft (reference §7.3).
pub fn followup_draft(input: &FollowupInput<'_>) -> FollowupDraft {
    let role = input.role.trim();
    let company = input.company.trim();
    let elapsed = elapsed_wording(input.days_silent);
    let first_stage = matches!(input.stage, None | Some(Stage::Applied) | Some(Stage::Preparing));
    let greeting = match input.contact_name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => format!("Hi {name},"),
        None => "Hello,".to_owned(),
    };
    let company_part = if company.is_empty() { String::new() } else { format!(" at {company}") };
    let (opening, question) = if first_stage {
        (
            format!(
                "I applied for the {role} role{company_part} {elapsed} ago and have not had a reply yet."
            ),
            "Is the role still open, and what is the timeline for the next step?",
        )
    } else {
        (
            format!(
                "We last spoke about the {role} role{company_part} {elapsed} ago, and I have not heard since."
            ),
            "Where does my application stand, and what are the next steps?",
        )
    };
    let mut paragraphs = vec![greeting, opening];
    if let Some(strength) = input.strength.map(str::trim).filter(|s| !s.is_empty()) {
        let strength = strength.trim_end_matches('.');
        paragraphs.push(format!("For context: {strength}."));
    }
    paragraphs.push(question.to_owned());
    paragraphs.push("Thanks for your time.".to_owned());
    FollowupDraft {
        subject: format!("Following up: {role} application"),
        body: paragraphs.join("\n\n"),
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;

    #[test]
    fn elapsed_wording_matches_the_reference_table() {
        for (days, wording) in [
            (10, "a week"),
            (14, "two weeks"),
            (44, "six weeks"),
            (45, "two months"),
            (300, "several months"),
            (0, "a week"),
            (66, "two months"),
            (75, "three months"),
        ] {
            assert_eq!(elapsed_wording(days), wording, "{days} days");
        }
    }

    #[test]
    fn silence_follows_the_ladder() {
        let applied = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
        let at = |d| applied + Duration::days(d);
        let s = silence(Some(Stage::Applied), Some(applied), at(21)).unwrap();
        assert_eq!((s.days_silent, s.state), (21, SilenceState::Waiting));
        assert_eq!(silence(None, Some(applied), at(22)).unwrap().state, SilenceState::Silent);
        assert_eq!(
            silence(Some(Stage::Offer), Some(applied), at(6)).unwrap().state,
            SilenceState::Silent
        );
        assert_eq!(
            silence(Some(Stage::Interview), Some(applied), at(12)).unwrap().state,
            SilenceState::Waiting
        );
        assert_eq!(silence(Some(Stage::Rejected), Some(applied), at(90)), None);
        assert_eq!(silence(Some(Stage::Preparing), Some(applied), at(90)), None);
        assert_eq!(silence(Some(Stage::Applied), None, at(90)), None);
        assert_eq!(silence(Some(Stage::Applied), Some(applied), at(-3)).unwrap().days_silent, 0);
    }

    #[test]
    fn the_applied_draft() {
        let d = followup_draft(&FollowupInput {
            role: "Backend Engineer",
            company: "Acme",
            stage: Some(Stage::Applied),
            days_silent: 24,
            contact_name: None,
            strength: None,
        });
        assert_eq!(d.subject, "Following up: Backend Engineer application");
        assert_eq!(
            d.body,
            "Hello,\n\nI applied for the Backend Engineer role at Acme three weeks ago and have not had a reply yet.\n\nIs the role still open, and what is the timeline for the next step?\n\nThanks for your time."
        );
    }

    #[test]
    fn a_later_stage_draft_with_name_and_context() {
        let d = followup_draft(&FollowupInput {
            role: "SRE",
            company: "Initech",
            stage: Some(Stage::Interview),
            days_silent: 50,
            contact_name: Some("Dana"),
            strength: Some("five years running Kubernetes in production."),
        });
        assert_eq!(
            d.body,
            "Hi Dana,\n\nWe last spoke about the SRE role at Initech two months ago, and I have not heard since.\n\nFor context: five years running Kubernetes in production.\n\nWhere does my application stand, and what are the next steps?\n\nThanks for your time."
        );
    }
}
