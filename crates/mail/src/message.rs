//! What a caller sends ([`Message`]), what came of it ([`Delivery`]), and the one place both
//! adapters turn a message into an RFC 5322 mail with lettre's builder, so the file and the
//! SMTP server receive the same headers.
//!
//! Every mail carries `From`, `To`, `Subject`, `Date`, `Message-ID` (`<uuid@sender's domain>`,
//! or `<key@sender's domain>` for a keyed message),
//! `MIME-Version` and a `text/plain` body, or `multipart/alternative` with an HTML part when
//! one is given. lettre picks the transfer encoding (7bit, quoted-printable or base64) and
//! encodes non-ASCII headers; a subject's line breaks never start a new header.

use std::fmt;
use std::path::PathBuf;
use std::time::SystemTime;

use freehire_domain::Email;
use lettre::message::header::{ContentType, MIME_VERSION_1_0};
use lettre::message::{Mailbox, MultiPart, SinglePart};

use crate::error::{MailError, Reason};

/// One mail to one recipient: a subject and a plain-text body, optionally with an HTML
/// alternative. `Debug` shows the body's length, never the body (it holds a code).
#[derive(Clone, PartialEq, Eq)]
pub struct Message {
    /// The recipient.
    pub to: Email,
    /// The subject line.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// An HTML alternative of the same content.
    pub html: Option<String>,
    /// A stable key of this message (e.g. `delivery-42`): its `Message-ID` is derived from it,
    /// so a resend after a crash is recognisable, and the file mailer writes one file per key
    /// (a resend replaces it). Only ASCII letters, digits, `-`, `_` and `.` are kept.
    pub key: Option<String>,
}

impl Message {
    /// A plain-text message.
    pub fn new(to: Email, subject: impl Into<String>, text: impl Into<String>) -> Self {
        Self { to, subject: subject.into(), text: text.into(), html: None, key: None }
    }

    /// The same message with a stable key (see [`Message::key`]).
    pub fn with_key(self, key: &str) -> Self {
        let key: String = key
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .collect();
        Self { key: (!key.is_empty()).then_some(key), ..self }
    }

    /// The same message with an HTML alternative.
    pub fn with_html(self, html: impl Into<String>) -> Self {
        Self { html: Some(html.into()), ..self }
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Message")
            .field("to", &self.to)
            .field("subject", &self.subject)
            .field("text", &format_args!("<{} bytes>", self.text.len()))
            .field("html", &self.html.as_ref().map(|h| format!("<{} bytes>", h.len())))
            .field("key", &self.key)
            .finish()
    }
}

/// What a [`Mailer`](crate::Mailer) did with a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// Written to this `.eml` file.
    File(PathBuf),
    /// Accepted by the SMTP server (its `250` to the end of `DATA`).
    Smtp {
        /// The `Message-ID` header the mail carries, with its angle brackets.
        message_id: String,
    },
}

/// The built mail and its `Message-ID`.
pub(crate) struct Built {
    pub mail: lettre::Message,
    pub message_id: String,
}

/// Builds the mail `from` sends for `message`, dated `date`.
pub(crate) fn build(
    from: &Mailbox,
    message: &Message,
    date: SystemTime,
) -> Result<Built, MailError> {
    let to: lettre::Address = message.to.as_str().parse().map_err(|e| MailError::BadAddress {
        value: message.to.to_string(),
        source: Reason::of(&e),
    })?;
    let message_id = match &message.key {
        Some(key) => format!("<{key}@{}>", from.email.domain()),
        None => format!("<{}@{}>", uuid::Uuid::new_v4().simple(), from.email.domain()),
    };
    let builder = lettre::Message::builder()
        .from(from.clone())
        .to(Mailbox::new(None, to))
        .subject(&message.subject)
        .date(date)
        .message_id(Some(message_id.clone()));
    let mail = match &message.html {
        // `body` rather than `singlepart`: a single part would end the body with one more CRLF.
        None => builder
            .header(MIME_VERSION_1_0)
            .header(ContentType::TEXT_PLAIN)
            .body(message.text.clone()),
        Some(html) => builder.multipart(
            MultiPart::alternative()
                .singlepart(SinglePart::plain(message.text.clone()))
                .singlepart(SinglePart::html(html.clone())),
        ),
    };
    let mail = mail.map_err(|e| MailError::Build(Reason::of(&e)))?;
    Ok(Built { mail, message_id })
}

/// Parses a sender such as `freehire <noreply@example.com>` or `noreply@example.com`.
pub fn parse_mailbox(value: &str) -> Result<Mailbox, MailError> {
    value
        .trim()
        .parse()
        .map_err(|e| MailError::BadAddress { value: value.to_owned(), source: Reason::of(&e) })
}
