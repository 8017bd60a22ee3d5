//! The folded form of a free-text facet value (`cities`, `skills`, `collections`,
//! `posting_language`): the key both the index and a filter value are reduced to, so that a
//! case-insensitive whole-value match is one term lookup, never a regex (a long value made a
//! regex past the engine's state limit).
//!
//! Two values fold equal exactly when the former filter, a `(?i)` regex of the literal value,
//! matched: character for character, the same Unicode simple case folding class (regex-syntax's
//! tables, the ones that regex was compiled with). Each character becomes one representative of
//! its class: the lowercase ASCII letter when the class has one (so `K`, `k` and the Kelvin
//! sign are all `k`), otherwise the smallest character of the class. ASCII text folds with
//! `to_ascii_lowercase` alone; only non-ASCII characters look up their class.

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

/// The folded form of `value`.
pub(crate) fn fold(value: &str) -> String {
    if value.is_ascii() {
        return value.to_ascii_lowercase();
    }
    value.chars().map(fold_char).collect()
}

fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
    class.case_fold_simple();
    let mut members = class.iter().flat_map(|r| r.start()..=r.end());
    let mut smallest = c;
    for m in members.by_ref() {
        if m.is_ascii() {
            return m.to_ascii_lowercase();
        }
        smallest = smallest.min(m);
    }
    smallest
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use proptest::prelude::*;
    use tantivy_fst::Automaton;

    use super::fold;

    /// The former filter: a `(?i)` regex of the value with every ASCII non-alphanumeric
    /// character hex-escaped, matched against a whole term.
    fn regex_matches(value: &str, term: &str) -> bool {
        let mut pattern = String::from("(?i)");
        for c in value.chars() {
            if c.is_ascii() && !c.is_ascii_alphanumeric() {
                pattern.push_str(&format!("\\x{{{:02X}}}", u32::from(c)));
            } else {
                pattern.push(c);
            }
        }
        let regex = tantivy_fst::Regex::new(&pattern).unwrap();
        let mut state = regex.start();
        for b in term.bytes() {
            state = regex.accept(&state, b);
        }
        regex.is_match(&state)
    }

    /// Characters with unusual case behaviour, and plain ones.
    const TRICKY: &[char] = &[
        'a', 'A', 'k', 'K', '\u{212A}', 's', 'S', 'ſ', 'ß', 'ẞ', 'σ', 'ς', 'Σ', 'ϐ', 'β', 'ι',
        '\u{345}', 'ι', 'İ', 'ı', 'i', 'I', 'Å', 'å', '\u{212B}', 'ǅ', 'Ǆ', 'ǆ', 'µ', 'μ', 'Ü',
        'ü', 'é', 'É', 'ǰ', 'ŉ', 'ﬀ', 'Ꭰ', 'ꭰ', '.', '*', '(', '\\', ' ', '"', '1', '中', '😀',
    ];

    #[test]
    fn folds_as_the_case_insensitive_regex_matched() {
        for &a in TRICKY {
            for &b in TRICKY {
                let (a, b) = (a.to_string(), b.to_string());
                assert_eq!(fold(&a) == fold(&b), regex_matches(&a, &b), "{a:?} vs {b:?}");
            }
        }
        assert_eq!(fold("New York"), "new york");
        assert_eq!(fold("ZÜRICH"), fold("zürich"));
        assert_ne!(fold("Páris"), fold("Paris"));
    }

    proptest! {
        #[test]
        fn any_two_values_fold_equal_exactly_when_the_regex_matched(
            a in proptest::collection::vec(proptest::sample::select(TRICKY), 0..6),
            b in proptest::collection::vec(proptest::sample::select(TRICKY), 0..6),
            any in "\\PC{0,8}",
        ) {
            let (a, b): (String, String) = (a.into_iter().collect(), b.into_iter().collect());
            prop_assert_eq!(fold(&a) == fold(&b), regex_matches(&a, &b));
            prop_assert_eq!(fold(&any) == fold(&any.to_uppercase()), regex_matches(&any, &any.to_uppercase()));
        }
    }
}
