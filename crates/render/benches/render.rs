//! The renderer's figures (`cargo bench -p freehire-render --bench render`, release):
//!
//! - cold: `Renderer::new` (the embedded fonts parsed) and the first render after it;
//! - warm: p50/p99 per template for the two-page sample CV, wall time and CPU time (of the
//!   whole process: Typst lays out on rayon's pool too, so this is what one render costs a
//!   single core; run with `RAYON_NUM_THREADS=1` for single-core wall time);
//! - memory: RSS before and after 1,000 renders of a document that changes every time (so
//!   nothing is served from the memoisation cache: only its eviction keeps memory flat).
//!
//! It leaves the sample's PDFs in `target/render-bench/<template>.pdf` for a look.

use std::time::{Duration, Instant};

use freehire_cv::{CvDocument, TemplateId};
use freehire_render::{RenderConfig, Renderer};

const WARM_RUNS: usize = 200;
const MEMORY_RUNS: usize = 1_000;

fn sample() -> CvDocument {
    serde_json::from_str(include_str!("../tests/data/sample_cv.json"))
        .unwrap_or_else(|e| panic!("the sample CV parses: {e}"))
}

/// CPU time of every thread of this process so far (`CLOCK_PROCESS_CPUTIME_ID`): the blocking
/// pool's compile and rayon's layout workers included.
fn process_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(u64::try_from(t.tv_sec).unwrap_or(0), u32::try_from(t.tv_nsec).unwrap_or(0))
}

/// Resident set size in MiB, from /proc/self/statm.
fn rss_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm.split_whitespace().nth(1).and_then(|v| v.parse().ok()).unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("a tokio runtime: {e}"));
    rt.block_on(run());
}

async fn run() {
    let doc = sample();
    let rss_start = rss_mib();

    let (wall0, cpu0) = (Instant::now(), process_cpu());
    let renderer = Renderer::new(RenderConfig::default());
    let (new_wall, new_cpu) = (wall0.elapsed(), process_cpu() - cpu0);
    let (wall1, cpu1) = (Instant::now(), process_cpu());
    let first = renderer
        .render(&doc, TemplateId::Classic)
        .await
        .unwrap_or_else(|e| panic!("first render: {e}"));
    let (first_wall, first_cpu) = (wall1.elapsed(), process_cpu() - cpu1);
    println!(
        "render cold: Renderer::new (fonts loaded) {:.1} ms wall, {:.1} ms CPU; first render \
         (classic, {} pages, {} KiB) {:.1} ms wall, {:.1} ms CPU",
        ms(new_wall),
        ms(new_cpu),
        first.pages,
        first.pdf.len() / 1024,
        ms(first_wall),
        ms(first_cpu)
    );

    for template in TemplateId::ALL {
        // One untimed render per template: its first layout is still cold.
        let out = renderer.render(&doc, template).await.unwrap_or_else(|e| panic!("{e}"));
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/render-bench");
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let file = dir.join(format!("{}.pdf", template.as_str()));
        std::fs::write(&file, &out.pdf).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let (mut walls, mut cpus) = (Vec::new(), Vec::new());
        for _ in 0..WARM_RUNS {
            let (wall, cpu) = (Instant::now(), process_cpu());
            renderer.render(&doc, template).await.unwrap_or_else(|e| panic!("{e}"));
            walls.push(wall.elapsed());
            cpus.push(process_cpu() - cpu);
        }
        walls.sort();
        cpus.sort();
        println!(
            "render warm {:<8} ({} pages, {} KiB, {WARM_RUNS} runs): wall p50 {:.1} ms p99 {:.1} \
             ms; CPU p50 {:.1} ms p99 {:.1} ms",
            template.as_str(),
            out.pages,
            out.pdf.len() / 1024,
            ms(percentile(&walls, 0.5)),
            ms(percentile(&walls, 0.99)),
            ms(percentile(&cpus, 0.5)),
            ms(percentile(&cpus, 0.99)),
        );
        let wall = Instant::now();
        for _ in 0..20 {
            renderer.page_count(&doc, template).await.unwrap_or_else(|e| panic!("{e}"));
        }
        println!(
            "page_count {:<8}: {:.1} ms each (layout only, no PDF export)",
            template.as_str(),
            ms(wall.elapsed()) / 20.0
        );
    }

    let mut doc = sample();
    let before = rss_mib();
    let mut marks = Vec::new();
    for i in 0..MEMORY_RUNS {
        doc.summary = format!("{} Render number {i}.", sample().summary);
        let template = TemplateId::ALL[i % 2];
        renderer.render(&doc, template).await.unwrap_or_else(|e| panic!("{e}"));
        if (i + 1) % 250 == 0 {
            marks.push(format!("{}: {:.1}", i + 1, rss_mib()));
        }
    }
    let after = rss_mib();
    println!(
        "render RSS: {rss_start:.1} MiB at start, {before:.1} MiB before {MEMORY_RUNS} distinct \
         renders, {after:.1} MiB after ({:+.1} MiB); after n renders (MiB): {}",
        after - before,
        marks.join(", ")
    );
}
