//! The ATS check of our own PDFs: the text layer of every template's PDF, extracted with
//! `pdftotext` (Debian's `poppler-utils`, which `cargo xtask test` installs when missing), read
//! the way an applicant tracking system reads it.

use std::{io::Write, process::Command};

use freehire_cv::TemplateId;

use crate::{renderer, sample};

/// The text layer of `pdf`, as `pdftotext ARGS` prints it. Panics, saying how to get it, when
/// `pdftotext` is not installed: this check never skips.
pub fn pdftotext(pdf: &[u8], args: &[&str]) -> String {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    file.write_all(pdf).expect("write the PDF");
    let out =
        Command::new("pdftotext").args(args).arg(file.path()).arg("-").output().unwrap_or_else(
            |e| {
                panic!(
                    "pdftotext could not be run ({e}): the ATS test needs Debian's poppler-utils. \
                 `cargo xtask test` installs it; or, as root, `apt-get install -y poppler-utils`"
                )
            },
        );
    assert!(out.status.success(), "pdftotext failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("pdftotext prints UTF-8")
}

/// `s` with every whitespace run made one space.
pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Where `needle` first occurs in `text`, failing with the text when it does not.
fn position(text: &str, needle: &str, template: TemplateId) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("{template:?}: {needle:?} not in the text layer:\n{text}"))
}

/// `needles` occur in `text` in this order.
fn in_order(text: &str, needles: &[&str], template: TemplateId) {
    let at: Vec<usize> = needles.iter().map(|n| position(text, n, template)).collect();
    for (pair, pos) in needles.windows(2).zip(at.windows(2)) {
        assert!(pos[0] < pos[1], "{template:?}: {:?} comes after {:?}:\n{text}", pair[0], pair[1]);
    }
}

/// Words from the sample with "fi", "fl", "ffi" and "ff" in them: a ligature or a spacing
/// fault in the text layer breaks them.
const KEYWORDS: [&str; 9] = [
    "efficient",
    "workflow",
    "configuration",
    "office",
    "Office",
    "finance",
    "Profiled",
    "fleet",
    "Flowline",
];

// scenario: Every template's PDF reads correctly as text
#[tokio::test]
async fn every_templates_text_layer_reads_as_an_ats_expects() {
    let r = renderer();
    let doc = sample();
    for template in TemplateId::ALL {
        let out = r.render(&doc, template).await.expect("the sample renders");
        assert!(out.pages <= 2, "{template:?}: the sample CV takes {} pages", out.pages);
        for args in [&[][..], &["-layout"][..]] {
            let raw = pdftotext(&out.pdf, args);
            assert_eq!(
                raw.matches('\u{c}').count(),
                out.pages,
                "{template:?} {args:?}: page breaks"
            );
            assert!(
                !raw.chars().any(|c| ('\u{fb00}'..='\u{fb06}').contains(&c)),
                "{template:?} {args:?}: a ligature codepoint in the text layer"
            );
            let words: Vec<&str> = raw.split(|c: char| !c.is_alphanumeric()).collect();
            for k in KEYWORDS {
                assert!(words.contains(&k), "{template:?} {args:?}: {k:?} is not a whole word");
            }
        }

        // Reading order, in the plain (reading-order) extraction.
        let text = collapse(&pdftotext(&out.pdf, &[]));
        assert!(
            text.starts_with(&doc.header.full_name),
            "{template:?}: the name is not the first text:\n{text}"
        );
        let main_column = [
            doc.header.full_name.as_str(),
            "Summary",
            "Experience",
            "Flowline Logistics",
            "Fintrail Payments",
            "Office Supplies Direct",
            "Projects",
            "tidyconf",
            "Education",
            "University of Sheffield",
        ];
        in_order(&text, &main_column, template);
        if template == TemplateId::Classic {
            in_order(
                &text,
                &["Projects", "Skills", "Education", "Certifications", "Yoruba"],
                template,
            );
        }
        // Every bullet survives as one run of words: no word split, merged or reordered.
        for bullet in doc.experience.iter().flat_map(|e| &e.bullets) {
            position(&text, &collapse(bullet), template);
        }
        for link in doc.projects.iter().map(|p| &p.link).filter(|l| !l.is_empty()) {
            position(&text, link, template);
        }
        for heading in ["Summary", "Experience", "Projects", "Skills", "Education"] {
            position(&text, heading, template);
        }
        for s in &doc.sections {
            position(&text, &s.title, template);
        }

        // Contact details on page 1.
        let first = collapse(&pdftotext(&out.pdf, &["-f", "1", "-l", "1"]));
        for contact in [&doc.header.email, &doc.header.phone, &doc.header.location] {
            position(&first, contact, template);
        }
        for link in &doc.header.links {
            position(&first, &link.url, template);
        }
    }
}
