//! The one error type of the ingest crate, and [`error_chain`]: the text of an error with its
//! causes, as board health and run status record it.
//!
//! Variants keep their cause as a `#[source]` and do not print it in their own message, so
//! `{:#}` / anyhow chains do not repeat it; whoever stores an error as text records
//! [`error_chain`], not `to_string()`.

use std::error::Error;

use freehire_domain::{DomainError, FailureClass};

use crate::http::Unresolved;

/// A cause of any type: decoders (JSON, XML, UTF-8), IO and URL parsing.
pub type BoxedCause = Box<dyn Error + Send + Sync + 'static>;

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
    #[error("{url}: network error")]
    Network {
        /// The upstream URL.
        url: String,
        /// The client's error.
        #[source]
        source: reqwest::Error,
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
    #[error("{url}: cannot decode {format}")]
    Decode {
        /// The upstream URL.
        url: String,
        /// `JSON` or `XML`.
        format: &'static str,
        /// The decoder's error.
        #[source]
        source: BoxedCause,
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
    #[error("invalid configuration: {what}")]
    Config {
        /// What is invalid (`replay URL "…"`, `bad host "…"`).
        what: String,
        /// The cause, when another error proved it.
        #[source]
        source: Option<BoxedCause>,
    },
    /// A domain value failed to parse.
    #[error(transparent)]
    Domain(#[from] DomainError),
}

impl IngestError {
    /// A [`IngestError::Config`] caused by `source`.
    pub(crate) fn config(what: impl Into<String>, source: impl Into<BoxedCause>) -> Self {
        Self::Config { what: what.into(), source: Some(source.into()) }
    }

    /// A [`IngestError::Config`] with no underlying error.
    pub(crate) fn config_only(what: impl Into<String>) -> Self {
        Self::Config { what: what.into(), source: None }
    }

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

    /// What kind of failure this is, for board health: the network's (DNS, connect, TLS,
    /// timeout, a broken answer, read from the client error's causes), the platform's
    /// (status, gone, block page, parse, too large, incomplete) or ours (refused target,
    /// invalid board).
    pub fn class(&self) -> FailureClass {
        match self {
            Self::Status { .. } => FailureClass::HttpStatus,
            Self::BoardGone { .. } => FailureClass::Gone,
            Self::Network { source, .. } => network_class(source),
            Self::BodyTooLarge { .. } => FailureClass::TooLarge,
            Self::Refused { .. } => FailureClass::Refused,
            Self::BlockPage { .. } => FailureClass::BlockPage,
            Self::Decode { .. } | Self::Domain(_) => FailureClass::Parse,
            Self::Incomplete { .. } => FailureClass::Incomplete,
            Self::InvalidBoard { .. } | Self::UnknownProvider(_) | Self::Unrecognised { .. } => {
                FailureClass::InvalidBoard
            }
            Self::Csv { .. } | Self::Config { .. } => FailureClass::Other,
        }
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

/// The class of a client error, from its causes: our resolver's [`Unresolved`] (or the
/// default resolver's `dns error`) is DNS, a rustls error is TLS, the client's timeout is a
/// timeout, an error while connecting is a connect failure, anything after is the network's.
fn network_class(err: &reqwest::Error) -> FailureClass {
    if err.is_timeout() {
        return FailureClass::Timeout;
    }
    let mut cause: Option<&(dyn Error + 'static)> = Some(err);
    while let Some(e) = cause {
        if e.is::<Unresolved>() || e.to_string() == "dns error" {
            return FailureClass::Dns;
        }
        if e.is::<rustls::Error>() {
            return FailureClass::Tls;
        }
        // An IO error's `source` skips its own inner error: walk the inner errors by hand
        // (rustls reports through IO errors wrapped in IO errors).
        let mut io = e.downcast_ref::<std::io::Error>();
        while let Some(err) = io {
            if err.kind() == std::io::ErrorKind::TimedOut {
                return FailureClass::Timeout;
            }
            let inner = err.get_ref();
            if inner.is_some_and(|inner| inner.is::<rustls::Error>()) {
                return FailureClass::Tls;
            }
            io = inner.and_then(|inner| inner.downcast_ref::<std::io::Error>());
        }
        cause = e.source();
    }
    if err.is_connect() { FailureClass::Connect } else { FailureClass::Network }
}

/// `err` and every source under it, joined with `": "`: the text board health, run status and
/// unreadable postings record. A source whose text already ends the line (an error that
/// still prints its cause, like `quick_xml`'s) is not repeated.
pub fn error_chain(err: &dyn Error) -> String {
    let mut out = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        let text = e.to_string();
        if !out.ends_with(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = e.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_names_every_cause_once() {
        let io = std::io::Error::other("disk on fire");
        let err = IngestError::config("replay file x.json", io);
        assert_eq!(err.to_string(), "invalid configuration: replay file x.json");
        assert_eq!(error_chain(&err), "invalid configuration: replay file x.json: disk on fire");

        let xml = quick_xml::de::from_str::<u32>("<a>").unwrap_err();
        let err = IngestError::Decode { url: "u".into(), format: "XML", source: Box::new(xml) };
        let text = error_chain(&err);
        let cause = err.source().map(ToString::to_string).unwrap_or_default();
        assert_eq!(text, format!("u: cannot decode XML: {cause}"));
    }
}
