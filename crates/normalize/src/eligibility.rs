//! Evidence that pins an unpinned posting to countries or regions (reference §3.11):
//! eligibility phrases in the description ("authorized to work in the United States",
//! "right to work in the UK", "must be based in Canada", "hiring in Brazil only", US
//! citizenship, a national clearance) and title restriction suffixes ("[Remote-US]",
//! "- Remote Europe", ", India"). Only country and area names count, never cities.

use freehire_domain::Region;

use crate::clearance;
use crate::description::Term;
use crate::geo::place_phrase;
use crate::lexicon::Hit;

/// Phrases after which a place names who may apply, and citizenship phrases.
pub const PHRASES: &[(&str, Term)] = &[
    ("authorized to work in", Term::Eligibility),
    ("authorised to work in", Term::Eligibility),
    ("eligible to work in", Term::Eligibility),
    ("eligibility to work in", Term::Eligibility),
    ("right to work in", Term::Eligibility),
    ("legally authorized to work in", Term::Eligibility),
    ("work authorization in", Term::Eligibility),
    ("work authorisation in", Term::Eligibility),
    ("must be based in", Term::Eligibility),
    ("must be located in", Term::Eligibility),
    ("must reside in", Term::Eligibility),
    ("must live in", Term::Eligibility),
    ("must be a resident of", Term::Eligibility),
    ("candidates based in", Term::Eligibility),
    ("candidates located in", Term::Eligibility),
    ("applicants based in", Term::Eligibility),
    ("applicants located in", Term::Eligibility),
    ("open to candidates in", Term::Eligibility),
    ("open to candidates based in", Term::Eligibility),
    ("only hiring in", Term::Eligibility),
    ("currently hiring in", Term::Eligibility),
    ("we are hiring in", Term::Eligibility),
    ("hiring in", Term::Eligibility),
    ("us citizen", Term::Citizenship("us")),
    ("u.s. citizen", Term::Citizenship("us")),
    ("us citizens", Term::Citizenship("us")),
    ("u.s. citizens", Term::Citizenship("us")),
    ("us citizenship", Term::Citizenship("us")),
    ("u.s. citizenship", Term::Citizenship("us")),
    ("united states citizenship", Term::Citizenship("us")),
    ("united states citizen", Term::Citizenship("us")),
];

/// What pins a posting: country codes (lowercase alpha-2) and regions.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pin {
    /// Country table indices.
    pub countries: Vec<usize>,
    /// Regions.
    pub regions: Vec<Region>,
}

impl Pin {
    /// Nothing pinned.
    pub fn is_empty(&self) -> bool {
        self.countries.is_empty() && self.regions.is_empty()
    }

    fn add(&mut self, (countries, regions): (Vec<usize>, Vec<Region>)) {
        self.countries.extend(countries);
        self.regions.extend(regions);
    }
}

/// The place right after an eligibility phrase: the longest prefix of up to five words
/// (stopping at punctuation) that names a country or area.
fn place_after(text: &str) -> Option<(Vec<usize>, Vec<Region>)> {
    let clause =
        text.split(['.', ',', ';', ':', '(', ')', '!', '?', '\n']).next().unwrap_or("").trim();
    let words: Vec<&str> = clause.split_whitespace().take(5).collect();
    (1..=words.len()).rev().find_map(|n| {
        let phrase = words[..n].join(" ");
        let phrase = phrase.trim_start_matches("the ").trim_start_matches("The ");
        place_phrase(phrase)
    })
}

/// Places the description restricts applicants to.
pub fn from_description(text: &str, hits: &[Hit<Term>]) -> Pin {
    let g = &*crate::geo::GAZETTEER;
    let mut pin = Pin::default();
    for h in hits {
        match h.term {
            Term::Eligibility => {
                if let Some(found) = text.get(h.end..).and_then(place_after) {
                    pin.add(found);
                }
            }
            Term::Citizenship(code) => pin.countries.extend(g.country(code)),
            _ => {}
        }
    }
    pin.countries.extend(clearance::countries(hits).into_iter().filter_map(|c| g.country(c)));
    pin
}

/// Places a title's trailing restriction names: the last bracketed group or the clause after
/// the last " - ", "–", "," or ":".
pub fn from_title(title: &str) -> Pin {
    let mut pin = Pin::default();
    let t = title.trim();
    let mut clauses: Vec<&str> = Vec::new();
    if let Some(open) = t.rfind(['(', '[']) {
        let inner = &t[open + 1..];
        clauses.push(inner.split([')', ']']).next().unwrap_or(""));
    }
    let cut = [" - ", " – ", " — ", ", ", ": ", " | "]
        .iter()
        .filter_map(|sep| t.rfind(sep).map(|i| i + sep.len()))
        .max();
    if let Some(i) = cut {
        clauses.push(t[i..].split(['(', '[']).next().unwrap_or(""));
    }
    for clause in clauses {
        let clause = clause.trim();
        if clause.is_empty() {
            continue;
        }
        if let Some(found) = place_phrase(clause) {
            pin.add(found);
            break;
        }
    }
    pin
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::description::scan;

    fn codes(pin: &Pin) -> Vec<String> {
        let g = &*crate::geo::GAZETTEER;
        let mut v: Vec<String> =
            pin.countries.iter().map(|i| g.countries[*i].code.clone()).collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn description_table() {
        let cases: &[(&str, &[&str], &[Region])] = &[
            ("You must be authorized to work in the United States.", &["us"], &[]),
            ("Candidates must have the right to work in the UK.", &["gb"], &[]),
            ("We are only hiring in Canada at this time.", &["ca"], &[]),
            ("Applicants must be eligible to work in the EU.", &[], &[Region::Eu]),
            ("Requires US citizenship.", &["us"], &[]),
            ("Active TS/SCI clearance", &["us"], &[]),
            ("Our team is hiring in many places", &[], &[]),
            ("We work with teams in Berlin", &[], &[]),
            ("must be based in Portland", &[], &[]),
        ];
        for (t, want, regions) in cases {
            let pin = from_description(t, &scan(t));
            assert_eq!(codes(&pin), *want, "{t:?}");
            assert_eq!(pin.regions, *regions, "{t:?}");
        }
    }

    // scenario: No city from a title
    #[test]
    fn title_table() {
        let cases: &[(&str, &[&str], &[Region])] = &[
            ("Senior Engineer [Remote-US]", &["us"], &[]),
            ("UX Content Specialist (US)", &["us"], &[]),
            ("Software Engineer, India", &["in"], &[]),
            ("Researcher: Model Architecture, UK", &["gb"], &[]),
            ("Customer Happiness Manager - Remote South East Asia", &[], &[Region::Apac]),
            ("Senior NodeJS Engineer - Remote Europe", &[], &[Region::Eu, Region::Uk]),
            ("Growth Marketing Manager (Studio) - Remote", &[], &[]),
            ("Software Engineer - Windsurf Enterprise", &[], &[]),
            ("Mobile Engineer - Mobile", &[], &[]),
            ("Account Executive - Georgia", &[], &[]),
        ];
        for (t, want, regions) in cases {
            let pin = from_title(t);
            assert_eq!(codes(&pin), *want, "{t:?}");
            assert_eq!(pin.regions, *regions, "{t:?}");
        }
    }
}
