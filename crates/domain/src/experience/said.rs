//! `user_said(transcript, quote)`: whether a quote the model offers is something the candidate
//! actually wrote (reference assistant.md §4). It is the only way a banked achievement becomes
//! the candidate's own statement (`stated_in_chat`), and therefore citable in a CV.
//!
//! The rules, in order:
//! 1. The quote is normalised (lowercased, whitespace collapsed to single spaces). Fewer than
//!    [`MIN_QUOTE_WORDS`] words is never a quote: "I" or "the team" would match anything.
//! 2. Only [`Speaker::User`] messages count (server briefs and the confirmation button's replay
//!    are stored as user messages, so they count too; the assistant's own words never do).
//! 3. Every occurrence of the normalised quote inside a normalised user message is checked.
//!    Beyond the reference, an occurrence must sit on word boundaries where the quote starts
//!    or ends with a letter or digit, so "led a team of 5" is not found in "led a team of 50".
//! 4. The **negation guard**: an occurrence does not count when the sentence holding its first
//!    character has a negation cue before it (`not`, `no`, `never`, `without`, `nor`,
//!    `cannot`, or any word ending in `n't`, straight or typographic apostrophe). Sentences end
//!    at `.`, `!`, `?` or `…` followed by whitespace or the end of the text (so "3.5x" does not
//!    split), and at any line break; they are found on the original text, through a map from
//!    normalised offsets back to original ones. A cue after the occurrence start, or inside
//!    the quote itself, does not negate it. "No, I led the migration" fails closed: the atom
//!    stays `agent_inferred` until the candidate confirms it.
//! 5. Any occurrence that counts makes the answer true. The comparison is literal: no
//!    stemming, no fuzzy matching, so a paraphrase fails.
//!
//! Cost: a message that lacks the quote's longest ASCII word (ASCII
//! case-insensitively) is skipped without being normalised, so a long transcript costs about
//! one scan of its bytes (`cargo xtask bench`: `user_said` over 10,000 messages).

use aho_corasick::AhoCorasick;

/// The fewest words a quote may have.
pub const MIN_QUOTE_WORDS: usize = 3;

/// Who wrote a transcript message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    /// The candidate (and server-written briefs and confirmations, stored as user messages).
    User,
    /// The model.
    Assistant,
    /// A tool's result.
    Tool,
    /// A system prompt.
    System,
}

/// One message of the transcript, as `user_said` reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utterance<'a> {
    /// Who wrote it.
    pub speaker: Speaker,
    /// Its text.
    pub text: &'a str,
}

impl<'a> Utterance<'a> {
    /// A message of the candidate.
    pub const fn user(text: &'a str) -> Self {
        Self { speaker: Speaker::User, text }
    }
}

/// Whether the candidate said `quote` (see the module doc for the rules).
pub fn user_said<'a>(transcript: impl IntoIterator<Item = Utterance<'a>>, quote: &str) -> bool {
    let mut norm = String::new();
    normalise_into(quote, &mut norm);
    let quote = norm.clone();
    if quote.split(' ').filter(|w| !w.is_empty()).count() < MIN_QUOTE_WORDS {
        return false;
    }
    let prefilter = Prefilter::new(&quote);
    transcript.into_iter().filter(|u| u.speaker == Speaker::User).any(|u| {
        if prefilter.as_ref().is_some_and(|p| p.rules_out(u.text)) {
            return false;
        }
        said_in(u.text, &quote, &mut norm)
    })
}

/// Whether a verified quote backs what is recorded from it: every content word and number of
/// the claim and of each metric (their [`claim_key`](super::claim_key) words, stopwords
/// aside) occurs in the quote. Beyond the reference, which upgrades on any verified quote: a
/// model quoting "I led the migration" can no longer bank "led the migration of 400 services,
/// saving $2M" as the candidate's own words. Literal, so a paraphrase fails closed: the atom
/// stays `agent_inferred` until the candidate confirms the claim as written.
pub fn quote_backs(quote: &str, claim: &str, metrics: &[String]) -> bool {
    let said = super::similar::content_tokens(quote);
    let recorded = std::iter::once(claim).chain(metrics.iter().map(String::as_str));
    recorded.flat_map(super::similar::content_tokens).all(|w| said.contains(&w))
}

