//! The search engine: the document, and the conformance suite (its checks listed once in
//! `conformance.rs`) run on the embedded engine and, when `MEILI_URL` names a server, on
//! Meilisearch; each engine's module holds its harness and its own tests.

pub mod catalogue;
pub mod conformance;
mod document;
mod embedded;
mod meili;
pub mod oracle;
