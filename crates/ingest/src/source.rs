//! The adapter contract: [`Source`] (one board in, raw postings out), its [`Capabilities`],
//! the [`BoardTarget`] it is given, and the [`Sources`] keyed by provider.

use std::collections::BTreeMap;
use std::sync::Arc;

use freehire_domain::{BoardKey, Provider};

use crate::IngestError;
use crate::adapters;
use crate::http::HttpClient;
use crate::posting::{BoardListing, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};

/// One board to fetch: its key and the company's display name (the fallback employer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardTarget {
    /// Provider, board and region.
    pub key: BoardKey,
    /// The company's display name.
    pub company: String,
}

impl BoardTarget {
    /// Builds a target.
    pub fn new(key: BoardKey, company: impl Into<String>) -> Self {
        Self { key, company: company.into() }
    }
}

/// What a provider proves and how it fetches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Capabilities {
    /// A successful fetch structurally proves the complete board listing (any page failure
    /// or safety cap fails the fetch instead), so the board may be closed board-scoped.
    pub full_board_listing: bool,
    /// [`Source::fetch`] skips detail requests for ids in the seen set.
    pub hydrating: bool,
}

/// An ATS adapter.
///
/// A fetch returns `Ok` only for a listing it could read; an empty board is `Ok` with no
/// postings. A 404 on the board's listing is [`IngestError::BoardGone`]. One failing detail
/// never fails the board: it is reported in [`BoardListing::unreadable`].
///
/// The board rules ([`Source::validate_board`], [`Source::recognize`]) are associated
/// functions, not methods: they are pure and offline, so `freehire boards add` recognises a
/// URL without building any client. A registered platform hands them over as function
/// pointers (`adapters::Platform::of`); they stay out of the vtable (`where Self: Sized`).
#[async_trait::async_trait]
pub trait Source: Send + Sync {
    /// The provider key this adapter serves.
    fn provider(&self) -> &Provider;

    /// Its capabilities.
    fn capabilities(&self) -> Capabilities;

    /// Checks that a board has the shape this platform needs, without any request. The
    /// default: no region, and the board is one URL path segment (unreserved characters, no
    /// `..`, not an IP literal), so it can never change the path or host it is put in.
    fn validate_board(key: &BoardKey) -> Result<(), IngestError>
    where
        Self: Sized,
    {
        adapters::common::path_segment_board(key)
    }

    /// Recognises one of this platform's careers or API URLs, without any request. The
    /// default recognises none.
    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch>
    where
        Self: Sized,
    {
        let _ = url;
        None
    }

    /// Fetches every posting of a board. A hydrating adapter requests detail only for native
    /// ids not in `seen` and returns those in [`BoardListing::seen_refresh`]; the others
    /// ignore `seen` and fetch everything.
    async fn fetch(&self, board: &BoardTarget, seen: &SeenSet)
    -> Result<BoardListing, IngestError>;
}

/// Options shared by the adapters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceConfig {
    /// Concurrent detail requests per board (`defaultDetailWorkers`).
    pub detail_concurrency: usize,
}

impl Default for SourceConfig {
    fn default() -> Self {
        Self { detail_concurrency: 8 }
    }
}

/// Every adapter, keyed by provider.
#[derive(Clone)]
pub struct Sources {
    sources: BTreeMap<Provider, Arc<dyn Source>>,
}

impl std::fmt::Debug for Sources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.sources.keys()).finish()
    }
}

impl Sources {
    /// Every registered platform's adapter over one shared client.
    pub fn new(http: &HttpClient, config: SourceConfig) -> Self {
        let mut sources = Self { sources: BTreeMap::new() };
        for platform in adapters::PLATFORMS {
            sources.insert(platform.source(http, config));
        }
        sources
    }

    /// An empty map (for tests that register their own sources).
    pub fn empty() -> Self {
        Self { sources: BTreeMap::new() }
    }

    /// Registers a source, replacing one with the same provider.
    pub fn insert(&mut self, source: Arc<dyn Source>) {
        self.sources.insert(source.provider().clone(), source);
    }

    /// The source of a provider.
    pub fn get(&self, provider: &Provider) -> Option<&Arc<dyn Source>> {
        self.sources.get(provider)
    }

    /// The source of a provider, or [`IngestError::UnknownProvider`].
    pub fn require(&self, provider: &Provider) -> Result<&Arc<dyn Source>, IngestError> {
        self.get(provider).ok_or_else(|| IngestError::UnknownProvider(provider.to_string()))
    }

    /// The registered providers, sorted.
    pub fn providers(&self) -> impl Iterator<Item = &Provider> {
        self.sources.keys()
    }
}