/// A cheap first look at a message: the quote's longest ASCII word, searched ASCII
/// case-insensitively in the raw text. Lowercasing maps exactly two non-ASCII characters to
/// something holding ASCII (U+0130 `İ` and U+212A, the Kelvin sign), so a message holding
/// neither and lacking the word cannot hold the normalised quote: it is skipped unread.
struct Prefilter(AhoCorasick);

/// The patterns after the word: a hit on one of them sends the message to the full check.
const LOWERCASES_TO_ASCII: [&str; 2] = ["\u{130}", "\u{212A}"];

impl Prefilter {
    fn new(quote: &str) -> Option<Self> {
        let word = quote.split(' ').filter(|w| w.is_ascii()).max_by_key(|w| w.len())?;
        let patterns = std::iter::once(word).chain(LOWERCASES_TO_ASCII);
        AhoCorasick::builder().ascii_case_insensitive(true).build(patterns).ok().map(Self)
    }

    fn rules_out(&self, text: &str) -> bool {
        !self.0.is_match(text)
    }
}

/// Whether one message holds an occurrence of the (normalised, non-empty) quote that counts;
/// `norm` is a buffer reused across messages.
fn said_in(text: &str, quote: &str, norm: &mut String) -> bool {
    normalise_into(text, norm);
    let starts_word = quote.chars().next().is_some_and(char::is_alphanumeric);
    let ends_word = quote.chars().next_back().is_some_and(char::is_alphanumeric);
    let mut from = 0;
    while let Some(found) = norm[from..].find(quote) {
        let at = from + found;
        let end = at + quote.len();
        let bounded = (!starts_word
            || !norm[..at].chars().next_back().is_some_and(char::is_alphanumeric))
            && (!ends_word || !norm[end..].chars().next().is_some_and(char::is_alphanumeric));
        if bounded && !negated(text, origin_of(text, at)) {
            return true;
        }
        from = at + norm[at..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Lowercases `text` and collapses its whitespace into `out` (cleared first).
fn normalise_into(text: &str, out: &mut String) {
    out.clear();
    let mut gap = false;
    if text.is_ascii() {
        for &b in text.as_bytes() {
            if b.is_ascii_whitespace() || b == 0x0b {
                gap = !out.is_empty();
            } else {
                if gap {
                    out.push(' ');
                    gap = false;
                }
                out.push(char::from(b.to_ascii_lowercase()));
            }
        }
        return;
    }
    for c in text.chars() {
        if c.is_whitespace() {
            gap = !out.is_empty();
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.extend(c.to_lowercase());
        }
    }
}

/// The byte offset in `text` of the character that byte `at` of its normalised form came
/// from (the same walk as [`normalise_into`], only counting).
fn origin_of(text: &str, at: usize) -> usize {
    let (mut len, mut gap) = (0usize, false);
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            gap = len > 0;
            continue;
        }
        if gap {
            if at == len {
                return i;
            }
            len += 1;
            gap = false;
        }
        len += c.to_lowercase().map(char::len_utf8).sum::<usize>();
        if at < len {
            return i;
        }
    }
    text.len()
}

/// Whether the sentence holding byte `at` of `text` has a negation cue before `at`.
fn negated(text: &str, at: usize) -> bool {
    let before = &text[..at];
    let mut start = 0;
    for (i, c) in before.char_indices().rev() {
        let next = i + c.len_utf8();
        let ends_sentence = matches!(c, '\n' | '\r')
            || (matches!(c, '.' | '!' | '?' | '…')
                && text[next..].chars().next().is_none_or(char::is_whitespace));
        if ends_sentence {
            start = next;
            break;
        }
    }
    before[start..]
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '’').to_lowercase())
        .any(|w| is_cue(&w))
}

