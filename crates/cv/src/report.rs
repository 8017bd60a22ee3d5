//! The tailor report of a tailored CV (reference assistant.md §10.6 `tailor_report`, §11.1
//! `MergeAutopilotEntry`, §11.4 `layDownRunPlan`): one entry per vacancy requirement, saying
//! whether the copy now shows it from the bank (`closed_bank`), from something the candidate
//! confirmed (`closed_candidate`), still lacks it (`open`), or the run never got to it
//! (`not_reached`).
//!
//! [`TailorReport::from_items`] is the sanitiser every write goes through (at most
//! [`MAX_REPORT_ITEMS`] entries, a requirement named, texts clipped); [`TailorReport::merge`]
//! replaces the entry whose requirement matches case- and whitespace-insensitively, or appends;
//! [`TailorReport::run_plan`] is what an autopilot run lays down before it starts.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most entries one report holds.
pub const MAX_REPORT_ITEMS: usize = 40;
/// The longest requirement text kept, in characters.
pub const MAX_REQUIREMENT_CHARS: usize = 500;
/// The longest note kept, in characters.
pub const MAX_NOTE_CHARS: usize = 1000;

/// Where one requirement stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RequirementStatus {
    /// The copy shows it, citing the experience bank.
    ClosedBank,
    /// The copy shows it, citing something the candidate confirmed in this conversation.
    ClosedCandidate,
    /// The copy does not show it.
    Open,
    /// The run did not get to it.
    NotReached,
}

impl RequirementStatus {
    /// Every status, in the order the errors list them.
    pub const ALL: [Self; 4] =
        [Self::ClosedBank, Self::ClosedCandidate, Self::Open, Self::NotReached];

    /// The wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ClosedBank => "closed_bank",
            Self::ClosedCandidate => "closed_candidate",
            Self::Open => "open",
            Self::NotReached => "not_reached",
        }
    }

    /// Parses the wire spelling exactly.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|x| x.as_str() == s)
    }

    /// True for the two statuses a `cv_edit` may close a requirement with.
    pub const fn is_closed(self) -> bool {
        matches!(self, Self::ClosedBank | Self::ClosedCandidate)
    }
}

/// One requirement's entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReportItem {
    /// The requirement, as the vacancy words it.
    pub requirement: String,
    /// Where it stands.
    pub status: RequirementStatus,
    /// What was done or what is missing, in a sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// An entry as the model or a client sends it, before sanitising.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportItemInput {
    /// The requirement text, copied verbatim from `cv_context`.
    pub requirement: String,
    /// One of `closed_bank`, `closed_candidate`, `open`, `not_reached`.
    pub status: String,
    /// One sentence on what was done or what is missing.
    #[serde(default)]
    pub note: Option<String>,
}

/// Why a report was refused (nothing is saved).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// More entries than [`MAX_REPORT_ITEMS`].
    #[error(
        "the report has {0} entries; at most {MAX_REPORT_ITEMS} — report the vacancy's requirements, not every sentence"
    )]
    TooMany(usize),
    /// An entry with a blank requirement.
    #[error("entry {0} names no requirement — copy the requirement text from cv_context")]
    NoRequirement(usize),
    /// An entry with an unknown status.
    #[error(
        "entry {index} has status {status:?}; valid statuses are closed_bank, closed_candidate, open, not_reached"
    )]
    BadStatus {
        /// The 0-based entry.
        index: usize,
        /// What it said.
        status: String,
    },
}

/// A tailored CV's report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TailorReport {
    /// One entry per requirement, in the order they were reported.
    pub items: Vec<ReportItem>,
}

fn clip(s: &str, max: usize) -> String {
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed.chars().take(max).collect()
}

