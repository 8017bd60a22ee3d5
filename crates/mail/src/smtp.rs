//! [`SmtpMailer`]: sends through an SMTP server with lettre's async transport on tokio, TLS by
//! rustls (the aws-lc-rs provider and the platform's certificate verifier, as reqwest and sqlx
//! use).
//!
//! The URL is lettre's: `scheme://user:password@host:port/ehlo-name?tls=…`, user and password
//! percent-encoded (`%40` for `@`), both optional together:
//!
//! | URL | connection | default port |
//! |---|---|---|
//! | `smtps://host` | TLS from the first byte | 465 |
//! | `smtp://host?tls=required` | STARTTLS, refusing to go on in clear | 587 |
//! | `smtp://host?tls=opportunistic` | STARTTLS when the server offers it, else clear | 587 |
//! | `smtp://host` | clear text (a local relay only) | 25 |
//!
//! Authentication is AUTH PLAIN, else LOGIN, whichever the server offers first. One connection
//! per message (no pool: a code mail is rare, and an idle pooled connection goes stale).
//!
//! The whole send (connect, TLS, EHLO, AUTH, MAIL, RCPT, DATA) is bounded by one timeout,
//! [`DEFAULT_TIMEOUT`] unless [`SmtpMailer::with_timeout`] says otherwise; lettre's own
//! command timeout is set to the same value. Errors name the server as `host:port`, never the
//! URL: a `5xx` is [`MailError::Rejected`], a `4xx` [`MailError::Deferred`], anything before
//! the server's answer [`MailError::Unavailable`], a send past the timeout
//! [`MailError::Timeout`].

use std::fmt;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use secrecy::{ExposeSecret, SecretString};
use url::Url;

use crate::Mailer;
use crate::error::{MailError, Reason};
use crate::message::{Delivery, Message, build};

/// The bound on one whole send unless the mailer is given another.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How the connection to the server is protected, as the URL chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// `smtps://`: TLS from the first byte.
    Tls,
    /// `?tls=required`: STARTTLS, or no mail.
    StartTls,
    /// `?tls=opportunistic`: STARTTLS when offered.
    Opportunistic,
    /// Plain `smtp://`: no TLS.
    None,
}

impl Security {
    /// The port lettre connects to when the URL names none.
    fn default_port(self) -> u16 {
        match self {
            Self::Tls => 465,
            Self::StartTls | Self::Opportunistic => 587,
            Self::None => 25,
        }
    }
}

impl fmt::Display for Security {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Tls => "TLS",
            Self::StartTls => "STARTTLS required",
            Self::Opportunistic => "STARTTLS when offered",
            Self::None => "no TLS",
        })
    }
}

/// Sends each message through one SMTP server.
#[derive(Clone)]
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// `host:port`, for messages and logs.
    server: String,
    security: Security,
    authenticated: bool,
    timeout: Duration,
}

impl fmt::Debug for SmtpMailer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpMailer")
            .field("server", &self.server)
            .field("security", &self.security)
            .field("authenticated", &self.authenticated)
            .field("from", &self.from.to_string())
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl SmtpMailer {
    /// A mailer for the server `url` names, sending as `from`, each send bounded by
    /// [`DEFAULT_TIMEOUT`].
    pub fn from_url(url: &SecretString, from: Mailbox) -> Result<Self, MailError> {
        Self::with_timeout(url, from, DEFAULT_TIMEOUT)
    }

    /// The same with each send bounded by `timeout`.
    pub fn with_timeout(
        url: &SecretString,
        from: Mailbox,
        timeout: Duration,
    ) -> Result<Self, MailError> {
        let raw = url.expose_secret();
        let parsed = Url::parse(raw).map_err(|e| MailError::BadUrl {
            reason: "not a URL".to_owned(),
            source: Some(Reason::of(&e)),
        })?;
        let security = security(&parsed)?;
        let host = parsed.host_str().filter(|h| !h.is_empty());
        let host = host.ok_or_else(|| MailError::bad_url("it names no host"))?;
        if !parsed.username().is_empty() && parsed.password().is_none() {
            return Err(MailError::bad_url("a user needs a password (smtp://user:password@host)"));
        }
        let server = format!("{host}:{}", parsed.port().unwrap_or(security.default_port()));
        let builder =
            AsyncSmtpTransport::<Tokio1Executor>::from_url(raw).map_err(|e| MailError::BadUrl {
                reason: "the SMTP client refused it".to_owned(),
                source: Some(Reason::of(&e)),
            })?;
        let transport = builder.timeout(Some(timeout)).build();
        let authenticated = parsed.password().is_some();
        Ok(Self { transport, from, server, security, authenticated, timeout })
    }

    /// `host:port` of the server.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// How the connection is protected.
    pub fn security(&self) -> Security {
        self.security
    }

    /// The bound on one send.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sorts lettre's error into ours.
    fn error(&self, error: &lettre::transport::smtp::Error) -> MailError {
        let server = self.server.clone();
        // A refusal's source is the server's reply text.
        let reply =
            || std::error::Error::source(error).map_or_else(|| Reason::of(error), Reason::of);
        match error.status().map(u16::from) {
            Some(code) if error.is_permanent() => {
                MailError::Rejected { server, code, source: reply() }
            }
            Some(code) if error.is_transient() => {
                MailError::Deferred { server, code, source: reply() }
            }
            _ if error.is_timeout() => MailError::Timeout { server, after: self.timeout },
            _ => MailError::Unavailable { server, source: Reason::of(error) },
        }
    }
}

/// The connection's protection the URL asks for.
fn security(url: &Url) -> Result<Security, MailError> {
    let tls = url.query_pairs().find(|(key, _)| key == "tls").map(|(_, value)| value);
    match (url.scheme(), tls.as_deref()) {
        ("smtps", None) => Ok(Security::Tls),
        ("smtp", Some("required")) => Ok(Security::StartTls),
        ("smtp", Some("opportunistic")) => Ok(Security::Opportunistic),
        ("smtp", None) => Ok(Security::None),
        ("smtps", Some(_)) => Err(MailError::bad_url("smtps:// is TLS already: drop ?tls=")),
        ("smtp", Some(other)) => {
            Err(MailError::bad_url(format!("tls={other:?} is not one of required, opportunistic")))
        }
        (scheme, _) => {
            Err(MailError::bad_url(format!("scheme {scheme:?} is not one of smtp, smtps")))
        }
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, message: &Message) -> Result<Delivery, MailError> {
        let built = build(&self.from, message, SystemTime::now())?;
        let sent = tokio::time::timeout(self.timeout, self.transport.send(built.mail)).await;
        let server = &self.server;
        match sent {
            Err(_elapsed) => {
                Err(MailError::Timeout { server: server.clone(), after: self.timeout })
            }
            Ok(Err(e)) => Err(self.error(&e)),
            Ok(Ok(_reply)) => {
                tracing::info!(%server, message_id = %built.message_id, "mail accepted by the SMTP server");
                Ok(Delivery::Smtp { message_id: built.message_id })
            }
        }
    }

    fn describe(&self) -> String {
        let auth = if self.authenticated { ", authenticated" } else { "" };
        format!("SMTP server {} ({}{auth})", self.server, self.security)
    }
}
