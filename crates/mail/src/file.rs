//! [`FileMailer`]: each message becomes an RFC 5322 `.eml` file in a folder, so a newcomer can
//! sign up with no mail server and read the code in the file (any mail client opens it).
//!
//! A file is named `{UTC second}-{sequence}-{subject}.eml`, e.g.
//! `20261201T113000Z-0001-verify-your-email.eml`: the sequence counts within the second (four
//! digits), the subject part is its first words folded to ASCII in lower case (at most 40
//! characters, words with a digit left out: a code never reaches a name or the log), so names
//! sort by the time they were written. A file is written whole or not at all: into a
//! hidden temp file beside it (`.tmp-…`, no `.eml` suffix), flushed to disk, then linked into
//! place without replacing anything; a name another process took meanwhile moves on to the
//! next sequence. The folder is created on each send if missing.
//!
//! A keyed message ([`Message::with_key`]) is written as `{key}.eml` instead, replacing a file
//! of the same key atomically: a resend of one delivery leaves one file.
//!
//! Each written file is logged at `info` with its path; the body is never logged (it holds the
//! code, which is why the file exists).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use lettre::message::Mailbox;

use crate::error::MailError;
use crate::message::{Delivery, Message, build};
use crate::{Mailer, default_from};

/// Most characters the subject part of a file name keeps.
const SLUG_MAX_CHARS: usize = 40;
/// Names tried for one file before giving up (each taken name moves to the next sequence).
const NAME_ATTEMPTS: u32 = 1000;

/// Writes each message as an `.eml` file under a folder.
#[derive(Debug, Clone)]
pub struct FileMailer {
    dir: PathBuf,
    from: Mailbox,
    /// The last second a name was given for, and the last sequence given in it.
    last: Arc<Mutex<(i64, u32)>>,
}

impl FileMailer {
    /// Writes into `dir` (created when missing), as `freehire <noreply@localhost>`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into(), from: default_from(), last: Arc::new(Mutex::new((i64::MIN, 0))) }
    }

    /// The same mailer with another `From` address.
    pub fn with_from(self, from: Mailbox) -> Self {
        Self { from, ..self }
    }

    /// The folder it writes into.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The next sequence number for a name in the second of `now`.
    fn next_sequence(&self, second: i64) -> u32 {
        // A poisoned lock only means another send panicked between two plain assignments.
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        *last = if last.0 == second { (second, last.1 + 1) } else { (second, 1) };
        last.1
    }

    /// Writes `bytes` atomically as `{key}.eml`, replacing an earlier file of that key; runs
    /// on a blocking thread.
    fn write_keyed(&self, key: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        let mut temp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(&self.dir)?;
        temp.write_all(bytes)?;
        temp.as_file().sync_all()?;
        let path = self.dir.join(format!("{key}.eml"));
        temp.persist(&path).map_err(|e| e.error)?;
        Ok(path)
    }

    /// Writes `bytes` atomically under a fresh name; runs on a blocking thread.
    fn write(&self, now: DateTime<Utc>, slug: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        let stamp = now.format("%Y%m%dT%H%M%SZ");
        let mut temp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(&self.dir)?;
        temp.write_all(bytes)?;
        temp.as_file().sync_all()?;
        for _ in 0..NAME_ATTEMPTS {
            let sequence = self.next_sequence(now.timestamp());
            let path = self.dir.join(format!("{stamp}-{sequence:04}-{slug}.eml"));
            match temp.persist_noclobber(&path) {
                Ok(_) => return Ok(path),
                Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => temp = e.file,
                Err(e) => return Err(e.error),
            }
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{NAME_ATTEMPTS} file names for this second are taken"),
        ))
    }
}

#[async_trait]
impl Mailer for FileMailer {
    async fn send(&self, message: &Message) -> Result<Delivery, MailError> {
        let now = SystemTime::now();
        let built = build(&self.from, message, now)?;
        let bytes = built.mail.formatted();
        let slug = slug(&message.subject);
        let mailer = self.clone();
        let key = message.key.clone();
        let written = tokio::task::spawn_blocking(move || match key {
            Some(key) => mailer.write_keyed(&key, &bytes),
            None => mailer.write(DateTime::from(now), &slug, &bytes),
        })
        .await
        .unwrap_or_else(|join| Err(std::io::Error::other(join.to_string())));
        let path = written.map_err(|source| MailError::Write { dir: self.dir.clone(), source })?;
        tracing::info!(path = %path.display(), "mail written to a file");
        Ok(Delivery::File(path))
    }

    fn describe(&self) -> String {
        format!("files in {}", self.dir.display())
    }
}

/// The subject's first words folded to ASCII letters, lower-cased, joined by `-`; `mail` when
/// nothing is left. Words with a digit are left out: a subject may carry a one-time code, and
/// the file name is logged.
fn slug(subject: &str) -> String {
    let mut slug = String::new();
    let folded = deunicode::deunicode(subject);
    let words = folded.split(|c: char| !c.is_ascii_alphanumeric());
    for word in words.filter(|w| !w.is_empty() && !w.bytes().any(|b| b.is_ascii_digit())) {
        let extra = usize::from(!slug.is_empty()) + word.len();
        if slug.len() + extra > SLUG_MAX_CHARS {
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(&word.to_ascii_lowercase());
    }
    if slug.is_empty() { "mail".to_owned() } else { slug }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_keeps_the_first_ascii_words() {
        assert_eq!(slug("Verify your e-mail"), "verify-your-e-mail");
        assert_eq!(slug("  Réinitialiser: 123!"), "reinitialiser");
        assert_eq!(slug("565446 is your code"), "is-your-code", "codes never reach a name");
        assert_eq!(slug("  !? "), "mail");
        let long = slug(&"word ".repeat(20));
        assert!(long.len() <= SLUG_MAX_CHARS, "{long}");
        assert!(long.ends_with("word"), "{long}");
    }

    /// A `tracing` writer into a shared buffer.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("not poisoned").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    // Here rather than in tests/it: tracing caches whether a call site is enabled across
    // threads, so a capture there races the other tests' sends.
    #[test]
    fn the_log_names_the_file_and_never_the_code() {
        let temp = tempfile::tempdir().expect("temp dir");
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber =
            tracing_subscriber::fmt().with_writer(move || writer.clone()).with_ansi(false).finish();
        let to = freehire_domain::Email::parse("ada@example.com").expect("an address");
        let message = Message::new(to, "Verify your email", "Your code is 482913.\n");
        let delivery = tracing::subscriber::with_default(subscriber, || {
            let runtime = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
            runtime.block_on(FileMailer::new(temp.path()).send(&message)).expect("sent")
        });
        let Delivery::File(path) = delivery else { panic!("{delivery:?}") };
        let log =
            String::from_utf8(captured.0.lock().expect("not poisoned").clone()).expect("utf-8");
        assert!(log.contains(&path.display().to_string()), "{log}");
        assert!(!log.contains("482913"), "the code leaked into the log: {log}");
        assert!(std::fs::read_to_string(&path).expect("written").contains("482913"));
    }

    #[test]
    fn the_sequence_counts_within_a_second() {
        let mailer = FileMailer::new("unused");
        assert_eq!(mailer.next_sequence(10), 1);
        assert_eq!(mailer.next_sequence(10), 2);
        assert_eq!(mailer.next_sequence(11), 1);
    }
}
