//! Which parts of a description speak about the role. Company introductions ("About Acme",
//! "Who we are"), benefits ("What we offer", "Our perks"), culture blurbs, the hiring process
//! ("Hiring process": the interviews' tools) and what the candidate is not ("Who you are not")
//! name technologies and products that are not the role's skills; skill mentions there are not
//! counted. Text before any heading belongs to the role unless it opens with the company's name.

use std::sync::LazyLock;

use crate::lexicon::{Hit, Lexicon};
use crate::text::key;

/// The kind of section a heading opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// About the employer, its benefits or culture.
    Company,
    /// About the role.
    Role,
}

const COMPANY: &[&str] = &[
    "who we are",
    "about us",
    "about the company",
    "company overview",
    "company description",
    "our company",
    "our mission",
    "a little more about us",
    "what we offer",
    "we offer",
    "our perks",
    "perks",
    "benefits",
    "our culture",
    "what you can expect",
    "why join us",
    "life at",
    // The hiring process names the tools of its interviews, not the role's.
    "hiring process",
    "interview process",
    "recruitment process",
    "application process",
    "our process",
    // What the candidate is not: every skill there is ruled out.
    "who you are not",
    "who you're not",
    "who you’re not",
    "you are not",
    "this role is not for",
];

const ROLE: &[&str] = &[
    "about the role",
    "about this role",
    "about the position",
    "the role",
    "role overview",
    "role responsibilities",
    "job description",
    "responsibilities",
    "what you'll do",
    "what you will do",
    "what you’ll do",
    "your impact",
    "your role",
    "in this role",
    "the opportunity",
    "who we're looking for",
    "who we’re looking for",
    "what we're looking for",
    "what we’re looking for",
    "what you'll bring",
    "what you’ll bring",
    "what you bring",
    "requirements",
    "qualifications",
    "how you will make an impact",
    "how you'll contribute",
    "your background",
];

static HEADINGS: LazyLock<Lexicon<Kind>> = LazyLock::new(|| {
    Lexicon::new(
        COMPANY
            .iter()
            .map(|p| ((*p).to_owned(), Kind::Company))
            .chain(ROLE.iter().map(|p| ((*p).to_owned(), Kind::Role))),
    )
});

/// Byte ranges of the text that are about the company, not the role.
#[cfg(test)] // the tests' entry point; the pipeline reuses its scan
pub fn company_ranges(text: &str, company: &str) -> Vec<(usize, usize)> {
    company_ranges_lowered(text, &text.to_ascii_lowercase(), company)
}

/// Letters and digits only, lowercased: "Stack Ai", "StackAI" and "stack-ai" are one name.
fn squash(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Words that open a sentence without naming anyone.
const NOT_A_NAME: &[&str] = &[
    "this", "the", "our", "we", "you", "as", "in", "join", "at", "if", "a", "an", "it", "here",
    "there", "what", "who", "why", "how", "about", "location", "role", "job", "position",
];

/// Verbs with which an introduction says what a company is or does.
const INTRO_VERBS: &[&str] = &[
    "is", "are", "builds", "helps", "makes", "provides", "develops", "creates", "offers", "powers",
    "was", "has", "empowers", "enables",
];

/// Where the opening introduction ends when the text opens with one ("Maze is the user
/// research platform…", "Monumental is automating construction…"): one to three capitalised
/// words naming someone, then a verb of being or doing. The introduction is the first block
/// (up to the first bullet the block structure leaves), or the text up to the first heading.
fn opening_intro(text: &str) -> Option<usize> {
    let words: Vec<&str> = text.split_whitespace().take(5).collect();
    // "About Maze • Maze is…": a heading about someone named opens the text.
    if words.first() == Some(&"About")
        && words.get(1).is_some_and(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && !["The", "This", "You", "Your", "Role", "Position", "Job", "Us"].contains(w)
        })
    {
        let first_role = HEADINGS
            .scan_lowered(text, &text.to_ascii_lowercase())
            .into_iter()
            .find(|h| h.term == Kind::Role)
            .map(|h| h.start);
        return Some(first_role.unwrap_or_else(|| text.find('•').unwrap_or(text.len())));
    }
    let name_len = words
        .iter()
        .take_while(|w| w.chars().next().is_some_and(char::is_uppercase))
        .count()
        .min(3);
    if name_len == 0
        || NOT_A_NAME
            .contains(&words[0].to_ascii_lowercase().trim_matches(|c: char| !c.is_alphanumeric()))
    {
        return None;
    }
    let verb = words.get(name_len)?.to_ascii_lowercase();
    if !INTRO_VERBS.contains(&verb.as_str()) {
        return None;
    }
    Some(text.find('•').unwrap_or(text.len()))
}

