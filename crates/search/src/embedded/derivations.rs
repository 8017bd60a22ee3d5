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

use std::collections::BTreeMap;
use std::sync::LazyLock;

use levenshtein_automata::{DFA, Distance, LevenshteinAutomatonBuilder, SINK_STATE};
use tantivy::schema::Field;
use tantivy::{Searcher, Term};
use tantivy_fst::Automaton;

/// Most derived words of one kind scored as separate terms.
pub(crate) const MAX_TERMS: usize = 64;

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

/// A Levenshtein DFA as a term-dictionary automaton.
struct Lev<'a>(&'a DFA);

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
fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// The derivations of `word` in `field` over every segment of `searcher`.
pub(crate) fn derive(
    searcher: &Searcher,
    field: Field,
    word: &str,
    typos: u8,
    last: bool,
) -> tantivy::Result<Derived> {
    let mut found: BTreeMap<Vec<u8>, Derivation> = BTreeMap::new();
    found.insert(word.as_bytes().to_vec(), Derivation::Exact);
    let mut overflow = Vec::new();
    let note = |found: &mut BTreeMap<Vec<u8>, Derivation>, key: &[u8], kind: Derivation| {
        let slot = found.entry(key.to_vec()).or_insert(kind);
        if kind < *slot {
            *slot = kind;
        }
    };
    let full = (typos > 0).then(|| builder(typos).build_dfa(word));
    let prefixed = (typos > 0 && last).then(|| builder(typos).build_prefix_dfa(word));
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
        let typo_dfa = prefixed.as_ref().or(full.as_ref());
        if let Some(dfa) = typo_dfa
            && !overflow.contains(&Derivation::Typo)
        {
            let mut stream = dict.search(Lev(dfa)).into_stream()?;
            while stream.advance() {
                let key = stream.key();
                if key == word.as_bytes() || (last && key.starts_with(word.as_bytes())) {
                    continue;
                }
                let within = full
                    .as_ref()
                    .is_some_and(|f| matches!(f.eval(key), Distance::Exact(d) if d <= typos));
                let kind = if within { Derivation::Typo } else { Derivation::TypoPrefix };
                note(&mut found, key, kind);
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
