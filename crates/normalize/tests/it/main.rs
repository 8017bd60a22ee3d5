//! Integration tests of freehire-normalize: the evaluation set with its precision floors, and
//! end-to-end derivation scenarios.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod derive;
mod eval_test;
pub mod evaluation;
