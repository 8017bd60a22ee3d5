//! The entries of a section: a heading block (one or more lines naming the job, project or
//! degree, with its dates) and the bullets under it.
//!
//! Which part of "Senior Engineer — Acme Ltd, London   Mar 2021 – Present" is the role,
//! the company and the place: the dates are found and cut out ([`find_range`]); the rest is
//! split on "|", " — ", " – ", " - ", "·", "," and " at "/" @ "; a part with a role word
//! ("engineer", "manager", …) is the role, a part that is a place is the location, the first
//! other part is the company. With no role word the order decides: role, then company.

use super::dates::{DatePoint, End, Range, find_range};
use super::parts;

/// One entry as read: its heading lines and its bullets (wrapped lines joined).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawEntry {
    /// The lines before the first bullet.
    pub head: Vec<String>,
    /// The bullets, and sentences of the descriptive lines after the heading.
    pub bullets: Vec<String>,
}

/// The heading of a job or a project, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Head {
    /// The employer (or the project's name).
    pub company: String,
    /// The role.
    pub role: String,
    /// Where.
    pub location: String,
    /// Its dates.
    pub range: Option<Range>,
    /// What is left (a URL, a line of description).
    pub extra: Vec<String>,
}

impl Head {
    /// The start as shown and as a point.
    pub fn start(&self) -> Option<DatePoint> {
        self.range.map(|r| r.start)
    }

    /// The end as a point (none when current or unsaid).
    pub fn end(&self) -> Option<DatePoint> {
        match self.range?.end {
            End::At(p) => Some(p),
            End::Present | End::Unsaid => None,
        }
    }

    /// Whether it has not ended.
    pub fn current(&self) -> bool {
        matches!(self.range.map(|r| r.end), Some(End::Present))
    }
}

const ROLE_WORDS: &[&str] = &[
    "engineer",
    "engineering",
    "developer",
    "programmer",
    "manager",
    "lead",
    "head",
    "director",
    "designer",
    "analyst",
    "scientist",
    "architect",
    "consultant",
    "intern",
    "internship",
    "officer",
    "specialist",
    "administrator",
    "admin",
    "founder",
    "co-founder",
    "cofounder",
    "cto",
    "ceo",
    "cfo",
    "coo",
    "vp",
    "president",
    "researcher",
    "technician",
    "coordinator",
    "associate",
    "assistant",
    "advisor",
    "adviser",
    "owner",
    "sre",
    "devops",
    "qa",
    "tester",
    "writer",
    "editor",
    "accountant",
    "teacher",
    "lecturer",
    "professor",
    "nurse",
    "freelance",
    "freelancer",
    "contractor",
    "trainee",
    "apprentice",
    "principal",
    "staff",
    "senior",
    "junior",
    "fellow",
    "maintainer",
    "partner",
    "strategist",
    "producer",
    "recruiter",
    "representative",
    "executive",
    "supervisor",
    "operator",
    "agent",
    "chief",
    "postdoc",
    "student",
    "tutor",
    "mentor",
    "instructor",
];

const DEGREE_WORDS: &[&str] = &[
    "bsc",
    "msc",
    "ba",
    "ma",
    "mba",
    "phd",
    "dphil",
    "beng",
    "meng",
    "bs",
    "ms",
    "bachelor",
    "bachelors",
    "bachelor's",
    "master",
    "masters",
    "master's",
    "doctorate",
    "diploma",
    "degree",
    "certificate",
    "certification",
    "associate",
    "hnd",
    "a-levels",
    "a-level",
    "gcse",
    "gcses",
    "abitur",
    "baccalaureate",
    "licence",
    "licenciatura",
    "bootcamp",
    "course",
    "b.sc",
    "m.sc",
    "b.a",
    "m.a",
    "b.s",
    "m.s",
    "b.eng",
    "m.eng",
    "ph.d",
    "llb",
    "llm",
    "md",
    "bcom",
];

const SCHOOL_WORDS: &[&str] = &[
    "university",
    "universität",
    "université",
    "universidad",
    "college",
    "school",
    "institute",
    "institut",
    "academy",
    "polytechnic",
    "politecnico",
    "hochschule",
    "conservatory",
    "eth",
    "mit",
    "ucl",
    "epfl",
    "kth",
    "tu",
    "lycée",
    "gymnasium",
];

fn lower_words(s: &str) -> Vec<String> {
    s.split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '/' | '&'))
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ':' | ';')).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

fn has_word(s: &str, vocabulary: &[&str]) -> bool {
    lower_words(s).iter().any(|w| vocabulary.contains(&w.as_str()))
}

