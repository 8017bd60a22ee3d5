//! The one error type of the ingest crate.

use freehire_domain::DomainError;

/// Everything that can go wrong while fetching a board, recognising a URL or reading an import
/// file. [`IngestError::is_transient`] tells the retry layer which failures are worth another try.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// A non-2xx answer (after retries).
    #[error("{method} {url}: HTTP {status}")]
    Status {
        /// `GET` or `POST`.
        method: &'static str,
        /// The upstream URL (never the replay origin).
        url: String,
        /// The status code.
        status: u16,
    },
    /// The platform says the board does not exist (404/410 on the listing, or BambooHR's
    /// redirect away from `/careers`). Never retires a board by itself.
    #[error("board {board} is gone: {reason}")]
    BoardGone {
        /// The board key.
        board: String,
        /// What proved it.
        reason: String,
    },
    /// Connection, TLS or timeout failure, or a body cut short.
    #[error("{url}: network error: {message}")]
    Network {
        /// The upstream URL.
        url: String,
        /// The underlying error, flattened.
        message: String,
    },
    /// The body exceeded the configured cap. Not transient.
    #[error("{url}: response body exceeds {limit} bytes")]
    BodyTooLarge {
        /// The upstream URL.
        url: String,
        /// The cap, in bytes.
        limit: usize,
    },
    /// The SSRF guard refused the target.
    #[error("{url}: refused target: {reason}")]
    Refused {
        /// The URL that was refused.
        url: String,
        /// Why.
        reason: String,
    },
    /// A 200 that carries an HTML page where JSON or XML was expected (a block or login page).
    #[error("{url}: expected {expected}, got an HTML page")]
    BlockPage {
        /// The upstream URL.
        url: String,
        /// `JSON` or `XML`.
        expected: &'static str,
    },
    /// The body could not be decoded into the expected shape.
    #[error("{url}: cannot decode {format}: {message}")]
    Decode {
        /// The upstream URL.
        url: String,
        /// `JSON` or `XML`.
        format: &'static str,
        /// The decoder's message.
        message: String,
    },
    /// A full-listing walk could not prove it saw the whole board (a safety cap or a cap the
    /// platform imposes that splitting could not get under).
    #[error("board {board}: listing is incomplete: {reason}")]
    Incomplete {
        /// The board key.
        board: String,
        /// Why.
        reason: String,
    },
    /// The board value does not have the shape this provider needs.
    #[error("invalid {provider} board {board:?}: {reason}")]
    InvalidBoard {
        /// The provider.
        provider: String,
        /// The board value.
        board: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No adapter is registered under this provider.
    #[error("unknown provider {0:?}")]
    UnknownProvider(String),
    /// A URL that is not a recognised board URL. Never guessed.
    #[error("unrecognised board URL {url:?}: {reason}")]
    Unrecognised {
        /// The URL as given.
        url: String,
        /// Why it was not recognised.
        reason: String,
    },
    /// A bad row in a board import file.
    #[error("line {line}, column {column}: {message}")]
    Csv {
        /// 1-based line number.
        line: u64,
        /// The column name (or `-` when the row itself is malformed).
        column: String,
        /// What is wrong.
        message: String,
    },
    /// An invalid client or replay configuration.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// A domain value failed to parse.
    #[error(transparent)]
    Domain(#[from] DomainError),
}

impl IngestError {
    /// Whether a retry may help: network failures, 5xx and 429.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Network { .. } => true,
            Self::Status { status, .. } => *status == 429 || *status >= 500,
            _ => false,
        }
    }

    /// Whether this is a 403 or 429: the answer the rate-limit backoff retries.
    pub fn is_rate_limited(&self) -> bool {
        matches!(self, Self::Status { status: 403 | 429, .. })
    }

    /// The HTTP status of a [`IngestError::Status`].
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Whether the target says the resource does not exist (404 or 410).
    pub fn is_not_found(&self) -> bool {
        matches!(self.status(), Some(404 | 410))
    }

    /// Turns a 404/410 on a board's listing into [`IngestError::BoardGone`]; other errors pass.
    pub fn board_gone_on_404(self, board: &str) -> Self {
        if self.is_not_found() {
            let reason = self.to_string();
            Self::BoardGone { board: board.to_owned(), reason }
        } else {
            self
        }
    }
}
