//! One board of a run: cooldown check, seen set, fetch, write, health, board-scoped close.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use chrono::{DateTime, Utc};
use freehire_domain::{Board, BoardStatus, FailureClass, JobPosting};
use freehire_ingest::{BoardListing, BoardTarget, IngestError, SeenSet, Source};
use freehire_store::{JobKey, Refreshed, SeenJob, Store, UpsertOutcome};

use super::{
    Clock,
    convert::Converted,
    run::IngestConfig,
    writer::{GroupWriter, OwnedWrite},
};
use freehire_ingest::error_chain;

/// What happened to one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardOutcome {
    /// Listed and written.
    Crawled(BoardCounts),
    /// Cooling down after repeated failures: not fetched.
    Cooled,
    /// The fetch failed (or storing it did); nothing was closed.
    Failed(BoardFailure),
    /// Not started because the run is shutting down.
    NotStarted,
}

/// Why a board failed: the kind of failure and its full text (the error with its causes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardFailure {
    /// What kind of failure.
    pub class: FailureClass,
    /// The error and its causes.
    pub message: String,
}

/// Counts of one crawled board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardCounts {
    /// Postings the listing named (read, refreshed or unreadable).
    pub named: u64,
    /// New rows.
    pub inserted: u64,
    /// Rewritten rows.
    pub changed: u64,
    /// Rows whose content was the same.
    pub unchanged: u64,
    /// Stored rows only marked seen: listed without detail (hydrating fetch), unreadable, or
    /// unchanged at the source (same source hash, so no derivation).
    pub touched: u64,
    /// Postings whose detail could not be read.
    pub unreadable: u64,
    /// Postings dropped before the write (no title, bad id).
    pub skipped: u64,
    /// Jobs closed because the complete listing no longer names them.
    pub closed: u64,
    /// Whether the listing was partial ([`freehire_ingest::BoardListing::partial`]): written,
    /// proving nothing gone.
    pub partial: bool,
}

/// Crawls one board, whose cooldown (read by the run) ends at `cooldown_until`. Errors of the
/// board itself become [`BoardOutcome::Failed`] (and board health); only storage failures
/// while recording that are returned as errors.
///
/// The run's boards are all polled by the run's one task, so the board's work is moved off it:
/// reading what is stored and fetching run on a task of their own, hashing, sanitising and
/// deriving on the blocking pool, and the write on the run's writer task (`writer`), which
/// commits the boards waiting for it together. The run's task only passes
/// the board from one to the next, so a run's boards use every core.
pub(super) async fn crawl(
    store: &dyn Store,
    writer: &GroupWriter,
    source: &Arc<dyn Source>,
    board: &Board,
    cooldown_until: Option<DateTime<Utc>>,
    config: &IngestConfig,
    clock: Clock<'_>,
) -> Result<BoardOutcome, freehire_store::StoreError> {
    let key = &board.key;
    let started = clock();
    if cooldown_until.is_some_and(|until| until > started) {
        return Ok(BoardOutcome::Cooled);
    }
    let capabilities = source.capabilities();
    let fetch = fetch(
        store.handle(),
        Arc::clone(source),
        BoardTarget::new(key.clone(), board.company.clone()),
        // A repair run reads nothing stored: every posting is derived and every detail fetched.
        (!config.refetch_all).then_some(started - config.hydration_retry),
    );
    let Some(fetched) = on_own_task(fetch).await else {
        return Ok(BoardOutcome::NotStarted);
    };
    let (stored, listing) = match fetched? {
        Ok(fetched) => fetched,
        Err(e) => {
            let failure = BoardFailure { class: e.class(), message: error_chain(&e) };
            tracing::warn!(
                board = %key, class = failure.class.as_str(), error = %failure.message,
                "board failed"
            );
            store.record_board_failure(key, failure.class, &failure.message, clock()).await?;
            return Ok(BoardOutcome::Failed(failure));
        }
    };
    if let Some(why) = &listing.partial {
        tracing::warn!(board = %key, reason = %why, "listing may be partial: nothing is closed");
    }

    let (board_key, company) = (key.clone(), board.company.clone());
    let prepared =
        tokio::task::spawn_blocking(move || prepare(listing, &stored, &board_key, &company)).await;
    let Prepared { postings, source_hashes, content_hashes, touch, mut counts, something_unnamed } =
        match prepared {
            Ok(prepared) => prepared,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            // The runtime is shutting down: nothing of this board is written.
            Err(_) => return Ok(BoardOutcome::NotStarted),
        };

    // Only a complete (not partial) listing that named something proves what is gone; when it
    // named every stored job (the usual re-crawl) there is nothing to look for.
    let close =
        capabilities.full_board_listing && !counts.partial && counts.named > 0 && something_unnamed;
    let write = OwnedWrite {
        board: key.clone(),
        postings,
        source_hashes,
        content_hashes,
        touch,
        named: counts.named,
        activate: board.status == BoardStatus::Pending,
        close_unseen_before: close.then_some(started),
        at: clock(),
    };
    let Some(written) = writer.write(write).await else {
        return Ok(BoardOutcome::NotStarted);
    };
    let written = match written {
        Ok(written) => written,
        Err(why) => {
            let failure = BoardFailure {
                class: FailureClass::Storage,
                message: format!("storing the listing failed: {why}"),
            };
            tracing::error!(board = %key, error = %failure.message, "board not stored");
            store.record_board_failure(key, failure.class, &failure.message, clock()).await?;
            return Ok(BoardOutcome::Failed(failure));
        }
    };
    for r in &written.upserted {
        match r.outcome {
            UpsertOutcome::Inserted => counts.inserted += 1,
            UpsertOutcome::Changed => counts.changed += 1,
            UpsertOutcome::Unchanged => counts.unchanged += 1,
        }
    }
    counts.touched =
        written.touched.iter().filter(|t| !matches!(t, Refreshed::Missed)).count() as u64;
    counts.closed = written.closed.len() as u64;
    tracing::info!(
        board = %key, named = counts.named, inserted = counts.inserted, changed = counts.changed,
        unchanged = counts.unchanged, touched = counts.touched, unreadable = counts.unreadable,
        skipped = counts.skipped, closed = counts.closed, "board crawled"
    );
    Ok(BoardOutcome::Crawled(counts))
}

