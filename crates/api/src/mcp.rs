//! The Model Context Protocol over HTTP (`POST /mcp`, issue 17): `rmcp`'s streamable HTTP
//! server in stateless mode (no in-memory session, so any API process answers any request),
//! serving [`McpTools`] for the request's caller.
//!
//! [`serve`] builds one [`McpHandler`] per request around the caller's tools and hands the
//! request to `rmcp` (which answers JSON-RPC errors for malformed messages itself). A tool
//! result is the tool's JSON as both the text content and, when an object, the structured
//! content; a tool that fails is a result with `isError` and the tool's `{"error": …}`. An
//! unknown tool name is the protocol's invalid-params error naming the offered tools; a
//! tool the caller's key does not reach is an error result saying which key it needs.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use freehire_app::mcp::{McpCaller, McpTools};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler};
use serde_json::Value;
use tower::ServiceExt;

/// The tools that need a key, for the error an anonymous (or `cv`-key) caller gets.
const SIGNED_ONLY: [(&str, &str); 13] = [
    ("whoami", "an API key"),
    ("cv_list", "an API key"),
    ("cv_get", "an API key"),
    ("experience_search", "an API key"),
    ("experience_get", "an API key"),
    ("experience_employments", "an API key"),
    ("experience_add", "an API key"),
    ("save", "a full API key"),
    ("unsave", "a full API key"),
    ("apply", "a full API key"),
    ("stage", "a full API key"),
    ("note", "a full API key"),
    ("my_jobs", "a full API key"),
];

/// What the server tells a client about itself.
const INSTRUCTIONS: &str = "freehire: open jobs read straight from companies' applicant-tracking \
    systems. `facets` lists the filters and their values, `search` finds jobs (free text plus \
    filters; `ignored_filters` names a filter the engine could not apply), `job` and `company` \
    read one. With an API key (Authorization: Bearer fhk_…) the tools also track your \
    applications (`save`, `apply`, `stage`, `note`, `my_jobs`) and read your CVs and \
    experience bank.";

/// One request's MCP server: the caller's tools.
#[derive(Clone)]
pub struct McpHandler {
    tools: Arc<McpTools>,
}

impl McpHandler {
    /// A handler serving `tools`.
    pub fn new(tools: McpTools) -> Self {
        Self { tools: Arc::new(tools) }
    }
}

fn tool_of(t: freehire_app::mcp::McpTool) -> Tool {
    let schema = match t.schema {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    let annotations = ToolAnnotations::new()
        .read_only(t.hints.read_only)
        .destructive(t.hints.destructive)
        .idempotent(t.hints.idempotent)
        .open_world(false);
    Tool::new(t.name, t.description, Arc::new(schema)).annotate(annotations)
}

impl ServerHandler for McpHandler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("freehire", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.list().into_iter().map(tool_of).collect()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.as_ref();
        if !self.tools.has(name) {
            if let Some((_, needs)) = SIGNED_ONLY.iter().find(|(n, _)| *n == name) {
                let message = format!(
                    "{name} needs {needs}: send Authorization: Bearer fhk_… (create one on \
                     your account page)"
                );
                return Ok(CallToolResult::structured_error(
                    serde_json::json!({ "error": message }),
                )
                .into());
            }
            let offered: Vec<String> = self.tools.list().into_iter().map(|t| t.name).collect();
            return Err(ErrorData::invalid_params(
                format!("unknown tool {name:?}; the tools are: {}", offered.join(", ")),
                None,
            ));
        }
        let args = match &request.arguments {
            Some(map) => Value::Object(map.clone()).to_string(),
            None => String::new(),
        };
        let result = self.tools.call(name, &args, context.ct.clone()).await;
        let value: Value = serde_json::from_str(&result.content)
            .unwrap_or_else(|_| Value::String(result.content.clone()));
        let answer = match (value.is_object(), result.failed) {
            (true, false) => CallToolResult::structured(value),
            (true, true) => CallToolResult::structured_error(value),
            (false, false) => CallToolResult::success(vec![ContentBlock::text(result.content)]),
            (false, true) => CallToolResult::error(vec![ContentBlock::text(result.content)]),
        };
        Ok(answer.into())
    }
}

/// Where the MCP endpoint may be reached: loopback names (what `rmcp` allows by default, its
/// guard against DNS rebinding) and the host of the public site.
pub fn allowed_hosts(public_url: &str) -> Vec<String> {
    let mut hosts: Vec<String> =
        ["localhost", "127.0.0.1", "::1", "[::1]"].iter().map(|h| (*h).to_owned()).collect();
    if let Ok(url) = url::Url::parse(public_url)
        && let Some(host) = url.host_str()
    {
        hosts.push(host.to_owned());
    }
    hosts
}

/// Answers one MCP request for `caller` with `tools`.
pub async fn serve(tools: McpTools, allowed_hosts: Vec<String>, request: Request) -> Response {
    let handler = McpHandler::new(tools);
    let mut config = StreamableHttpServerConfig::default();
    config.legacy_session_mode = false;
    config.json_response = true;
    config.sse_keep_alive = None;
    config.allowed_hosts = allowed_hosts;
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    match service.oneshot(request).await {
        Ok(response) => response.map(Body::new),
        Err(never) => match never {},
    }
}

/// The caller an optional key makes.
pub fn caller_of(
    key: Option<(freehire_domain::UserId, freehire_domain::ApiKeyScope)>,
) -> McpCaller {
    match key {
        Some((user, scope)) => McpCaller::Key { user, scope },
        None => McpCaller::Anonymous,
    }
}
