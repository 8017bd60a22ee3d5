//! CV PDFs in-process with Typst.
//!
//! A [`CvDocument`] goes into the compiler as **data**: it is serialised to JSON and exposed
//! to the template as the virtual file `/cv.json`, which the template reads with
//! `json("/cv.json")`. No user text is ever spliced into Typst markup, so a CV containing `#`,
//! `$`, `]`, `\` or `#import` renders literally. The templates (`templates/*.typ`) are
//! compiled into the binary, and so are the fonts (`typst-assets`): a render reads no system
//! font, no file and no network.
//!
//! An in-process render cannot be killed, so [`Renderer`] bounds it: the input is checked
//! against [`RenderConfig`]'s limits before anything compiles ([`RenderError::TooLarge`]
//! names the limit), at most [`RenderConfig::max_concurrent`] renders run at once behind a
//! semaphore, each on tokio's blocking pool, and Typst's memoisation cache is evicted after
//! every render, failed ones included, so memory stays flat over thousands of renders.
//!
//! The PDF ([`Renderer::render`]) and the HTML preview's SVG pages
//! ([`Renderer::render_svg_pages`]) come from the same compiled document, so the preview's
//! page breaks are the PDF's.

mod limits;
mod world;

use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use freehire_cv::{CvDocument, TemplateId};
use tokio::sync::Semaphore;
use typst::diag::{Severity, SourceDiagnostic};
use typst_layout::PagedDocument;

pub use limits::Limit;
use world::{Assets, CvWorld};

/// How a [`Renderer`] bounds its work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderConfig {
    /// Renders compiling at once (at least 1); more wait their turn. Each compile also uses
    /// rayon's global pool for parts of its layout.
    pub max_concurrent: usize,
    /// The largest document, as the JSON bytes the template reads.
    pub max_input_bytes: usize,
    /// The most entries in one list (experience, projects, skill groups, education, sections,
    /// links).
    pub max_entries: usize,
    /// The most lines in one entry's list (bullets, skills in a group, details, items).
    pub max_bullets: usize,
}

/// Two at once, 64 KiB of JSON, 40 entries per list, 40 lines per entry
/// (the two-page sample is 4.3 KiB with 3 jobs of 4–6 bullets).
impl Default for RenderConfig {
    fn default() -> Self {
        Self { max_concurrent: 2, max_input_bytes: 64 * 1024, max_entries: 40, max_bullets: 40 }
    }
}

/// A rendered CV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The PDF file.
    pub pdf: Vec<u8>,
    /// Its page count.
    pub pages: usize,
}

/// Why a render failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The document is over one of the input bounds.
    #[error("the CV is too large to render: {limit} is {actual}, over the limit of {max}")]
    TooLarge {
        /// Which bound.
        limit: Limit,
        /// The document's value.
        actual: usize,
        /// The bound.
        max: usize,
    },
    /// The document could not be serialised for the template.
    #[error("the CV could not be serialised for rendering")]
    Serialise(#[from] serde_json::Error),
    /// Typst refused the template or the document; the diagnostics, readable.
    #[error("the CV could not be typeset: {0}")]
    Typeset(String),
    /// The PDF exporter failed.
    #[error("the CV could not be exported as PDF: {0}")]
    Export(String),
    /// The render's blocking task panicked or was cancelled.
    #[error("the render task failed")]
    Task(#[from] tokio::task::JoinError),
    /// The renderer's semaphore was closed (a renderer never closes its own).
    #[error("the renderer is shut down")]
    Closed,
}

/// Renders CVs: bounded input, bounded concurrency, cache evicted after each render.
#[derive(Debug, Clone)]
pub struct Renderer {
    config: RenderConfig,
    permits: Arc<Semaphore>,
    assets: Arc<Assets>,
    running: Arc<Running>,
}

/// How many renders are compiling now, and the most there have been at once.
#[derive(Debug, Default)]
struct Running {
    now: AtomicUsize,
    peak: AtomicUsize,
}

/// One compile counted in [`Running`] for as long as it lives.
struct Counted<'a>(&'a Running);

