//! The dictionary words a query word stands for: itself, the words it is a prefix of (the last
//! query word only), and the words within its typo budget (Levenshtein, a transposition
//! counting one; for the last word, words with a prefix within the budget).
//!
//! Each derived word is found once per field, across the segments' term dictionaries, and
//! labelled with its best [`Derivation`]; the text query then scores each as a plain term.
//! Matching through tantivy's automaton queries instead would read every posting of every
//! derived word into a bitset, once per automaton, on every search, even when a filter keeps
//! a handful of jobs; plain terms are read lazily and skipped over by the filter.
//! A kind of derivation with more than [`MAX_TERMS`] words (a two-letter prefix, say) falls
//! back to one automaton query for that kind, so no word is ever dropped.
//!
//! [`Rule`] is the one statement of what a query word matches: its typo budget (Meilisearch's
//! default thresholds), its automata and [`Rule::classify`]. The engine derives dictionary
//! words with it here; the percolator (`crate::percolate`) matches new jobs' words with the
//! same rule, so both find exactly the same jobs.

use std::collections::BTreeMap;
use std::sync::{LazyLock, OnceLock};

use levenshtein_automata::{DFA, Distance, LevenshteinAutomatonBuilder, SINK_STATE};
use tantivy::schema::Field;
use tantivy::{Searcher, Term};
use tantivy_fst::Automaton;

/// Most derived words of one kind scored as separate terms.
pub(crate) const MAX_TERMS: usize = 64;
/// Shortest word given one typo (Meilisearch's default `oneTypo`).
const ONE_TYPO_MIN_CHARS: usize = 5;
/// Shortest word given two typos (Meilisearch's default `twoTypos`).
const TWO_TYPOS_MIN_CHARS: usize = 9;

/// How many edits a query word may be away from an indexed word.
pub(crate) fn typos(word: &str) -> u8 {
    match word.chars().count() {
        n if n >= TWO_TYPOS_MIN_CHARS => 2,
        n if n >= ONE_TYPO_MIN_CHARS => 1,
        _ => 0,
    }
}

/// How a dictionary word matches a query word, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Derivation {
    /// The word itself.
    Exact,
    /// A longer word starting with it.
    Prefix,
    /// Within the typo budget.
    Typo,
    /// Starting with a word within the typo budget.
    TypoPrefix,
}

/// What a query word stands for in one field.
pub(crate) struct Derived {
    /// Derived words by kind; a kind past [`MAX_TERMS`] is absent and listed in `overflow`.
    pub terms: Vec<(Term, Derivation)>,
    /// Kinds with too many words to list.
    pub overflow: Vec<Derivation>,
}

static ONE_TYPO: LazyLock<LevenshteinAutomatonBuilder> =
    LazyLock::new(|| LevenshteinAutomatonBuilder::new(1, true));
static TWO_TYPOS: LazyLock<LevenshteinAutomatonBuilder> =
    LazyLock::new(|| LevenshteinAutomatonBuilder::new(2, true));

fn builder(typos: u8) -> &'static LevenshteinAutomatonBuilder {
    if typos >= 2 { &TWO_TYPOS } else { &ONE_TYPO }
}

/// What one analysed query word matches: the word itself; when it is the last word, every
/// word it starts; within its typo budget ([`typos`]), every word that many edits away
/// (Levenshtein, a transposition counting one) and, when last, every word starting with one.
pub(crate) struct Rule {
    word: String,
    typos: u8,
    last: bool,
    /// The typo automaton (`None`: no typos allowed): words within the budget, or for the last
    /// word, words with a prefix within it (which takes in the words within it).
    automaton: Option<DFA>,
    /// The last word's words within the budget (telling a typo from a typo of a prefix, for
    /// ranking alone), built on first use.
    within: OnceLock<DFA>,
}

/// Whether `dfa` accepts `key` within `typos` edits.
fn accepts(dfa: &DFA, key: &[u8], typos: u8) -> bool {
    matches!(dfa.eval(key), Distance::Exact(n) if n <= typos)
}

impl Rule {
    /// The rule of `word` (as the analyzer produced it); `last`: the query's last word.
    pub(crate) fn new(word: &str, last: bool) -> Self {
        let typos = typos(word);
        let automaton = (typos > 0).then(|| {
            let b = builder(typos);
            if last { b.build_prefix_dfa(word) } else { b.build_dfa(word) }
        });
        Self { word: word.to_owned(), typos, last, automaton, within: OnceLock::new() }
    }

    /// The query word.
    pub(crate) fn word(&self) -> &str {
        &self.word
    }

    /// Its typo budget.
    pub(crate) fn typos(&self) -> u8 {
        self.typos
    }

    /// Whether it is the query's last word (prefixes allowed).
    pub(crate) fn last(&self) -> bool {
        self.last
    }

