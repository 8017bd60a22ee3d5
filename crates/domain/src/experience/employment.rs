//! Employments: the jobs and projects of the experience bank (reference assistant.md §12.1).
//!
//! The JSON is kind-aware: a job carries `company`; a project carries `name` and `link`
//! (incoming project JSON accepts `company` as a fallback for `name`). Dates are `{year,
//! month?}`; a current employment has no end.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::limits::{MAX_SHORT_CHARS, MAX_SUMMARY_CHARS, canonical_skills, clip};
use crate::{DomainError, EmploymentId, EmploymentKind, UserId};

/// A month or a year: `{year, month?}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Period {
    /// 1900–2100.
    pub year: i32,
    /// 1–12 when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub month: Option<u8>,
}

impl Period {
    /// Checks the ranges; `field` names the date in the error (`start` or `end`).
    pub fn new(year: i32, month: Option<u8>, field: &'static str) -> Result<Self, DomainError> {
        if !(1900..=2100).contains(&year) {
            return Err(DomainError::invalid(field, year.to_string(), "year must be 1900–2100"));
        }
        if let Some(m) = month
            && !(1..=12).contains(&m)
        {
            return Err(DomainError::invalid(field, m.to_string(), "month must be 1–12"));
        }
        Ok(Self { year, month })
    }

    /// A sort key: an unknown month sorts as January of that year.
    pub fn key(self) -> (i32, u8) {
        (self.year, self.month.unwrap_or(1))
    }
}

/// What a writer sends for an employment: create and full replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmploymentDraft {
    /// `job` or `project`.
    pub kind: EmploymentKind,
    /// The place label: the company of a job, the name of a project.
    pub company: String,
    /// The role held.
    pub role: String,
    /// Free text, may be empty.
    pub location: String,
    /// When it started.
    pub start: Option<Period>,
    /// When it ended; always `None` for a current one.
    pub end: Option<Period>,
    /// Still going.
    pub current: bool,
    /// A short summary, may be empty.
    pub summary: String,
    /// A project's link, may be empty.
    pub link: String,
    /// Canonical skill slugs.
    pub stack: Vec<String>,
}

impl EmploymentDraft {
    /// An empty draft of `kind`.
    pub fn new(kind: EmploymentKind) -> Self {
        Self {
            kind,
            company: String::new(),
            role: String::new(),
            location: String::new(),
            start: None,
            end: None,
            current: false,
            summary: String::new(),
            link: String::new(),
            stack: Vec::new(),
        }
    }

    /// Trims and clips every string, canonicalises the stack (unknown skills dropped), clears
    /// the end of a current employment and the link of a job.
    pub fn sanitize(mut self, canon: &dyn Fn(&str) -> Option<String>) -> Self {
        self.company = clip(&self.company, MAX_SHORT_CHARS);
        self.role = clip(&self.role, MAX_SHORT_CHARS);
        self.location = clip(&self.location, MAX_SHORT_CHARS);
        self.summary = clip(&self.summary, MAX_SUMMARY_CHARS);
        self.link = match self.kind {
            EmploymentKind::Project => clip(&self.link, MAX_SHORT_CHARS),
            EmploymentKind::Job => String::new(),
        };
        self.stack = canonical_skills(&self.stack, canon);
        if self.current {
            self.end = None;
        }
        self
    }

    /// A company (or project name) or a role is required; the end is not before the start.
    pub fn validate(&self) -> Result<(), DomainError> {
        if self.company.trim().is_empty() && self.role.trim().is_empty() {
            let field = match self.kind {
                EmploymentKind::Job => "company",
                EmploymentKind::Project => "name",
            };
            return Err(DomainError::invalid(
                field,
                "",
                "a company (or project name) or a role is required",
            ));
        }
        if let (Some(s), Some(e)) = (self.start, self.end)
            && e.key() < s.key()
        {
            return Err(DomainError::invalid(
                "end",
                format!("{}-{:02}", e.year, e.month.unwrap_or(1)),
                "is before the start",
            ));
        }
        Ok(())
    }
}

/// A stored employment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Employment {
    /// Its id.
    pub id: EmploymentId,
    /// Its owner.
    pub user_id: UserId,
    /// Its fields.
    pub draft: EmploymentDraft,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

/// Sorts employments as the bank lists them: current first, then by start (year, month)
/// descending, then newest id first.
pub fn sort_employments(list: &mut [Employment]) {
    list.sort_by(|a, b| {
        b.draft
            .current
            .cmp(&a.draft.current)
            .then_with(|| b.draft.start.map(Period::key).cmp(&a.draft.start.map(Period::key)))
            .then_with(|| b.id.cmp(&a.id))
    });
}

/// "Mar 2021 – Present", "2019 – 2021", "2020": `None` without a start.
pub fn format_range(start: Option<Period>, end: Option<Period>, current: bool) -> Option<String> {
    const MONTHS: [&str; 12] =
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let show = |p: Period| match p.month.and_then(|m| MONTHS.get(usize::from(m).wrapping_sub(1))) {
        Some(m) => format!("{m} {}", p.year),
        None => p.year.to_string(),
    };
    let start = show(start?);
    match (end, current) {
        (_, true) => Some(format!("{start} – Present")),
        (Some(e), false) if show(e) != start => Some(format!("{start} – {}", show(e))),
        _ => Some(start),
    }
}

/// The wire shape shared by both kinds.
#[derive(Serialize, Deserialize)]
struct Wire {
    kind: EmploymentKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    company: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default)]
    role: String,
    #[serde(default)]
    location: String,
    #[serde(default)]
    start: Option<Period>,
    #[serde(default)]
    end: Option<Period>,
    #[serde(default)]
    current: bool,
    #[serde(default)]
    summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    link: Option<String>,
    #[serde(default)]
    stack: Vec<String>,
}

