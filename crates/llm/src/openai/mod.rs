//! The OpenAI-compatible chat-completions client.
//!
//! Deadlines: every call has a total deadline ([`OpenAiConfig::timeout`], default
//! [`DEFAULT_TIMEOUT`] = 300 s) over everything it does, the empty-stream fallback included,
//! and a streamed call also has an idle deadline ([`OpenAiConfig::idle_timeout`], default
//! [`DEFAULT_IDLE_TIMEOUT`] = 30 s) between body chunks once the first one arrived (the wait
//! for the first is prompt processing, which a slow local server may legitimately spend
//! minutes on, so only the total deadline bounds it). A long answer that keeps streaming is
//! never cut by the idle deadline; a server that stalls mid-answer fails within it
//! ([`LlmError::Idle`]).
//!
//! Headers: the client's own (`with_header`, the key as `Authorization`) are sent on every
//! call, and a per-call header ([`ChatRequest::headers`]) **replaces** a client-level header
//! of the same name (case-insensitive) instead of being sent beside it.
//!
//! Leaked tool calls: some models write a tool call into the answer text. Two rules keep it
//! out of the user's text (never sent to the sink, never in `content`), streamed or not:
//! (1) a `<tool_call>` … `</tool_call>` block anywhere is removed, tags included (an unclosed
//! block runs to the end; a delta ending in a partial `<tool_` tag is held until the next);
//! (2) content whose first non-whitespace character is `{` is held back until decided, and
//! removed when the whole content, trimmed, is one or more JSON objects separated by
//! whitespace, each with a non-empty string `name` and an `arguments` or `parameters` member;
//! anything else (another shape, text after the object, not JSON, more than 64 KiB) is
//! released unchanged as soon as that is known. A removed block of that call shape becomes a
//! tool call (with a `call_<n>` id) when the answer has no real tool calls.

mod leak;
mod stream;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use eventsource_stream::Eventsource;
use futures::StreamExt;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use secrecy::{ExposeSecret, SecretString};

pub use wire::{parse_response, request_body};

use crate::{Cause, ChatModel, ChatRequest, Choice, LlmError};
use stream::Assembler;

/// The default total deadline of one call (our choice).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
/// The default deadline between two chunks of a streamed answer (our choice).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// How to reach an OpenAI-compatible endpoint. Its `Debug` never shows the key (a
/// [`SecretString`] prints as redacted).
#[derive(Clone, Debug)]
pub struct OpenAiConfig {
    /// The endpoint's base URL, e.g. `http://127.0.0.1:8000` or `https://api.openai.com/v1`.
    /// `/v1/chat/completions` is appended, or only `/chat/completions` when the URL already
    /// ends in `/v1`.
    pub base_url: String,
    /// The model name sent with every request.
    pub model: String,
    /// The bearer token, if the endpoint needs one.
    pub api_key: Option<SecretString>,
    /// The total deadline of one call ([`DEFAULT_TIMEOUT`]).
    pub timeout: Duration,
    /// The deadline between two chunks of a streamed answer ([`DEFAULT_IDLE_TIMEOUT`]).
    pub idle_timeout: Duration,
}

impl OpenAiConfig {
    /// A configuration with no key and the default deadlines.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: DEFAULT_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
        }
    }
}

/// A [`ChatModel`] over HTTP. Cheap to clone; the clones share one connection pool. Its
/// `Debug` shows header names, never values, and never the key.
#[derive(Clone)]
pub struct OpenAiClient {
    http: reqwest::Client,
    url: Arc<str>,
    model: Arc<str>,
    api_key: Option<SecretString>,
    headers: HeaderMap,
    timeout: Duration,
    idle_timeout: Duration,
    tool_choice: Option<Arc<serde_json::Value>>,
}

impl std::fmt::Debug for OpenAiClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiClient")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("api_key", &self.api_key)
            .field("headers", &self.headers.keys().collect::<Vec<_>>())
            .field("timeout", &self.timeout)
            .field("idle_timeout", &self.idle_timeout)
            .finish()
    }
}

