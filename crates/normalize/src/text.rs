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
    join_parts(collapsed.split('•'), " • ", collapsed.len())
}

/// Both texts of one description: [`visible_text`] (what the role fingerprint reads) and
/// [`blocks_text`] (what the facet derivation reads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texts {
    /// [`visible_text`] of the HTML.
    pub visible: String,
    /// [`blocks_text`] of the HTML.
    pub blocks: String,
}

/// Where a block element opened or closed, while [`texts`] strips: a private-use character,
/// which no description should hold (one that does is read the two-pass way).
const BLOCK_MARK: char = '\u{E000}';

/// [`visible_text`] and [`blocks_text`] of `html` from one pass over it: the tags are stripped,
/// the entities decoded and the whitespace collapsed once, with a mark where a block element
/// was, and the two texts are read off that (the mark as a bullet, or as a space). The same
/// strings the two functions give, for a third less of the work (a first crawl derives every
/// posting's texts).
pub fn texts(html: &str) -> Texts {
    let two_passes = || Texts { visible: visible_text(html), blocks: blocks_text(html) };
    if html.contains(BLOCK_MARK) {
        return two_passes();
    }
    let stripped = strip_tags_marked(html, Some(BLOCK_MARK));
    let decoded = html_escape::decode_html_entities(&stripped);
    // An entity that decodes to the mark (`&#xE000;`) would read as a block.
    if decoded.matches(BLOCK_MARK).count() != stripped.matches(BLOCK_MARK).count() {
        return two_passes();
    }
    let collapsed = collapse_whitespace(&decoded);
    Texts {
        visible: join_parts(collapsed.split(BLOCK_MARK), " ", collapsed.len()),
        blocks: join_parts(collapsed.split(['•', BLOCK_MARK]), " • ", collapsed.len()),
    }
}

/// The non-empty trimmed parts, joined with `sep` (into a string of `capacity` bytes).
fn join_parts<'a>(parts: impl Iterator<Item = &'a str>, sep: &str, capacity: usize) -> String {
    let mut out = String::with_capacity(capacity);
    for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push_str(sep);
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
    strip_tags_marked(html, blocks.then_some('•'))
}

/// Strips tags, writing ` <block> ` for a block element's tag (when given) and a space for
/// any other.
fn strip_tags_marked(html: &str, block: Option<char>) -> Cow<'_, str> {
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
        if let Some(mark) = block
            && BLOCKS.contains(&name.as_str())
        {
            out.push(' ');
            out.push(mark);
            out.push(' ');
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
    use proptest::prelude::*;

    /// Pieces a description is made of, the awkward ones included: block and inline tags,
    /// entities (one of them the block mark), literal bullets and marks, Unicode spaces and
    /// typographic hyphens, a stray `<`, script bodies.
    const PIECES: &[&str] = &[
        "<p>",
        "</p>",
        "<li>",
        "</li>",
        "<br/>",
        "<b>",
        "</b>",
        "<DIV class=x>",
        "<h2>",
        "word",
        "Rust",
        " ",
        "  ",
        "\n",
        "\u{a0}",
        "\u{200b}",
        "\u{2010}",
        "\u{2212}",
        "-",
        "•",
        "&bull;",
        "&amp;",
        "&nbsp;",
        "&#xE000;",
        "&#57344;",
        "\u{E000}",
        "<",
        ">",
        "ΣΊ",
        "<script>x<p>y</script>",
        "<style>p{}</style>",
        "&lt;p&gt;",
    ];

    proptest! {
        // One pass gives what the two functions give, for any mix of the pieces.
        // scenario: One pass gives both texts
        #[test]
        fn texts_are_visible_text_and_blocks_text(
            picks in proptest::collection::vec(0..PIECES.len(), 0..40)
        ) {
            let html: String = picks.iter().filter_map(|&i| PIECES.get(i).copied()).collect();
            let both = texts(&html);
            prop_assert_eq!(&both.visible, &visible_text(&html), "{:?}", html);
            prop_assert_eq!(&both.blocks, &blocks_text(&html), "{:?}", html);
        }
    }

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
