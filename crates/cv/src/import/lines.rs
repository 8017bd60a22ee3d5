//! The lines of a pasted CV: blank, a bullet (its marker cut off), a section heading (and
//! which section it opens), or text.
//!
//! A heading is a short line naming a known section ("Work experience", "SKILLS:",
//! "## Education", "**Projects**"); once the first one is seen, a short ALL-CAPS line opens
//! an extra section of its own ("VOLUNTEERING").

/// The sections a CV has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionKind {
    /// The profile paragraph.
    Summary,
    /// Jobs.
    Experience,
    /// Projects.
    Projects,
    /// Skills.
    Skills,
    /// Degrees and courses.
    Education,
    /// Anything else, kept under its own heading.
    Other,
}

/// One line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line<'a> {
    /// Empty.
    Blank,
    /// A heading: the section it opens and its title as written.
    Heading(SectionKind, &'a str),
    /// A bulleted line without its marker.
    Bullet(&'a str),
    /// Any other line, trimmed.
    Text(&'a str),
}

const HEADINGS: &[(SectionKind, &[&str])] = &[
    (
        SectionKind::Summary,
        &[
            "summary",
            "profile",
            "professional summary",
            "career summary",
            "professional profile",
            "personal profile",
            "personal statement",
            "about",
            "about me",
            "objective",
            "career objective",
            "overview",
        ],
    ),
    (
        SectionKind::Experience,
        &[
            "experience",
            "work experience",
            "professional experience",
            "relevant experience",
            "employment",
            "employment history",
            "work history",
            "career history",
            "professional history",
            "career",
            "experience highlights",
        ],
    ),
    (
        SectionKind::Projects,
        &[
            "projects",
            "personal projects",
            "selected projects",
            "side projects",
            "key projects",
            "open source",
            "open-source",
            "open source contributions",
        ],
    ),
    (
        SectionKind::Skills,
        &[
            "skills",
            "technical skills",
            "core skills",
            "key skills",
            "skills & tools",
            "skills and tools",
            "skills & technologies",
            "skills and technologies",
            "technologies",
            "tech stack",
            "tools",
            "competencies",
            "core competencies",
            "expertise",
        ],
    ),
    (
        SectionKind::Education,
        &[
            "education",
            "education & training",
            "education and training",
            "academic background",
            "academic history",
            "qualifications",
        ],
    ),
    (
        SectionKind::Other,
        &[
            "certifications",
            "certificates",
            "certifications & courses",
            "courses",
            "languages",
            "awards",
            "honours",
            "honors",
            "awards & honours",
            "publications",
            "talks",
            "speaking",
            "interests",
            "hobbies",
            "volunteering",
            "volunteer experience",
            "references",
            "achievements",
            "patents",
        ],
    ),
];

const MARKERS: &[char] = &[
    '-', '*', '•', '·', '–', '—', '▪', '◦', '‣', '●', '○', '■', '□', '►', '▶', '✓', '✔', '➢', '>',
];

/// The trimmed text of a heading line, without Markdown marks or a trailing colon.
fn heading_text(line: &str) -> &str {
    line.trim_start_matches('#')
        .trim()
        .trim_matches(|c: char| matches!(c, '*' | '_' | '='))
        .trim()
        .trim_end_matches(':')
        .trim()
}

fn known_heading(text: &str) -> Option<SectionKind> {
    let lower = text.to_lowercase();
    HEADINGS.iter().find(|(_, names)| names.contains(&lower.as_str())).map(|(kind, _)| *kind)
}

fn shouty(text: &str) -> bool {
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    letters >= 3
        && text.split_whitespace().count() <= 4
        && text.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '&' || c == '/')
        && text.chars().filter(|c| c.is_alphabetic()).all(char::is_uppercase)
}

/// Classifies one line. `after_heading` says whether a heading has been seen already (an
/// unknown ALL-CAPS line is a heading only then: before, it is the candidate's name).
pub fn classify(raw: &str, after_heading: bool) -> Line<'_> {
    let line = raw.trim();
    if line.is_empty() {
        return Line::Blank;
    }
    let text = heading_text(line);
    if !text.is_empty() && text.len() <= 40 {
        if let Some(kind) = known_heading(text) {
            return Line::Heading(kind, text);
        }
        if after_heading && shouty(text) {
            return Line::Heading(SectionKind::Other, text);
        }
    }
    if let Some(first) = line.chars().next()
        && MARKERS.contains(&first)
    {
        let rest = line[first.len_utf8()..].trim_start();
        // "-" glued to a word ("-5% churn") or a Markdown rule ("---") is not a bullet.
        let spaced = line[first.len_utf8()..].starts_with(char::is_whitespace);
        if !rest.is_empty() && (spaced || !"-*>".contains(first)) {
            return Line::Bullet(rest);
        }
        if rest.chars().all(|c| MARKERS.contains(&c) || c == '=') {
            return Line::Blank;
        }
    }
    if let Some((num, rest)) = line.split_once(['.', ')'])
        && !num.is_empty()
        && num.len() <= 2
        && num.bytes().all(|b| b.is_ascii_digit())
        && rest.starts_with(' ')
    {
        return Line::Bullet(rest.trim_start());
    }
    Line::Text(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_bullets_and_text() {
        assert_eq!(
            classify("Work Experience", false),
            Line::Heading(SectionKind::Experience, "Work Experience")
        );
        assert_eq!(
            classify("## Education", false),
            Line::Heading(SectionKind::Education, "Education")
        );
        assert_eq!(classify("**SKILLS:**", false), Line::Heading(SectionKind::Skills, "SKILLS"));
        assert_eq!(
            classify("VOLUNTEERING", true),
            Line::Heading(SectionKind::Other, "VOLUNTEERING")
        );
        assert_eq!(classify("JANE DOE", false), Line::Text("JANE DOE"));
        assert_eq!(classify("  • Led the migration", true), Line::Bullet("Led the migration"));
        assert_eq!(classify("- Cut p99 by 40%", true), Line::Bullet("Cut p99 by 40%"));
        assert_eq!(classify("2. Shipped it", true), Line::Bullet("Shipped it"));
        assert_eq!(classify("-5% churn in a year", true), Line::Text("-5% churn in a year"));
        assert_eq!(classify("---", true), Line::Blank);
        assert_eq!(classify("   ", true), Line::Blank);
        assert_eq!(classify("2019.5 was a year", true), Line::Text("2019.5 was a year"));
    }
}
