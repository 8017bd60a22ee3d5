//! Page tests: the composed server (the JSON API and the pages, as the binary serves them) on
//! a random port, real databases, a real embedded index, plain HTTP without a browser.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod assistant;
mod catalogue;
mod security;
mod server;
mod workspace;
