//! [`renamed`]: one tool offered under another name, for a surface whose vocabulary differs
//! from the model's (freehire's MCP server names `search_jobs` `search`). The implementation,
//! schema and description stay the tool's own.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use crate::{CallContext, Owner, Tool, ToolError};

/// `tool`, answering to `name`.
struct Renamed<O: Owner> {
    name: String,
    tool: Arc<dyn Tool<O>>,
}

/// `tool` under `name`: the same description, schema and `run`.
pub fn renamed<O: Owner>(tool: Arc<dyn Tool<O>>, name: impl Into<String>) -> Arc<dyn Tool<O>> {
    Arc::new(Renamed { name: name.into(), tool })
}

#[async_trait]
impl<O: Owner> Tool<O> for Renamed<O> {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        self.tool.description()
    }

    fn schema(&self) -> &Value {
        self.tool.schema()
    }

    async fn run(&self, ctx: &CallContext, owner: &O, args: &str) -> Result<Value, ToolError> {
        self.tool.run(ctx, owner, args).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Registry, from_fn};
    use schemars::JsonSchema;
    use serde::Deserialize;
    use tokio_util::sync::CancellationToken;

    #[derive(Deserialize, JsonSchema)]
    struct Args {
        /// A word.
        word: String,
    }

    #[tokio::test]
    async fn a_renamed_tool_answers_to_its_new_name_only() {
        let echo: Arc<dyn Tool<u32>> =
            Arc::new(from_fn("echo_word", "Echoes.", |_, owner: u32, a: Args| async move {
                Ok::<_, String>(format!("{owner}:{}", a.word))
            }));
        let schema = echo.schema().clone();
        let registry = Registry::new([renamed(echo, "echo")]);
        assert_eq!(registry.names(), ["echo"]);
        assert_eq!(registry.definitions()[0].parameters, schema);
        let ctx = CallContext::new(CancellationToken::new());
        let ok = registry.call(&ctx, &7, "echo", r#"{"word":"hi"}"#).await;
        assert_eq!((ok.content.as_str(), ok.failed), (r#""7:hi""#, false));
        let old = registry.call(&ctx, &7, "echo_word", r#"{"word":"hi"}"#).await;
        assert!(old.failed && old.content.contains("echo"), "{}", old.content);
        let strict = registry.call(&ctx, &7, "echo", r#"{"word":"hi","extra":1}"#).await;
        assert!(strict.failed && strict.content.contains("extra"), "{}", strict.content);
    }
}
