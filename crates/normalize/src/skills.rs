//! Skills: a curated alias → canonical dictionary (`data/skills.tsv`, slugs with display
//! labels). Common-word names ("Go", "Rust", "Swift") count only in technical contexts and in
//! their proper casing; single letters ("R", "C") only inside a list of other skills.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use freehire_domain::Category;

use crate::description::Term;
use crate::lexicon::Hit;
use crate::sections;
use crate::text::key;

const SKILLS: &str = include_str!("../data/skills.tsv");
const ACRONYMS: &str = include_str!("../data/skill_acronyms.tsv");

/// How much evidence a skill's label needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// Any whole-word mention.
    None,
    /// The label is a common word: proper casing, not "Go-to"/"go to", and a technical context.
    Word,
    /// A single letter: only next to another skill in a list.
    List,
    /// A category-scoped acronym (index into [`SkillTable::scopes`]): only in capitals and only
    /// when the posting's category is in the scope.
    Scoped(u8),
}

/// A canonical skill.
#[derive(Debug)]
pub struct Skill {
    /// Canonical slug (the facet value).
    pub slug: &'static str,
    /// Display label.
    pub label: &'static str,
}

/// The skill table and every (phrase, skill, guard) it contributes to the description lexicon.
pub struct SkillTable {
    /// Skills, indexed by position.
    pub skills: Vec<Skill>,
    /// Slug → index.
    pub by_slug: std::collections::HashMap<&'static str, usize>,
    /// Phrases: (phrase, skill index, guard applying to this phrase).
    pub phrases: Vec<(String, u16, Guard)>,
    /// Category scopes of the acronym tier, with the acronym as written.
    pub scopes: Vec<(&'static str, Vec<Category>)>,
}

fn build() -> SkillTable {
    let mut skills = Vec::new();
    let mut phrases = Vec::new();
    for line in SKILLS.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut f = line.split('\t');
        let (Some(slug), Some(label)) = (f.next(), f.next()) else { continue };
        let aliases = f.next().unwrap_or("");
        let guard = f.next().unwrap_or("").trim();
        let Ok(idx) = u16::try_from(skills.len()) else { break };
        skills.push(Skill { slug, label });
        match guard {
            "alias" => {}
            "word" => phrases.push((label.to_owned(), idx, Guard::Word)),
            "list" => phrases.push((label.to_owned(), idx, Guard::List)),
            _ => phrases.push((label.to_owned(), idx, Guard::None)),
        }
        for alias in aliases.split('|').map(str::trim).filter(|a| !a.is_empty()) {
            phrases.push((alias.to_owned(), idx, Guard::None));
        }
    }
    let by_slug: std::collections::HashMap<&'static str, usize> =
        skills.iter().enumerate().map(|(i, s)| (s.slug, i)).collect();
    let mut scopes = Vec::new();
    for line in ACRONYMS.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut f = line.split('\t');
        let (Some(acronym), Some(slug), Some(cats)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        let (Some(&idx), Ok(scope)) = (by_slug.get(slug), u8::try_from(scopes.len())) else {
            continue;
        };
        let Ok(idx) = u16::try_from(idx) else { continue };
        let categories = cats.split(',').filter_map(|c| Category::parse(c.trim()).ok()).collect();
        scopes.push((acronym, categories));
        phrases.push((acronym.to_owned(), idx, Guard::Scoped(scope)));
    }
    SkillTable { skills, by_slug, phrases, scopes }
}

/// The skill table, built on first use.
pub static SKILL_TABLE: LazyLock<SkillTable> = LazyLock::new(build);

/// Looks a canonical slug up (structured skills from adapters are checked against it).
pub fn canonical(slug_or_alias: &str) -> Option<&'static str> {
    let t = &*SKILL_TABLE;
    let wanted = slug_or_alias.trim().to_ascii_lowercase();
    if let Some(&i) = t.by_slug.get(wanted.as_str()) {
        return t.skills.get(i).map(|s| s.slug);
    }
    t.phrases
        .iter()
        .find(|(p, _, g)| *g == Guard::None && p.to_ascii_lowercase() == wanted)
        .and_then(|(_, i, _)| t.skills.get(usize::from(*i)))
        .map(|s| s.slug)
}

/// The display label of a canonical slug.
pub fn label(slug: &str) -> Option<&'static str> {
    let t = &*SKILL_TABLE;
    t.by_slug.get(slug).and_then(|&i| t.skills.get(i)).map(|s| s.label)
}

/// Skill hits from the description scan: (skill index, guard).
pub type SkillHit = Hit<(u16, Guard)>;

