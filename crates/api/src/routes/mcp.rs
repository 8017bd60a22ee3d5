//! `POST /mcp`: the Model Context Protocol's streamable HTTP transport, stateless (see
//! [`crate::mcp`]). Anyone may call the public tools; an API key (`Authorization: Bearer
//! fhk_…`; the session cookie is not read here) adds the caller's own tools, and a key that
//! is not valid is 401 before anything runs. Calls count against the agent-search bucket.
//!
//! Refusals: a body that is not JSON at all is 400 with the JSON-RPC parse error (`-32700`),
//! JSON that is not a JSON-RPC message 400 with the invalid-request error (`-32600`), an
//! unknown method 404 with the method-not-found error; the transport's own HTTP refusals
//! (a `Content-Type` that is not JSON, an `Accept` without `application/json` and
//! `text/event-stream`, a `Host` that is not this server's) are the error table's JSON.

use std::collections::BTreeMap;

use axum::{
    body::Body,
    extract::{Request, State},
    http::{StatusCode, header::CONTENT_TYPE},
    response::{IntoResponse, Response},
};
use freehire_app::mcp::McpTools;
use serde_json::json;
use utoipa::{
    IntoResponses,
    openapi::{
        ContentBuilder, ObjectBuilder, OneOfBuilder, RefOr, ResponseBuilder, Type,
        response::Response as DocResponse,
    },
};

use crate::{
    ApiError, AppState, ErrorCode, MAX_BODY_BYTES,
    auth::gate::KeyCaller,
    openapi::{
        Codes,
        code::{Forbidden, NotAcceptable, RateLimited, Unauthorized, UnsupportedMediaType},
        error_responses,
    },
};

/// A JSON-RPC error object without an id, as `/mcp` answers a message it cannot read.
fn rpc_error(status: StatusCode, code: i64, message: &str) -> Response {
    let body =
        json!({ "jsonrpc": "2.0", "id": null, "error": { "code": code, "message": message } });
    (status, axum::Json(body)).into_response()
}

/// The documented answers: the JSON-RPC result or stream, 202 for a notification, the
/// JSON-RPC errors at 400 and 404 beside the error table's, and the table's refusals.
struct McpResponses;

fn rpc_message_schema() -> utoipa::openapi::Object {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("A JSON-RPC 2.0 message of the Model Context Protocol."))
        .property("jsonrpc", ObjectBuilder::new().schema_type(Type::String))
        .required("jsonrpc")
        .build()
}

impl IntoResponses for McpResponses {
    fn responses() -> BTreeMap<String, RefOr<DocResponse>> {
        type Refusals = (Unauthorized, Forbidden, NotAcceptable, UnsupportedMediaType, RateLimited);
        let mut out = error_responses(&Refusals::codes());
        let ok = ResponseBuilder::new()
            .description("The JSON-RPC response (a tool's result, the tool list, …), as JSON.")
            .content(
                "application/json",
                ContentBuilder::new().schema(Some(rpc_message_schema())).build(),
            )
            .content(
                "text/event-stream",
                ContentBuilder::new()
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                    .build(),
            )
            .build();
        out.insert("200".into(), RefOr::T(ok));
        let accepted = ResponseBuilder::new()
            .description("A notification or a response was accepted; nothing to answer.")
            .build();
        out.insert("202".into(), RefOr::T(accepted));
        for (status, what) in [
            (
                "400",
                "The message cannot be read: JSON-RPC `-32700` (not JSON) or `-32600` (not a JSON-RPC message).",
            ),
            ("404", "JSON-RPC `-32601`: the method does not exist."),
        ] {
            let mut schemas = OneOfBuilder::new().item(rpc_message_schema());
            let mut description = what.to_owned();
            if let Some(RefOr::T(table)) = out.get(status) {
                description = format!("{what} Or {}", table.description);
                if let Some(RefOr::T(content)) = table.content.get("application/json")
                    && let Some(schema) = &content.schema
                {
                    schemas = schemas.item(schema.clone());
                }
            }
            let response = ResponseBuilder::new()
                .description(description)
                .content("application/json", ContentBuilder::new().schema(Some(schemas)).build())
                .build();
            out.insert(status.into(), RefOr::T(response));
        }
        out
    }
}

/// One MCP message (JSON-RPC 2.0): `initialize`, `tools/list`, `tools/call`, notifications.
#[utoipa::path(
    post, path = "/mcp", tag = "mcp", operation_id = "mcp",
    security((), ("api_key" = [])),
    request_body(
        content = Object, content_type = "application/json",
        description = "A JSON-RPC 2.0 message of the Model Context Protocol (streamable HTTP, \
            stateless). Send `Accept: application/json, text/event-stream`.",
    ),
    responses(McpResponses),
)]
pub async fn mcp(
    State(state): State<AppState>,
    KeyCaller(key): KeyCaller,
    request: Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let json = parts
        .headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return ApiError::new(
            ErrorCode::UnsupportedMediaType,
            "an MCP message must be JSON (Content-Type: application/json)",
        )
        .into_response();
    }
    let limit = usize::try_from(MAX_BODY_BYTES).unwrap_or(usize::MAX);
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        return ApiError::new(
            ErrorCode::PayloadTooLarge,
            format!("the request body is too large (at most {MAX_BODY_BYTES} bytes)"),
        )
        .into_response();
    };
    if serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).is_err() {
        return rpc_error(StatusCode::BAD_REQUEST, -32700, "parse error: the body is not JSON");
    }
    let caller = crate::mcp::caller_of(key.map(|(user, scope)| (user.id, scope)));
    let tools = McpTools::for_caller(&state.tool_deps(), caller);
    let hosts = crate::mcp::allowed_hosts(&state.public_url);
    let answer =
        crate::mcp::serve(tools, hosts, Request::from_parts(parts, Body::from(bytes))).await;
    refusal_as_json(answer).await
}

/// The transport's plain-text refusals as JSON: a message it cannot read (its 400, and its
/// 415 for JSON that is not a message: the content type was checked before) as the JSON-RPC
/// invalid-request error, the others in the error table.
async fn refusal_as_json(answer: Response) -> Response {
    let status = answer.status();
    let json = answer
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if status.is_success() || json {
        return answer;
    }
    let bytes = axum::body::to_bytes(answer.into_body(), 64 * 1024).await.unwrap_or_default();
    let message = String::from_utf8_lossy(&bytes).trim().to_owned();
    let code = match status {
        StatusCode::BAD_REQUEST | StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            return rpc_error(StatusCode::BAD_REQUEST, -32600, &message);
        }
        StatusCode::FORBIDDEN => ErrorCode::Forbidden,
        StatusCode::NOT_ACCEPTABLE => ErrorCode::NotAcceptable,
        StatusCode::NOT_FOUND => return rpc_error(status, -32601, &message),
        s if s.is_server_error() => ErrorCode::Internal,
        _ => return rpc_error(StatusCode::BAD_REQUEST, -32600, &message),
    };
    ApiError::new(code, message).into_response()
}
