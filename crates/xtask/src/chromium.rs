//! Bringing up Chromium and its WebDriver for the browser tests, idempotently, in this order:
//!
//! 1. `FREEHIRE_CHROMIUM` and `FREEHIRE_CHROMEDRIVER`, when both are set;
//! 2. Debian's `/usr/bin/chromium` and `/usr/bin/chromedriver`;
//! 3. when root with apt: `apt-get install -y chromium chromium-driver`, then 2.
//!
//! The two must be the same major version (chromedriver refuses another browser's): a
//! mismatch is an error naming both. Otherwise it fails, naming what is missing. It never
//! lets the browser suite skip: `test` exports both paths to it, and the suite fails without
//! them.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use crate::cmd;

/// The variable naming the browser binary for the browser tests.
pub const CHROMIUM_VAR: &str = "FREEHIRE_CHROMIUM";
/// The variable naming the chromedriver binary for the browser tests.
pub const CHROMEDRIVER_VAR: &str = "FREEHIRE_CHROMEDRIVER";

const DEBIAN_CHROMIUM: &str = "/usr/bin/chromium";
const DEBIAN_CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Where the browser and its driver are, both checked to run and to agree on the version.
#[derive(Debug)]
pub struct Chromium {
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
    /// The browser's version (`156.0.8078.114`).
    pub version: String,
}

/// A browser and driver the browser suite can use, installing Debian's when missing.
pub fn ensure() -> Result<Chromium, String> {
    if let (Some(chromium), Some(chromedriver)) =
        (std::env::var_os(CHROMIUM_VAR), std::env::var_os(CHROMEDRIVER_VAR))
    {
        return checked(PathBuf::from(chromium), PathBuf::from(chromedriver));
    }
    let debian = || {
        (Path::new(DEBIAN_CHROMIUM).is_file() && Path::new(DEBIAN_CHROMEDRIVER).is_file())
            .then(|| (PathBuf::from(DEBIAN_CHROMIUM), PathBuf::from(DEBIAN_CHROMEDRIVER)))
    };
    if let Some((chromium, chromedriver)) = debian() {
        return checked(chromium, chromedriver);
    }
    if crate::postgres::is_root() && crate::postgres::which("apt-get").is_some() {
        eprintln!(
            "xtask: Chromium or chromedriver not found; installing Debian's chromium and \
             chromium-driver packages"
        );
        cmd::run(Command::new("apt-get").arg("update"))?;
        cmd::run(
            Command::new("apt-get")
                .args(["install", "-y", "chromium", "chromium-driver"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )?;
        if let Some((chromium, chromedriver)) = debian() {
            return checked(chromium, chromedriver);
        }
    }
    Err(format!(
        "Chromium and chromedriver are required for the browser tests and were not found: \
         missing {}. Install Debian's `chromium` and `chromium-driver` packages (as root: \
         `apt-get install -y chromium chromium-driver`), or set {CHROMIUM_VAR} and \
         {CHROMEDRIVER_VAR} to a browser and its driver of the same version",
        [DEBIAN_CHROMIUM, DEBIAN_CHROMEDRIVER]
            .into_iter()
            .filter(|p| !Path::new(p).is_file())
            .collect::<Vec<_>>()
            .join(" and ")
    ))
}

/// Both binaries run and report the same major version.
fn checked(chromium: PathBuf, chromedriver: PathBuf) -> Result<Chromium, String> {
    let browser = version_of(&chromium, "Chromium")?;
    let driver = version_of(&chromedriver, "ChromeDriver")?;
    if major(&browser) != major(&driver) {
        return Err(format!(
            "{} is version {browser} but {} is {driver}: chromedriver drives only its own major \
             version (install `chromium` and `chromium-driver` from the same Debian release)",
            chromium.display(),
            chromedriver.display()
        ));
    }
    Ok(Chromium { chromium, chromedriver, version: browser })
}

/// The dotted version `program --version` prints after `name` (`Chromium 156.0.8078.114 …`).
fn version_of(program: &Path, name: &str) -> Result<String, String> {
    let out = cmd::output(Command::new(program).arg("--version")).ok_or_else(|| {
        format!("{} --version failed: is it a working {name}?", program.display())
    })?;
    parse_version(&out, name).ok_or_else(|| {
        format!("{} --version printed {:?}, not `{name} VERSION`", program.display(), out.trim())
    })
}

fn parse_version(out: &str, name: &str) -> Option<String> {
    let mut words = out.split_whitespace();
    words.find(|w| w.eq_ignore_ascii_case(name))?;
    let version = words.next()?;
    version.split('.').all(|part| part.parse::<u32>().is_ok()).then(|| version.to_owned())
}

fn major(version: &str) -> &str {
    version.split('.').next().unwrap_or(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_what_both_binaries_print() {
        let browser = "Chromium 156.0.8078.114 built on Debian GNU/Linux 12 (bookworm)\n";
        let driver = "ChromeDriver 156.0.8078.114 (ea19f97-refs/branch-heads/8078_108@{#5})\n";
        assert_eq!(parse_version(browser, "Chromium").as_deref(), Some("156.0.8078.114"));
        assert_eq!(parse_version(driver, "ChromeDriver").as_deref(), Some("156.0.8078.114"));
        assert_eq!(parse_version("Chromium dev build", "Chromium"), None);
        assert_eq!(parse_version(browser, "ChromeDriver"), None);
        assert_eq!(major("156.0.8078.114"), "156");
    }
}
