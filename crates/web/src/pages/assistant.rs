//! The assistant on the pages: `/assistant` (the session rail and a "New chat" form) and
//! `/assistant/{id}` (the rail and the conversation), `POST /assistant` (a new session, then
//! 303 to it: a chat from "New chat", an interview rehearsal or a debrief from the tracking
//! pages' forms, whose `preset` and `job` fields name the preset and the held job) and
//! `POST /assistant/{id}/delete` (then 303 to `/assistant`).
//!
//! An interview or debrief session opens by itself: while it has no assistant message and
//! nothing to retry, its page shows a Start form (`POST /assistant/{id}/opening`), which the
//! script submits on load through the API's streamed `opening` route instead; a transcript
//! whose last turn ended without an answer ([`needs_retry`]) shows a Retry form
//! (`POST /assistant/{id}/retry`), which the script sends to the API's streamed `retry`
//! route. Without JavaScript both forms run the turn on the server, wait for it up to
//! [`TURN_WAIT`] and come back to the page (the turn goes on if it takes longer).
//!
//! The transcript is rendered on the server ([`transcript`]): the user's and the assistant's
//! messages, each tool call as a collapsible step (`<details>`: name, input, result) and a
//! `present_jobs` call as job cards (title and company from the catalogue, the model's note,
//! a Save form), so reading works without JavaScript. Sending needs it (the page says so in
//! a `<noscript>` note): `assets/app.js` posts to the JSON API's
//! `/api/v1/assistant/sessions/{id}/messages` with `fetch` (same origin, the session cookie),
//! reads the event stream as it arrives and appends the same markup; Stop posts `cancel`,
//! Retry (on an error result) posts `retry`, a 402 shows the quota.
//!
//! Signed out, the pages redirect to the sign-in page; a session of another account (or an
//! id that is not a UUID) is the 404 page, and so is an interview for a job the viewer does
//! not hold (saying so). Everything goes through the app's assistant service, never the
//! store.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use askama::Template;
use axum::{
    body::Bytes,
    extract::{Path, State},
    http::StatusCode,
    response::Response,
};
use freehire_app::assistant::needs_retry;
use freehire_app::assistant::service::{ServiceError, SessionView, TurnEvents};
use freehire_app::tracking::SlugSet;
use freehire_domain::{PublicSlug, User};
use serde_json::Value;

use super::forms::{Fields, see_other, sign_in_first};
use super::tracking::signed_in;
use crate::{WebError, WebState, layout::Ctx, layout::Layout};

/// A transcript shown longer than this (a tool's input or result) is cut.
pub const SHOWN_CHARS: usize = 4000;

/// How long the Start and Retry forms wait for their turn without JavaScript before they come
/// back to the page (inside the pages' [`crate::REQUEST_TIMEOUT`]).
pub const TURN_WAIT: Duration = Duration::from_secs(20);

/// One session in the rail.
pub struct RailItem {
    /// Its page.
    pub href: String,
    /// Its label, or "New conversation".
    pub label: String,
    /// Its preset.
    pub preset: String,
    /// When it last changed, in the viewer's zone.
    pub updated: String,
    /// Whether it is the open one.
    pub current: bool,
}

/// A job card of a `present_jobs` step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobCard {
    /// The job's public slug.
    pub slug: String,
    /// Its page.
    pub href: String,
    /// Its title (the slug when the job is gone).
    pub title: String,
    /// Its company.
    pub company: String,
    /// Its location.
    pub location: String,
    /// The model's note.
    pub note: String,
    /// Why it fits.
    pub why_fits: Vec<String>,
    /// What may not fit.
    pub concerns: Vec<String>,
    /// Whether the viewer saved it.
    pub saved: bool,
}

/// One tool call and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The call's id.
    pub id: String,
    /// The tool.
    pub name: String,
    /// Its input, pretty JSON.
    pub input: String,
    /// Its result, pretty JSON, once it ran.
    pub result: Option<String>,
    /// Whether the result is an error.
    pub is_error: bool,
    /// The cards of a `present_jobs` call (its receipt's `presented` slugs, in order).
    pub jobs: Vec<JobCard>,
    /// A `request_confirmation` that went through: the Yes/No buttons.
    pub confirm: Option<Confirm>,
}

/// A claim the assistant asks the candidate to confirm: Yes sends `claim` verbatim as their
/// message, No sends [`DECLINE`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirm {
    /// The claim, as the candidate would say it.
    pub claim: String,
    /// The question above the buttons.
    pub question: String,
}