/// The role's skills from a description's shared scan: hits inside company introduction,
/// benefits or culture sections do not count, nor does the employer's own name ("Amplitude" at
/// Amplitude); the guards apply as in [`from_hits`].
pub fn from_description(
    text: &str,
    lower: &str,
    hits: &[Hit<Term>],
    company: &str,
    category: Option<Category>,
) -> BTreeSet<&'static str> {
    let company_ranges = sections::company_ranges_lowered(text, lower, company);
    let skill_hits: Vec<SkillHit> = hits
        .iter()
        .filter(|h| !company_ranges.iter().any(|(s, e)| (*s..*e).contains(&h.start)))
        .filter_map(|h| match h.term {
            Term::Skill(i, g) => Some(Hit { start: h.start, end: h.end, term: (i, g) }),
            _ => None,
        })
        .collect();
    let company_key = key(company);
    let mut found = from_hits(text, &skill_hits, category);
    found.retain(|slug| label(slug).is_none_or(|l| key(l) != company_key));
    found
}

/// Distinct unguarded skills that make a text technical.
const TECH_CONTEXT: usize = 3;

/// Whether only list punctuation or "and"/"or" separates `a` and `b` (`a` before `b`).
fn adjacent(text: &str, a_end: usize, b_start: usize) -> bool {
    if b_start < a_end {
        return false;
    }
    let gap = text[a_end..b_start].trim().to_ascii_lowercase();
    matches!(
        gap.as_str(),
        "," | "/" | "&" | "and" | "or" | ", and" | ", or" | "" | "+" | "|" | ";" | "•"
    ) && b_start - a_end <= 8
}

/// Words after a mention that make it the name of a team, a company or a market, not a skill
/// of the role ("ML teams", "our Talent Acquisition Partner", "the enterprise sales team").
const NOT_A_SKILL_AFTER: &[&str] = &[
    "team",
    "teams",
    "partner",
    "partners",
    "department",
    "org",
    "organization",
    "organizations",
    "company",
    "companies",
    "startup",
    "startups",
    "industry",
    "industries",
    "leaders",
    "leadership",
    "function",
];

/// Words before a mention that make it part of a job title ("the Director, Product
/// Management", "the Manager of Account Management").
const NOT_A_SKILL_BEFORE: &[&str] =
    &["director of", "manager of", "head of", "vp of", "director,", "manager,", "vp,"];

/// Whether the mention at `start..end` names a team, a company, a market or a title rather
/// than a skill, or is the tail of a dotted name ("Node.js" is not `js`).
fn not_a_skill(text: &str, start: usize, end: usize) -> bool {
    let before = &text[..start];
    if before.ends_with('.')
        && before[..before.len() - 1].chars().next_back().is_some_and(char::is_alphanumeric)
    {
        return true;
    }
    let next = text[end..]
        .trim_start()
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if NOT_A_SKILL_AFTER.contains(&next.as_str()) {
        return true;
    }
    let tail: Vec<&str> = before.split_whitespace().rev().take(2).collect();
    let prev = match tail.as_slice() {
        [one, two] => format!("{two} {one}"),
        [one] => (*one).to_owned(),
        _ => String::new(),
    }
    .to_ascii_lowercase();
    NOT_A_SKILL_BEFORE.iter().any(|p| prev.ends_with(p))
}

/// Whether a word sits in a run of capitalised words (a heading such as "What Will Make Us
/// Love You" or "The Impact You'll Make"): the word before is capitalised, and the word after
/// is too or the block ends.
fn in_title_case(text: &str, start: usize, end: usize) -> bool {
    let capitalised = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
    let prev = text[..start].split_whitespace().next_back().unwrap_or("");
    let after = text[end..].trim_start();
    let next = after.split_whitespace().next().unwrap_or("");
    let block_ends = after.is_empty() || after.starts_with('•');
    capitalised(prev) && !prev.ends_with(['.', ':', '!', '?']) && (capitalised(next) || block_ends)
}

/// The canonical skills a description mentions, after the guards; `category` is the
/// posting's category, which the acronym tier needs.
pub fn from_hits(
    text: &str,
    hits: &[SkillHit],
    category: Option<Category>,
) -> BTreeSet<&'static str> {
    let table = &*SKILL_TABLE;
    let unguarded: BTreeSet<u16> =
        hits.iter().filter(|h| h.term.1 == Guard::None).map(|h| h.term.0).collect();
    let mut out = BTreeSet::new();
    for (i, hit) in hits.iter().enumerate() {
        let (idx, guard) = hit.term;
        let Some(skill) = table.skills.get(usize::from(idx)) else { continue };
        let neighbour = |h: Option<&SkillHit>, before: bool| {
            h.is_some_and(|h| {
                h.term.0 != idx
                    && h.term.1 != Guard::List
                    && if before {
                        adjacent(text, h.end, hit.start)
                    } else {
                        adjacent(text, hit.end, h.start)
                    }
            })
        };
        let in_list = neighbour(i.checked_sub(1).and_then(|j| hits.get(j)), true)
            || neighbour(hits.get(i + 1), false);
        if not_a_skill(text, hit.start, hit.end) {
            continue;
        }
        let ok = match guard {
            Guard::None => true,
            Guard::List => in_list && &text[hit.start..hit.end] == skill.label,
            Guard::Scoped(scope) => {
                table.scopes.get(usize::from(scope)).is_some_and(|(acronym, cats)| {
                    &text[hit.start..hit.end] == *acronym
                        && category.is_some_and(|c| cats.contains(&c))
                })
            }
            Guard::Word => {
                let after = &text[hit.end..];
                // A capitalised word opening a sentence is usually the English word ("Go
                // beyond", "Make it faster"): there it counts only inside a list.
                let sentence_start = text[..hit.start]
                    .trim_end()
                    .chars()
                    .next_back()
                    .is_none_or(|c| matches!(c, '.' | '!' | '?' | ':' | '•' | '·'));
                let next_word = after.trim_start().split(|c: char| !c.is_alphanumeric()).next();
                let heading = in_title_case(text, hit.start, hit.end);
                &text[hit.start..hit.end] == skill.label
                    && !after.starts_with('-')
                    && !next_word.is_some_and(|w| w.eq_ignore_ascii_case("to"))
                    && (in_list
                        || (!sentence_start
                            && !heading
                            && unguarded.iter().filter(|&&s| s != idx).count() >= TECH_CONTEXT))
            }
        };
        if ok {
            out.insert(skill.slug);
        }
    }
    out
}

