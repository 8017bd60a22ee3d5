//! The session secret: `FREEHIRE_SESSION_SECRET` (at least 32 bytes), or on the embedded
//! default a random one generated into the data directory on first start
//! (`session.key`, mode 0600) and read back on every later start, so sessions survive a
//! restart. A PostgreSQL deployment must configure it: processes on several machines must
//! share it.

use std::path::{Path, PathBuf};

use rand::RngCore;
use secrecy::{ExposeSecret, SecretString};

use super::AccountError;

/// Fewest bytes in a session secret (reference §15.4).
pub const SESSION_SECRET_MIN_BYTES: usize = 32;

/// The file the embedded default keeps its generated secret in, inside the data directory.
pub const SESSION_KEY_FILE: &str = "session.key";

/// A checked session secret.
#[derive(Clone)]
pub struct SessionSecret(SecretString);

impl std::fmt::Debug for SessionSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionSecret(***)")
    }
}

impl SessionSecret {
    /// Checks a configured secret's length.
    pub fn new(secret: SecretString) -> Result<Self, AccountError> {
        let len = secret.expose_secret().len();
        if len < SESSION_SECRET_MIN_BYTES {
            return Err(AccountError::Config(format!(
                "FREEHIRE_SESSION_SECRET must be at least {SESSION_SECRET_MIN_BYTES} bytes (it has {len})"
            )));
        }
        Ok(Self(secret))
    }

    /// The secret in `dir/session.key`, generated there first if the file does not exist
    /// (two processes starting at once agree: the file is created exclusively, and the loser
    /// reads the winner's).
    pub fn load_or_generate(dir: &Path) -> Result<Self, AccountError> {
        let path = dir.join(SESSION_KEY_FILE);
        let io = |e: std::io::Error, what: &str| {
            AccountError::Config(format!(
                "cannot {what} the session secret {}: {e}",
                path.display()
            ))
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => return Self::new(SecretString::from(text.trim().to_owned())),
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(e, "read")),
            Err(_) => {}
        }
        std::fs::create_dir_all(dir).map_err(|e| io(e, "create the folder of"))?;
        let mut bytes = [0u8; 48];
        rand::rng().fill_bytes(&mut bytes);
        let secret = data_encoding::BASE64URL_NOPAD.encode(&bytes);
        match write_new(&path, &secret) {
            Ok(()) => {
                tracing::info!(path = %path.display(), "generated a session secret");
                Self::new(SecretString::from(secret))
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let text = std::fs::read_to_string(&path).map_err(|e| io(e, "read"))?;
                Self::new(SecretString::from(text.trim().to_owned()))
            }
            Err(e) => Err(io(e, "write")),
        }
    }

    /// A random secret for this process only (an in-memory database: nothing to keep it in;
    /// sessions end with the process).
    pub fn random() -> Self {
        let mut bytes = [0u8; 48];
        rand::rng().fill_bytes(&mut bytes);
        Self(SecretString::from(data_encoding::BASE64URL_NOPAD.encode(&bytes)))
    }

    /// The secret's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.0.expose_secret().as_bytes()
    }
}

/// Creates `path` (failing if it exists) readable by its owner only, with `text`.
fn write_new(path: &PathBuf, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn short_secrets_are_refused() {
        let e = SessionSecret::new(SecretString::from("x".repeat(31))).unwrap_err().to_string();
        assert!(e.contains("at least 32 bytes") && e.contains("31"), "{e}");
        assert!(SessionSecret::new(SecretString::from("x".repeat(32))).is_ok());
    }

    #[test]
    fn a_generated_secret_is_kept_across_starts() {
        let dir = tempfile::tempdir().unwrap();
        let first = SessionSecret::load_or_generate(&dir.path().join("data")).unwrap();
        let again = SessionSecret::load_or_generate(&dir.path().join("data")).unwrap();
        assert_eq!(first.bytes(), again.bytes());
        assert!(first.bytes().len() >= SESSION_SECRET_MIN_BYTES);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("data/session.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(!format!("{first:?}").contains(std::str::from_utf8(first.bytes()).unwrap()));
    }
}
