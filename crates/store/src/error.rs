//! The store's error type.

/// Everything a store operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL is not one this store understands.
    #[error("invalid database URL {url:?}: {reason}")]
    BadUrl {
        /// The URL with any password removed.
        url: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A value handed to the store failed validation; nothing was written.
    #[error(transparent)]
    Invalid(#[from] freehire_domain::DomainError),
    /// A stored value no longer parses (a vocabulary value outside the enum, a bad timestamp).
    #[error("corrupt stored value in {column}: {detail}")]
    Corrupt {
        /// The column.
        column: &'static str,
        /// What failed.
        detail: String,
    },
    /// Applying migrations failed.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The database reported an error.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Creating the SQLite file's folder failed.
    #[error("cannot create data directory {path}: {source}")]
    DataDir {
        /// The folder.
        path: String,
        /// The IO error.
        source: std::io::Error,
    },
}

impl StoreError {
    pub(crate) fn corrupt(column: &'static str, detail: impl std::fmt::Display) -> Self {
        Self::Corrupt { column, detail: detail.to_string() }
    }
}

/// Shorthand for store results.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;