impl OpenAiClient {
    /// A client for `config`. Fails only on an unusable base URL.
    pub fn new(config: OpenAiConfig) -> Result<Self, LlmError> {
        let base = config.base_url.trim().trim_end_matches('/');
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(LlmError::Config(format!(
                "base URL {base:?} must start with http:// or https://"
            )));
        }
        let url = if base.ends_with("/v1") {
            format!("{base}/chat/completions")
        } else {
            format!("{base}/v1/chat/completions")
        };
        let http =
            reqwest::Client::builder().build().map_err(|e| LlmError::Client(Cause::new(e)))?;
        Ok(Self {
            http,
            url: url.into(),
            model: config.model.into(),
            api_key: config.api_key.filter(|k| !k.expose_secret().is_empty()),
            headers: HeaderMap::new(),
            timeout: nonzero(config.timeout, DEFAULT_TIMEOUT),
            idle_timeout: nonzero(config.idle_timeout, DEFAULT_IDLE_TIMEOUT),
            tool_choice: None,
        })
    }

    /// The chat-completions URL requests go to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The model name.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// A clone that authenticates with `key` (e.g. a per-user gateway key).
    #[must_use]
    pub fn with_api_key(&self, key: impl Into<String>) -> Self {
        let key: String = key.into();
        Self { api_key: (!key.is_empty()).then(|| SecretString::from(key)), ..self.clone() }
    }

    /// A clone that sends `name: value` on every call (e.g. `x-bf-dim-feature: assistant`).
    pub fn with_header(&self, name: &str, value: &str) -> Result<Self, LlmError> {
        let mut next = self.clone();
        let (name, value) = header(name, value)?;
        next.headers.insert(name, value);
        Ok(next)
    }

    /// A clone with another total deadline per call (zero means the default).
    #[must_use]
    pub fn with_timeout(&self, timeout: Duration) -> Self {
        Self { timeout: nonzero(timeout, DEFAULT_TIMEOUT), ..self.clone() }
    }

    /// A clone with another deadline between stream chunks (zero means the default).
    #[must_use]
    pub fn with_idle_timeout(&self, idle: Duration) -> Self {
        Self { idle_timeout: nonzero(idle, DEFAULT_IDLE_TIMEOUT), ..self.clone() }
    }

    /// A clone that sends this `tool_choice` whenever tools are offered (never on a tool-less
    /// call). By default none is sent, which servers treat as `"auto"`; some servers answer
    /// `"required"` with an error, so prefer naming a function when forcing one.
    #[must_use]
    pub fn with_tool_choice(&self, choice: Option<serde_json::Value>) -> Self {
        Self { tool_choice: choice.map(Arc::new), ..self.clone() }
    }

    fn post(
        &self,
        req: &ChatRequest<'_>,
        stream: bool,
    ) -> Result<reqwest::RequestBuilder, LlmError> {
        let body = wire::encode_request(
            &self.model,
            req.messages,
            req.tools,
            stream,
            self.tool_choice.as_deref(),
        );
        let mut headers = self.headers.clone();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(key) = &self.api_key {
            let (name, value) =
                header(AUTHORIZATION.as_str(), &format!("Bearer {}", key.expose_secret()))?;
            headers.insert(name, value);
        }
        // Per-call headers replace the client's of the same name (several per-call values of
        // one name are all sent).
        let mut per_call = HeaderMap::new();
        for (name, value) in req.headers {
            let (name, value) = header(name, value)?;
            per_call.append(name, value);
        }
        for name in per_call.keys() {
            headers.remove(name);
        }
        for (name, value) in &per_call {
            headers.append(name.clone(), value.clone());
        }
        Ok(self.http.post(&*self.url).headers(headers).body(body))
    }

    async fn send(
        &self,
        req: &ChatRequest<'_>,
        stream: bool,
    ) -> Result<reqwest::Response, LlmError> {
        let resp =
            self.post(req, stream)?.send().await.map_err(|e| LlmError::Transport(Cause::new(e)))?;
        let status = resp.status();
        if status.is_success() {
            return Ok(resp);
        }
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after(v, std::time::SystemTime::now()));
        let body = resp.text().await.unwrap_or_default();
        let message = provider_message(&body);
        Err(if status.as_u16() == 429 {
            LlmError::RateLimited { message, retry_after }
        } else {
            LlmError::Status { status: status.as_u16(), message }
        })
    }

    async fn plain(&self, req: &ChatRequest<'_>) -> Result<Choice, LlmError> {
        let resp = self.send(req, false).await?;
        let body = resp.text().await.map_err(|e| LlmError::Transport(Cause::new(e)))?;
        parse_response(&body)
    }

    /// A streamed call; `Ok(None)` when the stream carried no answer at all.
    async fn streamed(&self, req: &ChatRequest<'_>) -> Result<Option<Choice>, LlmError> {
        let sink = req.stream.unwrap_or(&crate::NoStream);
        let resp = self.send(req, true).await?;
        let is_sse = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if !is_sse {
            // The server ignored `stream: true` and answered in one piece (or with nothing).
            let body = resp.text().await.map_err(|e| LlmError::Transport(Cause::new(e)))?;
            if body.trim().is_empty() {
                return Ok(None);
            }
            let choice = parse_response(&body)?;
            deliver(&choice, sink);
            return Ok(Some(choice));
        }
        let mut events = resp.bytes_stream().eventsource();
        let mut acc = Assembler::default();
        let mut done = false;
        loop {
            // The first chunk waits under the total deadline only; later ones under the idle one.
            let next = if acc.chunks == 0 {
                events.next().await
            } else {
                tokio::time::timeout(self.idle_timeout, events.next())
                    .await
                    .map_err(|_| LlmError::Idle(self.idle_timeout))?
            };
            let Some(event) = next else { break };
            let event = event.map_err(|e| LlmError::StreamCut {
                reason: "the event stream failed".into(),
                source: Some(Cause::new(e)),
            })?;
            let data = event.data.trim();
            if data.is_empty() {
                continue;
            }
            if data == "[DONE]" {
                done = true;
                break;
            }
            acc.push(data, sink)?;
        }
        if acc.chunks == 0 {
            return Ok(None);
        }
        if !done && !acc.finished() {
            return Err(LlmError::stream_cut(format!(
                "no [DONE] and no finish_reason after {} chunks",
                acc.chunks
            )));
        }
        let choice = acc.finish(sink);
        if choice.content.trim().is_empty()
            && choice.tool_calls.is_empty()
            && choice.reasoning.is_empty()
            && !req.tools.is_empty()
        {
            return Ok(None);
        }
        Ok(Some(choice))
    }

    async fn call(&self, req: ChatRequest<'_>) -> Result<Choice, LlmError> {
        let Some(sink) = req.stream else {
            return self.plain(&req).await;
        };
        if let Some(choice) = self.streamed(&req).await? {
            return Ok(choice);
        }
        // Some servers stream nothing when tools are offered: ask again without streaming.
        // That is a second call, and a metered gateway bills it too.
        tracing::warn!(
            url = %self.url,
            model = %self.model,
            "the streamed answer was empty; asking again without streaming (a second billed call)"
        );
        let choice = self.plain(&req).await?;
        deliver(&choice, sink);
        Ok(choice)
    }
}

