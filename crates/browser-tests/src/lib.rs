//! # freehire-browser-tests
//!
//! The browser test suite (`tests/browser`) and its harness (this library): headless Chromium
//! driven over WebDriver (`fantoccini` talking to Debian's `chromedriver`) against the real
//! composed server. Dev-only: nothing in the product depends on it.
//!
//! - [`Tools`]: where the browser and its driver are, from `FREEHIRE_CHROMIUM` and
//!   `FREEHIRE_CHROMEDRIVER` (`cargo xtask test` provisions both and exports them); a run
//!   without them fails naming `cargo xtask test`, it never skips.
//! - [`Browser`]: one chromedriver on a port of its own (`--port=0`) with one Chromium session
//!   on a fresh profile directory, [`Scripts::On`] or [`Scripts::Off`] (JavaScript disabled by
//!   the content-settings preference); both processes die with it. Helpers: visit, click,
//!   fill, bounded waits (a deadline, never a fixed sleep), the URL, scripts, full-page
//!   screenshots and screenshots at given widths.
//! - [`Browser::check`]: runs a test's body under a time limit and, when it panics or runs
//!   out of time, saves a full-page screenshot and the page source under
//!   `target/screenshots/<test>.png` before failing.
//!
//! The harness names no freehire type, route or page: the suite does.

mod browser;
mod driver;
mod error;
mod shots;
mod tools;

pub use browser::{Browser, Scripts, WAIT};
pub use error::BrowserError;
pub use shots::{screenshot_dir, target_dir};
pub use tools::Tools;

/// A harness result.
pub type Result<T, E = BrowserError> = std::result::Result<T, E>;