/// What No sends.
pub const DECLINE: &str = "No, that is not something I have done.";

/// One entry of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// `user`, `assistant` or `step`.
    pub kind: &'static str,
    /// The text of a message.
    pub text: String,
    /// The tool call of a step.
    pub step: Option<Step>,
}

/// The open conversation.
pub struct Chat {
    /// The session's id.
    pub id: String,
    /// Its page.
    pub href: String,
    /// Its heading.
    pub title: String,
    /// Its preset as the page names it.
    pub preset: &'static str,
    /// The tracking page of the job an interview or debrief is about, while the job exists.
    pub job_href: Option<String>,
    /// The transcript.
    pub items: Vec<Item>,
    /// Whether it opens by itself and has not yet: the Start form (submitted on load by the
    /// script).
    pub start: bool,
    /// Whether its last turn ended without an answer: the Retry form.
    pub retryable: bool,
    /// A tailoring session's workspace: the vacancy, the copy, the report, the run controls.
    pub tailor: Option<super::tailoring::Panel>,
}

/// `/assistant` and `/assistant/{id}`.
#[derive(Template)]
#[template(path = "assistant.html")]
pub struct AssistantPage {
    /// The layout.
    pub layout: Layout,
    /// The rail, newest first.
    pub sessions: Vec<RailItem>,
    /// The open conversation.
    pub chat: Option<Chat>,
}

/// A job as a card shows it: title, company, location.
#[derive(Debug, Clone, Default)]
pub struct JobFacts {
    /// Its title.
    pub title: String,
    /// Its company.
    pub company: String,
    /// Its location.
    pub location: String,
}

fn pretty(raw: &str) -> String {
    let shown = match serde_json::from_str::<Value>(raw) {
        Ok(v) => serde_json::to_string_pretty(&v).unwrap_or_else(|_| raw.to_owned()),
        Err(_) => raw.to_owned(),
    };
    cut(&shown, SHOWN_CHARS)
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

fn text_of(content: &Value) -> &str {
    content.get("text").and_then(Value::as_str).unwrap_or_default()
}

fn strings(value: &Value, key: &str) -> Vec<String> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// The slugs a `present_jobs` step shows: its receipt's `presented`, in order.
pub fn presented(result: &str) -> Vec<String> {
    serde_json::from_str::<Value>(result).map(|v| strings(&v, "presented")).unwrap_or_default()
}

/// The conversation of a transcript (`(role, content JSON)` in order): messages as text,
/// each tool call a [`Step`] completed by its result, `present_jobs` steps with cards whose
/// facts come from `jobs` (by slug; a missing one shows its slug) and `saved` marks.
pub fn transcript<'a>(
    messages: impl IntoIterator<Item = (&'a str, &'a str)>,
    jobs: &HashMap<String, JobFacts>,
    saved: &dyn Fn(&str) -> bool,
) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    let mut inputs: HashMap<String, Value> = HashMap::new();
    for (role, content) in messages {
        let content: Value = serde_json::from_str(content).unwrap_or(Value::Null);
        match role {
            "user" => {
                items.push(Item { kind: "user", text: text_of(&content).to_owned(), step: None })
            }
            "assistant" => {
                let text = text_of(&content).trim();
                if !text.is_empty() {
                    items.push(Item { kind: "assistant", text: text.to_owned(), step: None });
                }
                for call in
                    content.get("tool_calls").and_then(Value::as_array).into_iter().flatten()
                {
                    let id = call.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
                    let name =
                        call.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
                    let raw = call.get("arguments").and_then(Value::as_str).unwrap_or_default();
                    inputs.insert(id.clone(), serde_json::from_str(raw).unwrap_or(Value::Null));
                    let step = Step {
                        id,
                        name,
                        input: pretty(raw),
                        result: None,
                        is_error: false,
                        jobs: Vec::new(),
                        confirm: None,
                    };
                    items.push(Item { kind: "step", text: String::new(), step: Some(step) });
                }
            }
            "tool" => {
                let id = content.get("tool_call_id").and_then(Value::as_str).unwrap_or_default();
                let result = content.get("result").and_then(Value::as_str).unwrap_or_default();
                let is_error = serde_json::from_str::<Value>(result)
                    .ok()
                    .is_some_and(|v| v.get("error").is_some());
                let open = items
                    .iter_mut()
                    .rev()
                    .filter_map(|i| i.step.as_mut())
                    .find(|s| s.id == id && s.result.is_none());
                let Some(step) = open else { continue };
                step.result = Some(pretty(result));
                step.is_error = is_error;
                if step.name == "present_jobs" && !is_error {
                    let input = inputs.get(id).cloned().unwrap_or(Value::Null);
                    step.jobs = cards(&input, &presented(result), jobs, saved);
                }
                if step.name == "request_confirmation" && !is_error {
                    let input = inputs.get(id).cloned().unwrap_or(Value::Null);
                    let field = |k: &str| {
                        input.get(k).and_then(Value::as_str).unwrap_or_default().trim().to_owned()
                    };
                    let claim = field("claim");
                    if !claim.is_empty() {
                        step.confirm = Some(Confirm { claim, question: field("question") });
                    }
                }
            }
            _ => {}
        }
    }
    items
}

