//! The crate's error type. Each variant keeps its cause as its source; a variant wrapping
//! another crate's error is `transparent` (its message is the cause's, printed once in a
//! `{:#}` chain), and a variant of its own does not print its source.

/// What an application service can fail with.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The database could not be opened.
    #[error("opening {url}")]
    Open {
        /// The database URL (its password never prints).
        url: String,
        /// Why.
        source: freehire_store::StoreError,
    },
    /// Applying the migrations failed.
    #[error("applying migrations")]
    Migrate(#[source] freehire_store::StoreError),
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] freehire_store::StoreError),
    /// The source side refused (unknown provider, unrecognised URL, bad board).
    #[error(transparent)]
    Source(#[from] freehire_ingest::IngestError),
    /// A value failed validation.
    #[error(transparent)]
    Invalid(#[from] freehire_domain::DomainError),
    /// A search query the grammar refuses (the message names the parameter).
    #[error(transparent)]
    Query(#[from] freehire_search::SearchError),
    /// The search engine failed.
    #[error(transparent)]
    Search(#[from] freehire_search::IndexError),
    /// The search index could not be opened.
    #[error("opening the search index ({engine})")]
    OpenIndex {
        /// The engine, as configured.
        engine: String,
        /// Why.
        source: Box<AppError>,
    },
    /// The embedded index directory holds no index yet (a reader never creates one).
    #[error("no search index in {}: run freehire-worker to build it, or set FREEHIRE_INDEX_DIR", dir.display())]
    NoIndex {
        /// The configured index directory.
        dir: std::path::PathBuf,
    },
    /// The configuration is inconsistent (named in the message).
    #[error("configuration: {0}")]
    Config(String),
    /// A blocking task (opening the embedded index) panicked or was cancelled.
    #[error("a blocking task failed")]
    Task(#[from] tokio::task::JoinError),
    /// Another worker holds the provider.
    #[error("{0}")]
    Busy(Box<BusyProvider>),
}

/// A provider claim held by another worker, as `--once` reports it: who, since when, and how
/// to proceed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BusyProvider {
    /// The provider asked for.
    pub provider: String,
    /// The live claim's holder (`None` when it finished between the refusal and the look-up).
    pub holder: Option<freehire_store::ClaimHolder>,
    /// How long a claim lives after its holder's last heartbeat.
    pub expiry: chrono::Duration,
}

impl std::fmt::Display for BusyProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "provider {} is being ingested by another worker", self.provider)?;
        if let Some(h) = &self.holder {
            write!(
                f,
                ", {}, since {} (last heartbeat {})",
                h.worker,
                h.since.format("%Y-%m-%dT%H:%M:%SZ"),
                h.heartbeat.format("%Y-%m-%dT%H:%M:%SZ")
            )?;
        }
        write!(
            f,
            "; wait for that run to finish, or, if that worker is gone, its claim expires {} s              after its last heartbeat: run again then, or now with --take-over",
            self.expiry.num_seconds()
        )
    }
}
