//! Where the browser and its driver are: `FREEHIRE_CHROMIUM` and `FREEHIRE_CHROMEDRIVER`,
//! set by `cargo xtask test` (or `cargo xtask chromium`). Neither has a default: a run
//! without them is an error, never a skip.

use std::path::PathBuf;

use crate::{BrowserError, Result};

/// The browser binary and its WebDriver.
#[derive(Debug, Clone)]
pub struct Tools {
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

impl Tools {
    /// The tools the environment names, both checked to exist.
    pub fn from_env() -> Result<Self> {
        Ok(Self {
            chromium: path_of("FREEHIRE_CHROMIUM")?,
            chromedriver: path_of("FREEHIRE_CHROMEDRIVER")?,
        })
    }
}

fn path_of(var: &'static str) -> Result<PathBuf> {
    let path = std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .ok_or(BrowserError::NotProvisioned { var })?;
    if path.is_file() { Ok(path) } else { Err(BrowserError::Missing { var, path }) }
}
