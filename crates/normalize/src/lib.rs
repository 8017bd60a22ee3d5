//! # freehire-normalize
//!
//! Deterministic facet derivation from dictionaries (reference §3.11–§3.13): never guesses.
pub mod geo;
pub mod text;
