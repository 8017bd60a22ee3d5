#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Integration tests of the assistant: the runner against the scripted model (reference
//! §18.1), the store port (§18.2), prompts (§18.3), the turn registry, and properties.

mod hardening;
mod history;
mod props;
mod runner;
mod smoke;
mod store;
mod support;
mod turns;
