//! The assistant's routes: sessions, their transcripts, streamed turns ([`TurnStream`]),
//! cancel, and today's allowances (`/me/usage`).
//!
//! A turn (`messages`, `retry`, `opening`) answers `text/event-stream`: a `: open` comment,
//! then `event: <type>` / `data: <json>` per event, `: keepalive` comments every 15 s, and
//! exactly one `result` event at the end. A refusal before the stream opens (402 with the
//! allowance, 409, 503, …) is a plain JSON error, returned as [`ClientError::Refused`].

use std::pin::Pin;
use std::task::{Context, Poll};

use eventsource_stream::Eventsource;
use futures::{Stream, StreamExt};
use reqwest::Method;

use crate::client::{refusal, segment};
use crate::wire::{Allowance, AssistantSession, Envelope, Prompt, SessionTranscript, TurnEvent};
use crate::{Client, ClientError};

type Events = Pin<Box<dyn Stream<Item = Result<TurnEvent, ClientError>> + Send>>;

/// The events of one streamed turn, in order, ending after its `result` event. A stream that
/// breaks or ends before its `result` yields one error and then ends; the turn itself goes on
/// on the server (only [`Client::cancel`] stops it).
pub struct TurnStream {
    events: Events,
    done: bool,
}

impl std::fmt::Debug for TurnStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnStream").field("done", &self.done).finish_non_exhaustive()
    }
}

impl TurnStream {
    /// The next event, `None` after the `result` (or after an error).
    pub async fn next_event(&mut self) -> Option<Result<TurnEvent, ClientError>> {
        self.next().await
    }
}

impl Stream for TurnStream {
    type Item = Result<TurnEvent, ClientError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        let item = std::task::ready!(self.events.as_mut().poll_next(cx));
        match &item {
            Some(Ok(event)) if event.is_terminal() => self.done = true,
            Some(Err(_)) | None => self.done = true,
            Some(Ok(_)) => {}
        }
        Poll::Ready(item)
    }
}

impl Client {
    /// `POST /assistant/sessions?preset=…&job=…`: a new session (`chat` when `preset` is
    /// `None`; `interview` and `debrief` need the `job` slug of an application).
    pub async fn create_session(
        &self,
        preset: Option<&str>,
        job: Option<&str>,
    ) -> Result<AssistantSession, ClientError> {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        if let Some(preset) = preset {
            query.append_pair("preset", preset);
        }
        if let Some(job) = job {
            query.append_pair("job", job);
        }
        let query = query.finish();
        let path = if query.is_empty() {
            "assistant/sessions".to_owned()
        } else {
            format!("assistant/sessions?{query}")
        };
        let created: Envelope<AssistantSession> =
            self.call(Method::POST, &path, None::<&()>).await?;
        Ok(created.data)
    }

    /// `GET /assistant/sessions`: the rail's sessions, newest first, and their total.
    pub async fn sessions(&self) -> Result<(Vec<AssistantSession>, u64), ClientError> {
        let list: Envelope<Vec<AssistantSession>> =
            self.call(Method::GET, "assistant/sessions", None::<&()>).await?;
        let total = list.meta.total.or(list.total).unwrap_or(list.data.len() as u64);
        Ok((list.data, total))
    }

    /// `GET /assistant/sessions/{id}`: the session and its whole transcript.
    pub async fn session(&self, id: &str) -> Result<SessionTranscript, ClientError> {
        let path = format!("assistant/sessions/{}", segment(id));
        let got: Envelope<SessionTranscript> = self.call(Method::GET, &path, None::<&()>).await?;
        Ok(got.data)
    }

    /// `DELETE /assistant/sessions/{id}`.
    pub async fn delete_session(&self, id: &str) -> Result<(), ClientError> {
        let path = format!("assistant/sessions/{}", segment(id));
        self.send(Method::DELETE, &path, None::<&()>).await.map(drop)
    }

