#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Integration tests of the tool contract: registry, calls, decoding properties.

mod decoding;
mod registry;
