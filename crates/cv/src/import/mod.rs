//! Reading a CV pasted as text (reference assistant.md §12.3, "Import"): the [`CvDocument`] it
//! shows and, for the experience bank, one employment per job or project with the claims under
//! it ([`import_text`]).
//!
//! No model reads the text, so nothing is invented: every claim is a line (or a sentence of a
//! paragraph) the candidate pasted, wrapped lines joined, marker cut off. The reading:
//!
//! - [`lines`]: each line is blank, a bullet, a section heading or text;
//! - [`parts`]: the separators of a contact or heading line, places and links;
//! - [`contact`]: the block above the first heading is the name, a headline and the contacts;
//! - [`entries`]: under Experience, Projects and Education, a heading block (role, company,
//!   place, dates in any common order and spelling, [`dates`]) and its bullets; a descriptive
//!   paragraph becomes one claim per sentence; Skills lines are groups ("Languages: Rust, Go");
//!   any other section is kept under its own heading.
//!
//! Lists are cut to the document's limits ([`crate::sanitize::list_limit`], the bullet
//! ceiling); the bank gets every claim. Lines that fit nowhere come back in
//! [`Imported::unread`].

pub mod contact;
pub mod dates;
pub mod entries;
pub mod lines;
pub mod parts;

use freehire_domain::{EmploymentDraft, EmploymentKind, Period};

use self::dates::{DatePoint, End};
use self::entries::{Head, RawEntry, continues, education_head, job_head, sentences, skill_line};
use self::lines::{Line, SectionKind, classify};
use crate::document::{
    CvDocument, EducationEntry, ExperienceEntry, ProjectEntry, Section, SkillGroup,
};
use crate::sanitize::list_limit;

/// The longest text an import reads, in characters.
pub const MAX_IMPORT_CHARS: usize = 60_000;

/// The most claims one entry gives the bank.
pub const MAX_CLAIMS_PER_ENTRY: usize = 60;

/// The most unread lines reported.
pub const MAX_UNREAD: usize = 20;

/// One job or project for the bank, with its claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedEmployment {
    /// The employment (dates as periods, the stack from the skills its lines mention).
    pub draft: EmploymentDraft,
    /// Its claims, as pasted.
    pub claims: Vec<String>,
}

/// What a pasted CV held.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// The CV it shows.
    pub document: CvDocument,
    /// Its jobs and projects, for the bank, in the CV's order.
    pub employments: Vec<ImportedEmployment>,
    /// Lines that fit nowhere (at most [`MAX_UNREAD`]).
    pub unread: Vec<String>,
}

impl Imported {
    /// Whether it holds any section a CV is read for (experience, projects, education,
    /// skills): a name and a paragraph alone are not a CV.
    pub fn has_sections(&self) -> bool {
        let d = &self.document;
        !(d.experience.is_empty()
            && d.projects.is_empty()
            && d.education.is_empty()
            && d.skills.is_empty())
    }

    /// Whether nothing was read at all.
    pub fn is_empty(&self) -> bool {
        self.document == CvDocument::default() && self.employments.is_empty()
    }
}

struct SectionLines<'a> {
    kind: SectionKind,
    title: &'a str,
    lines: Vec<Line<'a>>,
}

fn normalise(text: &str) -> String {
    let clipped: String = text.chars().take(MAX_IMPORT_CHARS).collect();
    clipped
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\t', "   ")
        .replace(['\u{a0}', '\u{2007}', '\u{202f}'], " ")
        .replace(['\u{200b}', '\u{feff}', '\u{c}'], "")
}

/// Appends the next line of a wrapped paragraph: after a space, or straight on when the line
/// broke after a word's hyphen ("non-" / "engineers" is "non-engineers").
fn join_line(acc: &mut String, next: &str) {
    let mut tail = acc.chars().rev();
    let hyphenated = tail.next() == Some('-') && tail.next().is_some_and(char::is_alphabetic);
    if !acc.is_empty() && !hyphenated {
        acc.push(' ');
    }
    acc.push_str(next);
}

fn period(p: Option<DatePoint>, field: &'static str) -> Option<Period> {
    p.and_then(|p| Period::new(p.year, p.month, field).ok())
}

