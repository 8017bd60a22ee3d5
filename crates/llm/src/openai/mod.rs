//! The OpenAI-compatible chat-completions client.

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

/// The default per-call deadline.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(90);

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
    /// The per-call deadline.
    pub timeout: Duration,
}

impl OpenAiConfig {
    /// A configuration with no key and the default timeout.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: DEFAULT_TIMEOUT,
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
            timeout: config.timeout,
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

    /// A clone with another per-call deadline.
    #[must_use]
    pub fn with_timeout(&self, timeout: Duration) -> Self {
        Self { timeout, ..self.clone() }
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
        let mut builder = self
            .http
            .post(&*self.url)
            .header(CONTENT_TYPE, "application/json")
            .headers(self.headers.clone());
        if let Some(key) = &self.api_key {
            builder = builder.header(AUTHORIZATION, format!("Bearer {}", key.expose_secret()));
        }
        for (name, value) in req.headers {
            let (name, value) = header(name, value)?;
            builder = builder.header(name, value);
        }
        Ok(builder.body(body))
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
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
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
        while let Some(event) = events.next().await {
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
        if acc.is_empty() && !acc.emitted && !req.tools.is_empty() {
            return Ok(None);
        }
        Ok(Some(acc.finish()))
    }

    async fn call(&self, req: ChatRequest<'_>) -> Result<Choice, LlmError> {
        let Some(sink) = req.stream else {
            return self.plain(&req).await;
        };
        if let Some(choice) = self.streamed(&req).await? {
            return Ok(choice);
        }
        // Some servers stream nothing when tools are offered: ask again without streaming.
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
