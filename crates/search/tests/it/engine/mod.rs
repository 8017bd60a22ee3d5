//! The search engine: the document, and the conformance suite run on the embedded engine and,
//! when `MEILI_URL` names a server, on Meilisearch.

pub mod catalogue;
pub mod conformance;
mod document;
mod embedded;
mod meili;
pub mod oracle;