/// Groups a section's lines into entries: a heading block, then bullets (a wrapped line joins
/// its bullet; a descriptive line gives one claim per sentence).
fn group(lines: &[Line<'_>]) -> Vec<RawEntry> {
    let mut out: Vec<RawEntry> = Vec::new();
    let mut after_bullet = false;
    let mut after_blank = false;
    for line in lines {
        match line {
            Line::Blank => {
                after_blank = true;
                after_bullet = false;
                continue;
            }
            Line::Bullet(b) => {
                if out.is_empty() {
                    out.push(RawEntry::default());
                }
                if let Some(e) = out.last_mut() {
                    e.bullets.push((*b).to_owned());
                }
                after_bullet = true;
            }
            Line::Text(t) | Line::Heading(_, t) => {
                let prose = t.ends_with('.') || t.chars().count() > 90;
                let current = out.last_mut();
                match current {
                    Some(e)
                        if after_bullet && e.bullets.last().is_some_and(|b| continues(b, t)) =>
                    {
                        if let Some(b) = e.bullets.last_mut() {
                            join_line(b, t);
                        }
                    }
                    Some(e) if !e.bullets.is_empty() && !prose => {
                        out.push(RawEntry { head: vec![(*t).to_owned()], bullets: Vec::new() });
                    }
                    Some(e) if !e.head.is_empty() && prose => e.bullets.extend(sentences(t)),
                    Some(e)
                        if e.bullets.is_empty()
                            && !(after_blank
                                && e.head.iter().any(|h| dates::find_range(h).is_some())) =>
                    {
                        e.head.push((*t).to_owned())
                    }
                    _ => out.push(RawEntry { head: vec![(*t).to_owned()], bullets: Vec::new() }),
                }
                after_bullet = false;
            }
        }
        after_blank = false;
    }
    out
}

fn text_of<'a>(line: &Line<'a>) -> Option<&'a str> {
    match line {
        Line::Blank => None,
        Line::Bullet(t) | Line::Text(t) | Line::Heading(_, t) => Some(t),
    }
}

fn stack_of<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    for t in texts {
        for slug in freehire_normalize::skills_mentioned(t) {
            if !stack.iter().any(|s| s == slug) {
                stack.push(slug.to_owned());
            }
        }
    }
    stack
}

/// The bank's employment of `kind` for an entry: its name, dates and the skills its lines
/// mention.
fn draft_of(kind: EmploymentKind, head: &Head, raw: &RawEntry) -> EmploymentDraft {
    let mut draft = EmploymentDraft::new(kind);
    draft.company.clone_from(&head.company);
    draft.start = period(head.start(), "start");
    draft.end = period(head.end(), "end");
    draft.current = head.current();
    draft.stack = stack_of(raw.head.iter().chain(&raw.bullets).map(String::as_str));
    draft
}