/// The cards of the `presented` slugs, with the notes of `input` (the call's arguments).
fn cards(
    input: &Value,
    presented: &[String],
    jobs: &HashMap<String, JobFacts>,
    saved: &dyn Fn(&str) -> bool,
) -> Vec<JobCard> {
    let entries: HashMap<&str, &Value> = input
        .get("jobs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|j| Some((j.get("slug")?.as_str()?, j)))
        .collect();
    presented
        .iter()
        .map(|slug| {
            let entry = entries.get(slug.as_str()).copied().unwrap_or(&Value::Null);
            let facts = jobs.get(slug).cloned().unwrap_or_default();
            JobCard {
                slug: slug.clone(),
                href: format!("/jobs/{slug}"),
                title: if facts.title.is_empty() { slug.clone() } else { facts.title },
                company: facts.company,
                location: facts.location,
                note: entry.get("note").and_then(Value::as_str).unwrap_or_default().to_owned(),
                why_fits: strings(entry, "why_fits"),
                concerns: strings(entry, "concerns"),
                saved: saved(slug),
            }
        })
        .collect()
}

/// Every slug a transcript's `present_jobs` receipts show (to look their jobs up once).
pub fn presented_slugs<'a>(messages: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (role, content) in messages {
        if role != "tool" {
            continue;
        }
        let Ok(content) = serde_json::from_str::<Value>(content) else { continue };
        if content.get("name").and_then(Value::as_str) != Some("present_jobs") {
            continue;
        }
        for slug in presented(content.get("result").and_then(Value::as_str).unwrap_or_default()) {
            if !out.contains(&slug) {
                out.push(slug);
            }
        }
    }
    out
}

/// The preset's name as the rail and the heading show it.
fn preset_label(preset: &str) -> &'static str {
    match preset {
        "profile" => "profile",
        "interview" => "interview rehearsal",
        "debrief" => "debrief",
        _ => "chat",
    }
}

/// Whether sessions of `preset` open by themselves (the interview and debrief briefs).
fn opens_itself(preset: &str) -> bool {
    matches!(preset, "interview" | "debrief")
}

/// A session's label: its own (an interview's names the job), else the job's slug for an
/// interview or debrief, else "New conversation".
fn label_of(v: &SessionView) -> String {
    if let Some(label) = v.session.label.as_deref().filter(|l| !l.trim().is_empty()) {
        return label.to_owned();
    }
    match (v.session.preset.as_str(), v.job.as_deref()) {
        ("interview", Some(job)) => format!("Interview: {job}"),
        ("debrief", Some(job)) => format!("Debrief: {job}"),
        _ => "New conversation".to_owned(),
    }
}

fn rail(views: &[SessionView], ctx: &Ctx, open: Option<&str>) -> Vec<RailItem> {
    views
        .iter()
        .map(|v| {
            let id = v.session.id.to_string();
            RailItem {
                href: format!("/assistant/{id}"),
                label: label_of(v),
                preset: preset_label(&v.session.preset).to_owned(),
                updated: ctx.date(v.session.updated_at),
                current: open == Some(id.as_str()),
            }
        })
        .collect()
}

/// `GET /assistant`: the rail and a "New chat" form.
pub async fn index(State(state): State<WebState>, ctx: Ctx) -> Response {
    let user = signed_in!(ctx, "/assistant");
    let views = match state.assistant.list(user.id).await {
        Ok(v) => v,
        Err(e) => return ctx.error(e),
    };
    ctx.page(&AssistantPage {
        layout: ctx.layout("Assistant"),
        sessions: rail(&views, &ctx, None),
        chat: None,
    })
}

