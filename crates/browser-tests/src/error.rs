//! What can go wrong driving the browser, each naming what to do about it.

use std::path::PathBuf;
use std::time::Duration;

/// A harness failure.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    /// The suite was started without the browser's paths.
    #[error(
        "{var} is not set: the browser tests drive Chromium through chromedriver; run them with \
         `cargo xtask test` (it installs and exports both), or alone with \
         `env $(cargo xtask chromium) cargo test -p freehire-browser-tests`"
    )]
    NotProvisioned { var: &'static str },
    /// A configured path names no file.
    #[error("{var}={} names no file: run `cargo xtask test`, which installs Chromium and chromedriver", path.display())]
    Missing { var: &'static str, path: PathBuf },
    /// chromedriver could not be started.
    #[error("cannot start {}: {source}", path.display())]
    Spawn { path: PathBuf, source: std::io::Error },
    /// chromedriver started but never said which port it listens on.
    #[error("chromedriver did not report its port within {0:?}")]
    DriverPort(Duration),
    /// The session (the browser itself) could not be opened.
    #[error("cannot open a Chromium session: {0}")]
    Session(#[from] fantoccini::error::NewSessionError),
    /// A WebDriver command failed.
    #[error("webdriver: {0}")]
    Command(#[from] fantoccini::error::CmdError),
    /// A bounded wait ran out.
    #[error("waited {after:?} for {what}")]
    Timeout { what: String, after: Duration },
    /// The browser answered something the harness cannot read.
    #[error("unexpected answer from Chromium: {0}")]
    Protocol(String),
    /// Writing a screenshot or a profile directory failed.
    #[error("{what}: {source}")]
    Io { what: String, source: std::io::Error },
}
