//! Text preparation shared by every matcher: visible text from HTML (tags become spaces,
//! entities decoded, whitespace collapsed), lookup keys (transliterated, lowercased,
//! punctuation folded), and word-boundary checks.

use std::borrow::Cow;

/// The visible text of an HTML fragment: each tag becomes a space, `<script>`/`<style>`
/// bodies are dropped, entities are decoded, and every run of whitespace becomes one space.
pub fn visible_text(html: &str) -> String {
    let stripped = strip_tags(html);
    let decoded = html_escape::decode_html_entities(&stripped);
    collapse_whitespace(&decoded)
}

/// The elements that end a block of text (a paragraph, a list item, a heading, a cell).
const BLOCKS: &[&str] = &[
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "br",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "td",
    "th",
    "section",
    "article",
    "header",
    "footer",
    "blockquote",
    "dt",
    "dd",
    "table",
    "pre",
    "hr",
];

/// [`visible_text`] with a bullet (` • `) where a block element opens or closes, so a list item
/// or a heading reads as its own sentence ("execution • Make bold decisions"): what the facet
/// derivation reads. The role fingerprint keeps [`visible_text`].
pub fn blocks_text(html: &str) -> String {
    let stripped = strip_tags_with(html, true);
    let decoded = html_escape::decode_html_entities(&stripped);
    let collapsed = collapse_whitespace(&decoded);
    // One bullet between two blocks, none before the first or after the last.
    let mut out = String::with_capacity(collapsed.len());
    for part in collapsed.split('•').map(str::trim).filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push_str(" • ");
        }
        out.push_str(part);
    }
    out
}

/// Replaces every tag with a space and removes the contents of `script` and `style` elements.
fn strip_tags(html: &str) -> Cow<'_, str> {
    strip_tags_with(html, false)
}

fn strip_tags_with(html: &str, blocks: bool) -> Cow<'_, str> {
    if !html.contains('<') {
        return Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let Some(end) = after.find('>') else {
            // A stray '<' that opens no tag is text.
            out.push_str(after);
            return Cow::Owned(out);
        };
        let tag = &after[1..end];
        rest = &after[end + 1..];
        let name: String = tag
            .trim_start()
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if blocks && BLOCKS.contains(&name.as_str()) {
            out.push_str(" • ");
        } else {
            out.push(' ');
        }
        let closing = tag.trim_start().starts_with('/');
        if !closing && (name == "script" || name == "style") {
            let close = format!("</{name}");
            let lower = rest.to_ascii_lowercase();
            match lower.find(&close) {
                Some(i) => {
                    let tail = &rest[i..];
                    rest = tail.find('>').map_or("", |j| &tail[j + 1..]);
                }
                None => rest = "",
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Collapses every run of Unicode whitespace (including no-break and zero-width spaces) into
/// one ASCII space, trims both ends, and reads typographic hyphens (U+2010–U+2012, U+2212) as
/// ASCII hyphens.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    // Start of the pending run of non-space text, copied as one slice when it ends.
    let mut run: Option<usize> = None;
    let mut space = false;
    let flush = |out: &mut String, run: &mut Option<usize>, end: usize, space: &mut bool| {
        if let Some(start) = run.take() {
            if *space && !out.is_empty() {
                out.push(' ');
            }
            *space = false;
            out.push_str(&s[start..end]);
        }
    };
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            if b.is_ascii_whitespace() {
                flush(&mut out, &mut run, i, &mut space);
                space = true;
            } else if run.is_none() {
                run = Some(i);
            }
            i += 1;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or(' ');
        let len = c.len_utf8();
        if c.is_whitespace() || c == '\u{200b}' {
            flush(&mut out, &mut run, i, &mut space);
            space = true;
        } else if matches!(c, '\u{2010}'..='\u{2012}' | '\u{2212}') {
            // Typographic hyphens read as ASCII hyphens.
            flush(&mut out, &mut run, i, &mut space);
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push('-');
        } else if run.is_none() {
            run = Some(i);
        }
        i += len;
    }
    flush(&mut out, &mut run, bytes.len(), &mut space);
    out
}

/// A dictionary lookup key: transliterated to ASCII, lowercased, every run of characters
/// other than letters and digits turned into one space, trimmed. "São Paulo" → "sao paulo",
/// "Washington, D.C." → "washington d c".
pub fn key(s: &str) -> String {
    let ascii = deunicode::deunicode(s);
    let mut out = String::with_capacity(ascii.len());
    let mut pending = false;
    for c in ascii.chars() {
        if c.is_ascii_alphanumeric() {
            if pending && !out.is_empty() {
                out.push(' ');
            }
            pending = false;
            out.push(c.to_ascii_lowercase());
        } else {
            pending = true;
        }
    }
    out
}

/// Whether the character could continue a word (letters and digits of any script).
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// Whether `text[start..end]` stands as a whole word or phrase: the characters on both sides
/// are not word characters.
pub fn whole_word(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_text_cases() {
        let cases = [
            ("<p>Hello&nbsp;<b>world</b></p>", "Hello world"),
            ("a<br>b", "a b"),
            ("&lt;p&gt;escaped&lt;/p&gt;", "<p>escaped</p>"),
            ("x<script>var a = '<p>';</script>y", "x y"),
            ("<STYLE>p{}</STYLE>text", "text"),
            ("1 < 2 and 3", "1 < 2 and 3"),
            ("  many \n\t spaces  ", "many spaces"),
            ("caf&eacute; &amp; co", "café & co"),
            ("fine\u{2011}tuning\u{200b} x", "fine-tuning x"),
            ("a \u{2010} b\u{a0}\u{a0}c", "a - b c"),
            ("\u{2212}5 \u{2014} ok", "-5 \u{2014} ok"),
        ];
        for (html, want) in cases {
            assert_eq!(visible_text(html), want, "{html:?}");
        }
    }

    #[test]
    fn key_cases() {
        let cases = [
            ("São Paulo", "sao paulo"),
            ("  München ", "munchen"),
            ("Washington, D.C.", "washington d c"),
            ("*HQ - San Francisco", "hq san francisco"),
            ("", ""),
        ];
        for (raw, want) in cases {
            assert_eq!(key(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn whole_word_cases() {
        let t = "go-to-market and golang, Go.";
        assert!(whole_word(t, 0, 2), "hyphen is a boundary for the generic check");
        assert!(!whole_word(t, 15, 17), "'go' inside 'golang'");
        assert!(whole_word(t, 25, 27));
    }
}