    /// The automaton accepting every typo derivation (with prefixes for the last word);
    /// `None` without a typo budget.
    pub(crate) fn typo_automaton(&self) -> Option<Lev<'_>> {
        self.automaton.as_ref().map(Lev)
    }

    /// Whether the dictionary word `key` matches: what [`Rule::classify`] accepts, without
    /// telling how.
    pub(crate) fn matches(&self, key: &[u8]) -> bool {
        key == self.word.as_bytes()
            || (self.last && key.starts_with(self.word.as_bytes()))
            || self.automaton.as_ref().is_some_and(|dfa| accepts(dfa, key, self.typos))
    }

    /// How the dictionary word `key` derives from the query word; `None`: it does not match.
    pub(crate) fn classify(&self, key: &[u8]) -> Option<Derivation> {
        let word = self.word.as_bytes();
        if key == word {
            return Some(Derivation::Exact);
        }
        if self.last && key.starts_with(word) {
            return Some(Derivation::Prefix);
        }
        let automaton = self.automaton.as_ref()?;
        if !accepts(automaton, key, self.typos) {
            return None;
        }
        if !self.last {
            return Some(Derivation::Typo);
        }
        let within = self.within.get_or_init(|| builder(self.typos).build_dfa(&self.word));
        Some(if accepts(within, key, self.typos) {
            Derivation::Typo
        } else {
            Derivation::TypoPrefix
        })
    }
}

/// A Levenshtein DFA as a term-dictionary automaton.
pub(crate) struct Lev<'a>(&'a DFA);

impl Automaton for Lev<'_> {
    type State = u32;

    fn start(&self) -> u32 {
        self.0.initial_state()
    }

    fn is_match(&self, state: &u32) -> bool {
        matches!(self.0.distance(*state), Distance::Exact(_))
    }

    fn can_match(&self, state: &u32) -> bool {
        *state != SINK_STATE
    }

    fn accept(&self, state: &u32, byte: u8) -> u32 {
        self.0.transition(*state, byte)
    }
}

/// The smallest string greater than every string starting with `prefix` (`None`: no bound).
pub(crate) fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// The derivations of `rule`'s word in `field` over every segment of `searcher`.
pub(crate) fn derive(searcher: &Searcher, field: Field, rule: &Rule) -> tantivy::Result<Derived> {
    let word = rule.word();
    let last = rule.last();
    let mut found: BTreeMap<Vec<u8>, Derivation> = BTreeMap::new();
    found.insert(word.as_bytes().to_vec(), Derivation::Exact);
    let mut overflow = Vec::new();
    let note = |found: &mut BTreeMap<Vec<u8>, Derivation>, key: &[u8], kind: Derivation| {
        let slot = found.entry(key.to_vec()).or_insert(kind);
        if kind < *slot {
            *slot = kind;
        }
    };
    for reader in searcher.segment_readers() {
        let index = reader.inverted_index(field)?;
        let dict = index.terms();
        if last && !overflow.contains(&Derivation::Prefix) {
            let mut range = dict.range().ge(word.as_bytes());
            if let Some(end) = prefix_end(word.as_bytes()) {
                range = range.lt(end);
            }
            let mut stream = range.into_stream()?;
            while stream.advance() {
                let key = stream.key();
                if key != word.as_bytes() {
                    note(&mut found, key, Derivation::Prefix);
                }
            }
        }
        if let Some(automaton) = rule.typo_automaton()
            && !overflow.contains(&Derivation::Typo)
        {
            let mut stream = dict.search(automaton).into_stream()?;
            while stream.advance() {
                let key = stream.key();
                // Exact and prefix words are found above (the prefix DFA accepts them too).
                if let Some(kind @ (Derivation::Typo | Derivation::TypoPrefix)) = rule.classify(key)
                {
                    note(&mut found, key, kind);
                }
            }
        }
        let mut counts = [0usize; 4];
        for kind in found.values() {
            counts[*kind as usize] += 1;
        }
        for kind in [Derivation::Prefix, Derivation::Typo, Derivation::TypoPrefix] {
            if counts[kind as usize] > MAX_TERMS && !overflow.contains(&kind) {
                overflow.push(kind);
            }
        }
        // Typo and typo-prefix words come from one automaton: past the cap, both go.
        if overflow.contains(&Derivation::Typo) || overflow.contains(&Derivation::TypoPrefix) {
            for kind in [Derivation::Typo, Derivation::TypoPrefix] {
                if !overflow.contains(&kind) {
                    overflow.push(kind);
                }
            }
        }
        found.retain(|_, kind| !overflow.contains(kind));
    }
    let terms = found
        .into_iter()
        .filter_map(|(key, kind)| {
            let text = String::from_utf8(key).ok()?;
            Some((Term::from_field_text(field, &text), kind))
        })
        .collect();
    Ok(Derived { terms, overflow })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Derivation, Rule};

    #[test]
    fn a_rule_classifies_as_the_engine_ranks() {
        let last = Rule::new("engineer", true);
        assert_eq!(last.classify(b"engineer"), Some(Derivation::Exact));
        assert_eq!(last.classify(b"engineering"), Some(Derivation::Prefix));
        assert_eq!(last.classify(b"enginer"), Some(Derivation::Typo));
        assert_eq!(last.classify(b"enginerring"), Some(Derivation::TypoPrefix));
        assert_eq!(last.classify(b"manager"), None);
        let inner = Rule::new("engineer", false);
        assert_eq!(inner.classify(b"engineering"), None);
        assert_eq!(inner.classify(b"enigneer"), Some(Derivation::Typo));
        // Four letters: no typo.
        assert_eq!(Rule::new("rust", false).classify(b"rusk"), None);
    }

    proptest! {
        /// What the percolator asks (`matches`) is what the engine derives (`classify`).
        #[test]
        fn matches_is_classify_accepting(
            word in "[a-e]{1,10}",
            key in "[a-e]{0,12}",
            last in any::<bool>(),
        ) {
            let rule = Rule::new(&word, last);
            prop_assert_eq!(rule.matches(key.as_bytes()), rule.classify(key.as_bytes()).is_some());
        }
    }
}
