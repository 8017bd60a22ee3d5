//! The renderer's behaviours, through its public API: both templates render the sample CV,
//! the document stays data, input bounds, the semaphore, memory over many renders, the SVG
//! preview agreeing with the PDF, (in `ats`) the PDF's text layer as an ATS reads it, and (in
//! `reimport`) that text imported back.

mod ats;
mod reimport;

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use freehire_cv::{CvDocument, ExperienceEntry, TemplateId};
use freehire_render::{Limit, RenderConfig, RenderError, Renderer};

/// The realistic two-page sample CV (tests/data/sample_cv.json).
pub fn sample() -> CvDocument {
    serde_json::from_str(include_str!("../data/sample_cv.json")).expect("the sample CV parses")
}

/// A renderer with the default bounds.
pub fn renderer() -> Renderer {
    Renderer::new(RenderConfig::default())
}

/// The sample with `i` in every line: a document no earlier render laid out.
fn with_number(i: usize) -> CvDocument {
    let mut doc = sample();
    doc.summary = format!("{} Render number {i}.", doc.summary);
    for e in &mut doc.experience {
        for b in &mut e.bullets {
            b.push_str(&format!(" ({i})"));
        }
    }
    for p in &mut doc.projects {
        p.summary.push_str(&format!(" ({i})"));
    }
    doc
}

/// Resident set size of this process in bytes, from /proc/self/statm.
fn rss_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm is readable");
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("statm's second field is the resident page count");
    pages * 4096
}

// scenario: Every template renders the sample CV
#[tokio::test]
async fn every_template_renders_the_sample_cv() {
    let r = renderer();
    for template in TemplateId::ALL {
        let out = r.render(&sample(), template).await.expect("the sample renders");
        assert!(out.pdf.starts_with(b"%PDF-"), "{template:?}: not a PDF");
        assert!((1..=2).contains(&out.pages), "{template:?}: {} pages", out.pages);
        assert_eq!(r.page_count(&sample(), template).await.expect("page count"), out.pages);
    }
}

// scenario: An empty CV renders
#[tokio::test]
async fn an_empty_cv_renders_one_page() {
    let r = renderer();
    for template in TemplateId::ALL {
        let out = r.render(&CvDocument::default(), template).await.expect("an empty CV renders");
        assert_eq!(out.pages, 1, "{template:?}");
    }
}

// scenario: Markup characters in a CV render literally
#[tokio::test]
async fn markup_characters_render_literally() {
    let hostile = [
        r#"#import "/etc/passwd": *"#,
        "#set page(width: 1cm) #pagebreak() #pagebreak()",
        r"$x^2$ and \ and ] and [ and *bold* and _under_ and @ref and <label>",
        r#"#read("/cv.json") // not a comment /* nor this */"#,
    ];
    let mut doc = sample();
    doc.header.full_name = hostile[0].to_owned();
    doc.summary = hostile[1].to_owned();
    doc.experience[0].bullets = vec![hostile[2].to_owned(), hostile[3].to_owned()];
    doc.skills[0].name = "]#".to_owned();
    let r = renderer();
    for template in TemplateId::ALL {
        let sample_pages = r.page_count(&sample(), template).await.expect("the sample renders");
        let out = r.render(&doc, template).await.expect("hostile text renders as text");
        // Evaluated, the summary would make pages a centimetre wide and break twice.
        assert!(out.pages <= sample_pages, "{template:?}: markup changed the layout");
        let text = ats::collapse(&ats::pdftotext(&out.pdf, &[]));
        for h in hostile {
            assert!(text.contains(&ats::collapse(h)), "{template:?}: {h:?} not literal in {text}");
        }
    }
}

// scenario: A CV over an input bound is refused naming the bound
#[tokio::test]
async fn input_over_a_bound_is_refused_naming_it() {
    let config = RenderConfig {
        max_concurrent: 1,
        max_input_bytes: 16 * 1024,
        max_entries: 10,
        max_bullets: 8,
    };
    let r = Renderer::new(config);
    let mut big = sample();
    big.summary = "x".repeat(20 * 1024);
    let mut many = sample();
    many.experience = vec![ExperienceEntry::default(); 11];
    let mut long = sample();
    long.experience[1].bullets = vec!["A bullet.".to_owned(); 9];
    let cases = [
        (big, Limit::InputBytes, "max_input_bytes"),
        (many, Limit::Entries { list: "experience" }, "max_entries"),
        (
            long,
            Limit::Bullets { path: "experience[1].bullets".to_owned() },
            "experience[1].bullets",
        ),
    ];
    for (doc, want, named) in cases {
        for template in TemplateId::ALL {
            let err = r.render(&doc, template).await.expect_err("over a bound");
            let message = err.to_string();
            let RenderError::TooLarge { limit, actual, max } = err else {
                panic!("not TooLarge: {message}");
            };
            assert_eq!(limit, want);
            assert!(actual > max);
            assert!(message.contains(named), "{message}");
            assert!(r.page_count(&doc, template).await.is_err());
            assert!(r.render_svg_pages(&doc, template).await.is_err());
        }
    }
    // At the bounds exactly, it renders.
    let mut edge = sample();
    edge.experience[1].bullets = vec!["A bullet.".to_owned(); 8];
    r.render(&edge, TemplateId::Classic).await.expect("at the bound renders");
}

