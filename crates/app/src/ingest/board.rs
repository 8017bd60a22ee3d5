//! One board of a run: cooldown check, seen set, fetch, write, health, board-scoped close.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

use chrono::{DateTime, Utc};
use freehire_domain::{Board, BoardStatus, FailureClass, JobPosting};
use freehire_ingest::{BoardTarget, SeenSet, Source};
use freehire_store::{BoardWrite, JobKey, Refreshed, Store, UpsertOutcome};

use super::{Clock, convert::Converted, run::IngestConfig};
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
pub(super) async fn crawl(
    store: &dyn Store,
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
    let target = BoardTarget::new(key.clone(), board.company.clone());
    let prefix = key.external_id_prefix();
    let capabilities = source.capabilities();

    // What is stored for this board: the seen set of a hydrating fetch, and every posting's
    // source hash, so an unchanged posting skips derivation and is only marked seen.
    let stored = if config.refetch_all {
        Vec::new()
    } else {
        store.board_seen_set(&key.provider, &prefix, started - config.hydration_retry).await?
    };
    let settled = || stored.iter().filter(|s| !s.needs_detail);
    let seen = if capabilities.hydrating {
        SeenSet::from_external_ids(key, settled().map(|s| s.external_id.as_str()))
    } else {
        SeenSet::new()
    };
    let mut listing = match source.fetch(&target, &seen).await {
        Ok(listing) => listing,
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

    let mut counts = BoardCounts {
        named: listing.named_ids().count() as u64,
        unreadable: listing.unreadable.len() as u64,
        partial: listing.partial.is_some(),
        ..BoardCounts::default()
    };
    if let Some(why) = &listing.partial {
        tracing::warn!(board = %key, reason = %why, "listing may be partial: nothing is closed");
    }
    // Hashing, sanitising and deriving are the crawl's CPU work: done on the blocking pool, so
    // the boards crawled at once (polled by one task) use every core. The raw postings go
    // there and come back with the stored rows (the close below reads both).
    let raw = std::mem::take(&mut listing.postings);
    let (board_key, company) = (key.clone(), board.company.clone());
    let prepared =
        tokio::task::spawn_blocking(move || prepare(raw, stored, &board_key, &company)).await;
    let Prepared { raw, stored, unchanged, derived } = match prepared {
        Ok(prepared) => prepared,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        // The runtime is shutting down: nothing of this board is written.
        Err(_) => return Ok(BoardOutcome::NotStarted),
    };
    listing.postings = raw;
    let mut postings: Vec<JobPosting> = Vec::with_capacity(derived.len());
    let mut source_hashes: Vec<String> = Vec::with_capacity(derived.len());
    let mut content_hashes: Vec<String> = Vec::with_capacity(derived.len());
    for Derived { posting, source_hash, content_hash } in derived {
        match posting.validate() {
            Ok(()) => {
                postings.push(posting);
                source_hashes.push(source_hash);
                content_hashes.push(content_hash);
            }
            Err(e) => {
                counts.skipped += 1;
                tracing::debug!(board = %key, external_id = %posting.external_id, error = %e, "posting skipped");
            }
        }
    }
    // Listed without detail: refresh liveness only. Unreadable postings were listed too, so
    // their stored rows must not look unseen to the close below.
    let mut touch: Vec<JobKey> = listing
        .seen_refresh
        .iter()
        .chain(listing.unreadable.iter().map(|u| &u.native_id))
        .map(|id| JobKey {
            source: key.provider.clone(),
            external_id: freehire_ingest::external_id(key, id),
        })
        .collect();
    touch.extend(unchanged);

    // Only a complete (not partial) listing that named something proves what is gone; when it named every
    // stored job (the usual re-crawl) there is nothing to look for.
    let named: HashSet<String> =
        listing.named_ids().map(|id| freehire_ingest::external_id(key, id)).collect();
    let something_unnamed = stored.iter().any(|s| !named.contains(&s.external_id));
    let close =
        capabilities.full_board_listing && !counts.partial && counts.named > 0 && something_unnamed;
    let write = BoardWrite {
        board: key,
        postings: &postings,
        source_hashes: &source_hashes,
        content_hashes: &content_hashes,
        touch: &touch,
        named: counts.named,
        activate: board.status == BoardStatus::Pending,
        close_unseen_before: close.then_some(started),
        at: clock(),
    };
    let written = match store.write_board(&write).await {
        Ok(written) => written,
        Err(e) => {
            let failure = BoardFailure {
                class: FailureClass::Storage,
                message: format!("storing the listing failed: {}", error_chain(&e)),
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

/// A listing's postings read: the unchanged ones (same source hash as stored) by key, the
/// others sanitised and derived with their hashes; the raw postings handed back.
struct Prepared {
    raw: Vec<freehire_ingest::RawPosting>,
    stored: Vec<freehire_store::SeenJob>,
    unchanged: Vec<JobKey>,
    derived: Vec<Derived>,
}

/// A posting to write, with the hashes the write stores: computed here, on the blocking pool,
/// so the write (on the run's task) hashes no description.
struct Derived {
    posting: JobPosting,
    /// Over the posting as the source stated it.
    source_hash: String,
    /// Over what the search document holds ([`JobPosting::content_hash`]).
    content_hash: String,
}

fn prepare(
    raw: Vec<freehire_ingest::RawPosting>,
    stored: Vec<freehire_store::SeenJob>,
    key: &freehire_domain::BoardKey,
    company: &str,
) -> Prepared {
    // Each settled stored posting's source hash: an unchanged posting skips derivation.
    let known: HashMap<&str, &str> = stored
        .iter()
        .filter(|s| !s.needs_detail)
        .map(|s| (s.external_id.as_str(), s.source_hash.as_str()))
        .collect();
    let mut unchanged = Vec::new();
    let mut derived = Vec::new();
    for posting in &raw {
        let converted = Converted::new(posting, key, company);
        let external_id = &converted.posting.external_id;
        if known.get(external_id.as_str()).is_some_and(|h| *h == converted.source_hash) {
            unchanged
                .push(JobKey { source: key.provider.clone(), external_id: external_id.clone() });
            continue;
        }
        let source_hash = converted.source_hash.clone();
        let posting = converted.derive();
        let content_hash = posting.content_hash();
        derived.push(Derived { posting, source_hash, content_hash });
    }
    drop(known);
    Prepared { raw, stored, unchanged, derived }
}
