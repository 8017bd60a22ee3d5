//! [`SearchSlot`], the search index a server reads (the JSON API and the web pages share one).
//!
//! A server never creates an index: a slot over the configured engine opens it for reading on
//! first use, and while it cannot (the embedded directory holds no index yet: the worker has
//! not run), search is unavailable and `/health` reports `"search": "missing"`. The open is
//! retried on a later request, at most once per [`RETRY_EVERY`] (1 s: a missing index costs one
//! `stat` per second, not one per request, and the index is picked up within a second of the
//! worker's first commit). Once open, the index is kept: the hot path is one atomic load.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use freehire_search::SearchIndex;

use crate::AppError;
use crate::search_engine::{self, Access, SearchEngineConfig};

/// Longest wait between two attempts to open a missing index.
pub const RETRY_EVERY: Duration = Duration::from_secs(1);

/// What `/health` says about search (its `search` field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchStatus {
    /// The index is open.
    Ok,
    /// The embedded index directory holds no index yet (run the worker).
    Missing,
    /// The index exists but cannot be opened (the cause is logged).
    Unavailable,
    /// No search engine is configured.
    Off,
}

impl SearchStatus {
    /// The wire spelling: `ok`, `missing`, `unavailable`, `off`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Missing => "missing",
            Self::Unavailable => "unavailable",
            Self::Off => "off",
        }
    }
}

/// The search index of the API: none, open, or opened on demand.
#[derive(Clone)]
pub struct SearchSlot(Arc<Slot>);

enum Slot {
    None,
    Open(Arc<dyn SearchIndex>),
    Lazy(Lazy),
}

struct Lazy {
    engine: SearchEngineConfig,
    index: OnceLock<Arc<dyn SearchIndex>>,
    /// When the last attempt started and what it found; the lock is only tried, never waited
    /// for, so requests never queue behind an open.
    last: tokio::sync::Mutex<Option<(Instant, SearchStatus)>>,
}

impl SearchSlot {
    /// No search engine: search answers 503.
    pub fn none() -> Self {
        Self(Arc::new(Slot::None))
    }

    /// An open index.
    pub fn open(index: Arc<dyn SearchIndex>) -> Self {
        Self(Arc::new(Slot::Open(index)))
    }

    /// The configured engine, opened for reading on first use and retried at most once per
    /// [`RETRY_EVERY`] while it cannot be.
    pub fn lazy(engine: SearchEngineConfig) -> Self {
        Self(Arc::new(Slot::Lazy(Lazy {
            engine,
            index: OnceLock::new(),
            last: tokio::sync::Mutex::new(None),
        })))
    }

    /// The index, if it is open or opens now (an attempt at most once per [`RETRY_EVERY`]),
    /// else why not.
    pub async fn get(&self) -> Result<Arc<dyn SearchIndex>, SearchStatus> {
        match self.resolve().await {
            (Some(index), _) => Ok(index),
            (None, status) => Err(status),
        }
    }

    /// What `/health` reports (may attempt the open, like [`Self::get`]).
    pub async fn status(&self) -> SearchStatus {
        self.resolve().await.1
    }

    /// Opens a lazy slot now, whatever the interval; the error says why it cannot.
    pub async fn try_open(&self) -> Result<(), AppError> {
        match &*self.0 {
            Slot::Lazy(lazy) => {
                let mut last = lazy.last.lock().await;
                lazy.attempt(&mut last).await.map(drop)
            }
            _ => Ok(()),
        }
    }

    async fn resolve(&self) -> (Option<Arc<dyn SearchIndex>>, SearchStatus) {
        let lazy = match &*self.0 {
            Slot::None => return (None, SearchStatus::Off),
            Slot::Open(index) => return (Some(index.clone()), SearchStatus::Ok),
            Slot::Lazy(lazy) => lazy,
        };
        if let Some(index) = lazy.index.get() {
            return (Some(index.clone()), SearchStatus::Ok);
        }
        // Another request is opening: answer with what the last attempt found.
        let Ok(mut last) = lazy.last.try_lock() else {
            return (None, SearchStatus::Missing);
        };
        if let Some((at, status)) = *last
            && at.elapsed() < RETRY_EVERY
        {
            return (lazy.index.get().cloned(), status);
        }
        match lazy.attempt(&mut last).await {
            Ok(index) => (Some(index), SearchStatus::Ok),
            Err(AppError::NoIndex { .. }) => (None, SearchStatus::Missing),
            Err(e) => {
                tracing::warn!(error = %e, engine = %lazy.engine, "cannot open the search index");
                (None, SearchStatus::Unavailable)
            }
        }
    }
}

impl Lazy {
    async fn attempt(
        &self,
        last: &mut Option<(Instant, SearchStatus)>,
    ) -> Result<Arc<dyn SearchIndex>, AppError> {
        if let Some(index) = self.index.get() {
            return Ok(index.clone());
        }
        let started = Instant::now();
        let result = search_engine::open(&self.engine, Access::Read).await;
        let status = match &result {
            Ok(index) => {
                let _ = self.index.set(index.clone());
                tracing::info!(engine = %self.engine, "search index opened");
                SearchStatus::Ok
            }
            Err(AppError::NoIndex { .. }) => SearchStatus::Missing,
            Err(_) => SearchStatus::Unavailable,
        };
        *last = Some((started, status));
        result
    }
}
