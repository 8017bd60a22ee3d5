//! The assistant's event stream as a `text/event-stream` response (reference §8.6, the HTTP
//! half; the turn itself runs on its own task, see
//! [`freehire_app::assistant::service::launch`]).
//!
//! The body opens with the comment `: open` at once, then writes each event as
//! `event: <type>\ndata: <json>\n\n` and a `: keepalive` comment every
//! [`SseConfig::keepalive`] (15 s by default) while the turn is quiet. A forwarding task
//! moves frames from the turn's [`TurnEvents`] into the body one at a time, each write
//! bounded by [`SseConfig::write_timeout`] (10 s): a write the client does not take in time
//! counts as failed and is skipped, and a client that has gone ends the forwarding. Neither
//! ever reaches the turn, which only ever drops events for a reader that is slow or gone.
//! The stream ends after the one terminal `result` event.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use freehire_app::assistant::Event;
use freehire_app::assistant::service::TurnEvents;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::SendTimeoutError;

/// The keepalive interval (our choice; the reference leaves it open).
pub const KEEPALIVE_EVERY: Duration = Duration::from_secs(15);
/// The bound of one write to the client.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// The stream's timings (tests shorten them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SseConfig {
    /// How often a quiet stream sends `: keepalive`.
    pub keepalive: Duration,
    /// How long one write may wait for the client.
    pub write_timeout: Duration,
}

impl Default for SseConfig {
    fn default() -> Self {
        Self { keepalive: KEEPALIVE_EVERY, write_timeout: WRITE_TIMEOUT }
    }
}

/// One event as its SSE frame.
pub fn frame(event: &Event) -> Bytes {
    let data = serde_json::to_string(event).unwrap_or_else(|_| {
        r#"{"type":"result","stop_reason":"error","is_error":true}"#.to_owned()
    });
    Bytes::from(format!("event: {}\ndata: {data}\n\n", event.kind()))
}

/// The streamed response over a turn's events.
pub fn response(events: TurnEvents, config: SseConfig) -> Response {
    let (tx, mut rx) = mpsc::channel::<Bytes>(1);
    tokio::spawn(forward(events, tx, config));
    let body = futures::stream::poll_fn(move |cx| {
        rx.poll_recv(cx).map(|b| b.map(Ok::<_, std::convert::Infallible>))
    });
    let mut response = Body::from_stream(body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// What one bounded write did.
enum Wrote {
    /// Taken (or skipped after its deadline).
    Done,
    /// The client has gone.
    Gone,
}

async fn write(tx: &mpsc::Sender<Bytes>, bytes: Bytes, limit: Duration) -> Wrote {
    match tx.send_timeout(bytes, limit).await {
        Ok(()) => Wrote::Done,
        Err(SendTimeoutError::Timeout(_)) => {
            tracing::debug!("an SSE write missed its deadline; skipped");
            Wrote::Done
        }
        Err(SendTimeoutError::Closed(_)) => Wrote::Gone,
    }
}

async fn forward(mut events: TurnEvents, tx: mpsc::Sender<Bytes>, config: SseConfig) {
    if let Wrote::Gone = write(&tx, Bytes::from_static(b": open\n\n"), config.write_timeout).await {
        return;
    }
    let start = tokio::time::Instant::now() + config.keepalive;
    let mut keepalive = tokio::time::interval_at(start, config.keepalive);
    keepalive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let bytes = tokio::select! {
            event = events.next() => match event {
                Some(event) => {
                    let last = event.is_terminal();
                    let wrote = write(&tx, frame(&event), config.write_timeout).await;
                    if last || matches!(wrote, Wrote::Gone) {
                        return;
                    }
                    keepalive.reset();
                    continue;
                }
                None => return,
            },
            _ = keepalive.tick() => Bytes::from_static(b": keepalive\n\n"),
        };
        if let Wrote::Gone = write(&tx, bytes, config.write_timeout).await {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use freehire_app::assistant::StopReason;

    use super::*;

    fn events() -> TurnEvents {
        TurnEvents::finished(
            vec![Event::AssistantText { text: "hi".into() }],
            Event::result(StopReason::EndTurn),
        )
    }

    // scenario: A write the client does not take is skipped
    #[tokio::test]
    async fn a_write_the_client_does_not_take_is_skipped_and_never_waits_longer() {
        let (tx, mut rx) = mpsc::channel(1);
        let config = SseConfig {
            keepalive: Duration::from_secs(3600),
            write_timeout: Duration::from_millis(30),
        };
        // Nobody reads: `: open` fills the one slot, every later write misses its deadline.
        tokio::time::timeout(Duration::from_secs(2), forward(events(), tx, config))
            .await
            .expect("the forwarding ends though the client takes nothing");
        assert_eq!(rx.recv().await.unwrap(), Bytes::from_static(b": open\n\n"));
        assert!(rx.recv().await.is_none(), "the skipped writes are gone");
    }

    #[tokio::test]
    async fn a_client_that_has_gone_ends_the_forwarding() {
        let (tx, rx) = mpsc::channel(1);
        drop(rx);
        tokio::time::timeout(Duration::from_secs(2), forward(events(), tx, SseConfig::default()))
            .await
            .expect("nothing is waited for");
    }

    #[tokio::test]
    async fn a_reading_client_gets_open_the_events_and_the_result() {
        let (tx, mut rx) = mpsc::channel(1);
        tokio::spawn(forward(events(), tx, SseConfig::default()));
        let mut body = String::new();
        while let Some(bytes) = rx.recv().await {
            body.push_str(std::str::from_utf8(&bytes).unwrap());
        }
        assert!(body.starts_with(": open\n\nevent: assistant_text\n"), "{body}");
        assert!(
            body.ends_with(
                "event: result\ndata: {\"type\":\"result\",\"stop_reason\":\"end_turn\"}\n\n"
            ),
            "{body}"
        );
    }

    #[test]
    fn an_event_is_its_type_and_its_json() {
        let frame = frame(&Event::ToolUse {
            id: "c1".into(),
            name: "search_jobs".into(),
            input: serde_json::json!({"query": "rust"}),
        });
        assert_eq!(
            frame,
            "event: tool_use\ndata: {\"type\":\"tool_use\",\"id\":\"c1\",\"name\":\"search_jobs\",\"input\":{\"query\":\"rust\"}}\n\n"
        );
        assert_eq!(
            super::frame(&Event::result(StopReason::Cancelled)),
            "event: result\ndata: {\"type\":\"result\",\"stop_reason\":\"cancelled\"}\n\n"
        );
    }
}
