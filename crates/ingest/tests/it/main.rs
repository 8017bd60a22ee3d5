//! Integration tests of freehire-ingest: every adapter against the recorded real responses in
//! `shared/fixtures/ats/`, served over local HTTP through the replay mechanism, plus the
//! error cases, the HTTP client's guards and board URL recognition.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod adapters;
mod boards;
mod errors;
mod failure_class;
mod http;
mod platforms_a;
mod platforms_b;
mod platforms_c;
mod platforms_d;
mod recognize;
mod support;
