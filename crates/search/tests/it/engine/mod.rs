//! The search engine: the document, and the conformance suite run on the embedded engine.

pub mod catalogue;
pub mod conformance;
mod document;
mod embedded;
mod oracle;
