//! Minimum years of experience (reference §3.11): structured value → description parse. The
//! first "N years" (also "N+", "N-M", "N to M", number words) that has "experience" within a
//! few words is the minimum; a figure above [`MAX_EXPERIENCE_YEARS`] is not believed.

use freehire_domain::MAX_EXPERIENCE_YEARS;

use crate::description::Term;
use crate::lexicon::Hit;

const WORDS: &[(&str, i32)] = &[
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("fifteen", 15),
    ("twenty", 20),
];

/// How far (in words) "experience" may be from the figure.
const WINDOW: usize = 6;

fn number(token: &str) -> Option<i32> {
    let t = token.trim_matches(|c| matches!(c, '(' | ')' | '+'));
    if let Ok(n) = t.parse::<i32>() {
        return Some(n);
    }
    WORDS.iter().find(|(w, _)| *w == t).map(|(_, n)| *n)
}

/// Bytes of context read around each "year"/"yr" mention.
const CONTEXT: usize = 80;

/// The minimum years a description asks for.
#[cfg(test)] // the tests' entry point; the pipeline reuses its scan
pub fn from_description(text: &str) -> Option<i32> {
    from_hits(text, &crate::description::scan(text))
}

/// [`from_description`] from the shared description scan: only the neighbourhoods of its
/// "year"/"yr" hits are tokenised.
pub fn from_hits(text: &str, hits: &[Hit<Term>]) -> Option<i32> {
    let mut last_end = 0;
    for h in hits.iter().filter(|h| h.term == Term::Years) {
        if h.start < last_end {
            continue;
        }
        let mut lo = h.start.saturating_sub(CONTEXT);
        while !text.is_char_boundary(lo) {
            lo -= 1;
        }
        let mut hi = (h.end + CONTEXT).min(text.len());
        while !text.is_char_boundary(hi) {
            hi += 1;
        }
        last_end = hi;
        if let Some(years) = from_window(&text[lo..hi]) {
            return Some(years);
        }
    }
    None
}

fn from_window(text: &str) -> Option<i32> {
    let tokens: Vec<String> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '.' | '!' | '?'))
        .filter(|t| !t.is_empty())
        .map(|t| t.to_lowercase())
        .collect();
    for (i, tok) in tokens.iter().enumerate() {
        let unit = tok.trim_end_matches(['\'', '’', ')']);
        if !matches!(unit, "years" | "year" | "yrs" | "yr" | "years+") {
            continue;
        }
        let Some(min) = figure_before(&tokens, i) else { continue };
        let lo = i.saturating_sub(WINDOW);
        let hi = (i + WINDOW + 1).min(tokens.len());
        let near_experience = tokens[lo..hi].iter().any(|t| t.starts_with("experience"));
        let bragging =
            tokens[lo..i].iter().any(|t| matches!(t.as_str(), "our" | "founded" | "since"));
        if near_experience && !bragging {
            return (0..=MAX_EXPERIENCE_YEARS).contains(&min).then_some(min);
        }
    }
    None
}

/// The lower bound written just before a "years" token: "5", "5+", "3-5", "3–5", "3 to 5",
/// "five (5)".
fn figure_before(tokens: &[String], years: usize) -> Option<i32> {
    let prev = tokens.get(years.checked_sub(1)?)?;
    if let Some(n) = number(prev) {
        // "3 to 5 years" / "five (5) years": look one step further back.
        if years >= 3
            && tokens.get(years - 2).is_some_and(|t| t == "to" || t == "-")
            && let Some(lo) = number(&tokens[years - 3])
        {
            return Some(lo.min(n));
        }
        if prev.starts_with('(')
            && let Some(word) =
                years.checked_sub(2).and_then(|j| tokens.get(j)).and_then(|t| number(t))
        {
            return Some(word);
        }
        return Some(n);
    }
    // "3-5", "3–5", "5+"
    let range: Vec<&str> = prev.split(['-', '–']).collect();
    if let [lo, _hi] = range[..] {
        return number(lo);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    // scenario: Range
    #[test]
    fn experience_table() {
        let cases = [
            ("5+ years of experience in backend development", Some(5)),
            ("3-5 years of professional experience", Some(3)),
            ("At least 4 years' experience with Go", Some(4)),
            ("Experience: minimum 2 years", Some(2)),
            ("three to five years of relevant experience", Some(3)),
            ("five (5) years of experience", Some(5)),
            ("Our 25 years of experience serving clients", None),
            ("We were founded 10 years ago.", None),
            ("100 years of experience combined", None),
            ("Hiring for 2026", None),
        ];
        for (t, want) in cases {
            assert_eq!(from_description(t), want, "{t:?}");
        }
    }
}
