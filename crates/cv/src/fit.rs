//! What a vacancy asks for and how much of it a CV shows (reference assistant.md §10.6
//! `cv_context`, `job_match`), computed without a model so the score is deterministic and
//! free to recompute after every edit.
//!
//! - [`requirements`]: the requirement lines of a description (as Markdown): the bullets under
//!   headings such as "Requirements", "What you'll bring", "About you" (required) or "Nice to
//!   have", "Bonus" (preferred); without such a heading, the bullets that read like a
//!   requirement ("3+ years of …", "experience with …").
//! - [`CvText`]: a CV's words and canonical skills, read once; [`CvText::coverage`] says how
//!   much of one requirement it shows.
//! - [`job_match`]: the score in four categories (Requirements Coverage, Keyword Match, Job
//!   Title Match, Seniority Fit), each item `ok` or `warn`; `None` when nothing about the
//!   vacancy could be matched.

use std::collections::HashSet;

use serde::Serialize;

use crate::CvDocument;

/// The most requirements read from one description.
pub const MAX_REQUIREMENTS: usize = 25;
/// The longest requirement text kept, in characters.
pub const MAX_REQUIREMENT_TEXT: usize = 300;

/// How much a requirement weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// The vacancy requires it.
    Required,
    /// The vacancy would like it.
    Preferred,
}

/// One requirement of a vacancy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// The requirement as the vacancy words it (Markdown removed).
    pub text: String,
    /// Required or preferred.
    pub priority: Priority,
}

const PREFERRED_CUES: &[&str] = &[
    "nice to have",
    "nice-to-have",
    "bonus",
    "preferred",
    "a plus",
    "pluses",
    "desirable",
    "good to have",
    "extra credit",
    "would be great",
];
const REQUIRED_CUES: &[&str] = &[
    "requirement",
    "qualification",
    "what you bring",
    "what you'll bring",
    "what you will bring",
    "you bring",
    "you have",
    "you'll have",
    "looking for",
    "must have",
    "must-have",
    "about you",
    "who you are",
    "skills",
    "what we need",
    "what you need",
    "you should have",
    "your profile",
    "ideal candidate",
    "experience",
    "competenc",
];
/// Words that make a bullet read like a requirement when no heading says so.
const LINE_CUES: &[&str] = &[
    "experience",
    "years",
    "knowledge",
    "proficien",
    "familiar",
    "degree",
    "understanding of",
    "ability to",
    "fluent",
    "expertise",
];

fn heading_priority(heading: &str) -> Option<Priority> {
    let h = heading.to_lowercase();
    if PREFERRED_CUES.iter().any(|c| h.contains(c)) {
        Some(Priority::Preferred)
    } else if REQUIRED_CUES.iter().any(|c| h.contains(c)) {
        Some(Priority::Required)
    } else {
        None
    }
}

