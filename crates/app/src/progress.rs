//! [`Progress`]: how a long operation (an ingest run's boards, a reindex's jobs, a rederive,
//! a board import's rows) tells its caller how far it is, without knowing who listens: the
//! command line draws a bar on a terminal and prints plain lines elsewhere; everything else
//! passes [`Silent`].

/// Receives a long operation's progress. Calls come from the operation's own task, possibly
/// from several of its concurrent futures: implementations are cheap and never block.
pub trait Progress: Send + Sync {
    /// A phase begins: `unit` names what is counted (`boards`, `jobs`, `rows`), `total` its
    /// size when known.
    fn begin(&self, unit: &'static str, total: Option<u64>);
    /// `n` more units are done.
    fn advance(&self, n: u64);
    /// The phase is over (also after a failure).
    fn end(&self);
}

/// Listens to nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {
    fn begin(&self, _: &'static str, _: Option<u64>) {}
    fn advance(&self, _: u64) {}
    fn end(&self) {}
}

/// Ends the phase when dropped, whatever way the operation leaves.
pub(crate) struct Phase<'a>(pub(crate) &'a dyn Progress);

impl<'a> Phase<'a> {
    pub(crate) fn begin(
        progress: &'a dyn Progress,
        unit: &'static str,
        total: Option<u64>,
    ) -> Self {
        progress.begin(unit, total);
        Self(progress)
    }
}

impl Drop for Phase<'_> {
    fn drop(&mut self) {
        self.0.end();
    }
}
