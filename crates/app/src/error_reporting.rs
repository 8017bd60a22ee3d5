//! Errors to Sentry (reference search-ingest §11.1: opt-in, errors only, no PII). Off unless
//! `FREEHIRE_SENTRY_DSN` is set; then every `ERROR` log line of the process (and a panic)
//! becomes one Sentry event, and nothing else is sent: no breadcrumbs, no `INFO`/`WARN`
//! lines, no performance data.
//!
//! No PII: the client never attaches default PII (`send_default_pii` off), and
//! [`scrub_event`] runs on every event before it leaves: the user, the request, the server's
//! host name and the breadcrumbs are dropped, and email addresses and API keys (`fhk_…`) in
//! the message, the exception values and the tags are replaced by `[email]` and `[key]`.
//! Log fields travel as the event's extra data, scrubbed the same way.
//!
//! Any Sentry-protocol endpoint works (sentry.io, a self-hosted Sentry, GlitchTip): the test
//! points the DSN at a local server that reads the envelopes.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use regex::Regex;
use sentry::protocol::{Event, Value};

/// Where errors go (`--sentry-dsn`, `--sentry-environment`).
#[derive(Debug, Clone, clap::Args)]
pub struct SentryArgs {
    /// Send every error (an `ERROR` log line or a panic) to this Sentry DSN, without personal
    /// data (emails and API keys scrubbed, no user, request or host name). Unset: nothing is
    /// sent.
    #[arg(long, env = "FREEHIRE_SENTRY_DSN", hide_env_values = true)]
    pub sentry_dsn: Option<String>,
    /// The environment the events are filed under.
    #[arg(long, env = "FREEHIRE_SENTRY_ENVIRONMENT", default_value = "production")]
    pub sentry_environment: String,
}

/// Keeps error reporting on; dropping it sends what is queued (up to 2 s).
pub struct Reporting {
    _guard: Option<sentry::ClientInitGuard>,
}

impl Reporting {
    /// Whether events are sent.
    pub fn enabled(&self) -> bool {
        self._guard.as_ref().is_some_and(|g| g.is_enabled())
    }
}

/// Starts error reporting for this process (`release` names the binary and its version); off
/// without a DSN. A DSN that cannot be parsed is an error naming the variable.
pub fn init(args: &SentryArgs, release: &'static str) -> Result<Reporting, String> {
    let Some(dsn) = args.sentry_dsn.as_deref().map(str::trim).filter(|d| !d.is_empty()) else {
        return Ok(Reporting { _guard: None });
    };
    let dsn: sentry::types::Dsn =
        dsn.parse().map_err(|e| format!("FREEHIRE_SENTRY_DSN is not a Sentry DSN: {e}"))?;
    let mut options = sentry::ClientOptions::default();
    options.dsn = Some(dsn);
    options.release = Some(Cow::Borrowed(release));
    options.environment = Some(Cow::Owned(args.sentry_environment.clone()));
    options.send_default_pii = false;
    options.max_breadcrumbs = 0;
    options.attach_stacktrace = false;
    options.before_send = Some(Arc::new(|event| Some(scrub_event(event))));
    Ok(Reporting { _guard: Some(sentry::init(options)) })
}

/// The tracing layer that turns `ERROR` events into Sentry events and ignores the rest.
pub fn layer<S>() -> impl tracing_subscriber::Layer<S>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    use tracing_subscriber::Layer;
    sentry::integrations::tracing::ErrorLayer::new()
        .with_filter(tracing_subscriber::filter::LevelFilter::ERROR)
}

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}")
        .unwrap_or_else(|_| unreachable!())
});
static KEY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"fhk_[A-Za-z0-9_\-]+").unwrap_or_else(|_| unreachable!()));

/// `text` with email addresses and API keys replaced.
pub fn scrub(text: &str) -> String {
    let text = EMAIL.replace_all(text, "[email]");
    KEY.replace_all(&text, "[key]").into_owned()
}

fn scrub_value(value: &mut Value) {
    match value {
        Value::String(s) => *s = scrub(s),
        Value::Array(items) => items.iter_mut().for_each(scrub_value),
        Value::Object(map) => map.values_mut().for_each(scrub_value),
        _ => {}
    }
}

/// The event as it may leave the process (see the module docs).
pub fn scrub_event(mut event: Event<'static>) -> Event<'static> {
    event.user = None;
    event.request = None;
    event.server_name = None;
    event.breadcrumbs = Default::default();
    if let Some(message) = event.message.as_mut() {
        *message = scrub(message);
    }
    if let Some(entry) = event.logentry.as_mut() {
        entry.message = scrub(&entry.message);
        entry.params.iter_mut().for_each(scrub_value);
    }
    for exception in event.exception.values.iter_mut() {
        if let Some(value) = exception.value.as_mut() {
            *value = scrub(value);
        }
    }
    event.extra.values_mut().for_each(scrub_value);
    for value in event.tags.values_mut() {
        *value = scrub(value);
    }
    for context in event.contexts.values_mut() {
        if let sentry::protocol::Context::Other(map) = context {
            map.values_mut().for_each(scrub_value);
        }
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_and_keys_are_scrubbed_everywhere() {
        assert_eq!(
            scrub("cannot mail ada.l@example.co.uk with fhk_abc123_XY: refused"),
            "cannot mail [email] with [key]: refused"
        );
        let mut event = Event {
            message: Some("login failed for bob@example.com".into()),
            user: Some(sentry::protocol::User {
                email: Some("bob@example.com".into()),
                ..Default::default()
            }),
            server_name: Some("host-1".into()),
            ..Default::default()
        };
        event.extra.insert("to".into(), Value::String("bob@example.com".into()));
        event.tags.insert("key".into(), "fhk_secret".into());
        let clean = scrub_event(event);
        assert_eq!(clean.message.as_deref(), Some("login failed for [email]"));
        assert!(clean.user.is_none() && clean.server_name.is_none());
        assert_eq!(clean.extra["to"], Value::String("[email]".into()));
        assert_eq!(clean.tags["key"], "[key]");
    }

    #[test]
    fn without_a_dsn_nothing_is_set_up_and_a_bad_one_is_named() {
        let off = SentryArgs { sentry_dsn: None, sentry_environment: "test".into() };
        assert!(!init(&off, "freehire-test").unwrap().enabled());
        let bad = SentryArgs { sentry_dsn: Some("not a dsn".into()), ..off };
        let err = init(&bad, "freehire-test").err().unwrap();
        assert!(err.contains("FREEHIRE_SENTRY_DSN"), "{err}");
    }
}