/// The text of a Markdown line without emphasis, links' targets, code marks or escapes.
fn plain(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' | '_' | '`' | '\\' => {}
            ']' if chars.peek() == Some(&'(') => {
                for c in chars.by_ref() {
                    if c == ')' {
                        break;
                    }
                }
            }
            '[' => {}
            _ => out.push(c),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The item text of a bullet or numbered line, or `None`.
fn bullet(line: &str) -> Option<&str> {
    let t = line.trim_start();
    for marker in ["* ", "- ", "+ ", "• ", "· ", "– "] {
        if let Some(rest) = t.strip_prefix(marker) {
            return Some(rest);
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && digits < 3 {
        let rest = &t[digits..];
        if let Some(rest) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return Some(rest);
        }
    }
    None
}

/// The heading a non-bullet line is, or `None` for a paragraph.
fn heading(line: &str) -> Option<String> {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix('#') {
        return Some(plain(rest.trim_start_matches('#')));
    }
    let text = plain(t);
    let bold = t.starts_with("**") && t.ends_with("**") && t.len() > 4;
    let short = text.chars().count() <= 80;
    (short && (bold || text.ends_with(':'))).then(|| text.trim_end_matches(':').to_owned())
}

fn clip(s: &str) -> String {
    s.chars().take(MAX_REQUIREMENT_TEXT).collect::<String>().trim().to_owned()
}

/// The requirements of a description given as Markdown (see the module docs), in the order
/// they appear, duplicates dropped, at most [`MAX_REQUIREMENTS`].
pub fn requirements(markdown: &str) -> Vec<Requirement> {
    let mut under: Option<Priority> = None;
    let mut found = Vec::new();
    let mut loose = Vec::new();
    for line in markdown.lines() {
        if let Some(item) = bullet(line) {
            let text = clip(&plain(item));
            if text.split_whitespace().count() < 2 {
                continue;
            }
            let lower = text.to_lowercase();
            let inline_preferred = PREFERRED_CUES.iter().any(|c| lower.contains(c));
            match under {
                Some(p) => {
                    let priority = if inline_preferred { Priority::Preferred } else { p };
                    found.push(Requirement { text, priority });
                }
                None if LINE_CUES.iter().any(|c| lower.contains(c)) => {
                    let priority =
                        if inline_preferred { Priority::Preferred } else { Priority::Required };
                    loose.push(Requirement { text, priority });
                }
                None => {}
            }
        } else if let Some(h) = heading(line) {
            under = heading_priority(&h);
        }
    }
    let mut out = if found.is_empty() { loose } else { found };
    let mut seen = HashSet::new();
    out.retain(|r| seen.insert(r.text.to_lowercase()));
    out.truncate(MAX_REQUIREMENTS);
    out
}

const STOPWORDS: &[&str] = &[
    "and",
    "the",
    "for",
    "with",
    "you",
    "your",
    "our",
    "are",
    "have",
    "has",
    "that",
    "this",
    "from",
    "into",
    "using",
    "use",
    "able",
    "ability",
    "strong",
    "good",
    "great",
    "solid",
    "excellent",
    "experience",
    "experienced",
    "years",
    "year",
    "knowledge",
    "understanding",
    "plus",
    "bonus",
    "nice",
    "etc",
    "such",
    "least",
    "more",
    "work",
    "working",
    "skills",
    "skill",
    "proven",
    "track",
    "record",
    "who",
    "will",
    "can",
    "any",
    "all",
    "other",
    "well",
    "also",
    "being",
    "least",
    "including",
    "like",
    "both",
    "one",
    "two",
    "three",
    "minimum",
    "preferred",
    "required",
    "must",
    "should",
    "would",
    "familiarity",
    "familiar",
    "proficiency",
    "proficient",
    "deep",
    "hands",
    "demonstrated",
    "related",
    "relevant",
    "field",
    "equivalent",
    "similar",
];

/// A comparable form of a word: lowercased, a plural `s` and common endings dropped, at most
/// six characters (so "scaling" and "scalable" meet at "scal…" and "teams" at "team").
fn stem(word: &str) -> String {
    let mut w = word.to_lowercase();
    for suffix in ["ing", "ed", "es", "s"] {
        if w.len() > suffix.len() + 3 && w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            break;
        }
    }
    w.chars().take(6).collect()
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '+' || c == '#')).filter(|w| !w.is_empty())
}

/// The content words of a text (no stopwords, no numbers, at least 3 characters), stemmed.
fn content_stems(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in words(text) {
        let lower = w.to_lowercase();
        if lower.chars().count() < 3
            || lower.chars().all(|c| c.is_ascii_digit())
            || STOPWORDS.contains(&lower.as_str())
        {
            continue;
        }
        let s = stem(&lower);
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The plain text of a CV: headline, summary, roles and bullets, projects, skills, education
/// and extra sections, one line each (contacts left out: they match nothing).
pub fn document_text(doc: &CvDocument) -> String {
    let mut lines: Vec<&str> = vec![&doc.header.headline, &doc.summary];
    for e in &doc.experience {
        lines.extend([e.role.as_str(), e.company.as_str()]);
        lines.extend(e.bullets.iter().map(String::as_str));
    }
    for p in &doc.projects {
        lines.extend([p.name.as_str(), p.summary.as_str()]);
        lines.extend(p.bullets.iter().map(String::as_str));
    }
    for g in &doc.skills {
        lines.push(&g.name);
        lines.extend(g.items.iter().map(String::as_str));
    }
    for e in &doc.education {
        lines.extend([e.school.as_str(), e.degree.as_str()]);
        lines.extend(e.details.iter().map(String::as_str));
    }
    for s in &doc.sections {
        lines.push(&s.title);
        lines.extend(s.items.iter().map(String::as_str));
    }
    lines.into_iter().filter(|l| !l.trim().is_empty()).collect::<Vec<_>>().join("\n")
}

/// How much of a requirement a CV shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shown {
    /// Its skills and most of its words are on the CV.
    Shown,
    /// Some of it is.
    Partly,
    /// None of it is.
    Missing,
}

/// A CV's words and skills, read once for many comparisons.
#[derive(Debug, Clone)]
pub struct CvText {
    stems: HashSet<String>,
    skills: HashSet<String>,
    headline_and_roles: HashSet<String>,
    lower: String,
}

impl CvText {
    /// Reads `doc`.
    pub fn new(doc: &CvDocument) -> Self {
        let text = document_text(doc);
        let stems = words(&text).map(stem).collect();
        let mut skills: HashSet<String> =
            freehire_normalize::skills_mentioned(&text).into_iter().map(str::to_owned).collect();
        for item in doc.skills.iter().flat_map(|g| &g.items) {
            if let Some(slug) = freehire_normalize::canonical_skill(item) {
                skills.insert(slug.to_owned());
            }
        }
        let mut titles = doc.header.headline.clone();
        for e in &doc.experience {
            titles.push(' ');
            titles.push_str(&e.role);
        }
        let headline_and_roles = words(&titles).map(stem).collect();
        Self { stems, skills, headline_and_roles, lower: text.to_lowercase() }
    }

    /// True when the CV's text contains `phrase`, case-insensitively.
    pub fn contains(&self, phrase: &str) -> bool {
        self.lower.contains(&phrase.to_lowercase())
    }

    /// True when the CV shows the canonical skill `slug`.
    pub fn has_skill(&self, slug: &str) -> bool {
        self.skills.contains(slug)
    }

    /// How much of `requirement` the CV shows: every skill it names and at least 60 % of its
    /// content words is [`Shown::Shown`]; any skill or 30 % of the words is
    /// [`Shown::Partly`].
    pub fn coverage(&self, requirement: &str) -> Shown {
        let skills = freehire_normalize::skills_mentioned(requirement);
        let stems = content_stems(requirement);
        let skills_hit = skills.iter().filter(|s| self.skills.contains(**s)).count();
        let words_hit = stems.iter().filter(|s| self.stems.contains(*s)).count();
        let word_share = if stems.is_empty() { 0.0 } else { words_hit as f64 / stems.len() as f64 };
        let all_skills = skills_hit == skills.len();
        if (!skills.is_empty() || !stems.is_empty()) && all_skills && word_share >= 0.6
            || !skills.is_empty() && all_skills && stems.len() <= skills.len()
        {
            Shown::Shown
        } else if skills_hit > 0 || word_share >= 0.3 {
            Shown::Partly
        } else {
            Shown::Missing
        }
    }
}

/// What a vacancy is, for [`job_match`].
#[derive(Debug, Clone, Copy)]
pub struct Vacancy<'a> {
    /// Its title.
    pub title: &'a str,
    /// Its canonical skill slugs.
    pub skills: &'a [String],
    /// Its seniority grade (`junior`, `senior`, `lead`, …), when known.
    pub seniority: Option<&'a str>,
    /// The fewest years of experience it asks for, when it says.
    pub years_min: Option<i32>,
    /// Its requirements ([`requirements`]).
    pub requirements: &'a [Requirement],
}

/// An item's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemStatus {
    /// The CV shows it.
    Ok,
    /// The CV does not show it (yet).
    Warn,
}

/// One checked item of a category.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchItem {
    /// What was checked.
    pub label: String,
    /// Its verdict.
    pub status: ItemStatus,
    /// Why, in a few words.
    pub detail: String,
}

/// One category of the score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchCategory {
    /// `Requirements Coverage`, `Keyword Match`, `Job Title Match` or `Seniority Fit`.
    pub name: &'static str,
    /// 0–100.
    pub score: u8,
    /// Its share of the total.
    pub weight: u8,
    /// What was checked.
    pub items: Vec<MatchItem>,
}

/// The deterministic CV-versus-vacancy score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobMatch {
    /// 0–100: the categories' scores by weight.
    pub score: u8,
    /// The categories that had something to check.
    pub categories: Vec<MatchCategory>,
}

fn percent(x: f64) -> u8 {
    (x.clamp(0.0, 1.0) * 100.0).round() as u8
}

fn four_digit_year(s: &str) -> Option<i32> {
    words(s).filter_map(|w| w.parse::<i32>().ok()).find(|y| (1950..=2100).contains(y))
}

/// The years of work a CV's experience spans (overlaps counted once), with `current_year` for
/// a role that has not ended.
pub fn years_of_experience(doc: &CvDocument, current_year: i32) -> i32 {
    let mut spans: Vec<(i32, i32)> = doc
        .experience
        .iter()
        .filter_map(|e| {
            let start = four_digit_year(&e.start)?;
            let end =
                if e.current || e.end.trim().is_empty() || e.end.to_lowercase().contains("present")
                {
                    current_year
                } else {
                    four_digit_year(&e.end)?
                };
            (end >= start).then_some((start, end))
        })
        .collect();
    spans.sort_unstable();
    let mut total = 0;
    let mut reach: Option<i32> = None;
    for (start, end) in spans {
        let from = reach.map_or(start, |r| r.max(start));
        if end > from {
            total += end - from;
        }
        reach = Some(reach.map_or(end, |r| r.max(end)));
    }
    total
}

/// The years a grade usually takes, for a CV that says no grade itself.
fn grade_years(grade: &str) -> Option<i32> {
    match grade {
        "intern" | "junior" => Some(0),
        "middle" => Some(2),
        "senior" => Some(5),
        "lead" | "staff" | "principal" => Some(8),
        "c_level" => Some(10),
        _ => None,
    }
}

/// The score of `doc` against `vacancy` (see the module docs); `None` when nothing about the
/// vacancy could be matched (no requirements, no skills, no title words).
pub fn job_match(doc: &CvDocument, vacancy: &Vacancy<'_>, current_year: i32) -> Option<JobMatch> {
    let cv = CvText::new(doc);
    let mut categories = Vec::new();

    if !vacancy.requirements.is_empty() {
        let (mut got, mut out_of) = (0.0, 0.0);
        let items = vacancy
            .requirements
            .iter()
            .map(|r| {
                let weight = if r.priority == Priority::Required { 2.0 } else { 1.0 };
                let shown = cv.coverage(&r.text);
                out_of += weight;
                got += weight
                    * match shown {
                        Shown::Shown => 1.0,
                        Shown::Partly => 0.5,
                        Shown::Missing => 0.0,
                    };
                let (status, detail) = match shown {
                    Shown::Shown => (ItemStatus::Ok, "shown on the CV"),
                    Shown::Partly => (ItemStatus::Warn, "partly shown on the CV"),
                    Shown::Missing => (ItemStatus::Warn, "not shown on the CV"),
                };
                MatchItem { label: r.text.clone(), status, detail: detail.to_owned() }
            })
            .collect();
        categories.push(MatchCategory {
            name: "Requirements Coverage",
            score: percent(got / out_of),
            weight: 40,
            items,
        });
    }

    if !vacancy.skills.is_empty() {
        let items: Vec<MatchItem> = vacancy
            .skills
            .iter()
            .map(|slug| {
                let label = freehire_normalize::skill_label(slug).unwrap_or(slug).to_owned();
                if cv.has_skill(slug) {
                    MatchItem { label, status: ItemStatus::Ok, detail: "on the CV".into() }
                } else {
                    MatchItem { label, status: ItemStatus::Warn, detail: "not on the CV".into() }
                }
            })
            .collect();
        let ok = items.iter().filter(|i| i.status == ItemStatus::Ok).count();
        categories.push(MatchCategory {
            name: "Keyword Match",
            score: percent(ok as f64 / items.len() as f64),
            weight: 30,
            items,
        });
    }

    let title_stems = content_stems(vacancy.title);
    if !title_stems.is_empty() {
        let hit = title_stems.iter().filter(|s| cv.headline_and_roles.contains(*s)).count();
        let share = hit as f64 / title_stems.len() as f64;
        let status = if share >= 0.6 { ItemStatus::Ok } else { ItemStatus::Warn };
        let detail =
            format!("{hit} of {} title words in the headline or a role title", title_stems.len());
        categories.push(MatchCategory {
            name: "Job Title Match",
            score: percent(share),
            weight: 20,
            items: vec![MatchItem { label: vacancy.title.trim().to_owned(), status, detail }],
        });
    }

    let years = years_of_experience(doc, current_year);
    let wanted = vacancy.years_min.or_else(|| vacancy.seniority.and_then(grade_years));
    if let Some(wanted) = wanted.filter(|w| *w > 0) {
        let (status, score) = if years >= wanted {
            (ItemStatus::Ok, 1.0)
        } else {
            (ItemStatus::Warn, f64::from(years) / f64::from(wanted))
        };
        let label = match (vacancy.years_min, vacancy.seniority) {
            (Some(y), _) => format!("{y}+ years of experience"),
            (None, Some(grade)) => format!("{grade} level"),
            (None, None) => String::new(),
        };
        categories.push(MatchCategory {
            name: "Seniority Fit",
            score: percent(score),
            weight: 10,
            items: vec![MatchItem {
                label,
                status,
                detail: format!("the CV spans about {years} years"),
            }],
        });
    }

    if categories.is_empty() {
        return None;
    }
    let weights: f64 = categories.iter().map(|c| f64::from(c.weight)).sum();
    let total: f64 = categories.iter().map(|c| f64::from(c.weight) * f64::from(c.score)).sum();
    Some(JobMatch { score: (total / weights).round() as u8, categories })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ExperienceEntry, SkillGroup};

    const DESCRIPTION: &str = "## About us\n\nWe build tools.\n\n* Free lunch every day\n\n\
        ## What you'll do\n\n* Ship the billing service\n\n\
        ## What you'll bring\n\n* 5+ years of **backend** experience with Rust\n\
        * Operating PostgreSQL in production\n* Led a team of engineers\n\n\
        **Nice to have:**\n\n- Kubernetes at scale\n";

    fn cv() -> CvDocument {
        CvDocument {
            experience: vec![ExperienceEntry {
                company: "Acme".into(),
                role: "Senior Backend Engineer".into(),
                start: "2018".into(),
                end: "Present".into(),
                current: true,
                bullets: vec![
                    "Built the Rust billing backend serving 2M invoices a month".into(),
                    "Ran PostgreSQL in production with zero-downtime migrations".into(),
                ],
                ..ExperienceEntry::default()
            }],
            skills: vec![SkillGroup {
                name: "Skills".into(),
                items: vec!["Rust".into(), "PostgreSQL".into()],
            }],
            ..CvDocument::default()
        }
    }

    #[test]
    fn requirements_come_from_their_sections_with_their_priority() {
        let r = requirements(DESCRIPTION);
        let texts: Vec<&str> = r.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "5+ years of backend experience with Rust",
                "Operating PostgreSQL in production",
                "Led a team of engineers",
                "Kubernetes at scale"
            ]
        );
        assert_eq!(r[0].priority, Priority::Required);
        assert_eq!(r[3].priority, Priority::Preferred);
    }

    #[test]
    fn without_headings_requirement_like_bullets_are_read() {
        let r = requirements("- 3+ years of experience with Go\n- Free snacks\n- Knowledge of AWS");
        assert_eq!(r.len(), 2);
        assert!(requirements("Just a paragraph.").is_empty());
    }

    #[test]
    fn coverage_reads_skills_and_words() {
        let text = CvText::new(&cv());
        assert_eq!(text.coverage("Operating PostgreSQL in production"), Shown::Shown);
        assert_eq!(text.coverage("5+ years of backend experience with Rust"), Shown::Shown);
        assert_eq!(text.coverage("Kubernetes at scale"), Shown::Missing);
        assert_eq!(text.coverage("Led a team of engineers"), Shown::Partly);
    }

    #[test]
    fn job_match_scores_every_category_and_warns_on_the_gaps() {
        let reqs = requirements(DESCRIPTION);
        let skills = vec!["rust".to_owned(), "kubernetes".to_owned()];
        let vacancy = Vacancy {
            title: "Senior Backend Engineer",
            skills: &skills,
            seniority: Some("senior"),
            years_min: Some(5),
            requirements: &reqs,
        };
        let m = job_match(&cv(), &vacancy, 2026).unwrap();
        let names: Vec<_> = m.categories.iter().map(|c| c.name).collect();
        assert_eq!(
            names,
            ["Requirements Coverage", "Keyword Match", "Job Title Match", "Seniority Fit"]
        );
        assert_eq!(m.categories[1].score, 50);
        assert_eq!(m.categories[2].score, 100);
        assert_eq!(m.categories[3].items[0].status, ItemStatus::Ok, "2018–2026 is 8 years");
        assert!(m.categories[0].items.iter().any(|i| i.status == ItemStatus::Warn));
        assert!(m.score > 50 && m.score < 100, "{}", m.score);

        let mut better = cv();
        better.experience[0].bullets.push("Led a team of five engineers".into());
        better.skills[0].items.push("Kubernetes".into());
        let m2 = job_match(&better, &vacancy, 2026).unwrap();
        assert!(m2.score > m.score, "{} > {}", m2.score, m.score);
    }

    #[test]
    fn nothing_to_match_is_none() {
        let vacancy =
            Vacancy { title: "", skills: &[], seniority: None, years_min: None, requirements: &[] };
        assert!(job_match(&cv(), &vacancy, 2026).is_none());
    }

    #[test]
    fn overlapping_roles_count_once() {
        let mut doc = cv();
        doc.experience.push(ExperienceEntry {
            start: "2016".into(),
            end: "2020".into(),
            ..ExperienceEntry::default()
        });
        assert_eq!(years_of_experience(&doc, 2026), 10);
    }
}
