//! `freehire mcp`: an MCP server on standard input and output for desktop MCP clients,
//! forwarding every tool to a freehire server's `POST /mcp` ([`freehire_client::mcp::Bridge`]).
//! Without a key only the public tools are offered.

use anyhow::Context;

use super::remote::Remote;

/// Serves MCP on stdio until the client closes it. Logs go to standard error: standard output
/// carries the protocol.
pub async fn run(remote: &Remote) -> anyhow::Result<()> {
    let (url, key) = (remote.api_url()?, remote.key()?);
    let bridge =
        freehire_client::mcp::Bridge::connect(&url, key.as_ref()).await.with_context(|| {
            format!("cannot open MCP with the freehire server at {url} (FREEHIRE_API_URL)")
        })?;
    bridge.serve_stdio().await?;
    Ok(())
}