impl<'a> Counted<'a> {
    fn start(running: &'a Running) -> Self {
        let now = running.now.fetch_add(1, Ordering::SeqCst) + 1;
        running.peak.fetch_max(now, Ordering::SeqCst);
        Self(running)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.now.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Renderer {
    /// A renderer with these bounds. The embedded fonts are parsed here, once.
    pub fn new(config: RenderConfig) -> Self {
        Self {
            config,
            permits: Arc::new(Semaphore::new(config.max_concurrent.max(1))),
            assets: Arc::new(Assets::embedded()),
            running: Arc::default(),
        }
    }

    /// The bounds this renderer enforces.
    pub fn config(&self) -> RenderConfig {
        self.config
    }

    /// Renders compiling right now (at most [`RenderConfig::max_concurrent`]).
    pub fn running(&self) -> usize {
        self.running.now.load(Ordering::SeqCst)
    }

    /// The most renders that have compiled at once over this renderer's life.
    pub fn peak_running(&self) -> usize {
        self.running.peak.load(Ordering::SeqCst)
    }

    /// The CV as a PDF, with its page count.
    pub async fn render(
        &self,
        doc: &CvDocument,
        template: TemplateId,
    ) -> Result<Rendered, RenderError> {
        self.run(doc, template, |paged| {
            let pdf = typst_pdf::pdf(&paged, &typst_pdf::PdfOptions::default())
                .map_err(|diags| RenderError::Export(readable(&diags)))?;
            Ok(Rendered { pdf, pages: paged.pages().len() })
        })
        .await
    }

    /// How many pages the CV takes with this template: the real layout, no export.
    pub async fn page_count(
        &self,
        doc: &CvDocument,
        template: TemplateId,
    ) -> Result<usize, RenderError> {
        self.run(doc, template, |paged| Ok(paged.pages().len())).await
    }

    /// The CV's pages as SVG, one string per page, from the same layout as the PDF: the HTML
    /// preview shows the PDF's page breaks.
    pub async fn render_svg_pages(
        &self,
        doc: &CvDocument,
        template: TemplateId,
    ) -> Result<Vec<String>, RenderError> {
        self.run(doc, template, |paged| {
            let options = typst_svg::SvgOptions::default();
            Ok(paged.pages().iter().map(|page| typst_svg::svg(page, &options)).collect())
        })
        .await
    }

    /// Checks the bounds, waits for a permit, compiles on the blocking pool and hands the laid
    /// out document to `finish`; the memoisation cache is evicted whatever happens.
    async fn run<T, F>(
        &self,
        doc: &CvDocument,
        template: TemplateId,
        finish: F,
    ) -> Result<T, RenderError>
    where
        T: Send + 'static,
        F: FnOnce(PagedDocument) -> Result<T, RenderError> + Send + 'static,
    {
        let data = limits::checked_json(doc, &self.config)?;
        let permit =
            Arc::clone(&self.permits).acquire_owned().await.map_err(|_| RenderError::Closed)?;
        let assets = Arc::clone(&self.assets);
        let running = Arc::clone(&self.running);
        tokio::task::spawn_blocking(move || {
            // The permit lives in the compile, not in the caller's future: a caller that gives
            // up (a dropped request) cannot free a slot while its compile still runs.
            let _permit = permit;
            let _counted = Counted::start(&running);
            let _evict = EvictOnDrop;
            let paged = compile(&assets, template, data)?;
            finish(paged)
        })
        .await?
    }
}

/// Evicts Typst's memoisation cache when dropped: after a render that succeeded, failed or
/// panicked.
struct EvictOnDrop;

impl Drop for EvictOnDrop {
    fn drop(&mut self) {
        // Through typst's own re-export: the cache evicted is the one this typst fills, never a
        // second copy of comemo a version bump left behind.
        typst::comemo::evict(0);
    }
}

/// Compiles `template` over the document's JSON.
fn compile(
    assets: &Arc<Assets>,
    template: TemplateId,
    data: Vec<u8>,
) -> Result<PagedDocument, RenderError> {
    let world = CvWorld::new(Arc::clone(assets), template, data);
    typst::compile::<PagedDocument>(&world)
        .output
        .map_err(|diags| RenderError::Typeset(readable(&diags)))
}

/// Typst's diagnostics as one readable line: each error's message and hints.
fn readable(diags: &[SourceDiagnostic]) -> String {
    let mut parts = Vec::new();
    for diag in diags.iter().filter(|d| d.severity == Severity::Error) {
        let mut line = diag.message.to_string();
        for hint in &diag.hints {
            line.push_str(" (hint: ");
            line.push_str(&hint.v);
            line.push(')');
        }
        parts.push(line);
    }
    if parts.is_empty() { "unknown typesetting error".to_owned() } else { parts.join("; ") }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    static PROBE_RUNS: AtomicUsize = AtomicUsize::new(0);

    /// A memoised function of our own: it lives in the same global cache typst's do, so it
    /// runs again only when that cache was evicted.
    #[comemo::memoize]
    fn probe(x: u64) -> u64 {
        PROBE_RUNS.fetch_add(1, Ordering::SeqCst);
        x
    }

    /// Whether the cache was evicted since `probe` last cached its result.
    fn probe_was_evicted() -> bool {
        let before = PROBE_RUNS.load(Ordering::SeqCst);
        probe(7);
        PROBE_RUNS.load(Ordering::SeqCst) > before
    }

    // scenario: Every render empties the compiler's cache, a failed one too
    #[tokio::test]
    async fn every_render_evicts_the_cache() {
        let r = Renderer::new(RenderConfig::default());
        let doc = CvDocument::default();
        probe(7);
        assert!(!probe_was_evicted(), "the probe is cached while nothing evicts");

        r.render(&doc, TemplateId::Classic).await.expect("renders");
        assert!(probe_was_evicted(), "a render left the cache in place");

        let failed = r
            .run(&doc, TemplateId::Sidebar, |_| -> Result<(), RenderError> {
                Err(RenderError::Export("refused by the test".to_owned()))
            })
            .await;
        assert!(matches!(failed, Err(RenderError::Export(_))));
        assert!(probe_was_evicted(), "a failed render left the cache in place");

        let panicked = r.run(&doc, TemplateId::Classic, |_| -> Result<(), RenderError> {
            panic!("a render that panics")
        });
        assert!(matches!(panicked.await, Err(RenderError::Task(_))));
        assert!(probe_was_evicted(), "a panicked render left the cache in place");
    }

    #[test]
    fn diagnostics_read_as_messages_with_hints() {
        use typst::syntax::Span;
        let diag = SourceDiagnostic::error(Span::detached(), "unknown variable: x")
            .with_hint("check the spelling");
        let warning = SourceDiagnostic::warning(Span::detached(), "ignored");
        assert_eq!(readable(&[diag, warning]), "unknown variable: x (hint: check the spelling)");
        assert_eq!(readable(&[]), "unknown typesetting error");
    }
}
