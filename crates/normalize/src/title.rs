//! The title lexicon: seniority grades and their masks, category phrases, employment-type
//! words and confident tech/non-tech words, in one automaton.

use std::sync::LazyLock;

use freehire_domain::{Category, EmploymentType, Seniority};

use crate::lexicon::{Hit, Lexicon};
use crate::{category, employment, seniority};

/// What a title phrase stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TitleTerm {
    /// A seniority grade.
    Seniority(Seniority),
    /// A grade-blind phrase: consumes its words so no grade is read inside it.
    Mask,
    /// A category with its rank in the dictionary (lower = more specific).
    Category(u16, Category),
    /// An employment type.
    Employment(EmploymentType),
    /// A confident tech (true) or non-tech (false) word.
    Tech(bool),
}

/// One automaton per facet, so a phrase of one facet never swallows a word of another
/// ("Product Lead" is both a product title and a lead grade).
static LEXICONS: LazyLock<[Lexicon<TitleTerm>; 4]> = LazyLock::new(|| {
    let grades = seniority::TITLE_ALIASES
        .iter()
        .map(|(p, s)| ((*p).to_owned(), TitleTerm::Seniority(*s)))
        .chain(seniority::MASKS.iter().map(|p| ((*p).to_owned(), TitleTerm::Mask)));
    let categories = category::TITLE_PHRASES.iter().enumerate().map(|(rank, (p, c))| {
        ((*p).to_owned(), TitleTerm::Category(u16::try_from(rank).unwrap_or(u16::MAX), *c))
    });
    let employment =
        employment::TITLE_WORDS.iter().map(|(p, e)| ((*p).to_owned(), TitleTerm::Employment(*e)));
    let tech = category::TECH_WORDS.iter().map(|(p, t)| ((*p).to_owned(), TitleTerm::Tech(*t)));
    [Lexicon::new(grades), Lexicon::new(categories), Lexicon::new(employment), Lexicon::new(tech)]
});

/// Scans a title with every title dictionary. The title is lowercased first (the automaton
/// folds ASCII case only, and Russian aliases need folding too); hit offsets refer to the
/// lowercased title.
pub fn scan_title(title: &str) -> Vec<Hit<TitleTerm>> {
    let lower = title.to_lowercase();
    LEXICONS.iter().flat_map(|lex| lex.scan(&lower)).collect()
}
