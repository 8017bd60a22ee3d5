//! The command line's stored sign-in (`freehire auth login`): the server's URL and an API key
//! in `credentials.json` under the user's configuration directory
//! (`$XDG_CONFIG_HOME/freehire`, else `~/.config/freehire`), readable by the user alone (the
//! folder 0700, the file 0600, written whole then renamed into place). The environment
//! (`FREEHIRE_API_KEY`, `FREEHIRE_API_URL`) always wins over the file.

use std::io::Write;
use std::path::{Path, PathBuf};

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};

/// What is stored.
#[derive(Debug)]
pub struct Credentials {
    /// The server the key belongs to.
    pub api_url: String,
    /// The key.
    pub key: SecretString,
    /// The account's address when it was stored (shown by `auth status` when offline).
    pub email: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct OnDisk {
    api_url: String,
    key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    email: Option<String>,
}

/// What can go wrong with the file.
#[derive(Debug, thiserror::Error)]
pub enum CredentialsError {
    /// No configuration directory could be found (no `XDG_CONFIG_HOME`, no `HOME`).
    #[error("no configuration directory: set XDG_CONFIG_HOME or HOME")]
    NoConfigDir,
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is not what `auth login` writes.
    #[error("{path} is not a freehire credentials file ({reason}): run freehire auth login again")]
    Corrupt {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
}

/// `credentials.json` under the configuration directory.
pub fn default_path() -> Result<PathBuf, CredentialsError> {
    let dir = dirs::config_dir().ok_or(CredentialsError::NoConfigDir)?;
    Ok(dir.join("freehire").join("credentials.json"))
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CredentialsError + '_ {
    move |source| CredentialsError::Io { path: path.display().to_string(), source }
}

/// The stored credentials at `path`, if any.
pub fn load(path: &Path) -> Result<Option<Credentials>, CredentialsError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(path)(e)),
    };
    let disk: OnDisk = serde_json::from_slice(&bytes).map_err(|e| CredentialsError::Corrupt {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    Ok(Some(Credentials {
        api_url: disk.api_url,
        key: SecretString::from(disk.key),
        email: disk.email,
    }))
}

/// Stores `credentials` at `path`, readable by the user alone.
pub fn save(path: &Path, credentials: &Credentials) -> Result<(), CredentialsError> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).map_err(io(dir))?;
    let disk = OnDisk {
        api_url: credentials.api_url.clone(),
        key: credentials.key.expose_secret().to_owned(),
        email: credentials.email.clone(),
    };
    let text = serde_json::to_vec_pretty(&disk).map_err(|e| CredentialsError::Corrupt {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let temporary = path.with_extension("json.tmp");
    let _ = std::fs::remove_file(&temporary);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&temporary)
        .map_err(io(&temporary))?;
    file.write_all(&text).and_then(|()| file.sync_all()).map_err(io(&temporary))?;
    std::fs::set_permissions(&temporary, std::fs::Permissions::from_mode(0o600))
        .map_err(io(&temporary))?;
    std::fs::rename(&temporary, path).map_err(io(path))
}

/// Removes the stored credentials; `false` when there were none.
pub fn remove(path: &Path) -> Result<bool, CredentialsError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io(path)(e)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn saved_credentials_are_the_users_alone_and_load_back() {
        let dir = std::env::temp_dir().join(format!("freehire-creds-{}", std::process::id()));
        let path = dir.join("freehire").join("credentials.json");
        let creds = Credentials {
            api_url: "http://127.0.0.1:8080".into(),
            key: SecretString::from("fhk_test".to_owned()),
            email: Some("ada@example.com".into()),
        };
        save(&path, &creds).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        let back = load(&path).unwrap().unwrap();
        assert_eq!(
            (back.api_url.as_str(), back.key.expose_secret()),
            ("http://127.0.0.1:8080", "fhk_test")
        );
        save(&path, &Credentials { key: SecretString::from("fhk_two".to_owned()), ..creds })
            .unwrap();
        assert_eq!(load(&path).unwrap().unwrap().key.expose_secret(), "fhk_two", "replaced whole");
        assert!(remove(&path).unwrap());
        assert!(!remove(&path).unwrap());
        assert!(load(&path).unwrap().is_none());
        std::fs::write(&path, "not json").unwrap();
        assert!(matches!(load(&path), Err(CredentialsError::Corrupt { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
