//! One Aho-Corasick automaton over many phrase dictionaries, so a description is scanned once
//! for every facet. Patterns are matched ASCII-case-insensitively, leftmost-longest, and only
//! as whole words; each pattern carries the facet terms it stands for.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use crate::text::whole_word;

/// A phrase hit in a text.
#[derive(Debug, Clone, Copy)]
pub struct Hit<T> {
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset past the last character.
    pub end: usize,
    /// What the phrase stands for.
    pub term: T,
}

/// Phrases and the terms they stand for.
pub struct Lexicon<T> {
    automaton: Option<AhoCorasick>,
    terms: Vec<Vec<T>>,
}

impl<T: Copy> Lexicon<T> {
    /// Builds the automaton. Phrases are folded to ASCII lowercase; a phrase given twice keeps
    /// every term.
    pub fn new(entries: impl IntoIterator<Item = (String, T)>) -> Self {
        let mut patterns: Vec<String> = Vec::new();
        let mut terms: Vec<Vec<T>> = Vec::new();
        let mut index = std::collections::HashMap::new();
        for (phrase, term) in entries {
            let phrase = phrase.trim().to_ascii_lowercase();
            if phrase.is_empty() {
                continue;
            }
            let i = *index.entry(phrase.clone()).or_insert_with(|| {
                patterns.push(phrase);
                terms.push(Vec::new());
                terms.len() - 1
            });
            if let Some(slot) = terms.get_mut(i) {
                slot.push(term);
            }
        }
        // Patterns are lowercase and texts are ASCII-lowercased before the search: a
        // case-sensitive automaton over half the alphabet is smaller and faster than an
        // ASCII-case-insensitive one.
        let automaton = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .kind(Some(AhoCorasickKind::DFA))
            .build(&patterns)
            .ok();
        Self { automaton, terms }
    }

    /// Every whole-word hit, in text order. Matching ignores ASCII case; offsets refer to
    /// `text`.
    pub fn scan(&self, text: &str) -> Vec<Hit<T>> {
        self.scan_lowered(text, &text.to_ascii_lowercase())
    }

    /// [`Lexicon::scan`] with the ASCII-lowercased text supplied by a caller that scans the
    /// same text more than once.
    pub fn scan_lowered(&self, text: &str, lower: &str) -> Vec<Hit<T>> {
        let mut out = Vec::new();
        let Some(ac) = &self.automaton else { return out };
        for m in ac.find_iter(lower) {
            if !whole_word(text, m.start(), m.end()) {
                continue;
            }
            if let Some(terms) = self.terms.get(m.pattern().as_usize()) {
                out.extend(terms.iter().map(|&term| Hit { start: m.start(), end: m.end(), term }));
            }
        }
        out
    }
}

/// The one value a run of hits states: `None` when there is none or when two disagree (a
/// conflict settles nothing).
pub fn unanimous<T: PartialEq>(values: impl IntoIterator<Item = T>) -> Option<T> {
    let mut found = None;
    for v in values {
        match &found {
            Some(f) if *f != v => return None,
            Some(_) => {}
            None => found = Some(v),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_leftmost_longest_and_shared_phrases() {
        let lex = Lexicon::new([
            ("go".to_owned(), 1),
            ("go lang".to_owned(), 2),
            ("Java".to_owned(), 3),
            ("javascript".to_owned(), 4),
            ("java".to_owned(), 5),
        ]);
        let terms = |t: &str| lex.scan(t).into_iter().map(|h| h.term).collect::<Vec<_>>();
        assert_eq!(terms("Go lang, golang, JAVA and JavaScript"), [2, 3, 5, 4]);
        assert_eq!(terms("ago going cargo"), Vec::<i32>::new());
        let hits = lex.scan("x go y");
        assert_eq!((hits[0].start, hits[0].end), (2, 4));
    }
}
