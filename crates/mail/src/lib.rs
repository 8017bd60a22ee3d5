//! # freehire-mail
//!
//! Outbound mail (email verification and password-reset codes): the [`Mailer`] port and its
//! two adapters.
//!
//! - [`FileMailer`]: each [`Message`] becomes an RFC 5322 `.eml` file in a folder
//!   (`./data/mail` by default), so a newcomer can sign up with no mail server;
//! - [`SmtpMailer`]: lettre's async SMTP transport on tokio with rustls (`smtps://`,
//!   `smtp://…?tls=required|opportunistic`, credentials in the URL), one timeout per send.
//!
//! [`MailConfig`] holds the settings the app reads and [`mailer`] builds the adapter they
//! choose, as an `Arc<dyn Mailer>`. Both adapters build the mail with the same code, so a file
//! holds exactly what the server would receive.
//!
//! Invariants kept here:
//! - a message body is never logged nor put in an error (it holds a code); `Message`'s `Debug`
//!   shows its length only; the SMTP URL (it holds the password) is never shown either: a
//!   server is named `host:port`;
//! - a send that returns `Ok` was written whole to its file, or accepted by the server;
//! - errors keep their causes as sources and do not repeat them ([`MailError`]).
//!
//! It depends on no freehire crate but `freehire-domain` (for [`Email`](freehire_domain::Email)).

mod config;
mod error;
mod file;
mod message;
mod smtp;

use async_trait::async_trait;

pub use config::{DEFAULT_DIR, DEFAULT_FROM, MailConfig, mailer};
pub use error::{MailError, Reason};
pub use file::FileMailer;
pub use lettre::message::Mailbox;
pub use message::{Delivery, Message, parse_mailbox};
pub use smtp::{DEFAULT_TIMEOUT, Security, SmtpMailer};

/// Sends a [`Message`].
#[async_trait]
pub trait Mailer: Send + Sync {
    /// Sends one message, and says where it went.
    async fn send(&self, message: &Message) -> Result<Delivery, MailError>;

    /// What this mailer is, for the start-up log: the folder, or the SMTP server (never its
    /// credentials).
    fn describe(&self) -> String;
}

/// [`DEFAULT_FROM`] as a mailbox.
pub(crate) fn default_from() -> Mailbox {
    let address = lettre::Address::new_dangerous("noreply", "localhost");
    Mailbox::new(Some("freehire".to_owned()), address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_sender_is_the_documented_one() {
        assert_eq!(default_from(), parse_mailbox(DEFAULT_FROM).expect("parses"));
    }
}
