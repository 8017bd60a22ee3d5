//! The import over whole CVs in the layouts people paste (plain text with bullets, a PDF's
//! copy with ALL-CAPS headings, two-line heads and paragraphs), the bullet ceiling, and the
//! property that every claim is pasted text.

use proptest::prelude::*;

use super::*;

const PLAIN: &str = "Jane Doe
Senior Backend Engineer
London, UK | jane@example.com | +44 7700 900123 | github.com/janedoe

Summary
Backend engineer with ten years of building payment systems in Rust and Go.

Work Experience
Senior Backend Engineer — Acme Ltd   Mar 2021 – Present
• Led the migration of twelve services from a monolith to Kubernetes, cutting deploy time
  from 40 minutes to 6.
• Cut p99 latency of the ledger API from 900 ms to 120 ms.

Backend Engineer at Widgets Inc (2017 - 2019)
- Built the invoicing service in Go and PostgreSQL.
- Mentored four junior engineers.

Projects
ferrous-queue | github.com/janedoe/ferrous-queue
- Wrote a persistent job queue in Rust used by 300 projects.

Education
BSc Computer Science, University of Leeds, 2013 – 2016

Skills
Languages: Rust, Go, Python
Infrastructure: Kubernetes, Terraform, PostgreSQL

Certifications
AWS Certified Solutions Architect (2020)
";

#[test]
fn a_plain_text_cv_reads_into_the_document_and_the_bank() {
    let got = import_text(PLAIN, 20);
    let doc = &got.document;
    assert_eq!(doc.header.full_name, "Jane Doe");
    assert_eq!(doc.header.headline, "Senior Backend Engineer");
    assert_eq!(doc.header.email, "jane@example.com");
    assert_eq!(doc.header.location, "London, UK");
    assert_eq!(doc.header.links[0].url, "https://github.com/janedoe");
    assert!(doc.summary.starts_with("Backend engineer with ten years"));

    assert_eq!(doc.experience.len(), 2);
    let acme = &doc.experience[0];
    assert_eq!(
        (acme.company.as_str(), acme.role.as_str()),
        ("Acme Ltd", "Senior Backend Engineer")
    );
    assert_eq!((acme.start.as_str(), acme.end.as_str(), acme.current), ("Mar 2021", "", true));
    assert_eq!(
        acme.bullets[0],
        "Led the migration of twelve services from a monolith to Kubernetes, cutting deploy time from 40 minutes to 6."
    );
    assert_eq!(acme.bullets.len(), 2);
    let widgets = &doc.experience[1];
    assert_eq!(
        (widgets.company.as_str(), widgets.start.as_str(), widgets.end.as_str()),
        ("Widgets Inc", "2017", "2019")
    );

    assert_eq!(doc.projects[0].name, "ferrous-queue");
    assert_eq!(doc.projects[0].link, "https://github.com/janedoe/ferrous-queue");
    assert_eq!(doc.education[0].school, "University of Leeds");
    assert_eq!(doc.education[0].degree, "BSc Computer Science");
    assert_eq!((doc.education[0].start.as_str(), doc.education[0].end.as_str()), ("2013", "2016"));
    assert_eq!(doc.skills.len(), 2);
    assert_eq!(doc.skills[0].name, "Languages");
    assert_eq!(doc.skills[0].items, ["Rust", "Go", "Python"]);
    assert_eq!(doc.sections[0].title, "Certifications");
    assert_eq!(doc.sections[0].items, ["AWS Certified Solutions Architect (2020)"]);

    assert_eq!(got.employments.len(), 3);
    let acme = &got.employments[0];
    assert_eq!(acme.draft.kind, EmploymentKind::Job);
    assert_eq!(acme.draft.start, Some(Period { year: 2021, month: Some(3) }));
    assert!(acme.draft.current);
    assert!(acme.draft.stack.contains(&"kubernetes".to_owned()), "{:?}", acme.draft.stack);
    assert_eq!(acme.claims.len(), 2);
    assert_eq!(got.employments[1].draft.end, Some(Period { year: 2019, month: None }));
    assert_eq!(got.employments[2].draft.kind, EmploymentKind::Project);
    assert!(got.unread.is_empty(), "{:?}", got.unread);
}