/// Splits a heading line (its dates already cut out) into its parts, without the commas,
/// brackets and dashes the cut left at their ends.
fn parts(line: &str) -> Vec<String> {
    parts::split(line)
        .into_iter()
        .map(|p| p.trim_matches(|c: char| matches!(c, ',' | '(' | ')' | '-' | '–' | '—')).trim())
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

/// "Senior Engineer at Acme" → role, company.
fn split_at_word(part: &str) -> Option<(String, String)> {
    for sep in [" at ", " @ ", " At "] {
        if let Some((role, company)) = part.split_once(sep)
            && !role.trim().is_empty()
            && !company.trim().is_empty()
        {
            return Some((role.trim().to_owned(), company.trim().to_owned()));
        }
    }
    None
}

/// A city, a country or a work mode ("Remote").
fn is_place(part: &str) -> bool {
    parts::place(part)
        .is_some_and(|g| !g.cities.is_empty() || !g.countries.is_empty() || g.work_mode.is_some())
}

/// Cuts the first date range out of `lines`.
fn cut_range(lines: &[String]) -> (Option<Range>, Vec<String>) {
    let mut found = None;
    let mut rest = Vec::with_capacity(lines.len());
    for line in lines {
        if found.is_none()
            && let Some(r) = find_range(line)
        {
            let (s, e) = r.span;
            let before = line[..s].trim_end_matches([' ', '(', '[', ',']);
            let after = line[e..].trim_start_matches([' ', ')', ']', ',']);
            let mut cut = format!("{before} {after}");
            if cut.matches('(').count() > cut.matches(')').count() {
                cut.push(')');
            }
            found = Some(r);
            rest.push(cut.trim().to_owned());
            continue;
        }
        rest.push(line.clone());
    }
    (found, rest)
}

/// Reads the heading of a job (`project` false) or a project.
pub fn job_head(lines: &[String], project: bool) -> Head {
    let (range, lines) = cut_range(lines);
    let mut head = Head { range, ..Head::default() };
    let mut pieces: Vec<String> = Vec::new();
    for line in &lines {
        for part in parts(line) {
            match split_at_word(&part) {
                Some((role, company)) if !project && head.role.is_empty() => {
                    head.role = role;
                    head.company = company;
                }
                _ => pieces.push(part),
            }
        }
    }
    // Commas separate too: "Senior Engineer, Acme Ltd, London" (a project's name keeps its).
    if !project {
        pieces = pieces.iter().flat_map(|p| p.split(", ")).map(str::to_owned).collect();
    }
    let mut others = Vec::new();
    for piece in pieces {
        if parts::is_link(&piece) {
            head.extra.push(piece);
        } else if !project && head.role.is_empty() && has_word(&piece, ROLE_WORDS) {
            head.role = piece;
        } else {
            others.push(piece);
        }
    }
    // No role word: CVs write the role first.
    if !project && head.role.is_empty() && others.iter().filter(|p| !is_place(p)).count() >= 2 {
        head.role = others.remove(0);
    }
    let mut last_was_place = false;
    for piece in others {
        let place = is_place(&piece);
        if head.company.is_empty() {
            // "Acme Ltd, London": the company with its place.
            match piece.rsplit_once(", ") {
                Some((company, at)) if is_place(at) => {
                    head.company = company.to_owned();
                    head.location = at.to_owned();
                    last_was_place = true;
                }
                _ => {
                    head.company = piece;
                    last_was_place = false;
                }
            }
        } else if place && head.location.is_empty() {
            head.location = piece;
            last_was_place = true;
        } else if place && last_was_place {
            head.location = format!("{}, {piece}", head.location);
        } else if head.role.is_empty() && !project {
            head.role = piece;
            last_was_place = false;
        } else {
            head.extra.push(piece);
            last_was_place = false;
        }
    }
    head
}

/// The heading of a degree: (school, degree, range, what is left).
pub fn education_head(lines: &[String]) -> (String, String, Option<Range>, Vec<String>) {
    let (range, lines) = cut_range(lines);
    let pieces: Vec<String> = lines.iter().flat_map(|l| parts(l)).collect();
    let pieces: Vec<String> =
        if pieces.len() == 1 { pieces[0].split(", ").map(str::to_owned).collect() } else { pieces };
    let (mut school, mut degree) = (String::new(), String::new());
    let mut rest = Vec::new();
    for piece in &pieces {
        if school.is_empty() && has_word(piece, SCHOOL_WORDS) {
            school = piece.clone();
        } else if degree.is_empty() && has_word(piece, DEGREE_WORDS) {
            degree = piece.clone();
        } else {
            rest.push(piece.clone());
        }
    }
    let mut rest = rest.into_iter();
    if degree.is_empty()
        && let Some(p) = rest.next()
    {
        degree = p;
    }
    if school.is_empty()
        && let Some(p) = rest.next()
    {
        school = p;
    }
    let rest: Vec<String> = rest.filter(|p| !is_place(p)).collect();
    (school, degree, range, rest)
}

/// Splits a paragraph into its sentences (at ". ", "! ", "? " before a capital or a digit).
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for w in bytes.windows(3) {
        let [(_, a), (_, b), (k, c)] = [w[0], w[1], w[2]];
        if matches!(a, '.' | '!' | '?') && b == ' ' && (c.is_uppercase() || c.is_ascii_digit()) {
            let s = text[start..k].trim();
            if !s.is_empty() {
                out.push(s.to_owned());
            }
            start = k;
        }
    }
    let s = text[start..].trim();
    if !s.is_empty() {
        out.push(s.to_owned());
    }
    out
}

