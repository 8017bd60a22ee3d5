//! The mail crate's error type, and [`Reason`], the cause it keeps.
//!
//! Every variant keeps its cause as a `source` and does not repeat it in its own message, so
//! `{:#}` and `anyhow` chains print each cause once. lettre's errors print their source inside
//! their own message (`network error: Connection refused`, then the same text again as the
//! source), so they are never kept as they are: [`Reason::of`] copies a chain level by level,
//! each level's message without the text of the level below it.
//!
//! No message here holds a URL (an SMTP URL carries the password) or a message body (it holds
//! a code): a server is named by `host:port`, a file by its folder.

use std::error::Error;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Everything sending or configuring mail can fail with.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The SMTP URL is not one the SMTP adapter understands. The URL itself is never shown.
    #[error("invalid SMTP URL: {reason}")]
    BadUrl {
        /// What is wrong with it.
        reason: String,
        /// The parser's error, when there is one.
        #[source]
        source: Option<Reason>,
    },
    /// An address (the configured sender, a recipient) is not one a mail header can carry.
    #[error("invalid mail address {value:?}")]
    BadAddress {
        /// The address as given.
        value: String,
        /// Why it was refused.
        #[source]
        source: Reason,
    },
    /// The message could not be put together (a header lettre refuses).
    #[error("cannot build the mail message")]
    Build(#[source] Reason),
    /// The file adapter could not write the message into its folder.
    #[error("cannot write a mail file in {dir}")]
    Write {
        /// The folder it writes into.
        dir: PathBuf,
        /// The IO error.
        #[source]
        source: std::io::Error,
    },
    /// The mail server could not be reached, or the connection failed before it answered the
    /// message (refused, reset, DNS, TLS, a reply that is not SMTP): try again later.
    #[error("mail server {server} is unavailable")]
    Unavailable {
        /// `host:port`.
        server: String,
        /// What failed.
        #[source]
        source: Reason,
    },
    /// The server refused the message for good (an SMTP 5xx reply): sending it again fails
    /// again.
    #[error("mail server {server} rejected the message (SMTP status {code})")]
    Rejected {
        /// `host:port`.
        server: String,
        /// The reply code, `500`–`599`.
        code: u16,
        /// The server's reply text.
        #[source]
        source: Reason,
    },
    /// The server refused the message for now (an SMTP 4xx reply: greylisting, a full
    /// mailbox, a rate limit): sending it later may work.
    #[error("mail server {server} deferred the message (SMTP status {code})")]
    Deferred {
        /// `host:port`.
        server: String,
        /// The reply code, `400`–`499`.
        code: u16,
        /// The server's reply text.
        #[source]
        source: Reason,
    },
    /// The whole send took longer than the adapter's timeout.
    #[error("mail server {server} did not finish within {after:?}")]
    Timeout {
        /// `host:port`.
        server: String,
        /// The timeout.
        after: Duration,
    },
}

impl MailError {
    /// Whether sending the same message later may succeed (the server was unreachable, slow,
    /// or deferred it); a bad address, a refusal or a configuration error is not transient.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Unavailable { .. } | Self::Deferred { .. } | Self::Timeout { .. })
    }

    pub(crate) fn bad_url(reason: impl Into<String>) -> Self {
        Self::BadUrl { reason: reason.into(), source: None }
    }
}

/// A lower error kept as a source: one level's message and the level below it, copied from an
/// error chain so that each level prints only its own text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    message: String,
    source: Option<Box<Reason>>,
}

impl Reason {
    /// Copies `error` and its sources. A level whose message ends with `": "` and its source's
    /// message (lettre's wrappers) keeps only the part before; a level that then says what the
    /// level below says (lettre wraps its own errors) is left out.
    pub fn of(error: &(dyn Error + 'static)) -> Self {
        let mut message = error.to_string();
        let Some(below) = error.source() else { return Self { message, source: None } };
        if let Some(own) = message.strip_suffix(&format!(": {below}")) {
            message = own.to_owned();
        }
        let below = Self::of(below);
        if below.message == message {
            return below;
        }
        Self { message, source: Some(Box::new(below)) }
    }

    /// A cause that is only a message.
    pub fn text(message: impl Into<String>) -> Self {
        Self { message: message.into(), source: None }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Error for Reason {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|r| r as &(dyn Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Wrapper(std::io::Error);

    impl fmt::Display for Wrapper {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "network error: {}", self.0)
        }
    }

    impl Error for Wrapper {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_reason_prints_each_level_once() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let reason = Reason::of(&Wrapper(io));
        assert_eq!(reason.to_string(), "network error");
        assert_eq!(reason.source().map(|s| s.to_string()).as_deref(), Some("refused"));
        assert!(reason.source().and_then(Error::source).is_none());
    }

    #[test]
    fn a_wrapper_saying_what_it_wraps_is_left_out() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let reason = Reason::of(&Wrapper(std::io::Error::other(Wrapper(io))));
        assert_eq!(reason.to_string(), "network error");
        assert_eq!(reason.source().map(|s| s.to_string()).as_deref(), Some("refused"));
    }

    #[test]
    fn a_level_that_does_not_repeat_its_source_is_kept_whole() {
        let reason = Reason::of(&std::io::Error::other("disk full"));
        assert_eq!(reason, Reason::text("disk full"));
    }
}
