//! `freehire chat`: a line-oriented terminal client of the assistant, over the HTTP API with
//! an API key (`FREEHIRE_API_URL`, `FREEHIRE_API_KEY`), like the `track` commands.
//!
//! A line is a message; the answer streams as it arrives. Tool calls and results are one line
//! each (`→ search_jobs {"query":"rust"}`, `← search_jobs: 12 results`), `present_jobs` the
//! presented slugs with their notes. Commands: `/history`, `/clear` (a new session), `/tools`,
//! `/usage` (today's allowances), `/retry`, `/cancel`, `/quit`, `/help`. Ctrl-C while a turn
//! runs sends `cancel` and keeps the session; a second Ctrl-C, or one while idle, exits. A refusal is printed and the session
//! goes on: a 402 as today's quota, a 503 as the server's message (it names the `LLM_`
//! variables).

use std::collections::HashMap;
use std::io::{BufRead, Write};

use clap::Args;
use freehire_client::wire::{Allowance, StoredMessage, TurnEvent};
use freehire_client::{Client, ClientError, TurnStream};
use serde_json::Value;
use tokio::sync::mpsc;

/// `freehire chat` flags.
#[derive(Debug, Args)]
pub struct ChatArgs {
    /// The conversation's preset: chat, profile, interview or debrief.
    #[arg(long, default_value = "chat")]
    preset: String,
    /// Go on with an existing session (its id, as `/history` or the web page shows it).
    #[arg(long)]
    session: Option<String>,
    /// The job an interview or debrief is about (the public slug of a job you applied to).
    #[arg(long)]
    job: Option<String>,
}

/// What a running turn ended with, for the loop.
enum Ended {
    /// The turn ended (or could not start): read the next line.
    Turn,
    /// Exit (a second Ctrl-C).
    Quit,
}

/// Runs the chat until `/quit`, end of input or Ctrl-C while idle.
pub async fn run(client: Client, args: ChatArgs) -> anyhow::Result<()> {
    let mut lines = read_lines();
    let mut interrupts = interrupts()?;
    let mut screen = Screen::default();
    let mut session = match &args.session {
        Some(id) => {
            let got = client.session(id).await?;
            screen.line(&format!(
                "session {} ({}, {} messages): /history shows it",
                got.session.id,
                got.session.preset,
                got.messages.len()
            ));
            got.session.id
        }
        None => {
            let id = new_session(&client, &args, &mut screen).await?;
            if matches!(args.preset.as_str(), "interview" | "debrief")
                && let Ended::Quit =
                    turn(&client, &id, None, &mut screen, &mut interrupts, &mut lines).await
            {
                return Ok(());
            }
            id
        }
    };
    screen.line("type a message, /help for commands");
    loop {
        screen.prompt();
        let line = tokio::select! {
            line = lines.recv() => line,
            _ = interrupts.recv() => { screen.line("bye"); return Ok(()); }
        };
        let Some(line) = line else {
            screen.line("bye");
            return Ok(());
        };
        let line = line.trim();
        let text = match line {
            "" => continue,
            "/quit" | "/exit" => {
                screen.line("bye");
                return Ok(());
            }
            "/help" => {
                screen.line(HELP);
                continue;
            }
            "/history" => {
                match client.session(&session).await {
                    Ok(got) => print_history(&mut screen, &got.messages),
                    Err(e) => refused(&mut screen, &e),
                }
                continue;
            }
            "/tools" => {
                match client.session(&session).await {
                    Ok(got) => print_tools(&mut screen, &got.messages),
                    Err(e) => refused(&mut screen, &e),
                }
                continue;
            }
            "/usage" => {
                match client.usage().await {
                    Ok(standings) => print_usage(&mut screen, &standings),
                    Err(e) => refused(&mut screen, &e),
                }
                continue;
            }
            "/clear" => {
                match new_session(&client, &args, &mut screen).await {
                    Ok(id) => session = id,
                    Err(e) => screen.line(&format!("error: {e:#}")),
                }
                continue;
            }
            "/cancel" => {
                screen.line("(no turn is running)");
                continue;
            }
            "/retry" => None,
            other if other.starts_with('/') && !other.starts_with("//") => {
                screen.line(&format!("unknown command {other}: /help lists them"));
                continue;
            }
            // `//text` sends `/text`.
            other => {
                Some(other.strip_prefix('/').filter(|rest| rest.starts_with('/')).unwrap_or(other))
            }
        };
        if let Ended::Quit =
            turn(&client, &session, Some(text), &mut screen, &mut interrupts, &mut lines).await
        {
            return Ok(());
        }
    }
}

