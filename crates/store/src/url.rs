//! [`DatabaseUrl`]: which backend, parsed at the edge.

use std::path::{Path, PathBuf};

use secrecy::{ExposeSecret, SecretString};

use crate::StoreError;

/// The default embedded database: a SQLite file under `./data`.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./data/freehire.db";

/// A parsed `DATABASE_URL`.
///
/// - `sqlite://PATH`, `sqlite:PATH` (a file; its folder is created on connect),
///   `sqlite::memory:` (a private in-memory database, for experiments);
/// - `postgres://…` or `postgresql://…` (passed to the driver as is).
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseUrl {
    /// An embedded SQLite database.
    Sqlite(SqliteLocation),
    /// A PostgreSQL server.
    Postgres(PostgresUrl),
}

/// A PostgreSQL connection URL. The whole URL is a [`SecretString`] (it may carry a
/// password), exposed only to the driver; what prints is the URL with its password replaced
/// by `***`.
#[derive(Clone)]
pub struct PostgresUrl {
    secret: SecretString,
    shown: String,
}

impl PostgresUrl {
    fn new(raw: &str) -> Self {
        Self { secret: raw.into(), shown: without_password(raw) }
    }

    /// The URL as the driver needs it, password included.
    pub fn expose(&self) -> &str {
        self.secret.expose_secret()
    }
}

impl PartialEq for PostgresUrl {
    fn eq(&self, other: &Self) -> bool {
        self.expose() == other.expose()
    }
}

impl Eq for PostgresUrl {}

/// Shows the URL without its password.
impl std::fmt::Debug for PostgresUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// Where a SQLite database lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SqliteLocation {
    /// A file.
    File(PathBuf),
    /// Memory only.
    Memory,
}

impl DatabaseUrl {
    /// Parses a URL, naming what is wrong when it is not usable.
    pub fn parse(raw: &str) -> Result<Self, StoreError> {
        let raw = raw.trim();
        if raw.starts_with("postgres://") || raw.starts_with("postgresql://") {
            return Ok(Self::Postgres(PostgresUrl::new(raw)));
        }
        if let Some(rest) = raw.strip_prefix("sqlite:") {
            let rest = rest.strip_prefix("//").unwrap_or(rest);
            let path = rest.split('?').next().unwrap_or_default();
            if path == ":memory:" {
                return Ok(Self::Sqlite(SqliteLocation::Memory));
            }
            if path.is_empty() {
                return Err(StoreError::BadUrl {
                    url: raw.to_owned(),
                    reason: "no file path after sqlite://",
                });
            }
            return Ok(Self::Sqlite(SqliteLocation::File(PathBuf::from(path))));
        }
        Err(StoreError::BadUrl {
            url: without_password(raw),
            reason: "expected sqlite://PATH or postgres://USER@HOST/DB",
        })
    }

    /// The SQLite file, if this is one.
    pub fn sqlite_file(&self) -> Option<&Path> {
        match self {
            Self::Sqlite(SqliteLocation::File(p)) => Some(p),
            _ => None,
        }
    }
}

impl std::str::FromStr for DatabaseUrl {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// Shows the URL without its password.
impl std::fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_string())
    }
}

/// Shows the URL without its password.
impl std::fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Sqlite(SqliteLocation::File(p)) => write!(f, "sqlite://{}", p.display()),
            Self::Sqlite(SqliteLocation::Memory) => f.write_str("sqlite::memory:"),
            Self::Postgres(url) => f.write_str(&url.shown),
        }
    }
}

/// The URL with its password (if any) replaced by `***`, read by the `url` crate; a URL it
/// cannot read shows only its scheme, so nothing secret can print.
fn without_password(raw: &str) -> String {
    match url::Url::parse(raw) {
        Ok(mut parsed) => {
            if parsed.password().is_some() && parsed.set_password(Some("***")).is_err() {
                return format!("{}://***", parsed.scheme());
            }
            parsed.to_string()
        }
        Err(_) => match raw.split_once("://") {
            Some((scheme, _)) => format!("{scheme}://***"),
            None => "***".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_backends() {
        assert_eq!(
            DatabaseUrl::parse("sqlite://./data/freehire.db").unwrap().sqlite_file(),
            Some(Path::new("./data/freehire.db"))
        );
        assert_eq!(
            DatabaseUrl::parse("sqlite:/tmp/x.db?mode=rwc").unwrap().sqlite_file(),
            Some(Path::new("/tmp/x.db"))
        );
        assert!(matches!(
            DatabaseUrl::parse("sqlite::memory:"),
            Ok(DatabaseUrl::Sqlite(SqliteLocation::Memory))
        ));
        assert!(matches!(DatabaseUrl::parse("postgres://u@h/db"), Ok(DatabaseUrl::Postgres(_))));
        assert!(DatabaseUrl::parse("mysql://x").is_err());
        assert!(DatabaseUrl::parse("sqlite://").is_err());
    }

    #[test]
    fn never_prints_passwords() {
        let url = DatabaseUrl::parse("postgres://app:s3cret@db:5432/freehire").unwrap();
        assert_eq!(url.to_string(), "postgres://app:***@db:5432/freehire");
        assert!(!format!("{url:?}").contains("s3cret"));
        let err = DatabaseUrl::parse("mysql://app:s3cret@db/x").unwrap_err().to_string();
        assert!(!err.contains("s3cret"), "{err}");
    }

    // scenario: Unsupported URL
    #[test]
    fn unsupported_urls_name_the_accepted_schemes() {
        let err = DatabaseUrl::parse("mysql://app:s3cret@db/x").unwrap_err().to_string();
        assert_eq!(
            err,
            "invalid database URL \"mysql://app:***@db/x\": \
             expected sqlite://PATH or postgres://USER@HOST/DB"
        );
    }
}
