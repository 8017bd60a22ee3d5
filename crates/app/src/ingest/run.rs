//! One provider run over all its boards, then the unseen sweep.

use std::{
    collections::HashMap,
    sync::atomic::{AtomicU64, Ordering},
};

use chrono::{DateTime, Duration, Utc};
use freehire_domain::{BoardKey, BoardStatus, ClosedReason, Provider};
use freehire_ingest::Sources;
use freehire_store::{BoardFilter, Store, UnseenScope};
use futures::{StreamExt, stream};
use tokio_util::sync::CancellationToken;

pub use super::board::{BoardFailure, BoardOutcome};
pub use super::writer::GroupLimits;
use super::{
    Clock,
    board::{BoardCounts, crawl},
    writer::GroupWriter,
};
use crate::AppError;

/// Interval of the progress line while a run crawls.
const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(60);

/// How a run behaves. The defaults are the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IngestConfig {
    /// Boards crawled at once: 32 (the reference's `defaultConcurrency` is 8). A board's
    /// write waits for its group's commit, so with 8 boards in flight the cores idled while
    /// boards waited; on the ingest bench (full corpus, 2 cores) 32 took the first crawl from
    /// 4,283 to 4,730 postings/s on PostgreSQL and from 4,891 to 5,203 on SQLite (docs/ingest.md).
    /// Each upstream host is still paced on its own ([`freehire_ingest::http::HostPacing`]),
    /// so more boards at once never means more requests per second to one host.
    pub board_concurrency: usize,
    /// The unseen sweep closes jobs not seen for this long (`DefaultSweepGrace` = 48 h), unless
    /// the provider's platform sets its own window ([`freehire_ingest::sweep_grace`]).
    pub sweep_grace: Duration,
    /// Rows without a description younger than this get their detail fetched again (14 days).
    pub hydration_retry: Duration,
    /// Ignore seen sets and fetch every detail (a repair run).
    pub refetch_all: bool,
    /// The run's group commit: how many boards' writes one transaction may hold, and how many
    /// transactions are written at once.
    pub write_group: GroupLimits,
}

impl Default for IngestConfig {
    fn default() -> Self {
        Self {
            board_concurrency: 32,
            sweep_grace: Duration::hours(48),
            hydration_retry: Duration::days(14),
            refetch_all: false,
            write_group: GroupLimits::default(),
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Boards of the provider (pending and active).
    pub boards: u64,
    /// Boards listed and written.
    pub crawled: u64,
    /// Postings written or refreshed (inserted + changed + unchanged + touched).
    pub ingested: u64,
    /// New rows.
    pub inserted: u64,
    /// Rewritten rows.
    pub changed: u64,
    /// Stored rows only marked seen (unchanged at the source, or listed without detail).
    pub touched: u64,
    /// Boards whose fetch or write failed.
    pub failed: u64,
    /// Postings dropped before the write.
    pub skipped: u64,
    /// Boards skipped while cooling down.
    pub cooled: u64,
    /// Postings whose detail could not be read.
    pub unreadable: u64,
    /// Jobs closed by board-scoped closes.
    pub closed_board: u64,
    /// Jobs closed by the unseen sweep.
    pub closed_swept: u64,
    /// Boards not started because the run was cancelled.
    pub not_started: u64,
    /// Each failed board with why, in board order.
    pub failures: Vec<FailedBoard>,
}

/// A board whose crawl failed in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedBoard {
    /// The board.
    pub key: BoardKey,
    /// Its company.
    pub company: String,
    /// Why.
    pub failure: BoardFailure,
}

impl RunStats {
    fn add(&mut self, c: &BoardCounts) {
        self.crawled += 1;
        self.ingested += c.inserted + c.changed + c.unchanged + c.touched;
        self.inserted += c.inserted;
        self.changed += c.changed;
        self.touched += c.touched;
        self.skipped += c.skipped;
        self.unreadable += c.unreadable;
        self.closed_board += c.closed;
    }

