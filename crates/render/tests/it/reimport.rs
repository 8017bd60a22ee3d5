//! A CV freehire rendered reads back through the importer: the classic PDF's text layer (as
//! `pdftotext -layout` prints it; the default mode drops the hyphen of a word broken at one)
//! imports to the same name, contacts, summary, jobs, bullets, education and skills.

use freehire_cv::{TemplateId, import_text};

use crate::ats::{collapse, pdftotext};
use crate::{renderer, sample};

// scenario: A CV freehire rendered imports back to what it said
#[tokio::test]
async fn the_classic_pdf_imports_back_to_the_same_cv() {
    let doc = sample();
    let out = renderer().render(&doc, TemplateId::Classic).await.expect("the sample renders");
    let text = pdftotext(&out.pdf, &["-layout"]);
    let got = import_text(&text, 20).document;

    assert_eq!(got.header.full_name, doc.header.full_name, "{text}");
    assert_eq!(got.header.headline, doc.header.headline);
    assert_eq!(got.header.email, doc.header.email);
    assert_eq!(got.header.phone, doc.header.phone);
    assert_eq!(got.header.location, doc.header.location);
    let urls = |h: &freehire_cv::Header| h.links.iter().map(|l| l.url.clone()).collect::<Vec<_>>();
    assert_eq!(urls(&got.header), urls(&doc.header));
    assert_eq!(collapse(&got.summary), collapse(&doc.summary));

    assert_eq!(got.experience.len(), doc.experience.len(), "{:#?}", got.experience);
    for (g, d) in got.experience.iter().zip(&doc.experience) {
        assert_eq!((&g.role, &g.company), (&d.role, &d.company));
        assert_eq!((&g.start, g.current), (&d.start, d.current), "{}", d.company);
        assert_eq!(g.location, d.location, "{}", d.company);
        let bullets: Vec<String> = g.bullets.iter().map(|b| collapse(b)).collect();
        let want: Vec<String> = d.bullets.iter().map(|b| collapse(b)).collect();
        assert_eq!(bullets, want, "{}", d.company);
    }
    assert_eq!(got.education.len(), doc.education.len());
    for (g, d) in got.education.iter().zip(&doc.education) {
        assert_eq!((&g.school, &g.degree), (&d.school, &d.degree));
    }
    let items = |d: &freehire_cv::CvDocument| {
        d.skills.iter().flat_map(|s| s.items.clone()).collect::<Vec<_>>()
    };
    assert_eq!(items(&got), items(&doc));
}