const HELP: &str = "/history  the conversation so far\n/tools    the tools called in this session\n/usage    today's allowances\n/retry    run the last message again\n/cancel   stop the running turn (or Ctrl-C)\n/clear    start a new session\n/quit     exit (or Ctrl-C while idle)";

async fn new_session(
    client: &Client,
    args: &ChatArgs,
    screen: &mut Screen,
) -> anyhow::Result<String> {
    let created = client.create_session(Some(&args.preset), args.job.as_deref()).await?;
    screen.line(&format!("new {} session {}", created.preset, created.id));
    Ok(created.id)
}

/// Runs one turn: `what` is `Some(Some(text))` for a message, `Some(None)` for a retry,
/// `None` for an opening. Events print as they arrive; lines typed meanwhile are refused
/// (except `/cancel`); the first Ctrl-C cancels, the second exits.
async fn turn(
    client: &Client,
    session: &str,
    what: Option<Option<&str>>,
    screen: &mut Screen,
    interrupts: &mut mpsc::UnboundedReceiver<()>,
    lines: &mut mpsc::UnboundedReceiver<String>,
) -> Ended {
    let open = async {
        match what {
            Some(Some(text)) => client.send_message(session, text).await,
            Some(None) => client.retry(session).await,
            None => client.opening(session).await,
        }
    };
    let mut cancelled = false;
    tokio::pin!(open);
    let stream: Result<TurnStream, ClientError> = loop {
        tokio::select! {
            opened = &mut open => break opened,
            _ = interrupts.recv() => {
                if cancelled { screen.line("bye"); return Ended::Quit; }
                cancelled = true;
                cancel(client, session, screen).await;
            }
        }
    };
    let mut stream = match stream {
        Ok(stream) => stream,
        Err(e) => {
            refused(screen, &e);
            return Ended::Turn;
        }
    };
    let mut render = Render::default();
    loop {
        tokio::select! {
            event = stream.next_event() => match event {
                Some(Ok(event)) => render.event(screen, &event),
                Some(Err(e)) => { screen.line(&format!("error: {e}")); return Ended::Turn; }
                None => return Ended::Turn,
            },
            _ = interrupts.recv() => {
                if cancelled { screen.line("bye"); return Ended::Quit; }
                cancelled = true;
                cancel(client, session, screen).await;
            }
            line = lines.recv() => match line.as_deref().map(str::trim) {
                Some("/cancel") if !cancelled => {
                    cancelled = true;
                    cancel(client, session, screen).await;
                }
                Some("/quit") | None => { screen.line("bye"); return Ended::Quit; }
                Some(_) => screen.line("(a turn is running: /cancel or Ctrl-C stops it)"),
            }
        }
    }
}

async fn cancel(client: &Client, session: &str, screen: &mut Screen) {
    screen.line("(cancelling… Ctrl-C again exits)");
    if let Err(e) = client.cancel(session).await {
        screen.line(&format!("error: cannot cancel: {e}"));
    }
}

/// A refusal before a turn: today's quota for a 402, the server's words otherwise.
fn refused(screen: &mut Screen, error: &ClientError) {
    if let Some(a) = error.allowance() {
        let resets = a.resets_at.map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string());
        screen.line(&format!(
            "quota: {} of {} {} turns used today ({} plan); resets at {}",
            a.used,
            a.limit,
            if a.feature.is_empty() { "assistant" } else { &a.feature },
            if a.tier.is_empty() { "free" } else { &a.tier },
            resets.as_deref().unwrap_or("midnight UTC"),
        ));
        return;
    }
    match error {
        ClientError::Refused { message, .. } => screen.line(&format!("error: {message}")),
        other => screen.line(&format!("error: {other}")),
    }
}

/// How a turn's events print: text deltas inline, a tool call and its result a line each.
#[derive(Default)]
struct Render {
    /// `present_jobs` inputs by call id, for the list printed with its receipt.
    presented: HashMap<String, Value>,
}

