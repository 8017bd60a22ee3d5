//! A job description (sanitised HTML, as ingest stores it) in the form agent search asks for:
//! verbatim HTML, plain text (`html2text`: no emphasis or tags, list items and headings keep
//! their plain markers, links become numbered footnotes, paragraphs unwrapped) or Markdown
//! (`htmd`, turndown.js rules).

use freehire_search::DescriptionFormat;

/// Plain text is not wrapped for a terminal: a paragraph stays one line up to this width.
const TEXT_WIDTH: usize = 10_000;

/// `html` in `format`. A converter that fails falls back to the description's visible text
/// (and says so in the log), so a hit never loses its description.
pub fn render(html: &str, format: DescriptionFormat) -> String {
    let converted = match format {
        DescriptionFormat::Html => return html.to_owned(),
        DescriptionFormat::Text => html2text::config::plain_no_decorate()
            .raw_mode(true)
            .link_footnotes(true)
            .allow_width_overflow()
            .string_from_read(html.as_bytes(), TEXT_WIDTH)
            .map_err(|e| e.to_string()),
        DescriptionFormat::Markdown => htmd::convert(html).map_err(|e| e.to_string()),
    };
    match converted {
        Ok(text) => tidy(&text),
        Err(error) => {
            tracing::warn!(%error, ?format, "description conversion failed: serving visible text");
            freehire_search::visible_text(html)
        }
    }
}

/// Trailing spaces off every line, at most one blank line in a row, no blank lines around.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if blank {
            out.push('\n');
            blank = false;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HTML: &str = "<h2>About the role</h2><p>Build <strong>reliable</strong> systems \
        &amp; tools.</p><ul><li>Rust</li><li>PostgreSQL</li></ul>\
        <p>Apply at <a href=\"https://acme.example/jobs\">our site</a>.</p>";

    #[test]
    fn html_is_verbatim() {
        assert_eq!(render(HTML, DescriptionFormat::Html), HTML);
    }

    #[test]
    fn text_has_no_markup_and_keeps_paragraphs() {
        let text = render(HTML, DescriptionFormat::Text);
        assert!(!text.contains('<') && !text.contains("**"), "{text}");
        assert!(text.contains("Build reliable systems & tools."), "{text}");
        assert!(text.contains("Rust") && text.contains("PostgreSQL"), "{text}");
        assert!(text.contains("About the role"), "{text}");
        assert!(text.ends_with("[1]: https://acme.example/jobs"), "links as footnotes: {text}");
        assert!(!text.ends_with('\n') && !text.contains("\n\n\n"), "{text:?}");
    }

    #[test]
    fn markdown_keeps_structure() {
        let md = render(HTML, DescriptionFormat::Markdown);
        assert!(md.starts_with("## About the role"), "{md}");
        assert!(md.contains("**reliable**"), "{md}");
        assert!(md.contains("*   Rust") || md.contains("- Rust") || md.contains("* Rust"), "{md}");
        assert!(md.contains("[our site](https://acme.example/jobs)"), "{md}");
    }

    #[test]
    fn long_paragraphs_stay_on_one_line_in_text() {
        let words = "word ".repeat(300);
        let text = render(&format!("<p>{words}</p>"), DescriptionFormat::Text);
        assert_eq!(text.lines().count(), 1, "{text}");
    }

    #[test]
    fn tidy_collapses_blank_runs() {
        assert_eq!(tidy("\n\na  \n\n\n\nb\n\n"), "a\n\nb");
    }
}
