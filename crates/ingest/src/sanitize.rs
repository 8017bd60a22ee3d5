//! Description HTML cleanup (reference §3.13): an allowlist sanitiser built on `ammonia`.
//!
//! Allowed elements: `p, br, hr, ul, ol, li, strong, b, em, i, u, s, h1–h6, blockquote, pre,
//! code, table, thead, tbody, tr, th, td, a, span, div`. Links keep `href` only with `http`,
//! `https` or `mailto` and are rendered with `rel="nofollow noopener"`. No `style`, no event
//! attributes, no `<img>`. Scripts, styles, iframes and forms are removed with their content.

use std::collections::HashSet;
use std::sync::LazyLock;

use ammonia::{Builder, UrlRelative};

const TAGS: &[&str] = &[
    "p",
    "br",
    "hr",
    "ul",
    "ol",
    "li",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "code",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "a",
    "span",
    "div",
];

/// Elements dropped together with everything inside them.
const CLEAN_CONTENT: &[&str] =
    &["script", "style", "iframe", "form", "noscript", "template", "object", "embed", "svg"];

static SANITIZER: LazyLock<Builder<'static>> = LazyLock::new(|| {
    let mut b = Builder::empty();
    b.tags(TAGS.iter().copied().collect::<HashSet<_>>())
        .clean_content_tags(CLEAN_CONTENT.iter().copied().collect::<HashSet<_>>())
        .add_tag_attributes("a", ["href"])
        .url_schemes(["http", "https", "mailto"].into_iter().collect::<HashSet<_>>())
        .url_relative(UrlRelative::Deny)
        .link_rel(Some("nofollow noopener"))
        .strip_comments(true);
    b
});

/// Sanitises description HTML with the allowlist above.
pub fn sanitize_html(html: &str) -> String {
    if html.trim().is_empty() {
        return String::new();
    }
    SANITIZER.clean(html).to_string().trim().to_owned()
}

/// Decodes entity-encoded HTML (Greenhouse `content`: `&lt;p&gt;…`) into HTML; not sanitised.
pub fn decode_encoded_html(encoded: &str) -> String {
    html_escape::decode_html_entities(encoded).into_owned()
}

/// Decodes HTML that some sources entity-encode and others do not (ld+json descriptions,
/// board "about" texts): only when it carries encoded markup (`&lt;`) and no raw tags. Not
/// sanitised.
pub fn decode_maybe_encoded_html(html: &str) -> String {
    let encoded = html.contains("&lt;") && !html.contains('<');
    if encoded { decode_encoded_html(html) } else { html.to_owned() }
}

/// Decodes entity-encoded HTML ([`decode_encoded_html`]) and sanitises the result.
pub fn sanitize_encoded_html(encoded: &str) -> String {
    sanitize_html(&decode_encoded_html(encoded))
}

/// Sanitises HTML that may be entity-encoded ([`decode_maybe_encoded_html`]).
pub fn sanitize_maybe_encoded_html(html: &str) -> String {
    sanitize_html(&decode_maybe_encoded_html(html))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_scripts_styles_iframes_forms_with_content() {
        let out = sanitize_html(
            "<p>a</p><script>alert(1)</script><style>p{}</style><iframe src=x>in</iframe>\
             <form><input name=q>secret</form><p>b</p>",
        );
        assert_eq!(out, "<p>a</p><p>b</p>");
    }

    #[test]
    fn links_http_https_mailto_only_with_rel() {
        let out = sanitize_html(
            r#"<a href="https://x.org/a" onclick="e()" style="c">x</a><a href="javascript:alert(1)">j</a><a href="mailto:a@b.c">m</a><a href="/rel">r</a>"#,
        );
        assert_eq!(
            out,
            r#"<a href="https://x.org/a" rel="nofollow noopener">x</a><a rel="nofollow noopener">j</a><a href="mailto:a@b.c" rel="nofollow noopener">m</a><a rel="nofollow noopener">r</a>"#
        );
    }

    #[test]
    fn no_images_no_style_attributes() {
        let out = sanitize_html(
            r#"<p style="color:red" class="c">t<img src="data:image/png;base64,AAAA">u</p><h2><strong>H</strong></h2>"#,
        );
        assert_eq!(out, "<p>tu</p><h2><strong>H</strong></h2>");
    }

    #[test]
    fn unescapes_entity_encoded_html_first() {
        let out = sanitize_encoded_html(
            "&lt;div class=&quot;content-intro&quot;&gt;&lt;p&gt;Hi &amp;amp; bye&lt;/p&gt;&lt;/div&gt;",
        );
        assert_eq!(out, "<div><p>Hi &amp; bye</p></div>");
    }

    #[test]
    fn decodes_only_encoded_markup() {
        assert_eq!(sanitize_maybe_encoded_html("&lt;p&gt;x&lt;/p&gt;"), "<p>x</p>");
        assert_eq!(sanitize_maybe_encoded_html("<p>a &lt; b</p>"), "<p>a &lt; b</p>");
    }

    #[test]
    fn blank_is_empty() {
        assert_eq!(sanitize_html("  \n "), "");
    }
}