/// `GET /assistant/{id}`: the rail and the conversation; another account's session (or a
/// malformed id) is the 404 page.
pub async fn show(State(state): State<WebState>, ctx: Ctx, Path(raw): Path<String>) -> Response {
    let user = signed_in!(ctx, format!("/assistant/{raw}"));
    // The service's session id type, parsed from the path (a non-UUID is not found).
    let Ok(id) = raw.parse() else { return ctx.error(WebError::NotFound) };
    let (view, messages) = match state.assistant.get(user.id, id).await {
        Ok(got) => got,
        Err(e) => return ctx.error(e),
    };
    let views = match state.assistant.list(user.id).await {
        Ok(v) => v,
        Err(e) => return ctx.error(e),
    };
    let rows: Vec<(&str, &str)> =
        messages.iter().map(|m| (m.role.as_str(), m.content.as_str())).collect();
    let (jobs, saved) = match job_facts(&state, &user, &presented_slugs(rows.iter().copied())).await
    {
        Ok(found) => found,
        Err(e) => return ctx.error(e),
    };
    let id = view.session.id.to_string();
    let title = label_of(&view);
    let retryable = needs_retry(&messages);
    let answered = messages.iter().any(|m| m.role.as_str() == "assistant");
    let start = opens_itself(&view.session.preset)
        && view.session.job_id.is_some()
        && !answered
        && !retryable;
    let chat = Chat {
        href: format!("/assistant/{id}"),
        title: title.clone(),
        preset: preset_label(&view.session.preset),
        job_href: view.job.as_ref().map(|slug| format!("/tracking/{slug}")),
        items: transcript(rows.iter().copied(), &jobs, &|slug| saved.contains(slug)),
        start,
        retryable,
        tailor: super::tailoring::panel(&state, &user, &view, answered).await,
        id: id.clone(),
    };
    ctx.page(&AssistantPage {
        layout: ctx.layout(title),
        sessions: rail(&views, &ctx, Some(&id)),
        chat: Some(chat),
    })
}

/// The cards' facts for `slugs` (from the catalogue) and which of them the viewer saved.
async fn job_facts(
    state: &WebState,
    user: &User,
    slugs: &[String],
) -> Result<(HashMap<String, JobFacts>, HashSet<String>), WebError> {
    let mut facts = HashMap::new();
    if slugs.is_empty() {
        return Ok((facts, HashSet::new()));
    }
    for raw in slugs {
        let Ok(slug) = PublicSlug::parse(raw) else { continue };
        if let Some(job) = state.catalogue.job(&slug).await? {
            facts.insert(
                raw.clone(),
                JobFacts {
                    title: job.posting.title.clone(),
                    company: job.posting.company.clone(),
                    location: job.posting.location.clone(),
                },
            );
        }
    }
    let saved = state.tracking.slugs(user.id, SlugSet::Saved).await?.into_iter().collect();
    Ok((facts, saved))
}

/// `POST /assistant` (`preset`, `job`): a new session, then its page. "New chat" sends
/// neither (a chat); the tracking pages' "Rehearse the interview" and "Debrief" send
/// `interview` or `debrief` and the job's slug. A job the viewer does not hold (saved or
/// applied to) is the 404 page saying so; another preset's refusal is the 422 page naming
/// the field.
pub async fn create(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let Some(user) = ctx.viewer.clone() else {
        return sign_in_first(if f.optional("job").is_some() { "/tracking" } else { "/assistant" });
    };
    match state.assistant.create(user.id, f.get("preset"), f.optional("job")).await {
        Ok(view) => see_other(&format!("/assistant/{}", view.session.id), &[]),
        // Creating reads no session: not found is always the job.
        Err(ServiceError::NotFound(what)) => ctx.error(WebError::Assistant {
            status: StatusCode::NOT_FOUND,
            message: format!(
                "{what}: an interview rehearsal or a debrief is about a job you saved or applied to"
            ),
        }),
        Err(e) => ctx.error(e),
    }
}

/// Reads a turn's events until its `result` or [`TURN_WAIT`], whichever comes first (the turn
/// goes on without a reader).
async fn wait_for(mut events: TurnEvents) {
    let _ = tokio::time::timeout(TURN_WAIT, async { while events.next().await.is_some() {} }).await;
}

/// The Start and Retry forms without JavaScript: run the turn (`retry`: the last one again,
/// else the opening), wait for it, then the session's page.
async fn run_turn(state: WebState, ctx: Ctx, raw: String, retry: bool) -> Response {
    let user = signed_in!(ctx, format!("/assistant/{raw}"));
    let Ok(id) = raw.parse() else { return ctx.error(WebError::NotFound) };
    let started = if retry {
        state.assistant.retry(&user, id).await
    } else {
        state.assistant.open(&user, id).await
    };
    match started {
        Ok(events) => {
            wait_for(events).await;
            see_other(&format!("/assistant/{id}"), &[])
        }
        Err(e) => ctx.error(e),
    }
}

