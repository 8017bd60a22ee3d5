//! The crate's error type.

/// What an application service can fail with.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
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
    /// The configuration is inconsistent (named in the message).
    #[error("configuration: {0}")]
    Config(String),
    /// Another worker holds the provider.
    #[error("provider {0} is being ingested by another worker")]
    Busy(String),
}