#[test]
fn a_cv_pasted_from_a_pdf_with_caps_headings_two_line_heads_and_paragraphs() {
    let text = "RAVI KUMAR\r\nravi@example.org · (555) 010-9999 · Berlin, Germany\r\n\r\nEXPERIENCE\r\n\
Globex Corporation\r\nPlatform Lead | 01/2018 – 06/2020\r\nOwned the deploy pipeline for 40 teams. \
Reduced build times by 35% by caching layers.\r\n\r\nInitech\r\nData Analyst\r\n2015-2017\r\n\
1. Automated the weekly sales report\r\n\r\nVOLUNTEERING\r\nCode Club mentor, 2019 – Present\r\n";
    let got = import_text(text, 20);
    let doc = &got.document;
    assert_eq!(doc.header.full_name, "RAVI KUMAR");
    assert_eq!(doc.header.phone, "(555) 010-9999");
    assert_eq!(doc.header.location, "Berlin, Germany");
    assert_eq!(doc.experience.len(), 2, "{:#?}", doc.experience);
    let globex = &doc.experience[0];
    assert_eq!(
        (globex.company.as_str(), globex.role.as_str()),
        ("Globex Corporation", "Platform Lead")
    );
    assert_eq!((globex.start.as_str(), globex.end.as_str()), ("Jan 2018", "Jun 2020"));
    assert_eq!(
        globex.bullets,
        [
            "Owned the deploy pipeline for 40 teams.",
            "Reduced build times by 35% by caching layers."
        ]
    );
    let initech = &doc.experience[1];
    assert_eq!((initech.company.as_str(), initech.role.as_str()), ("Initech", "Data Analyst"));
    assert_eq!(initech.bullets, ["Automated the weekly sales report"]);
    assert_eq!(doc.sections[0].title, "VOLUNTEERING");
}

#[test]
fn the_bullet_ceiling_cuts_the_document_not_the_bank() {
    let mut text = String::from("Experience\nEngineer at Acme, 2020 - 2022\n");
    for i in 0..30 {
        text.push_str(&format!("- Shipped feature number {i} to production\n"));
    }
    let got = import_text(&text, 5);
    assert_eq!(got.document.experience[0].bullets.len(), 5);
    assert_eq!(got.employments[0].claims.len(), 30);
}

#[test]
fn nothing_readable_is_empty() {
    assert!(import_text("", 20).is_empty());
    assert!(import_text("\n\n   \n", 20).is_empty());
    assert!(!import_text("Jane Doe", 20).is_empty());
}

/// Whitespace collapsed, and none after a hyphen (a line broken at a hyphen joins without).
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").replace("- ", "-")
}

fn cv_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Experience".to_owned()),
        Just("Projects".to_owned()),
        Just("SKILLS".to_owned()),
        Just(String::new()),
        "[A-Za-z ]{3,30} (at|—|,|\\|) [A-Za-z ]{3,20} (20[0-2][0-9] - 20[0-2][0-9])?",
        "(- |• |1\\. )?[A-Za-z0-9%,. ]{0,80}",
        "[a-z ]{1,40}",
        ".{0,60}",
    ]
}

proptest! {
    // scenario: Every imported claim is pasted text
    /// Every claim the bank gets, and every bullet of the document, is text the candidate
    /// pasted (whitespace aside): the import invents nothing.
    #[test]
    fn every_claim_is_pasted_text(lines in proptest::collection::vec(cv_line(), 0..40)) {
        let text = lines.join("\n");
        let pasted = collapse(&normalise(&text));
        let got = import_text(&text, 20);
        for e in &got.employments {
            for claim in &e.claims {
                prop_assert!(pasted.contains(&collapse(claim)), "{claim:?} not in {pasted:?}");
            }
        }
        for e in &got.document.experience {
            for b in &e.bullets {
                prop_assert!(pasted.contains(&collapse(b)), "{b:?}");
            }
        }
        for e in &got.employments {
            prop_assert!(e.draft.end.is_none() || e.draft.start.is_none()
                || e.draft.end >= e.draft.start);
        }
    }

    #[test]
    fn any_text_reads_without_panicking(text in "\\PC{0,400}") {
        let _ = import_text(&text, 3);
    }
}