/// `POST /assistant/{id}/opening`: the Start form (an interview's or debrief's opening).
pub async fn opening(State(state): State<WebState>, ctx: Ctx, Path(raw): Path<String>) -> Response {
    run_turn(state, ctx, raw, false).await
}

/// `POST /assistant/{id}/retry`: the Retry form (the last turn again).
pub async fn retry(State(state): State<WebState>, ctx: Ctx, Path(raw): Path<String>) -> Response {
    run_turn(state, ctx, raw, true).await
}

/// `POST /assistant/{id}/delete`: deletes the session (stopping its turn), then `/assistant`.
pub async fn delete(State(state): State<WebState>, ctx: Ctx, Path(raw): Path<String>) -> Response {
    let Some(user) = ctx.viewer.clone() else { return sign_in_first("/assistant") };
    let Ok(id) = raw.parse() else { return ctx.error(WebError::NotFound) };
    match state.assistant.delete(user.id, id).await {
        Ok(()) => see_other("/assistant", &[]),
        Err(e) => ctx.error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_becomes_messages_steps_and_cards() {
        let rows = [
            ("user", r#"{"text":"find me remote Rust jobs"}"#),
            (
                "assistant",
                r#"{"tool_calls":[{"id":"c1","name":"search_jobs","arguments":"{\"query\":\"rust\"}"}]}"#,
            ),
            ("tool", r#"{"tool_call_id":"c1","name":"search_jobs","result":"{\"total\":2}"}"#),
            (
                "assistant",
                r#"{"text":"Two fit.","tool_calls":[{"id":"c2","name":"present_jobs","arguments":"{\"jobs\":[{\"slug\":\"a-1\",\"note\":\"remote\",\"why_fits\":[\"rust\"]},{\"slug\":\"gone-2\",\"note\":\"x\"}]}"}]}"#,
            ),
            (
                "tool",
                r#"{"tool_call_id":"c2","name":"present_jobs","result":"{\"presented\":[\"a-1\"],\"dropped\":[{\"slug\":\"gone-2\"}]}"}"#,
            ),
            ("assistant", r#"{"text":"Shall I save one?"}"#),
            ("tool", r#"{"tool_call_id":"nobody","name":"x","result":"{}"}"#),
        ];
        assert_eq!(presented_slugs(rows), vec!["a-1".to_owned()]);
        let jobs = HashMap::from([(
            "a-1".to_owned(),
            JobFacts {
                title: "Rust Engineer".into(),
                company: "Acme".into(),
                location: "Remote".into(),
            },
        )]);
        let items = transcript(rows, &jobs, &|slug| slug == "a-1");
        let kinds: Vec<&str> = items.iter().map(|i| i.kind).collect();
        assert_eq!(kinds, ["user", "step", "assistant", "step", "assistant"]);
        let search = items[1].step.as_ref().unwrap();
        assert_eq!((search.name.as_str(), search.is_error), ("search_jobs", false));
        assert!(search.input.contains("\"query\": \"rust\""), "{}", search.input);
        assert!(search.result.as_deref().unwrap().contains("\"total\": 2"));
        let shown = items[3].step.as_ref().unwrap();
        assert_eq!(shown.jobs.len(), 1);
        let card = &shown.jobs[0];
        assert_eq!(
            (card.title.as_str(), card.company.as_str(), card.note.as_str()),
            ("Rust Engineer", "Acme", "remote")
        );
        assert_eq!(card.why_fits, vec!["rust".to_owned()]);
        assert!(card.saved);
        assert_eq!(items[4].text, "Shall I save one?");
    }

    #[test]
    fn an_error_result_is_marked_and_shows_no_cards() {
        let rows = [
            ("assistant", r#"{"tool_calls":[{"id":"c1","name":"present_jobs","arguments":"{}"}]}"#),
            (
                "tool",
                r#"{"tool_call_id":"c1","name":"present_jobs","result":"{\"error\":\"jobs must contain at least one vacancy to show\"}"}"#,
            ),
        ];
        let items = transcript(rows, &HashMap::new(), &|_| false);
        let step = items[0].step.as_ref().unwrap();
        assert!(step.is_error && step.jobs.is_empty());
        assert_eq!(cut("abcdef", 2), "ab…");
    }
}
