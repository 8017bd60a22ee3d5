//! [`AccountsArgs`]: the accounts' settings as command-line flags and `FREEHIRE_` variables,
//! and the start-up assembly of the [`Accounts`] service from them.
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `FREEHIRE_SESSION_SECRET` | generated into the SQLite data folder (`session.key`) | signs sessions (≥ 32 bytes); required with PostgreSQL |
//! | `FREEHIRE_SESSION_TTL_MINUTES` | `1440` | session lifetime |
//! | `FREEHIRE_COOKIE_SECURE` | `false` | send the cookie with `Secure` (behind HTTPS) |
//! | `FREEHIRE_SMTP_URL` | unset: write `.eml` files | `smtp://user:pass@host:587` (STARTTLS) or `smtps://…:465` |
//! | `FREEHIRE_MAIL_FROM` | `freehire <noreply@localhost>` | the sender |
//! | `FREEHIRE_MAIL_DIR` | `./data/mail` | where the file mailer writes |

use std::path::PathBuf;
use std::sync::Arc;

use chrono::Duration;
use freehire_store::{DatabaseUrl, SqliteLocation, Store};
use secrecy::SecretString;

use super::{AccountError, Accounts, AccountsConfig, PasswordHasher, SessionSecret};

/// The accounts' settings.
#[derive(Debug, Clone, clap::Args)]
pub struct AccountsArgs {
    /// Signs session cookies and keys the hashes of mailed codes: at least 32 bytes. Unset on
    /// SQLite: generated into the database's folder on first start (`session.key`) and kept.
    /// Required with PostgreSQL.
    #[arg(long, env = "FREEHIRE_SESSION_SECRET", hide_env_values = true)]
    pub session_secret: Option<SecretString>,

    /// Minutes a session lasts.
    #[arg(long, env = "FREEHIRE_SESSION_TTL_MINUTES", default_value_t = 1440, value_parser = clap::value_parser!(u32).range(1..=525_600))]
    pub session_ttl_minutes: u32,

    /// Sends the session cookie with `Secure` (set it when serving over HTTPS).
    #[arg(long, env = "FREEHIRE_COOKIE_SECURE", default_value_t = false, action = clap::ArgAction::Set)]
    pub cookie_secure: bool,

    /// The SMTP server mail goes through (`smtp://user:pass@host:587`, STARTTLS; `smtps://`
    /// for implicit TLS). Unset: each message is written as an `.eml` file under the mail
    /// folder instead.
    #[arg(long, env = "FREEHIRE_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<SecretString>,

    /// The sender of every mail (`name <address>` or an address).
    #[arg(long, env = "FREEHIRE_MAIL_FROM")]
    pub mail_from: Option<String>,

    /// Where mail is written when no SMTP server is configured.
    #[arg(long, env = "FREEHIRE_MAIL_DIR")]
    pub mail_dir: Option<PathBuf>,
}

impl Default for AccountsArgs {
    fn default() -> Self {
        Self {
            session_secret: None,
            session_ttl_minutes: 1440,
            cookie_secure: false,
            smtp_url: None,
            mail_from: None,
            mail_dir: None,
        }
    }
}

impl AccountsArgs {
    /// The session secret: configured, else on SQLite the one kept beside the database file.
    pub fn secret(&self, database: &DatabaseUrl) -> Result<SessionSecret, AccountError> {
        if let Some(secret) = &self.session_secret {
            return SessionSecret::new(secret.clone());
        }
        match database {
            DatabaseUrl::Sqlite(SqliteLocation::File(file)) => {
                let dir = file.parent().map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
                SessionSecret::load_or_generate(&dir)
            }
            DatabaseUrl::Sqlite(_) => Ok(SessionSecret::random()),
            DatabaseUrl::Postgres(_) => Err(AccountError::Config(
                "FREEHIRE_SESSION_SECRET is required with PostgreSQL (every API process must \
                 share it): set it to at least 32 random bytes"
                    .to_owned(),
            )),
        }
    }

    /// The mailer these settings choose.
    pub fn mailer(&self) -> Result<Arc<dyn freehire_mail::Mailer>, AccountError> {
        let config = freehire_mail::MailConfig::from_settings(
            self.smtp_url.clone(),
            self.mail_from.as_deref(),
            self.mail_dir.clone(),
        )
        .map_err(|e| AccountError::Config(freehire_ingest::error_chain(&e)))?;
        freehire_mail::mailer(&config)
            .map_err(|e| AccountError::Config(freehire_ingest::error_chain(&e)))
    }

    /// The accounts service over `store`.
    pub fn accounts(
        &self,
        store: Arc<dyn Store>,
        database: &DatabaseUrl,
    ) -> Result<Accounts, AccountError> {
        let config = AccountsConfig {
            secret: self.secret(database)?,
            session_ttl: Duration::minutes(i64::from(self.session_ttl_minutes)),
        };
        Ok(Accounts::new(store, self.mailer()?, &config, PasswordHasher::owasp()))
    }
}