    /// Whether the run stopped early for a shutdown.
    pub fn interrupted(&self) -> bool {
        self.not_started > 0
    }
}

/// Crawls every pending or active board of `provider`, then sweeps. Boards already started
/// when `cancel` fires are finished; the rest are not started.
pub async fn run_provider(
    store: &dyn Store,
    registry: &Sources,
    provider: &Provider,
    config: &IngestConfig,
    cancel: &CancellationToken,
    clock: Clock<'_>,
) -> Result<RunStats, AppError> {
    run_provider_with(store, registry, provider, config, cancel, clock, &crate::progress::Silent)
        .await
}

/// [`run_provider`], telling `progress` of each board finished (crawled, failed, cooling or
/// not started).
pub async fn run_provider_with(
    store: &dyn Store,
    registry: &Sources,
    provider: &Provider,
    config: &IngestConfig,
    cancel: &CancellationToken,
    clock: Clock<'_>,
    progress: &dyn crate::progress::Progress,
) -> Result<RunStats, AppError> {
    let source = registry.require(provider)?;
    let filter = BoardFilter {
        provider: Some(provider.clone()),
        statuses: vec![BoardStatus::Pending, BoardStatus::Active],
    };
    let boards = store.list_boards(&filter).await?;
    // One read for the run instead of one per board: when each board's cooldown ends (health
    // rows are keyed by board identity, the board folded to lowercase). Only this run writes
    // these boards' health while it runs (the provider is claimed).
    let cooldowns: HashMap<(String, String), DateTime<Utc>> = store
        .cooldowns(provider)
        .await?
        .into_iter()
        .filter_map(|h| Some(((h.key.board, h.key.region), h.cooldown_until?)))
        .collect();
    let mut stats = RunStats { boards: boards.len() as u64, ..RunStats::default() };
    tracing::info!(%provider, boards = boards.len(), "ingest run started");
    let phase = crate::progress::Phase::begin(progress, "boards", Some(boards.len() as u64));

    let done = AtomicU64::new(0);
    let writer = GroupWriter::start(store.handle(), config.write_group);
    let crawling = stream::iter(boards.iter())
        .map(|board| {
            let done = &done;
            let cooldowns = &cooldowns;
            let writer = &writer;
            async move {
                if cancel.is_cancelled() {
                    progress.advance(1);
                    return (board, Ok(BoardOutcome::NotStarted));
                }
                let identity = (board.key.board.to_ascii_lowercase(), board.key.region.clone());
                let cooldown = cooldowns.get(&identity).copied();
                let outcome = crawl(store, writer, source, board, cooldown, config, clock).await;
                done.fetch_add(1, Ordering::Relaxed);
                progress.advance(1);
                (board, outcome)
            }
        })
        .buffer_unordered(config.board_concurrency.max(1))
        .collect::<Vec<_>>();
    // A progress line every minute while the boards are crawled.
    let heartbeat = async {
        let mut tick = tokio::time::interval(HEARTBEAT);
        tick.tick().await;
        loop {
            tick.tick().await;
            tracing::info!(
                %provider, done = done.load(Ordering::Relaxed), boards = boards.len(),
                "ingest run in progress"
            );
        }
    };
    let outcomes = tokio::select! {
        outcomes = crawling => outcomes,
        // Never taken: the heartbeat loops until the crawl finishes and drops it.
        () = heartbeat => Vec::new(),
    };
    drop(phase);
    writer.finish().await;

    let mut proven = Vec::new();
    for (board, outcome) in outcomes {
        match outcome? {
            BoardOutcome::Crawled(counts) => {
                if counts.unreadable == 0 && !counts.partial {
                    proven.push(board.key.external_id_prefix());
                }
                stats.add(&counts);
            }
            BoardOutcome::Cooled => stats.cooled += 1,
            BoardOutcome::Failed(failure) => {
                stats.failed += 1;
                stats.failures.push(FailedBoard {
                    key: board.key.clone(),
                    company: board.company.clone(),
                    failure,
                });
            }
            BoardOutcome::NotStarted => stats.not_started += 1,
        }
    }

    stats.failures.sort_by_key(|f| f.key.to_string());

    // The sweep: only when the run reached postings, only over boards listed in full this run
    // (a board with unreadable postings proves nothing about them, a partial listing nothing
    // at all).
    if stats.ingested > 0 && !proven.is_empty() {
        let now = clock();
        let grace = freehire_ingest::sweep_grace(provider)
            .and_then(|g| Duration::from_std(g).ok())
            .unwrap_or(config.sweep_grace);
        let scope = UnseenScope {
            source: provider.clone(),
            board_prefixes: proven,
            last_seen_before: now - grace,
        };
        stats.closed_swept =
            store.close_unseen(&scope, ClosedReason::Unseen, now).await?.len() as u64;
    }
    tracing::info!(
        %provider, boards = stats.boards, crawled = stats.crawled, ingested = stats.ingested,
        inserted = stats.inserted, changed = stats.changed, touched = stats.touched,
        failed = stats.failed,
        skipped = stats.skipped, cooled = stats.cooled, unreadable = stats.unreadable,
        closed_board = stats.closed_board, closed_swept = stats.closed_swept,
        not_started = stats.not_started, "ingest run finished"
    );
    Ok(stats)
}
