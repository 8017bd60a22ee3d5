//! The one error type of the tools crate.

use freehire_llm::Cause;

/// Why a tool run failed. [`Registry::call`](crate::Registry::call) turns every variant into
/// an `{"error": "..."}` result; nothing here ever reaches the caller as a Rust error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// The arguments did not decode into the tool's argument type.
    #[error("invalid arguments: {0}")]
    InvalidArguments(String),
    /// The tool ran and refused or failed; the text is shown to the model as it is.
    #[error("{0}")]
    Failed(String),
    /// The tool's output could not be serialised to JSON.
    #[error("the result could not be encoded")]
    Unencodable(#[source] Cause),
}

impl ToolError {
    /// A tool failure with a message for the model.
    pub fn failed(message: impl std::fmt::Display) -> Self {
        Self::Failed(message.to_string())
    }
}