/// A negation cue, as a lowercased whole word.
fn is_cue(word: &str) -> bool {
    matches!(word, "not" | "no" | "never" | "without" | "nor" | "cannot")
        || word.ends_with("n't")
        || word.ends_with("n’t")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn said(messages: &[&str], quote: &str) -> bool {
        user_said(messages.iter().map(|m| Utterance::user(m)), quote)
    }

    // scenario: Short, empty and foreign quotes are not the candidate's
    #[test]
    fn short_empty_and_foreign_quotes_fail() {
        let msg = ["I led the team on the migration to Kubernetes"];
        assert!(!said(&msg, "I"));
        assert!(!said(&msg, "the team"));
        assert!(!said(&msg, "   "));
        assert!(!said(&msg, ""));
        let others = [
            Utterance { speaker: Speaker::Assistant, text: "You led the migration to Kubernetes" },
            Utterance { speaker: Speaker::Tool, text: "led the migration to Kubernetes" },
            Utterance { speaker: Speaker::System, text: "led the migration to Kubernetes" },
        ];
        assert!(!user_said(others, "led the migration to Kubernetes"));
        assert!(!said(&msg, "headed the move to Kubernetes"), "a paraphrase fails");
    }

    #[test]
    fn case_and_spacing_do_not_matter() {
        assert!(said(
            &["I  LED the\n\tmigration   to Kubernetes"],
            "led the migration to kubernetes"
        ));
        assert!(said(&["I led the migration to Kubernetes"], "  Led  THE migration "));
    }

    #[test]
    fn a_brief_stored_as_a_user_message_counts() {
        let brief = "Interview brief: the candidate shipped the billing rewrite in May.";
        assert!(said(&[brief], "shipped the billing rewrite"));
    }

    // scenario: The negation guard
    #[test]
    fn the_negation_table_of_the_reference() {
        let table: &[(&str, &str, bool)] = &[
            ("I led the migration to Kubernetes.", "led the migration to kubernetes", true),
            ("I never led the migration to Kubernetes.", "led the migration to Kubernetes", false),
            (
                "I didn't lead it. I led the migration to Kubernetes.",
                "led the migration to Kubernetes",
                true,
            ),
            (
                "I led the migration to Kubernetes, not the rollout.",
                "led the migration to Kubernetes",
                true,
            ),
            ("I haven't shipped the billing rewrite", "shipped the billing rewrite", false),
            ("We did it without breaking the API", "breaking the API", false),
            ("Didn’t we ship the billing rewrite in May", "ship the billing rewrite", false),
            ("No, I led the migration to Kubernetes", "led the migration to Kubernetes", false),
            ("I never led a team", "never led a team", true),
            ("I cannot say I led the migration", "led the migration", false),
            ("Not me.\nI led the migration", "led the migration", true),
            ("It was 3.5x not faster. I led the migration", "led the migration", true),
            ("It was not v1.2 when I led the migration", "led the migration", false),
            ("I led a team of 50 engineers", "led a team of 5", false),
            ("I misled the migration team", "led the migration", false),
        ];
        for (msg, quote, want) in table {
            assert_eq!(said(&[msg], quote), *want, "{msg:?} / {quote:?}");
        }
        assert!(said(
            &[
                "I never led the migration to Kubernetes.",
                "Actually I led the migration to Kubernetes."
            ],
            "led the migration to Kubernetes"
        ));
        assert!(
            !said(
                &[
                    "I never led the migration to Kubernetes, but then I led the migration to Kubernetes"
                ],
                "led the migration to Kubernetes"
            ),
            "both occurrences sit in the negated sentence"
        );
        assert!(said(
            &["Never. I led the migration to Kubernetes"],
            "led the migration to Kubernetes"
        ));
    }

    #[test]
    fn origins_point_at_the_source_character() {
        let mut norm = String::new();
        for text in ["  Led\tTHE\u{b}  Mïgration. İt K", "a", "", "x \n\n y"] {
            normalise_into(text, &mut norm);
            let expected: String =
                text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
            assert_eq!(norm, expected, "{text:?}");
            for (at, c) in norm.char_indices().filter(|(_, c)| *c != ' ') {
                let src = text[origin_of(text, at)..].chars().next().unwrap();
                assert!(src.to_lowercase().any(|l| l == c), "{text:?} @{at}: {src:?} vs {c:?}");
            }
        }
    }

    #[test]
    fn non_ascii_text_is_matched_without_the_prefilter() {
        assert!(said(
            &["Ich habe die Migration zu Kubernetes geführt — ÜBER 40 Dienste"],
            "über 40 dienste"
        ));
        assert!(said(&["I led the migration to Kubernetes ✓"], "led the migration to kubernetes"));
        // The Kelvin sign lowercases to an ASCII `k`: the prefilter must not skip the message.
        assert!(said(&["I led the \u{212A}ubernetes migration"], "led the kubernetes migration"));
        assert!(!said(
            &["Je n’ai jamais… I didn’t lead the migration to Kubernetes"],
            "lead the migration to Kubernetes"
        ));
    }

    // scenario: A quote backs only what it says
    #[test]
    fn a_quote_backs_only_what_it_says() {
        let q = "I led the migration to Kubernetes for 40 services";
        assert!(quote_backs(q, "Led the migration to Kubernetes", &[]));
        assert!(quote_backs(q, "Kubernetes migration, led", &["40 services".to_owned()]));
        assert!(!quote_backs(q, "Led the migration to Kubernetes for 400 services", &[]));
        assert!(!quote_backs(q, "Led the migration", &["saved $2M".to_owned()]));
        assert!(!quote_backs(q, "Headed the move to Kubernetes", &[]));
    }

    const WORDS: &[&str] =
        &["led", "the", "migration", "to", "kubernetes", "billing", "rewrite", "team", "of", "5"];

    fn words(n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<&'static str>> {
        prop::collection::vec(prop::sample::select(WORDS), n)
    }

    proptest! {
        /// No quote shorter than three words passes, whatever the transcript holds.
        #[test]
        fn short_quotes_never_pass(quote in words(0..3), pre in words(0..6), post in words(0..6)) {
            let q = quote.join(" ");
            let msg = format!("{} {q} {}", pre.join(" "), post.join(" "));
            prop_assert!(!said(&[&msg, &q], &q));
        }

        /// A quote present verbatim, in any case and spacing, in a sentence without a cue passes.
        #[test]
        fn present_quotes_pass(quote in words(3..8), upper in any::<bool>(), spaces in 1usize..4) {
            let q = quote.join(" ");
            let written = quote.join(&" ".repeat(spaces));
            let written = if upper { written.to_uppercase() } else { written };
            let msg = format!("Well. {written}.");
            prop_assert!(said(&[&msg], &q));
        }

        // scenario: A negation never turns false into true
        /// Putting a negation cue before an occurrence never turns false into true.
        #[test]
        fn a_negation_never_turns_false_into_true(
            quote in words(3..6), pre in words(0..6), post in words(0..6),
            cue in prop::sample::select(&["never", "not", "didn't", "haven’t", "without", "no"][..]),
            sep in prop::sample::select(&[" ", ". ", "\n", ", "][..]),
        ) {
            let q = quote.join(" ");
            let plain = format!("{}{sep}{q} {}", pre.join(" "), post.join(" "));
            let negated = format!("{}{sep}{cue} {q} {}", pre.join(" "), post.join(" "));
            prop_assert!(said(&[&plain], &q) || !said(&[&negated], &q));
        }
    }
}
