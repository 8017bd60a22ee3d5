//! Role identity across reposts (reference §3.10): `role_fingerprint` (company slug, title
//! without its trailing location/qualifier clause, and description; never posted date, URL,
//! slug, source, external id or location) and the weaker `role_key(company, title)`.

use sha2::{Digest, Sha256};

use crate::text::{key, visible_text};
use freehire_domain::{company_key, company_slug};

/// Normalises text for the fingerprint: tags become spaces, entities are decoded, then
/// lowercase with whitespace collapsed. [`visible_text`] collapses already, and lowercasing
/// makes no whitespace and no typographic hyphen, so collapsing again would change nothing.
pub fn fingerprint_text(html: &str) -> String {
    visible_text(html).to_lowercase()
}

/// Removes a trailing location or qualifier clause (a bracketed group, or what follows the
/// last " - ", " – ", " | ", ", " or ": "), keeping at least two words.
pub fn strip_trailing_clause(title: &str) -> String {
    let t = title.trim();
    let mut cuts: Vec<usize> = Vec::new();
    if t.ends_with([')', ']'])
        && let Some(open) = t.rfind(['(', '['])
    {
        cuts.push(open);
    }
    if let Some(i) =
        [" - ", " – ", " — ", " | ", ", ", ": "].iter().filter_map(|s| t.rfind(s)).max()
    {
        cuts.push(i);
    }
    for cut in cuts {
        let head = t[..cut].trim_end();
        if head.split_whitespace().count() >= 2 {
            return head.to_owned();
        }
    }
    t.to_owned()
}

/// SHA-256 (hex) of the company slug, the stripped title and the description, normalised.
pub fn role_fingerprint(title: &str, company: &str, description: &str) -> String {
    role_fingerprint_of_text(title, company, &visible_text(description))
}

/// [`role_fingerprint`] with the description's [`visible_text`] already at hand.
pub(crate) fn role_fingerprint_of_text(title: &str, company: &str, visible: &str) -> String {
    let title = strip_trailing_clause(&fingerprint_text(title));
    let mut h = Sha256::new();
    h.update(company_slug(company).as_bytes());
    h.update([0x1e]);
    h.update(title.as_bytes());
    h.update([0x1e]);
    // `fingerprint_text` of the description: its visible text, lowercased.
    h.update(visible.to_lowercase().as_bytes());
    data_encoding::HEXLOWER.encode(&h.finalize())
}

/// Company + title key for cross-source matching: the folded company key and the title with
/// parentheses unwrapped, lowercased and punctuation-folded. A blank title gives no key.
pub fn role_key(company: &str, title: &str) -> Option<String> {
    let unwrapped: String = title.chars().filter(|c| !matches!(c, '(' | ')' | '[' | ']')).collect();
    let t = key(&visible_text(&unwrapped));
    if t.is_empty() {
        return None;
    }
    Some(format!("{}|{t}", company_key(company)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_trailing_clause_table() {
        let cases = [
            ("senior go developer - berlin", "senior go developer"),
            ("software engineer (remote)", "software engineer"),
            ("engineer - berlin", "engineer - berlin"),
            ("data scientist, experimentation", "data scientist"),
            ("staff engineer | london", "staff engineer"),
            ("designer", "designer"),
        ];
        for (t, want) in cases {
            assert_eq!(strip_trailing_clause(t), want, "{t:?}");
        }
    }

    // scenario: Per-city variants cluster
    #[test]
    fn fingerprint_identity() {
        let base = role_fingerprint(
            "Senior Go Developer - Berlin",
            "Acme GmbH",
            "<p>Build&nbsp;things.</p>",
        );
        assert_eq!(base.len(), 64);
        let cases = [
            ("Senior Go Developer - Munich", "Acme", "<p>Build things.</p>", true),
            ("senior go developer", "ACME GmbH", "<div>build   things.</div>", true),
            ("Senior Rust Developer - Berlin", "Acme", "<p>Build things.</p>", false),
            ("Senior Go Developer - Berlin", "Other Co", "<p>Build things.</p>", false),
            ("Senior Go Developer - Berlin", "Acme", "<p>Build other things.</p>", false),
        ];
        for (t, c, d, same) in cases {
            assert_eq!(role_fingerprint(t, c, d) == base, same, "{t:?} {c:?} {d:?}");
        }
    }

    #[test]
    fn fingerprint_text_is_collapsed_without_a_second_pass() {
        let texts = [
            "<p>Build&nbsp;things.</p>\u{200b}<b>İSTANBUL</b> \u{2010} \u{2212}x",
            "  ΣΊΣΥΦΟΣ\u{3000}Straße \t\n<br>ǅ ﬃ \u{1E9E} K\u{212A}",
            "<div> a &amp;&#x2011; b &#8203;c </div>",
        ];
        for html in texts {
            let twice = crate::text::collapse_whitespace(&visible_text(html).to_lowercase());
            assert_eq!(fingerprint_text(html), twice, "{html:?}");
        }
    }

    #[test]
    fn role_key_table() {
        assert_eq!(
            role_key("Acme Inc.", "Engineer (Backend)").as_deref(),
            Some("acme|engineer backend")
        );
        assert_eq!(role_key("Acme", "  "), None);
        assert_eq!(
            role_key("Acme, Inc", "Engineer Backend"),
            role_key("ACME", "engineer (backend)")
        );
    }
}
