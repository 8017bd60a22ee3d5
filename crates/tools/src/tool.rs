//! The [`Tool`] trait, the [`Owner`] bound on the id it acts for, and [`from_fn`], the typed
//! way to write one.

use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;

use async_trait::async_trait;
use freehire_llm::Cause;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::{ToolError, decode_args_with_schema, schema_for};

/// What a tool run may look at besides its arguments: the turn's cancellation token.
/// [`Registry::call`](crate::Registry::call) already abandons a call (drops its future) when
/// the token fires or the call's deadline passes, so most tools ignore it; a tool that starts
/// work outside its own future (a spawned task) can watch it to stop that work too.
#[derive(Debug, Clone, Default)]
pub struct CallContext {
    cancel: CancellationToken,
}

impl CallContext {
    /// A context whose token is the turn's.
    pub fn new(cancel: CancellationToken) -> Self {
        Self { cancel }
    }

    /// The turn's cancellation token.
    pub fn cancel_token(&self) -> &CancellationToken {
        &self.cancel
    }
}

/// What a session owner's id must be: any cheap-to-clone, thread-safe value the embedding
/// service chooses (freehire's `UserId`, a UUID principal, a tenant and user pair). The
/// library never looks inside it; it hands it to every tool and store call unchanged.
pub trait Owner: Clone + Send + Sync + 'static {}

impl<T: Clone + Send + Sync + 'static> Owner for T {}

/// One capability offered to the model, acting for owners of type `O`.
///
/// `run` receives the raw argument string exactly as the runner passes it (possibly empty,
/// possibly malformed) and the id of the session's owner. Identity never comes from the
/// arguments: a tool that acts on one CV or job captures that id when it is built.
#[async_trait]
pub trait Tool<O: Owner>: Send + Sync {
    /// The name the model calls, in `snake_case`.
    fn name(&self) -> &str;
    /// The paragraph the model reads to decide when and how to call the tool.
    fn description(&self) -> &str;
    /// The JSON Schema of the arguments object.
    fn schema(&self) -> &Value;
    /// Runs the tool. The `Ok` value is serialised as the tool result.
    async fn run(&self, ctx: &CallContext, owner: &O, args: &str) -> Result<Value, ToolError>;
}

/// A tool made from an async function of `(ctx, owner, Args)`; see [`from_fn`].
pub struct FnTool<O, Args, F> {
    name: String,
    description: String,
    schema: Value,
    f: F,
    _args: PhantomData<fn(CallContext, O, Args)>,
}

/// Builds a tool from `async fn(ctx, owner, Args) -> Result<Out, E>`: `ctx` is the call's
/// [`CallContext`] (a clone, so the future may own it), carrying the turn's cancellation
/// token for tools that wait on something slow.
///
/// The schema is generated from `Args` ([`schema_for`]); the arguments are decoded strictly
/// ([`decode_args_with_schema`](crate::decode_args_with_schema)); `Out` is serialised to JSON
/// (a failure there becomes [`ToolError::Unencodable`]); `E`'s `Display` is the error text the
/// model sees.
/// The full bounds sit on the [`Tool`] impl; here only what the schema and the closure's
/// signature need.
pub fn from_fn<O, Args, F, Fut>(
    name: impl Into<String>,
    description: impl Into<String>,
    f: F,
) -> FnTool<O, Args, F>
where
    Args: JsonSchema,
    F: Fn(CallContext, O, Args) -> Fut,
{
    FnTool {
        name: name.into(),
        description: description.into(),
        schema: schema_for::<Args>(),
        f,
        _args: PhantomData,
    }
}

#[async_trait]
impl<O, Args, Out, E, F, Fut> Tool<O> for FnTool<O, Args, F>
where
    O: Owner,
    Args: DeserializeOwned + JsonSchema + Send + 'static,
    Out: Serialize,
    E: Display,
    F: Fn(CallContext, O, Args) -> Fut + Send + Sync,
    Fut: Future<Output = Result<Out, E>> + Send,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn schema(&self) -> &Value {
        &self.schema
    }

    async fn run(&self, ctx: &CallContext, owner: &O, args: &str) -> Result<Value, ToolError> {
        let args: Args = decode_args_with_schema(args, &self.schema)?;
        let out = (self.f)(ctx.clone(), owner.clone(), args).await.map_err(ToolError::failed)?;
        serde_json::to_value(out).map_err(|e| ToolError::Unencodable(Cause::new(e)))
    }
}
