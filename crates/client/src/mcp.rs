//! The MCP bridge behind `freehire mcp`: an MCP server on standard input and output (what
//! desktop clients such as Claude Desktop launch) that forwards `tools/list` and `tools/call`
//! to a freehire server's `POST /mcp`, with the API key as the bearer token. The tools, their
//! schemas and their answers are the server's own, so the bridge never drifts from it; it
//! answers `initialize` with the server's name and instructions.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleClient, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use secrecy::{ExposeSecret, SecretString};

use crate::ClientError;

/// The bridge: the connection to the server, and what it said of itself.
#[derive(Clone)]
pub struct Bridge {
    remote: Arc<RunningService<RoleClient, ClientConfig>>,
    info: ServerConfig,
    url: String,
}

/// The MCP endpoint of the server at `api_url`.
fn endpoint(api_url: &str) -> Result<String, ClientError> {
    let bad = |reason| ClientError::BadUrl { url: api_url.to_owned(), reason };
    let base = url::Url::parse(api_url.trim()).map_err(|_| bad("not an absolute URL"))?;
    if !matches!(base.scheme(), "http" | "https") {
        return Err(bad("the scheme must be http or https"));
    }
    let base = base.as_str().trim_end_matches('/');
    Ok(format!("{base}/mcp"))
}

fn remote_error(url: &str, e: ServiceError) -> ErrorData {
    match e {
        ServiceError::McpError(e) => e,
        other => ErrorData::internal_error(format!("the freehire server at {url}: {other}"), None),
    }
}

impl Bridge {
    /// Connects to the server at `api_url` (with `key`, or keyless for the public tools).
    pub async fn connect(api_url: &str, key: Option<&SecretString>) -> Result<Self, ClientError> {
        let url = endpoint(api_url)?;
        let mut config = StreamableHttpClientTransportConfig::with_uri(url.clone());
        if let Some(key) = key {
            config = config.auth_header(key.expose_secret().to_owned());
        }
        let transport = StreamableHttpClientTransport::from_config(config);
        let me = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("freehire-mcp-bridge", env!("CARGO_PKG_VERSION")),
        );
        let remote = me
            .serve(transport)
            .await
            .map_err(|e| ClientError::Mcp { url: url.clone(), message: e.to_string() })?;
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        if let Some(theirs) = remote.peer_info() {
            if let Some(server) = &theirs.server_info {
                info = info.with_server_info(server.clone());
            }
            if let Some(instructions) = &theirs.instructions {
                info = info.with_instructions(instructions.clone());
            }
        }
        Ok(Self { remote: Arc::new(remote), info, url })
    }

    /// Serves the bridge on standard input and output until the client closes it.
    pub async fn serve_stdio(self) -> Result<(), ClientError> {
        let stdio = rmcp::transport::stdio();
        let running = self
            .serve(stdio)
            .await
            .map_err(|e| ClientError::Mcp { url: "stdio".into(), message: e.to_string() })?;
        running
            .waiting()
            .await
            .map_err(|e| ClientError::Mcp { url: "stdio".into(), message: e.to_string() })?;
        Ok(())
    }
}

impl ServerHandler for Bridge {
    fn get_info(&self) -> ServerConfig {
        self.info.clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.remote.peer().list_tools(request).await.map_err(|e| remote_error(&self.url, e))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = self.remote.peer().call_tool(request);
        tokio::select! {
            answer = call => answer.map(Into::into).map_err(|e| remote_error(&self.url, e)),
            () = context.ct.cancelled() => Err(ErrorData::internal_error("cancelled by the client", None)),
        }
    }
}