/// Whether a text line right after a bullet continues it (a wrapped line): it starts in
/// lower case, or the bullet has not ended its sentence and the line holds no dates (a line
/// with dates heads the next entry).
pub fn continues(previous: &str, line: &str) -> bool {
    let first = line.chars().next().unwrap_or(' ');
    let open = !previous.ends_with(['.', '!', '?', ';']);
    first.is_lowercase() || (open && find_range(line).is_none())
}

/// Splits a skills line into its group name (before a colon) and items.
pub fn skill_line(line: &str) -> (String, Vec<String>) {
    let (name, items) = match line.split_once(':') {
        Some((name, items)) if name.split_whitespace().count() <= 4 && !items.trim().is_empty() => {
            (name.trim().to_owned(), items)
        }
        _ => (String::new(), line),
    };
    let items = items
        .split([',', ';', '|', '·', '•'])
        .flat_map(|i| if i.contains(" / ") { i.split(" / ").collect() } else { vec![i] })
        .map(|i| i.trim().trim_end_matches('.').trim().to_owned())
        .filter(|i| !i.is_empty())
        .collect();
    (name, items)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(ls: &[&str]) -> Vec<String> {
        ls.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn job_heads_in_common_layouts() {
        let cases: &[(&[&str], &str, &str, &str)] = &[
            (
                &["Senior Backend Engineer — Acme Ltd   Mar 2021 – Present"],
                "Acme Ltd",
                "Senior Backend Engineer",
                "",
            ),
            (
                &["Backend Engineer at Widgets Inc (2017 - 2019)"],
                "Widgets Inc",
                "Backend Engineer",
                "",
            ),
            (
                &["Acme Ltd, London", "Senior Engineer | 2020 – 2022"],
                "Acme Ltd",
                "Senior Engineer",
                "London",
            ),
            (
                &["Data Analyst, Globex, Berlin, Germany, 2015-2017"],
                "Globex",
                "Data Analyst",
                "Berlin",
            ),
            (
                &["Globex Corporation | Platform Lead | Remote | 2018 – 2020"],
                "Globex Corporation",
                "Platform Lead",
                "Remote",
            ),
            (&["Initech — Accounts, Jan 2012 - Dec 2014"], "Accounts", "Initech", ""),
        ];
        for (ls, company, role, location) in cases {
            let h = job_head(&lines(ls), false);
            assert_eq!((h.company.as_str(), h.role.as_str()), (*company, *role), "{ls:?}");
            assert!(h.location.starts_with(location), "{ls:?}: {}", h.location);
            assert!(h.range.is_some(), "{ls:?}");
        }
        let h = job_head(&lines(&["Acme — Engineer — 2019 – Present"]), false);
        assert!(h.current());
        assert_eq!(h.start(), Some(DatePoint { year: 2019, month: None }));
    }

    #[test]
    fn education_heads() {
        let (school, degree, range, _) =
            education_head(&lines(&["BSc Computer Science, University of Leeds, 2013 – 2016"]));
        assert_eq!(
            (school.as_str(), degree.as_str()),
            ("University of Leeds", "BSc Computer Science")
        );
        assert!(range.is_some());
        let (school, degree, _, _) =
            education_head(&lines(&["Technische Universität München", "MSc Informatics (2017)"]));
        assert_eq!(
            (school.as_str(), degree.as_str()),
            ("Technische Universität München", "MSc Informatics")
        );
    }

    #[test]
    fn sentences_wraps_and_skill_lines() {
        assert_eq!(
            sentences(
                "Built the billing service. Cut costs by 30%. Ran on-call for e.g. payments."
            ),
            ["Built the billing service.", "Cut costs by 30%.", "Ran on-call for e.g. payments."]
        );
        assert!(continues("Led the migration of", "twelve services to Kubernetes"));
        assert!(!continues("Led the migration.", "Built X"));
        assert!(continues("Rewrote the routing service in", "Rust, cutting p99 by half."));
        assert!(!continues("Built the invoicing service", "Engineer at Globex, 2017 - 2019"));
        assert_eq!(
            skill_line("Languages: Rust, Go, Python."),
            ("Languages".into(), vec!["Rust".into(), "Go".into(), "Python".into()])
        );
        assert_eq!(skill_line("Docker · Kubernetes").1, ["Docker", "Kubernetes"]);
    }
}
