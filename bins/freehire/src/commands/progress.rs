//! The long commands' progress on standard error ([`freehire_app::progress::Progress`]): a bar
//! (`indicatif`) on a terminal; elsewhere (a log, a pipe, CI) a plain line at most every
//! [`LINE_EVERY`] and one when the phase ends, so output stays readable.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use freehire_app::progress::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain progress line is printed at most.
pub const LINE_EVERY: Duration = Duration::from_secs(2);

struct Phase {
    unit: &'static str,
    total: Option<u64>,
    done: u64,
    bar: Option<ProgressBar>,
    last_line: Instant,
}

/// Progress of the operation `label` (`ingest ashby`, `reindex`).
pub struct CliProgress {
    label: String,
    terminal: bool,
    phase: Mutex<Option<Phase>>,
}

impl CliProgress {
    /// A bar on a terminal, plain lines elsewhere.
    pub fn new(label: impl Into<String>) -> Self {
        Self::with_terminal(label, std::io::stderr().is_terminal())
    }

    /// As [`CliProgress::new`], choosing the kind.
    pub fn with_terminal(label: impl Into<String>, terminal: bool) -> Self {
        Self { label: label.into(), terminal, phase: Mutex::new(None) }
    }

    fn line(&self, phase: &Phase) -> String {
        match phase.total {
            Some(total) => format!("{}: {}/{total} {}", self.label, phase.done, phase.unit),
            None => format!("{}: {} {}", self.label, phase.done, phase.unit),
        }
    }
}

impl Progress for CliProgress {
    fn begin(&self, unit: &'static str, total: Option<u64>) {
        let bar = self.terminal.then(|| {
            let bar = match total {
                Some(total) => {
                    ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                }
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            };
            let template = if total.is_some() {
                "{msg} [{bar:30}] {pos}/{len} {prefix} ({eta})"
            } else {
                "{msg} {spinner} {pos} {prefix} ({per_sec})"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_message(self.label.clone());
            bar.set_prefix(unit);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let phase = Phase { unit, total, done: 0, bar, last_line: Instant::now() };
        *self.phase.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(phase);
    }

    fn advance(&self, n: u64) {
        let mut guard = self.phase.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(phase) = guard.as_mut() else { return };
        phase.done += n;
        if let Some(bar) = &phase.bar {
            bar.inc(n);
        } else if phase.last_line.elapsed() >= LINE_EVERY {
            phase.last_line = Instant::now();
            eprintln!("{}", self.line(phase));
        }
    }

    fn end(&self) {
        let taken = self.phase.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        let Some(phase) = taken else { return };
        match &phase.bar {
            Some(bar) => bar.finish_and_clear(),
            None => eprintln!("{} (done)", self.line(&phase)),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn line(p: &CliProgress) -> String {
        p.line(p.phase.lock().unwrap().as_ref().unwrap())
    }

    #[test]
    fn plain_lines_count_what_is_done() {
        let p = CliProgress::with_terminal("reindex", false);
        p.begin("jobs", None);
        p.advance(500);
        p.advance(250);
        assert_eq!(line(&p), "reindex: 750 jobs");
        p.end();
        assert!(p.phase.lock().unwrap().is_none(), "ended");
        p.begin("boards", Some(3));
        p.advance(1);
        assert_eq!(line(&p), "reindex: 1/3 boards");
    }
}
