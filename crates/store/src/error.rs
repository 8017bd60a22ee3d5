//! The store's error type. Every variant keeps its cause as a `source` and does not repeat it
//! in its own message, so `{:#}` and `anyhow` chains print each cause once.

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
    /// A stored value no longer parses (a vocabulary value outside the enum, a bad timestamp),
    /// or a value could not be encoded for a statement.
    #[error("corrupt stored value in {column}")]
    Corrupt {
        /// The column.
        column: &'static str,
        /// What failed.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Applying migrations failed.
    #[error("migration failed")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The database reported an error.
    #[error("database error")]
    Database(#[from] sqlx::Error),
    /// Creating the SQLite file's folder failed.
    #[error("cannot create data directory {path}")]
    DataDir {
        /// The folder.
        path: String,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
}

impl StoreError {
    pub(crate) fn corrupt(
        column: &'static str,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Self::Corrupt { column, source: source.into() }
    }
}

/// Shorthand for store results.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;
