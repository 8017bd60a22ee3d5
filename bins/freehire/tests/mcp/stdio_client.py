"""Drives `freehire mcp` over stdio with the official Python MCP client (PyPI `mcp`), as a
desktop client would: initialize, list the tools, search, and (with a key) save the first hit
and read it back from `my_jobs`. Prints one JSON object with what it saw; the Rust test asserts.

Usage: stdio_client.py FREEHIRE_BINARY API_URL [API_KEY]
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def payload(result):
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def main():
    binary, api_url = sys.argv[1], sys.argv[2]
    env = {"FREEHIRE_API_URL": api_url, "RUST_LOG": "warn"}
    if len(sys.argv) > 3:
        env["FREEHIRE_API_KEY"] = sys.argv[3]
    params = StdioServerParameters(command=binary, args=["mcp"], env=env)
    seen = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            seen["server"] = init.server_info.name
            seen["instructions"] = init.instructions or ""
            tools = await session.list_tools()
            seen["tools"] = [t.name for t in tools.tools]
            found = await session.call_tool("search", {"query": "engineer", "limit": 2})
            seen["search_error"] = bool(found.is_error)
            hits = payload(found)
            seen["total"] = hits["total"]
            slug = hits["jobs"][0]["public_slug"]
            seen["slug"] = slug
            bad = await session.call_tool("search", {"query": "x", "bogus": 1})
            seen["strict"] = bool(bad.is_error) and "bogus" in json.dumps(payload(bad))
            if "save" in seen["tools"]:
                saved = await session.call_tool("save", {"slug": slug})
                seen["saved"] = payload(saved).get("saved")
                mine = await session.call_tool("my_jobs", {"filter": "saved"})
                seen["my_jobs"] = [j["public_slug"] for j in payload(mine)["jobs"]]
            else:
                refused = await session.call_tool("save", {"slug": slug})
                seen["save_refused"] = bool(refused.is_error)
    print(json.dumps(seen))


asyncio.run(main())
