//! The run's writers: boards' writes committed in groups (a group commit).
//!
//! Each board's write used to be a transaction of its own, and on SQLite every write queues
//! for the one writer connection, so a board's commit (about a quarter of its write) bounded
//! a first crawl. Boards now hand their write to the run's writer tasks; a free writer takes
//! every write waiting (up to [`GroupLimits`]) and writes them with
//! [`IngestRepo::write_boards`]: one transaction (written again with a savepoint per board when
//! one fails), so a board's write still lands whole or not at all and one board's failure
//! fails only that board. The group is stamped with one instant, the latest of its boards'
//! (see [`write_groups`]), so the store writes it with one set of statements: one upsert, one
//! touch, one health statement, one close for all its boards. While the writers are busy the next group gathers, so the groups
//! grow exactly when writing is the bottleneck. SQLite has one writer connection, so one
//! writer task; PostgreSQL writes several groups side by side
//! ([`GroupLimits::postgres_writers`]), as it wrote boards side by side before.
//!
//! [`IngestRepo::write_boards`]: freehire_store::IngestRepo::write_boards

use std::sync::Arc;

use chrono::{DateTime, Utc};
use freehire_domain::{BoardKey, JobPosting};
use freehire_store::{BoardWrite, BoardWritten, JobKey, Store};
use tokio::sync::{Mutex, mpsc, oneshot};

use freehire_ingest::error_chain;

/// How large a group may grow, and how many groups are written at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupLimits {
    /// Boards per transaction.
    pub boards: usize,
    /// Postings upserted per transaction (a group stops growing once it holds this many).
    pub postings: usize,
    /// Groups written at once on PostgreSQL, each on a connection of its own. SQLite has one
    /// writer connection, so it always writes one group at a time.
    pub postgres_writers: usize,
}

impl Default for GroupLimits {
    fn default() -> Self {
        // Measured on the ingest bench (2 cores): a group holds the SQLite writer while it is
        // written, so it stays short; PostgreSQL writes boards side by side, and one writer
        // there took a first crawl from 1,743 to 720 postings/s.
        Self { boards: 16, postings: 2_000, postgres_writers: 4 }
    }
}

impl GroupLimits {
    /// Groups written at once on `backend`.
    fn writers(&self, backend: freehire_store::Backend) -> usize {
        match backend {
            freehire_store::Backend::Sqlite => 1,
            freehire_store::Backend::Postgres => self.postgres_writers.max(1),
        }
    }
}

/// One board's write, owned so it can cross to the writer task (see [`BoardWrite`]).
#[derive(Debug)]
pub(super) struct OwnedWrite {
    pub board: BoardKey,
    pub postings: Vec<JobPosting>,
    pub source_hashes: Vec<String>,
    pub content_hashes: Vec<String>,
    pub touch: Vec<JobKey>,
    pub named: u64,
    pub activate: bool,
    pub close_unseen_before: Option<DateTime<Utc>>,
    pub at: DateTime<Utc>,
}

impl OwnedWrite {
    fn as_write(&self) -> BoardWrite<'_> {
        BoardWrite {
            board: &self.board,
            postings: &self.postings,
            source_hashes: &self.source_hashes,
            content_hashes: &self.content_hashes,
            touch: &self.touch,
            named: self.named,
            activate: self.activate,
            close_unseen_before: self.close_unseen_before,
            at: self.at,
        }
    }
}

/// A board's write as the writer answers it: what was written, or why it was not (the error
/// with its causes).
pub(super) type Written = Result<BoardWritten, String>;

type Queued = (OwnedWrite, oneshot::Sender<Written>);

/// The run's writer tasks and the queue to them.
pub(super) struct GroupWriter {
    queue: mpsc::UnboundedSender<Queued>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl GroupWriter {
    /// Starts the writer tasks on `store` (one on SQLite).
    pub(super) fn start(store: Arc<dyn Store>, limits: GroupLimits) -> Self {
        let (queue, incoming) = mpsc::unbounded_channel();
        let incoming = Arc::new(Mutex::new(incoming));
        let tasks = (0..limits.writers(store.backend()))
            .map(|_| tokio::spawn(write_groups(Arc::clone(&store), Arc::clone(&incoming), limits)))
            .collect();
        Self { queue, tasks }
    }

    /// Queues `write` and waits for its group's commit. `None` when the writer is gone (the
    /// runtime is shutting down): then nothing of the board was written.
    pub(super) async fn write(&self, write: OwnedWrite) -> Option<Written> {
        let (reply, answer) = oneshot::channel();
        self.queue.send((write, reply)).ok()?;
        answer.await.ok()
    }

    /// Waits for the writer to finish what is queued; a panic in it is resumed here.
    pub(super) async fn finish(self) {
        drop(self.queue);
        for task in self.tasks {
            if let Err(e) = task.await
                && e.is_panic()
            {
                std::panic::resume_unwind(e.into_panic());
            }
        }
    }
}

/// A writer task: each group is everything queued when the writer was free again, up to
/// `limits`. Writer tasks take turns at the queue only while they gather a group.
async fn write_groups(
    store: Arc<dyn Store>,
    incoming: Arc<Mutex<mpsc::UnboundedReceiver<Queued>>>,
    limits: GroupLimits,
) {
    loop {
        let mut group = {
            let mut incoming = incoming.lock().await;
            let Some(first) = incoming.recv().await else { return };
            let mut postings = first.0.postings.len();
            let mut group = vec![first];
            while group.len() < limits.boards.max(1) && postings < limits.postings {
                let Ok(next) = incoming.try_recv() else { break };
                postings += next.0.postings.len();
                group.push(next);
            }
            group
        };
        // One instant for the group, the latest of its boards' (each is when that board's
        // crawl ended; the group lands after all of them): the store then writes the group
        // with one set of statements instead of a set per board.
        if let Some(at) = group.iter().map(|(w, _)| w.at).max() {
            for (w, _) in &mut group {
                w.at = at;
            }
        }
        let writes: Vec<BoardWrite<'_>> = group.iter().map(|(w, _)| w.as_write()).collect();
        let results = store.write_boards(&writes).await;
        drop(writes);
        match results {
            Ok(results) => {
                for ((_, reply), result) in group.into_iter().zip(results) {
                    // A board whose crawl was dropped no longer waits: nothing to tell.
                    let _ = reply.send(result.map_err(|e| error_chain(&e)));
                }
            }
            Err(e) => {
                let why = error_chain(&e);
                for (_, reply) in group {
                    let _ = reply.send(Err(why.clone()));
                }
            }
        }
    }
}