    /// `POST /assistant/sessions/{id}/messages`: sends `text` and streams the turn.
    pub async fn send_message(&self, id: &str, text: &str) -> Result<TurnStream, ClientError> {
        self.stream(id, "messages", Some(&Prompt { text })).await
    }

    /// `POST /assistant/sessions/{id}/retry`: runs the last message again.
    pub async fn retry(&self, id: &str) -> Result<TurnStream, ClientError> {
        self.stream(id, "retry", None::<&()>).await
    }

    /// `POST /assistant/sessions/{id}/opening`: an interview's or debrief's first turn.
    pub async fn opening(&self, id: &str) -> Result<TurnStream, ClientError> {
        self.stream(id, "opening", None::<&()>).await
    }

    /// `POST /assistant/sessions/{id}/cancel`: stops the running turn and the queued one.
    pub async fn cancel(&self, id: &str) -> Result<(), ClientError> {
        let path = format!("assistant/sessions/{}/cancel", segment(id));
        self.send(Method::POST, &path, None::<&()>).await.map(drop)
    }

    /// `GET /me/usage`: today's standing per feature.
    pub async fn usage(&self) -> Result<Vec<Allowance>, ClientError> {
        let got: Envelope<Vec<Allowance>> = self.call(Method::GET, "me/usage", None::<&()>).await?;
        Ok(got.data)
    }

    /// Opens a turn's stream: a non-2xx answer is the server's refusal; a 2xx that is not
    /// `text/event-stream` is [`ClientError::Unexpected`].
    async fn stream<B: serde::Serialize>(
        &self,
        id: &str,
        action: &str,
        body: Option<&B>,
    ) -> Result<TurnStream, ClientError> {
        let path = format!("assistant/sessions/{}/{action}", segment(id));
        let (url, request) = self.request(Method::POST, &path, body)?;
        let unreachable = |source: reqwest::Error| ClientError::Unreachable {
            url: url.clone(),
            source: source.without_url(),
        };
        let response = request
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .send()
            .await
            .map_err(unreachable)?;
        let status = response.status();
        if !status.is_success() {
            // Each read is bounded by the client's read timeout; an error body is small.
            let bytes = response.bytes().await.map_err(unreachable)?;
            return Err(refusal(status, &bytes));
        }
        let is_sse = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/event-stream"));
        if !is_sse {
            return Err(ClientError::Unexpected {
                url,
                reason: "the answer is not an event stream (text/event-stream)".to_owned(),
            });
        }
        Ok(TurnStream { events: events(url, response), done: false })
    }
}

/// The SSE events of `response` decoded into [`TurnEvent`]s (comments skipped), with one
/// error when the body breaks or ends before a `result`.
fn events(url: String, response: reqwest::Response) -> Events {
    let state = (response.bytes_stream().eventsource(), url, false);
    let stream = futures::stream::unfold(state, |(mut sse, url, mut ended)| async move {
        if ended {
            return None;
        }
        let item = match sse.next().await {
            Some(Ok(event)) => decode(&url, &event.event, &event.data),
            Some(Err(e)) => {
                ended = true;
                Err(ClientError::Unexpected {
                    url: url.clone(),
                    reason: format!("the event stream broke: {e}"),
                })
            }
            None => {
                ended = true;
                Err(ClientError::Unexpected {
                    url: url.clone(),
                    reason: "the event stream ended before the turn's result".to_owned(),
                })
            }
        };
        Some((item, (sse, url, ended)))
    });
    Box::pin(stream)
}

/// One SSE event's data as a [`TurnEvent`] (`kind`, the `event:` line, is informative: the
/// data's own `type` decides).
fn decode(url: &str, kind: &str, data: &str) -> Result<TurnEvent, ClientError> {
    serde_json::from_str(data).map_err(|e| ClientError::Unexpected {
        url: url.to_owned(),
        reason: format!("an unreadable {kind:?} event: {e}"),
    })
}
