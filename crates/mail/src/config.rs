//! [`MailConfig`], the settings the app reads for mail, and [`mailer`], the adapter they choose.
//!
//! The app maps its environment onto [`MailConfig::from_settings`]: `FREEHIRE_SMTP_URL` (unset
//! or empty: the file mailer), `FREEHIRE_MAIL_FROM` (default [`DEFAULT_FROM`]),
//! `FREEHIRE_MAIL_DIR` (default [`DEFAULT_DIR`]). This crate reads no environment variable.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use lettre::message::Mailbox;
use secrecy::{ExposeSecret, SecretString};

use crate::error::MailError;
use crate::file::FileMailer;
use crate::message::parse_mailbox;
use crate::smtp::{DEFAULT_TIMEOUT, SmtpMailer};
use crate::{Mailer, default_from};

/// The sender when none is configured.
pub const DEFAULT_FROM: &str = "freehire <noreply@localhost>";
/// The file mailer's folder when none is configured.
pub const DEFAULT_DIR: &str = "./data/mail";

/// Which mailer to build, and its settings.
#[derive(Debug, Clone)]
pub struct MailConfig {
    /// The SMTP server; `None` writes files into [`dir`](Self::dir) instead.
    pub smtp_url: Option<SecretString>,
    /// The `From` of every mail.
    pub from: Mailbox,
    /// The file mailer's folder.
    pub dir: PathBuf,
    /// The bound on one SMTP send.
    pub timeout: Duration,
}

impl MailConfig {
    /// Settings as the app reads them, each `None` when unset: an empty or blank SMTP URL
    /// counts as unset, `from` is parsed (`name <address>` or a bare address).
    pub fn from_settings(
        smtp_url: Option<SecretString>,
        from: Option<&str>,
        dir: Option<PathBuf>,
    ) -> Result<Self, MailError> {
        let smtp_url = smtp_url.filter(|url| !url.expose_secret().trim().is_empty());
        let from = match from {
            Some(from) => parse_mailbox(from)?,
            None => default_from(),
        };
        let dir = dir.unwrap_or_else(|| PathBuf::from(DEFAULT_DIR));
        Ok(Self { smtp_url, from, dir, timeout: DEFAULT_TIMEOUT })
    }
}

/// The mailer `config` asks for: SMTP when it names a server, the file mailer otherwise.
pub fn mailer(config: &MailConfig) -> Result<Arc<dyn Mailer>, MailError> {
    Ok(match &config.smtp_url {
        Some(url) => Arc::new(SmtpMailer::with_timeout(url, config.from.clone(), config.timeout)?),
        None => Arc::new(FileMailer::new(&config.dir).with_from(config.from.clone())),
    })
}