#[async_trait]
impl ChatModel for OpenAiClient {
    async fn chat(&self, request: ChatRequest<'_>) -> Result<Choice, LlmError> {
        tokio::time::timeout(self.timeout, self.call(request))
            .await
            .map_err(|_| LlmError::Timeout(self.timeout))?
    }
}

/// Hands a whole answer to the sink, for answers that did not arrive as a stream.
fn deliver(choice: &Choice, sink: &dyn crate::StreamSink) {
    if !choice.reasoning.is_empty() {
        sink.on_thinking(&choice.reasoning);
    }
    if !choice.content.is_empty() {
        sink.on_text(&choice.content);
    }
}

fn nonzero(d: Duration, default: Duration) -> Duration {
    if d.is_zero() { default } else { d }
}

/// A `Retry-After` value: delay seconds, or an HTTP date (a date in the past is no delay).
fn retry_after(value: &str, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

fn header(name: &str, value: &str) -> Result<(HeaderName, HeaderValue), LlmError> {
    let n = HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| LlmError::Config(format!("invalid header name {name:?}")))?;
    let v = HeaderValue::from_str(value)
        .map_err(|_| LlmError::Config(format!("invalid value for header {name:?}")))?;
    Ok((n, v))
}

/// The provider's `error.message` when the body is the usual JSON error, else a snippet.
fn provider_message(body: &str) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|v| {
        let e = v.get("error")?;
        e.get("message").and_then(|m| m.as_str()).or_else(|| e.as_str()).map(str::to_owned)
    });
    message.unwrap_or_else(|| snippet(body))
}

/// The first 300 characters of a body, for error messages.
pub(crate) fn snippet(body: &str) -> String {
    let body = body.trim();
    let cut: String = body.chars().take(300).collect();
    if cut.len() < body.len() {
        format!("{cut}…")
    } else if cut.is_empty() {
        "(empty body)".into()
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{SystemTime, UNIX_EPOCH};

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        // Sun, 06 Nov 1994 08:49:37 GMT
        let at = UNIX_EPOCH + Duration::from_secs(784_111_777);
        let before = at - Duration::from_secs(90);
        assert_eq!(retry_after(" 7 ", before), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:37 GMT", before),
            Some(Duration::from_secs(90))
        );
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:37 GMT", at + Duration::from_secs(5)),
            Some(Duration::ZERO),
            "a date in the past means now"
        );
        assert_eq!(retry_after("soon", SystemTime::now()), None);
    }
}