// scenario: Renders beyond the concurrency bound wait their turn
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_semaphore_bounds_concurrent_renders() {
    for max in [1, 2] {
        let r = Renderer::new(RenderConfig { max_concurrent: max, ..RenderConfig::default() });
        let peak = Arc::new(AtomicUsize::new(0));
        let sampler = {
            let (r, peak) = (r.clone(), Arc::clone(&peak));
            tokio::spawn(async move {
                loop {
                    peak.fetch_max(r.running(), Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            })
        };
        let renders: Vec<_> = (0..6)
            .map(|i| {
                let r = r.clone();
                let template = TemplateId::ALL[i % 2];
                tokio::spawn(async move { r.render(&sample(), template).await.map(|o| o.pages) })
            })
            .collect();
        for h in renders {
            h.await.expect("render task").expect("render");
        }
        sampler.abort();
        let peak = peak.load(Ordering::SeqCst);
        assert_eq!(r.running(), 0);
        assert!(peak <= max, "{peak} renders ran at once with max_concurrent {max}");
        assert_eq!(r.peak_running(), max, "six renders at once should fill {max} permits");
    }
}

// scenario: A cancelled render keeps its slot until its compile ends
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cancelled_render_keeps_its_slot_until_its_compile_ends() {
    let r = Renderer::new(RenderConfig { max_concurrent: 1, ..RenderConfig::default() });
    let first = {
        let r = r.clone();
        tokio::spawn(async move { r.render(&sample(), TemplateId::Sidebar).await })
    };
    while r.running() == 0 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // The caller gives up while its compile runs: the compile cannot be stopped, so its slot
    // must stay taken until it ends.
    first.abort();
    let others: Vec<_> = (0..3)
        .map(|_| {
            let r = r.clone();
            tokio::spawn(async move { r.page_count(&sample(), TemplateId::Classic).await })
        })
        .collect();
    for h in others {
        h.await.expect("render task").expect("render");
    }
    assert_eq!(r.peak_running(), 1, "a render started while a cancelled one still compiled");
}

// scenario: Memory stays flat over many renders
#[tokio::test]
async fn memory_stays_flat_over_many_renders() {
    let r = renderer();
    let render = async |i: usize| {
        // Every line differs, so nothing of an earlier layout is reused from the cache.
        r.render(&with_number(i), TemplateId::ALL[i % 2]).await.expect("render");
    };
    for i in 0..5 {
        render(i).await;
    }
    let before = rss_bytes();
    for i in 5..55 {
        render(i).await;
    }
    let after = rss_bytes();
    let growth = after.saturating_sub(before);
    // Loose: RSS moves by a few MiB with the allocator. That the cache is emptied after every
    // render is the unit test `every_render_evicts_the_cache`; the bench shows 1,000 renders.
    assert!(growth < 32 * 1024 * 1024, "RSS grew {} MiB over 50 renders", growth >> 20);
}

// scenario: The preview's pages are the PDF's pages
#[tokio::test]
async fn svg_preview_pages_match_the_pdf() {
    let r = renderer();
    for template in TemplateId::ALL {
        let pdf = r.render(&sample(), template).await.expect("render");
        let svgs = r.render_svg_pages(&sample(), template).await.expect("svg");
        assert_eq!(svgs.len(), pdf.pages, "{template:?}");
        assert!(svgs.iter().all(|s| s.starts_with("<svg") && s.trim_end().ends_with("</svg>")));
        // Page 1 of the preview holds the CV's name as glyphs, not as markup text: SVG text
        // is drawn from glyph outlines, so compare the layouts by their page count and that
        // each page differs (a second page is not a copy of the first).
        if let [first, second] = &svgs[..] {
            assert_ne!(first, second);
        }
    }
}