/// Reads what is stored for the board (unless `settled_since` is `None`: a repair run) and
/// fetches its listing: the stored rows with the listing, or why the fetch failed. Only a
/// storage failure is the outer error.
async fn fetch(
    store: Arc<dyn Store>,
    source: Arc<dyn Source>,
    target: BoardTarget,
    settled_since: Option<DateTime<Utc>>,
) -> Result<Result<(Vec<SeenJob>, BoardListing), IngestError>, freehire_store::StoreError> {
    let key = &target.key;
    // What is stored for this board: the seen set of a hydrating fetch, and every posting's
    // source hash, so an unchanged posting skips derivation and is only marked seen.
    let stored = match settled_since {
        Some(since) => {
            store.board_seen_set(&key.provider, &key.external_id_prefix(), since).await?
        }
        None => Vec::new(),
    };
    let seen = if source.capabilities().hydrating {
        SeenSet::from_external_ids(
            key,
            stored.iter().filter(|s| !s.needs_detail).map(|s| s.external_id.as_str()),
        )
    } else {
        SeenSet::new()
    };
    Ok(source.fetch(&target, &seen).await.map(|listing| (stored, listing)))
}

/// Runs `work` on a task of its own, so the boards of a run (otherwise all polled by the run's
/// one task) spread over every core. `None` when the runtime is shutting down; a panic in
/// `work` is resumed here.
async fn on_own_task<T: Send + 'static>(
    work: impl std::future::Future<Output = T> + Send + 'static,
) -> Option<T> {
    match tokio::spawn(work).await {
        Ok(done) => Some(done),
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => None,
    }
}

/// A listing read for the write: the postings to write (sanitised and derived) with their
/// hashes, the stored rows only to mark seen, the board's counts so far, and whether a stored
/// posting went unnamed (so a close has something to look for).
struct Prepared {
    postings: Vec<JobPosting>,
    /// Over each posting as the source stated it.
    source_hashes: Vec<String>,
    /// Over what each posting's search document holds ([`JobPosting::content_hash`]), computed
    /// here so the write hashes no description.
    content_hashes: Vec<String>,
    /// Listed without detail, unreadable, or unchanged at the source (same source hash).
    touch: Vec<JobKey>,
    counts: BoardCounts,
    something_unnamed: bool,
}

/// Hashes, sanitises and derives a listing's postings against the board's stored rows: the
/// crawl's CPU work, run on the blocking pool.
fn prepare(
    listing: BoardListing,
    stored: &[SeenJob],
    key: &freehire_domain::BoardKey,
    company: &str,
) -> Prepared {
    let mut counts = BoardCounts {
        named: listing.named_ids().count() as u64,
        unreadable: listing.unreadable.len() as u64,
        partial: listing.partial.is_some(),
        ..BoardCounts::default()
    };
    // Each settled stored posting's source hash: an unchanged posting skips derivation.
    let known: HashMap<&str, &str> = stored
        .iter()
        .filter(|s| !s.needs_detail)
        .map(|s| (s.external_id.as_str(), s.source_hash.as_str()))
        .collect();
    let job_key = |external_id: String| JobKey { source: key.provider.clone(), external_id };
    // Listed without detail: refresh liveness only. Unreadable postings were listed too, so
    // their stored rows must not look unseen to the close.
    let mut touch: Vec<JobKey> = listing
        .seen_refresh
        .iter()
        .chain(listing.unreadable.iter().map(|u| &u.native_id))
        .map(|id| job_key(freehire_ingest::external_id(key, id)))
        .collect();
    let mut postings = Vec::with_capacity(listing.postings.len());
    let mut source_hashes = Vec::with_capacity(listing.postings.len());
    let mut content_hashes = Vec::with_capacity(listing.postings.len());
    for raw in &listing.postings {
        let converted = Converted::new(raw, key, company);
        let external_id = &converted.posting.external_id;
        if known.get(external_id.as_str()).is_some_and(|h| *h == converted.source_hash) {
            touch.push(job_key(external_id.clone()));
            continue;
        }
        let source_hash = converted.source_hash.clone();
        let posting = converted.derive();
        match posting.validate() {
            Ok(()) => {
                content_hashes.push(posting.content_hash());
                source_hashes.push(source_hash);
                postings.push(posting);
            }
            Err(e) => {
                counts.skipped += 1;
                tracing::debug!(board = %key, external_id = %posting.external_id, error = %e, "posting skipped");
            }
        }
    }
    let named: HashSet<String> =
        listing.named_ids().map(|id| freehire_ingest::external_id(key, id)).collect();
    let something_unnamed = stored.iter().any(|s| !named.contains(&s.external_id));
    Prepared { postings, source_hashes, content_hashes, touch, counts, something_unnamed }
}