impl Render {
    fn event(&mut self, screen: &mut Screen, event: &TurnEvent) {
        match event {
            TurnEvent::Queued => screen.line("(queued behind the running turn…)"),
            TurnEvent::AssistantText { text, synthetic: false } => screen.text(text),
            TurnEvent::AssistantText { text, synthetic: true } => screen.line(&format!("[{text}]")),
            TurnEvent::ToolUse { id, name, input } => {
                if name == "present_jobs" {
                    self.presented.insert(id.clone(), input.clone());
                }
                screen.line(&tool_use_line(name, input));
            }
            TurnEvent::ToolResult { id, name, result, is_error } => {
                screen.line(&tool_result_line(name, result, *is_error));
                if name == "present_jobs" && !is_error {
                    let input = self.presented.remove(id).unwrap_or(Value::Null);
                    for line in presented_jobs(&input, result) {
                        screen.line(&line);
                    }
                }
            }
            TurnEvent::Result { stop_reason, message, .. } => match stop_reason.as_str() {
                "cancelled" => screen.line("(cancelled)"),
                "max_steps" => screen.line("(step limit reached)"),
                "error" => screen.line(&format!(
                    "error: {} (/retry runs it again)",
                    message.as_deref().unwrap_or("the turn failed")
                )),
                _ => screen.end_text(),
            },
            TurnEvent::UserPrompt { .. }
            | TurnEvent::AssistantThought { .. }
            | TurnEvent::Usage { .. }
            | TurnEvent::Other => {}
        }
    }
}

/// `→ name {compact input}`, the input cut to 200 characters.
fn tool_use_line(name: &str, input: &Value) -> String {
    let shown = match input {
        Value::Null => String::new(),
        Value::Object(map) if map.is_empty() => String::new(),
        Value::String(raw) => format!(" {}", cut(raw, 200)),
        other => format!(" {}", cut(&other.to_string(), 200)),
    };
    format!("→ {name}{shown}")
}

/// `← name: summary`: the error's message, a count of results, or the first 120 characters.
fn tool_result_line(name: &str, result: &str, is_error: bool) -> String {
    let value: Value = serde_json::from_str(result).unwrap_or(Value::String(result.to_owned()));
    let summary = if is_error {
        let message = value.get("error").and_then(Value::as_str).unwrap_or(result);
        format!("error: {}", cut(message, 200))
    } else {
        summarize(&value)
    };
    format!("← {name}: {summary}")
}

fn summarize(value: &Value) -> String {
    let count = |key: &str| value.get(key).and_then(Value::as_array).map(Vec::len);
    if let Some(n) = count("presented") {
        let dropped = count("dropped").unwrap_or(0);
        return if dropped == 0 {
            format!("{n} shown")
        } else {
            format!("{n} shown, {dropped} dropped")
        };
    }
    if let Some(total) = value.get("total").and_then(Value::as_u64) {
        return format!("{total} results");
    }
    if let Some(n) = count("jobs") {
        return format!("{n} jobs");
    }
    cut(&value.to_string(), 120)
}

/// The presented jobs: `  • slug: note` for each slug of the receipt, in the model's order.
fn presented_jobs(input: &Value, result: &str) -> Vec<String> {
    let receipt: Value = serde_json::from_str(result).unwrap_or(Value::Null);
    let notes: HashMap<&str, &str> = input
        .get("jobs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|j| {
            Some((j.get("slug")?.as_str()?, j.get("note").and_then(Value::as_str).unwrap_or("")))
        })
        .collect();
    let mut out = Vec::new();
    if let Some(heading) = input.get("heading").and_then(Value::as_str).filter(|h| !h.is_empty()) {
        out.push(format!("  {heading}"));
    }
    for slug in receipt.get("presented").and_then(Value::as_array).into_iter().flatten() {
        let Some(slug) = slug.as_str() else { continue };
        match notes.get(slug).filter(|n| !n.is_empty()) {
            Some(note) => out.push(format!("  • {slug}: {}", cut(note, 200))),
            None => out.push(format!("  • {slug}")),
        }
    }
    out
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// The transcript: `you:` and `assistant:` lines, each tool call and result a line.
fn print_history(screen: &mut Screen, messages: &[StoredMessage]) {
    if messages.is_empty() {
        screen.line("(no messages yet)");
    }
    for m in messages {
        let text = m.content.get("text").and_then(Value::as_str).unwrap_or("");
        match m.role.as_str() {
            "user" => screen.line(&format!("you: {text}")),
            "assistant" => {
                if !text.is_empty() {
                    screen.line(&format!("assistant: {text}"));
                }
                for call in calls(m) {
                    screen.line(&tool_use_line(call.0, &call.1));
                }
            }
            "tool" => {
                let name = m.content.get("name").and_then(Value::as_str).unwrap_or("?");
                let result = m.content.get("result").and_then(Value::as_str).unwrap_or("");
                let is_error = serde_json::from_str::<Value>(result)
                    .ok()
                    .is_some_and(|v| v.get("error").is_some());
                screen.line(&tool_result_line(name, result, is_error));
            }
            _ => {}
        }
    }
}