/// The canonical skills a free text mentions, in order of first mention, each once: every
/// word and every run of two or three words is looked up with [`canonical`] (so "Rust",
/// "Kubernetes" and "machine learning" are found; no category-scoped acronyms). For short
/// texts such as a search query or a CV skill list, not for descriptions.
pub fn mentioned(text: &str) -> Vec<&'static str> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '/' | '|'))
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ':' | '!' | '?' | '"' | '\'')))
        .filter(|w| !w.is_empty())
        .collect();
    let mut out: Vec<&'static str> = Vec::new();
    for i in 0..words.len() {
        for n in (1..=3).rev() {
            let Some(run) = words.get(i..i + n) else { continue };
            if let Some(slug) = canonical(&run.join(" "))
                && !out.contains(&slug)
            {
                out.push(slug);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::Lexicon;

    fn skills(text: &str) -> Vec<&'static str> {
        let lex = Lexicon::new(SKILL_TABLE.phrases.iter().map(|(p, i, g)| (p.clone(), (*i, *g))));
        from_hits(text, &lex.scan(text), Some(Category::DataScience)).into_iter().collect()
    }

    #[test]
    fn skills_mentioned_in_a_short_text() {
        assert_eq!(
            mentioned("Rust, k8s and machine learning (PostgreSQL)"),
            ["rust", "kubernetes", "machine-learning", "postgresql"]
        );
        assert_eq!(mentioned("rust rust Rust."), ["rust"]);
        assert!(mentioned("the offsite").is_empty());
    }

    #[test]
    fn dictionary_size_and_labels() {
        let t = &*SKILL_TABLE;
        assert!(t.skills.len() >= 500, "{}", t.skills.len());
        let mut slugs: Vec<_> = t.skills.iter().map(|s| s.slug).collect();
        slugs.sort_unstable();
        let before = slugs.len();
        slugs.dedup();
        assert_eq!(before, slugs.len(), "slugs are unique");
        assert!(t.skills.iter().all(|s| !s.label.is_empty()));
        assert_eq!(label("kubernetes"), Some("Kubernetes"));
        assert_eq!(canonical("k8s"), Some("kubernetes"));
        assert_eq!(canonical("Golang"), Some("go"));
        assert_eq!(canonical("nonsense"), None);
    }

    // scenario: Skill aliases
    // scenario: No go from go-to-market
    // scenario: Letters in lists
    // scenario: Acronym tier
    #[test]
    fn skill_table() {
        #[rustfmt::skip]
        let cases: &[(&str, &[&str])] = &[
            ("We use Golang and k8s.", &["go", "kubernetes"]),
            ("Experience with go lang", &["go"]),
            ("Backend in Go, PostgreSQL, Kafka and Docker.", &["docker", "go", "kafka", "postgresql"]),
            ("Own our go-to-market strategy with HubSpot", &["hubspot"]),
            ("Ready to go to market? Python, Docker, AWS, Terraform", &["aws", "docker", "python", "terraform"]),
            ("Let's go! We love to rust-proof bikes.", &[]),
            ("Rust, Go", &["go", "rust"]),
            ("Python, R, SQL", &["python", "r", "sql"]),
            ("C/C++ on embedded targets", &["c", "cpp"]),
            ("Grade C students and R&D", &[]),
            ("Swift and SwiftUI for iOS", &["ios", "swift", "swiftui"]),
            ("The swift response of our team", &[]),
            ("react.js and TypeScript", &["react", "typescript"]),
            ("Customers react to our product.", &[]),
            ("node.js, C#, .NET", &["csharp", "dotnet", "nodejs"]),
            ("scalable systems", &[]),
            ("javascript; Java", &["java", "javascript"]),
            ("machine   learning", &[]),
            ("Machine learning with PyTorch", &["machine-learning", "pytorch"]),
            ("ML and CV research", &["computer-vision", "machine-learning"]),
            ("ml of saline; send your cv", &[]),
            ("ATS experience", &[]),
        ];
        let mut failures = Vec::new();
        for (text, want) in cases {
            let got = skills(text);
            if got != *want {
                failures.push(format!("{text:?}: got {got:?}, want {want:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}