/// [`company_ranges`] with the ASCII-lowercased text already at hand.
pub fn company_ranges_lowered(text: &str, lower: &str, company: &str) -> Vec<(usize, usize)> {
    let company_key = key(company);
    let company_squashed = squash(company);
    let mut ranges = Vec::new();
    let head = text.get(..text.len().min(company.len() + 40)).unwrap_or("");
    let opening_words: Vec<&str> = head.split_whitespace().take(4).collect();
    let opens_with_company = !company_key.is_empty()
        && (key(head).split(' ').take(4).collect::<Vec<_>>().join(" ").contains(&company_key)
            || (1..=opening_words.len())
                .any(|n| squash(&opening_words[..n].concat()) == company_squashed));
    let mut open: Option<usize> = opens_with_company.then_some(0);
    if open.is_none()
        && let Some(end) = opening_intro(text)
    {
        let first_role = HEADINGS
            .scan_lowered(text, lower)
            .into_iter()
            .find(|h| h.term == Kind::Role)
            .map_or(text.len(), |h| h.start);
        ranges.push((0, end.min(first_role)));
    }
    let mut hits: Vec<Hit<Kind>> = HEADINGS.scan_lowered(text, lower);
    // "About <company>" is a company heading wherever it appears.
    if !company_key.is_empty() {
        // ASCII lowercasing keeps byte offsets, so positions in `lower` are positions in `text`.
        let needle = format!("about {}", company.trim()).to_ascii_lowercase();
        let mut from = 0;
        while let Some(i) = lower.get(from..).and_then(|rest| rest.find(&needle)) {
            let start = from + i;
            hits.push(Hit { start, end: start + needle.len(), term: Kind::Company });
            from = start + needle.len();
        }
    }
    // "About Stack AI" / "Why Stack AI" for the company "stack-ai": the name however spelt.
    if company_squashed.len() >= 3 {
        for lead in ["about ", "why "] {
            for (i, _) in lower.match_indices(lead) {
                let after = &text[i + lead.len()..];
                let words: Vec<&str> = after.split_whitespace().take(3).collect();
                for n in 1..=words.len() {
                    if squash(&words[..n].concat()) == company_squashed {
                        hits.push(Hit { start: i, end: i + lead.len(), term: Kind::Company });
                        break;
                    }
                }
            }
        }
    }
    hits.sort_by_key(|h| h.start);
    hits.dedup_by_key(|h| h.start);
    for h in hits {
        match (h.term, open) {
            (Kind::Company, None) => open = Some(h.start),
            (Kind::Role, Some(start)) => {
                ranges.push((start, h.start));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        ranges.push((start, text.len()));
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    // scenario: Company introduction
    #[test]
    fn company_sections() {
        let text =
            "About Acme We build with Kubernetes. The Role You will write Go. Benefits Free lunch.";
        let ranges = company_ranges(text, "Acme");
        let covered = |needle: &str| {
            let i = text.find(needle).unwrap();
            ranges.iter().any(|(s, e)| (*s..*e).contains(&i))
        };
        assert!(covered("Kubernetes"));
        assert!(!covered("write Go"));
        assert!(covered("Free lunch"));
        let plain = "We need Python and SQL.";
        assert!(company_ranges(plain, "Acme").is_empty());
        let opener =
            "Amplitude is the leading analytics platform. As an analyst, you will use SQL.";
        let r = company_ranges(opener, "Amplitude");
        assert_eq!(
            r,
            vec![(0, opener.len())],
            "opens with the company and never reaches a role heading"
        );
        // The company's name however spelt, and an introduction naming someone else.
        let spelt = "StackAI is a no-code platform. • The Role • You will use Python.";
        assert!(!company_ranges(spelt, "stack-ai").is_empty());
        let intro = "Maze is the user research platform for teams. • You will use Python.";
        let r = company_ranges(intro, "mazedesign");
        assert_eq!(r, vec![(0, intro.find('•').unwrap())], "the first block only");
        let why = "You will use Go. • Why Stack AI • We use Kubernetes internally.";
        let r = company_ranges(why, "Stack Ai");
        assert!(r.iter().any(|(s, e)| (*s..*e).contains(&why.find("Kubernetes").unwrap())));
        // A role's opening is not an introduction.
        assert!(company_ranges("We are looking for a Rust engineer.", "Acme").is_empty());
        assert!(company_ranges("This role is remote. Python.", "Acme").is_empty());
    }
}
