//! The browser suite: headless Chromium (Debian's, provisioned by `cargo xtask test`) driven
//! over WebDriver against the real composed server on a random port, over a real SQLite
//! database and search index holding a seeded catalogue.
//!
//! Each test launches its own browser ([`freehire_browser_tests::Browser`]: a chromedriver
//! and a fresh profile) and runs its body through `Browser::check`, which saves
//! `target/screenshots/<test>.png` when it fails. Without `FREEHIRE_CHROMIUM` and
//! `FREEHIRE_CHROMEDRIVER` every test fails, naming `cargo xtask test`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod common;
mod harness;
mod pages;
mod search;
mod seed;
mod server;