/// The key two requirement texts match on: case- and whitespace-insensitive.
fn key(requirement: &str) -> String {
    requirement.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

impl ReportItem {
    /// One sanitised entry (`index` names it in errors).
    pub fn from_input(index: usize, input: &ReportItemInput) -> Result<Self, ReportError> {
        let requirement = clip(&input.requirement, MAX_REQUIREMENT_CHARS);
        if requirement.is_empty() {
            return Err(ReportError::NoRequirement(index));
        }
        let status = RequirementStatus::parse(input.status.trim())
            .ok_or_else(|| ReportError::BadStatus { index, status: input.status.clone() })?;
        let note = input.note.as_deref().map(|n| clip(n, MAX_NOTE_CHARS)).filter(|n| !n.is_empty());
        Ok(Self { requirement, status, note })
    }
}

impl TailorReport {
    /// The sanitised report of `items` (the whole batch or nothing).
    pub fn from_items(items: &[ReportItemInput]) -> Result<Self, ReportError> {
        if items.len() > MAX_REPORT_ITEMS {
            return Err(ReportError::TooMany(items.len()));
        }
        let mut report = Self::default();
        for (i, input) in items.iter().enumerate() {
            report.merge(ReportItem::from_input(i, input)?);
        }
        Ok(report)
    }

    /// The plan an autopilot run lays down first: every non-empty requirement `not_reached`.
    pub fn run_plan<'a>(requirements: impl IntoIterator<Item = &'a str>) -> Self {
        let mut report = Self::default();
        for r in requirements {
            let requirement = clip(r, MAX_REQUIREMENT_CHARS);
            if !requirement.is_empty() && report.items.len() < MAX_REPORT_ITEMS {
                report.merge(ReportItem {
                    requirement,
                    status: RequirementStatus::NotReached,
                    note: None,
                });
            }
        }
        report
    }

    /// Replaces the entry for the same requirement (case- and whitespace-insensitive), or
    /// appends `item` (dropped when the report is full).
    pub fn merge(&mut self, item: ReportItem) {
        let k = key(&item.requirement);
        if let Some(slot) = self.items.iter_mut().find(|i| key(&i.requirement) == k) {
            *slot = item;
        } else if self.items.len() < MAX_REPORT_ITEMS {
            self.items.push(item);
        }
    }

    /// How many entries have `status`.
    pub fn count(&self, status: RequirementStatus) -> usize {
        self.items.iter().filter(|i| i.status == status).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(r: &str, s: &str) -> ReportItemInput {
        ReportItemInput { requirement: r.into(), status: s.into(), note: None }
    }

    #[test]
    fn merge_matches_case_and_whitespace_insensitively() {
        let mut report = TailorReport::run_plan(["Rust in production", "Team  leadership", " "]);
        assert_eq!(report.items.len(), 2, "a blank requirement is not planned");
        report.merge(ReportItem {
            requirement: "rust IN   production".into(),
            status: RequirementStatus::ClosedBank,
            note: Some("bullet 2".into()),
        });
        assert_eq!(report.items.len(), 2);
        assert_eq!(report.items[0].status, RequirementStatus::ClosedBank);
        assert_eq!(report.count(RequirementStatus::NotReached), 1);
    }

    #[test]
    fn sanitising_names_the_entry_and_the_allowed_statuses() {
        let e =
            TailorReport::from_items(&[input("Rust", "open"), input("  ", "open")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "entry 1 names no requirement — copy the requirement text from cv_context"
        );
        let e = TailorReport::from_items(&[input("Rust", "done")]).unwrap_err();
        assert!(e.to_string().contains("\"done\"") && e.to_string().contains("not_reached"), "{e}");
        let many: Vec<_> = (0..41).map(|i| input(&format!("r{i}"), "open")).collect();
        assert!(matches!(TailorReport::from_items(&many), Err(ReportError::TooMany(41))));
    }

    #[test]
    fn texts_are_clipped() {
        let long = "x".repeat(600);
        let mut i = input(&long, "open");
        i.note = Some("n".repeat(2000));
        let r = TailorReport::from_items(&[i]).unwrap();
        assert_eq!(r.items[0].requirement.chars().count(), MAX_REQUIREMENT_CHARS);
        assert_eq!(r.items[0].note.as_ref().map(|n| n.chars().count()), Some(MAX_NOTE_CHARS));
    }
}