fn work(
    doc: &mut CvDocument,
    bank: &mut Vec<ImportedEmployment>,
    lines: &[Line<'_>],
    max_bullets: usize,
) {
    for raw in group(lines) {
        let head = job_head(&raw.head, false);
        let mut draft = draft_of(EmploymentKind::Job, &head, &raw);
        draft.role.clone_from(&head.role);
        draft.location.clone_from(&head.location);
        if doc.experience.len() < list_limit("experience") {
            doc.experience.push(ExperienceEntry {
                company: head.company.clone(),
                role: head.role.clone(),
                location: head.location.clone(),
                start: head.start().map(DatePoint::display).unwrap_or_default(),
                end: head.end().map(DatePoint::display).unwrap_or_default(),
                current: draft.current,
                bullets: raw.bullets.iter().take(max_bullets).cloned().collect(),
            });
        }
        bank.push(ImportedEmployment {
            draft,
            claims: raw.bullets.into_iter().take(MAX_CLAIMS_PER_ENTRY).collect(),
        });
    }
}

fn projects(
    doc: &mut CvDocument,
    bank: &mut Vec<ImportedEmployment>,
    lines: &[Line<'_>],
    max_bullets: usize,
) {
    for raw in group(lines) {
        let head = job_head(&raw.head, true);
        // A link may share its line with the project's one-line summary.
        let (mut link, mut notes) = (None, Vec::new());
        for piece in &head.extra {
            let mut words = Vec::new();
            for w in piece.split_whitespace() {
                if link.is_none() && parts::is_link(w) {
                    link = Some(if w.starts_with("http") {
                        w.to_owned()
                    } else {
                        format!("https://{w}")
                    });
                } else {
                    words.push(w);
                }
            }
            if !words.is_empty() {
                notes.push(words.join(" "));
            }
        }
        let mut draft = draft_of(EmploymentKind::Project, &head, &raw);
        draft.summary = notes.join(", ");
        draft.link = link.clone().unwrap_or_default();
        if doc.projects.len() < list_limit("projects") {
            doc.projects.push(ProjectEntry {
                name: head.company.clone(),
                link: link.unwrap_or_default(),
                summary: draft.summary.clone(),
                bullets: raw.bullets.iter().take(max_bullets).cloned().collect(),
            });
        }
        bank.push(ImportedEmployment {
            draft,
            claims: raw.bullets.into_iter().take(MAX_CLAIMS_PER_ENTRY).collect(),
        });
    }
}

fn education(doc: &mut CvDocument, lines: &[Line<'_>]) {
    for raw in group(lines) {
        let (school, degree, range, rest) = education_head(&raw.head);
        let (start, end) = match range.map(|r| (r.start, r.end)) {
            Some((s, End::At(e))) => (s.display(), e.display()),
            Some((s, End::Present)) => (s.display(), "Present".to_owned()),
            // One date on a degree is when it was finished.
            Some((s, End::Unsaid)) => (String::new(), s.display()),
            None => (String::new(), String::new()),
        };
        if doc.education.len() < list_limit("education") {
            let details =
                rest.into_iter().chain(raw.bullets).take(list_limit("education[].details"));
            doc.education.push(EducationEntry {
                school,
                degree,
                start,
                end,
                details: details.collect(),
            });
        }
    }
}

fn skills(doc: &mut CvDocument, lines: &[Line<'_>]) {
    for t in lines.iter().filter_map(text_of) {
        let (name, items) = skill_line(t);
        let named = !name.is_empty();
        if named || doc.skills.is_empty() {
            if doc.skills.len() >= list_limit("skills") {
                continue;
            }
            doc.skills.push(SkillGroup { name, items: Vec::new() });
        }
        let Some(group) = doc.skills.last_mut() else { continue };
        for item in items {
            if group.items.len() < list_limit("skills[].items") && !group.items.contains(&item) {
                group.items.push(item);
            }
        }
    }
    doc.skills.retain(|g| !g.items.is_empty());
}

/// Reads a pasted CV; bullets per entry are cut at `max_bullets` in the document (the bank
/// gets up to [`MAX_CLAIMS_PER_ENTRY`]).
pub fn import_text(text: &str, max_bullets: usize) -> Imported {
    let text = normalise(text);
    let mut header_lines: Vec<&str> = Vec::new();
    let mut sections: Vec<SectionLines<'_>> = Vec::new();
    for raw in text.lines() {
        match classify(raw, !sections.is_empty()) {
            Line::Heading(kind, title) => {
                sections.push(SectionLines { kind, title, lines: Vec::new() })
            }
            line => match sections.last_mut() {
                Some(s) => s.lines.push(line),
                None => {
                    if let Some(t) = text_of(&line) {
                        header_lines.push(t);
                    }
                }
            },
        }
    }

    let mut out = Imported::default();
    let block = contact::read(&header_lines);
    out.document.header = block.header;
    let has_summary = sections.iter().any(|s| s.kind == SectionKind::Summary);
    for line in block.rest {
        if !has_summary && (line.chars().count() >= 60 || line.ends_with('.')) {
            join_line(&mut out.document.summary, &line);
        } else if out.unread.len() < MAX_UNREAD {
            out.unread.push(line);
        }
    }

    for section in &sections {
        match section.kind {
            SectionKind::Summary => {
                for t in section.lines.iter().filter_map(text_of) {
                    join_line(&mut out.document.summary, t);
                }
            }
            SectionKind::Experience => {
                work(&mut out.document, &mut out.employments, &section.lines, max_bullets)
            }
            SectionKind::Projects => {
                projects(&mut out.document, &mut out.employments, &section.lines, max_bullets)
            }
            SectionKind::Education => education(&mut out.document, &section.lines),
            SectionKind::Skills => skills(&mut out.document, &section.lines),
            SectionKind::Other => {
                let items: Vec<String> = section
                    .lines
                    .iter()
                    .filter_map(text_of)
                    .take(list_limit("sections[].items"))
                    .map(str::to_owned)
                    .collect();
                if !items.is_empty() && out.document.sections.len() < list_limit("sections") {
                    out.document.sections.push(Section { title: section.title.to_owned(), items });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
