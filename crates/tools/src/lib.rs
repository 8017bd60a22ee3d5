//! The tool contract of the assistant (reference §5), with no knowledge of which tools exist.
//!
//! - A [`Tool<O>`](Tool) has a name, a description written for the model, a JSON Schema for
//!   its arguments and an async `run(ctx, owner, args)`. The owner is the session owner's id
//!   of whatever type `O` the embedding service chooses ([`Owner`]: freehire's `UserId`, a
//!   UUID principal), never a credential; tools are typed by it, so a tool written for one
//!   service's owners cannot be registered in another's. Most tools are written with
//!   [`from_fn`]: an `async fn(ctx, owner, Args) -> Result<Out, E>` where `Args: Deserialize +
//!   JsonSchema`; the schema is generated from `Args` ([`schema_for`]) and always carries
//!   `required` and `additionalProperties: false`.
//! - A [`Registry`] keeps tools in a fixed order (a later tool with the same name replaces the
//!   earlier one in place), lists [`Registry::definitions`] as the model port's
//!   [`ToolSpec`](freehire_llm::ToolSpec)s (the one definition type; it serialises in the
//!   OpenAI `tools` shape), narrows to a named [`Registry::subset`], and
//!   [`Registry::call`]s a tool by name. `call` **never fails**: an unknown tool (or a call
//!   without a name), bad arguments, a tool error, a panic, an unserialisable result, a call
//!   that outlives its deadline ([`Registry::with_call_timeout`], default
//!   [`DEFAULT_CALL_TIMEOUT`] = 30 s) or one whose [`CallContext`] token is cancelled all
//!   become a [`CallResult`] whose content is `{"error": "..."}` and whose `failed` flag is set
//!   ([`panic_message`] reads a caught panic, here and in the assistant's runner). The
//!   messages name the bad value and the allowed ones, because the error text is the model's
//!   only way to correct itself within the turn.
//! - [`decode_args`] is the strict argument decoder every typed tool uses: empty means `{}`,
//!   `null` means no fields, text that is not JSON fails saying so, unknown fields are rejected by name (keys are case-sensitive), a
//!   type mismatch names the field, and anything after the first JSON value is rejected with
//!   "expected a single JSON object".
//! - Successful results are capped at [`Registry::max_result_bytes`] bytes: a longer payload
//!   becomes the truncation envelope `{truncated, note, partial}` with `partial` cut on a
//!   character boundary so that the whole envelope fits the cap. Error envelopes are never
//!   capped.
//! - [`renamed`] offers a tool under another name (another surface's vocabulary), the same
//!   implementation behind it.
//! - [`repair`] holds the one argument repair the assistant applies (trailing junk after the
//!   first JSON value), the concatenation check that keeps two payloads from being run as one,
//!   and the rules for what a tool runs with and what is stored (arguments that are not JSON
//!   at all fail instead of running as `{}`).
//!
//! Deliberately absent: any tool implementation, storage, HTTP, and the model client (the
//! llm crate is a dependency for its [`ToolSpec`](freehire_llm::ToolSpec) only).

mod decode;
mod error;
mod panic;
mod registry;
mod renamed;
pub mod repair;
mod schema;
mod tool;

pub use decode::{decode_args, decode_args_with_schema};
pub use error::ToolError;
pub use panic::panic_message;
pub use registry::{CallResult, DEFAULT_CALL_TIMEOUT, Registry};
pub use renamed::renamed;
pub use schema::{NoArgs, schema_for, strict_schema};
pub use tool::{CallContext, FnTool, Owner, Tool, from_fn};
