//! Which parts of a description speak about the role. Company introductions ("About Acme",
//! "Who we are"), benefits ("What we offer", "Our perks") and culture blurbs name
//! technologies and products that are not the role's skills; skill mentions there are not
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

/// [`company_ranges`] with the ASCII-lowercased text already at hand.
pub fn company_ranges_lowered(text: &str, lower: &str, company: &str) -> Vec<(usize, usize)> {
    let company_key = key(company);
    let mut ranges = Vec::new();
    let opens_with_company = !company_key.is_empty()
        && key(text.get(..text.len().min(company.len() + 40)).unwrap_or(""))
            .split(' ')
            .take(4)
            .collect::<Vec<_>>()
            .join(" ")
            .contains(&company_key);
    let mut open: Option<usize> = opens_with_company.then_some(0);
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
    hits.sort_by_key(|h| h.start);
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
    }
}