/// An assistant message's tool calls: (name, arguments as JSON, or the raw string).
fn calls(m: &StoredMessage) -> Vec<(&str, Value)> {
    m.content
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let name = c.get("name")?.as_str()?;
            let raw = c.get("arguments").and_then(Value::as_str).unwrap_or("");
            let args = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned()));
            Some((name, args))
        })
        .collect()
}

/// Today's standing per feature: used of the limit, the plan, whether it is enforced.
fn print_usage(screen: &mut Screen, standings: &[Allowance]) {
    for a in standings {
        let limit = if a.unlimited { "unlimited".to_owned() } else { a.limit.to_string() };
        let resets = a.resets_at.map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string());
        screen.line(&format!(
            "{}: {} of {limit} today ({} plan, {}); resets at {}",
            a.feature,
            a.used,
            a.tier,
            if a.enforced { "enforced" } else { "counted only" },
            resets.as_deref().unwrap_or("midnight UTC"),
        ));
    }
}

/// The tools called in the session, in order.
fn print_tools(screen: &mut Screen, messages: &[StoredMessage]) {
    let all: Vec<String> = messages
        .iter()
        .filter(|m| m.role == "assistant")
        .flat_map(|m| calls(m).into_iter().map(|(name, args)| tool_use_line(name, &args)))
        .collect();
    if all.is_empty() {
        screen.line("(no tools called yet)");
    }
    for line in all {
        screen.line(&line);
    }
}

/// Standard output, remembering whether streamed text left the cursor mid-line.
#[derive(Default)]
struct Screen {
    mid_line: bool,
}

impl Screen {
    fn text(&mut self, text: &str) {
        let mut out = std::io::stdout().lock();
        // A closed terminal is not worth failing the turn for.
        let _ = write!(out, "{text}");
        let _ = out.flush();
        self.mid_line = !text.ends_with('\n');
    }

    fn end_text(&mut self) {
        if self.mid_line {
            self.text("\n");
        }
    }

    fn line(&mut self, line: &str) {
        self.end_text();
        self.text(&format!("{line}\n"));
    }

    fn prompt(&mut self) {
        self.end_text();
        self.text("> ");
        self.mid_line = false;
    }
}

/// Lines of standard input, read on a thread of their own (the channel closes at its end).
fn read_lines() -> mpsc::UnboundedReceiver<String> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Ctrl-C presses (SIGINT), one message each.
fn interrupts() -> anyhow::Result<mpsc::UnboundedReceiver<()>> {
    let mut signal = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while signal.recv().await.is_some() {
            if tx.send(()).is_err() {
                break;
            }
        }
    });
    Ok(rx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tool_lines_are_compact() {
        assert_eq!(
            tool_use_line("search_jobs", &json!({"query": "rust"})),
            r#"→ search_jobs {"query":"rust"}"#
        );
        assert_eq!(tool_use_line("get_profile", &json!({})), "→ get_profile");
        assert_eq!(
            tool_result_line("search_jobs", r#"{"total":12,"jobs":[]}"#, false),
            "← search_jobs: 12 results"
        );
        assert_eq!(
            tool_result_line("get_job", r#"{"error":"no vacancy with slug \"x\""}"#, true),
            r#"← get_job: error: no vacancy with slug "x""#
        );
        assert_eq!(
            tool_result_line("my_jobs", r#"{"filter":"board","jobs":[{},{}]}"#, false),
            "← my_jobs: 2 jobs"
        );
        assert_eq!(cut("abcdef", 3), "abc…");
    }

    #[test]
    fn presented_jobs_list_the_receipts_slugs_with_their_notes() {
        let input = json!({"heading": "Picks", "jobs": [{"slug": "a-1", "note": "remote"}, {"slug": "b-2", "note": "x"}]});
        let receipt = r#"{"presented":["a-1"],"dropped":[{"slug":"b-2","reason":"no vacancy"}]}"#;
        assert_eq!(
            tool_result_line("present_jobs", receipt, false),
            "← present_jobs: 1 shown, 1 dropped"
        );
        assert_eq!(
            presented_jobs(&input, receipt),
            vec!["  Picks".to_owned(), "  • a-1: remote".to_owned()]
        );
    }
}