impl Serialize for EmploymentDraft {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let project = self.kind == EmploymentKind::Project;
        Wire {
            kind: self.kind,
            company: (!project).then(|| self.company.clone()),
            name: project.then(|| self.company.clone()),
            role: self.role.clone(),
            location: self.location.clone(),
            start: self.start,
            end: self.end,
            current: self.current,
            summary: self.summary.clone(),
            link: project.then(|| self.link.clone()),
            stack: self.stack.clone(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for EmploymentDraft {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = Wire::deserialize(d)?;
        let check = |p: Option<Period>, field| {
            p.map(|p| Period::new(p.year, p.month, field))
                .transpose()
                .map_err(serde::de::Error::custom)
        };
        let company = match w.kind {
            EmploymentKind::Job => w.company.unwrap_or_default(),
            EmploymentKind::Project => w.name.or(w.company).unwrap_or_default(),
        };
        Ok(Self {
            kind: w.kind,
            company,
            role: w.role,
            location: w.location,
            start: check(w.start, "start")?,
            end: check(w.end, "end")?,
            current: w.current,
            summary: w.summary,
            link: w.link.unwrap_or_default(),
            stack: w.stack,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> Option<String> {
        ["rust", "go", "kubernetes"].contains(&s.to_lowercase().as_str()).then(|| s.to_lowercase())
    }

    // scenario: Employment JSON is kind-aware
    #[test]
    fn json_is_kind_aware() {
        let mut job = EmploymentDraft::new(EmploymentKind::Job);
        job.company = "Acme".into();
        let v = serde_json::to_value(&job).unwrap();
        assert_eq!(v["company"], "Acme");
        assert!(v.get("name").is_none() && v.get("link").is_none());

        let p: EmploymentDraft =
            serde_json::from_str(r#"{"kind":"project","company":"Legacy","link":"https://x"}"#)
                .unwrap();
        assert_eq!((p.company.as_str(), p.link.as_str()), ("Legacy", "https://x"));
        let p: EmploymentDraft =
            serde_json::from_str(r#"{"kind":"project","name":"Tool","company":"Legacy"}"#).unwrap();
        assert_eq!(p.company, "Tool");
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["name"], "Tool");
        assert!(v.get("company").is_none());
    }

    #[test]
    fn bad_kind_and_dates_are_named() {
        let e = serde_json::from_str::<EmploymentDraft>(r#"{"kind":"gig"}"#).unwrap_err();
        assert!(e.to_string().contains("job, project"), "{e}");
        let e = serde_json::from_str::<EmploymentDraft>(
            r#"{"kind":"job","start":{"year":2020,"month":13}}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("month must be 1–12"), "{e}");
    }

    #[test]
    fn validate_needs_a_place_or_a_role_and_ordered_dates() {
        let mut d = EmploymentDraft::new(EmploymentKind::Project);
        assert!(d.validate().unwrap_err().to_string().contains("name"));
        d.role = "Maintainer".into();
        assert!(d.validate().is_ok());
        d.start = Some(Period::new(2022, Some(5), "start").unwrap());
        d.end = Some(Period::new(2021, None, "end").unwrap());
        assert!(d.validate().unwrap_err().to_string().contains("before the start"));
    }

    #[test]
    fn sanitize_clips_canonicalises_and_clears_the_end_of_a_current_job() {
        let mut d = EmploymentDraft::new(EmploymentKind::Job);
        d.company = format!("  {}  ", "x".repeat(300));
        d.stack = vec!["Rust".into(), "COBOL-ish".into(), "rust".into()];
        d.current = true;
        d.end = Some(Period::new(2020, None, "end").unwrap());
        d.link = "https://ignored".into();
        let d = d.sanitize(&canon);
        assert_eq!(d.company.chars().count(), MAX_SHORT_CHARS);
        assert_eq!(d.stack, ["rust"]);
        assert_eq!((d.end, d.link.as_str()), (None, ""));
    }

    #[test]
    fn ranges_read_like_a_cv() {
        let p = |y, m| Some(Period { year: y, month: m });
        assert_eq!(
            format_range(p(2021, Some(3)), None, true).as_deref(),
            Some("Mar 2021 – Present")
        );
        assert_eq!(
            format_range(p(2019, None), p(2021, None), false).as_deref(),
            Some("2019 – 2021")
        );
        assert_eq!(format_range(p(2020, None), p(2020, None), false).as_deref(), Some("2020"));
        assert_eq!(format_range(None, p(2020, None), false), None);
    }

    #[test]
    fn listing_order_is_current_first_then_newest_start() {
        let at = DateTime::<Utc>::UNIX_EPOCH;
        let mk = |id, current, year: Option<i32>| {
            let mut d = EmploymentDraft::new(EmploymentKind::Job);
            d.current = current;
            d.start = year.map(|y| Period::new(y, None, "start").unwrap());
            Employment {
                id: EmploymentId::new(id).unwrap(),
                user_id: UserId::new(1).unwrap(),
                draft: d,
                created_at: at,
                updated_at: at,
            }
        };
        let mut list = vec![
            mk(1, false, Some(2015)),
            mk(2, false, None),
            mk(3, true, Some(2010)),
            mk(4, false, Some(2020)),
        ];
        sort_employments(&mut list);
        assert_eq!(list.iter().map(|e| e.id.get()).collect::<Vec<_>>(), [3, 4, 1, 2]);
    }
}
