//! The registry: order and replacement, definitions in the OpenAI shape, subsets, and the
//! never-failing call (unknown tool, bad arguments, errors, panics, the result cap).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use freehire_tools::{CallContext, DEFAULT_CALL_TIMEOUT, NoArgs, Registry, Tool, from_fn};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// What to echo.
    text: String,
}

/// The embedding service's own owner id: the registry needs no freehire type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Account(u64);

fn echo(name: &'static str, prefix: &'static str) -> Arc<dyn Tool<Account>> {
    Arc::new(from_fn(
        name,
        "Echoes its text.",
        move |_ctx, owner: Account, a: EchoArgs| async move {
            Ok::<_, String>(json!({ "echoed": format!("{prefix}{}", a.text), "owner": owner.0 }))
        },
    ))
}

fn owner() -> Account {
    Account(7)
}

async fn call(reg: &Registry<Account>, name: &str, args: &str) -> (Value, bool) {
    let res = reg.call(&CallContext::default(), &owner(), name, args).await;
    (serde_json::from_str(&res.content).expect("content is always valid JSON"), res.failed)
}

#[tokio::test]
async fn a_later_tool_replaces_an_earlier_one_in_place() {
    let reg = Registry::new([echo("a", "1:"), echo("b", ""), echo("a", "2:")]);
    assert_eq!(reg.names(), ["a", "b"]);
    let (v, failed) = call(&reg, "a", r#"{"text":"x"}"#).await;
    assert!(!failed);
    assert_eq!(v["echoed"], "2:x");
    assert_eq!(v["owner"], 7);
}

#[test]
fn definitions_use_the_openai_tools_shape() {
    let reg = Registry::new([echo("echo", "")]);
    let defs = serde_json::to_value(reg.definitions()).unwrap();
    assert_eq!(defs[0]["type"], "function");
    assert_eq!(defs[0]["function"]["name"], "echo");
    assert_eq!(defs[0]["function"]["description"], "Echoes its text.");
    let params = &defs[0]["function"]["parameters"];
    assert_eq!(params["type"], "object");
    assert_eq!(params["required"], json!(["text"]));
    assert_eq!(params["additionalProperties"], false);
    assert_eq!(params["properties"]["text"]["description"], "What to echo.");
}

#[tokio::test]
async fn an_unknown_tool_names_itself_and_the_available_ones() {
    let reg = Registry::new([echo("echo", ""), echo("shout", "")]);
    let (v, failed) = call(&reg, "ecko", "{}").await;
    assert!(failed);
    let msg = v["error"].as_str().unwrap();
    assert!(msg.starts_with(r#"unknown tool "ecko" — call one of the tools you were given"#));
    assert!(msg.contains("echo, shout"), "{msg}");
}

#[tokio::test]
async fn bad_arguments_fail_with_the_field_named() {
    let reg = Registry::new([echo("echo", "")]);
    let (v, failed) = call(&reg, "echo", r#"{"txt":"hi"}"#).await;
    assert!(failed);
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("txt") && msg.contains(r#"allowed: "text""#), "{msg}");
    let (v, failed) = call(&reg, "echo", r#"{"text":"first"}{"text":"second"}"#).await;
    assert!(failed);
    assert_eq!(v["error"], "invalid arguments: expected a single JSON object");
    let (v, failed) = call(&reg, "echo", r#"{"text":5}"#).await;
    assert!(failed);
    assert!(v["error"].as_str().unwrap().contains("text: invalid type"), "{v}");
}

#[tokio::test]
async fn tool_errors_and_panics_become_failed_results() {
    let failing: Arc<dyn Tool<Account>> =
        Arc::new(from_fn("fail", "Fails.", |_ctx, _, _: NoArgs| async {
            Err::<Value, _>("no vacancy with slug \"x\" — use the public_slug from a search result")
        }));
    let panicking: Arc<dyn Tool<Account>> =
        Arc::new(from_fn("boom", "Panics.", |_ctx, _, _: NoArgs| async {
            if true {
                panic!("kaboom");
            }
            Ok::<Value, String>(Value::Null)
        }));
    let unencodable: Arc<dyn Tool<Account>> =
        Arc::new(from_fn("weird", "Odd keys.", |_ctx, _, _: NoArgs| async {
            let mut m = BTreeMap::new();
            m.insert(vec![1u8], 1u8);
            Ok::<_, String>(m)
        }));
    let reg = Registry::new([failing, panicking, unencodable]);
    let (v, failed) = call(&reg, "fail", "").await;
    assert!(failed);
    assert_eq!(v["error"], "no vacancy with slug \"x\" — use the public_slug from a search result");
    let (v, failed) = call(&reg, "boom", "{}").await;
    assert!(failed);
    assert!(v["error"].as_str().unwrap().contains("kaboom"));
    let (v, failed) = call(&reg, "weird", "null").await;
    assert!(failed);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with(r#"tool "weird" produced a result that could not be encoded: "#),
        "{v}"
    );
}

#[tokio::test]
async fn large_results_are_capped_but_errors_never_are() {
    let big: Arc<dyn Tool<Account>> =
        Arc::new(from_fn("big", "Big.", |_ctx, _, a: EchoArgs| async move {
            if a.text == "fail" { Err("ж".repeat(500)) } else { Ok(a.text.repeat(100)) }
        }));
    let reg = Registry::new([big]).with_max_result_bytes(250);
    let res = reg.call(&CallContext::default(), &owner(), "big", r#"{"text":"жж"}"#).await;
    assert!(!res.failed);
    assert!(res.content.len() <= 250, "the whole envelope fits the cap: {}", res.content.len());
    let v: Value = serde_json::from_str(&res.content).unwrap();
    assert_eq!(v["truncated"], true);
    assert_eq!(
        v["note"],
        "result was 402 bytes, truncated to 250 — narrow the call (fewer results, a tighter filter) to see the rest"
    );
    let partial = v["partial"].as_str().unwrap();
    assert!(partial.len() >= 95, "the rest of the cap is used: {}", partial.len());
    assert!(partial.starts_with("\"жж"));

    let res = reg.call(&CallContext::default(), &owner(), "big", r#"{"text":"fail"}"#).await;
    assert!(res.failed);
    assert!(res.content.len() > 1000);
    assert!(!res.content.contains("truncated"));

    let reg = reg.with_max_result_bytes(202);
    let res = reg.call(&CallContext::default(), &owner(), "big", r#"{"text":"ok"}"#).await;
    assert_eq!(res.content, format!("\"{}\"", "ok".repeat(100)));
}

#[tokio::test]
async fn a_subset_keeps_the_named_tools_in_the_given_order_and_the_cap() {
    let reg = Registry::new([echo("a", ""), echo("b", ""), echo("c", "")]).with_max_result_bytes(9);
    let sub = reg.subset(&["c", "missing", "a"]);
    assert_eq!(sub.names(), ["c", "a"]);
    assert_eq!(sub.max_result_bytes(), 9);
    let (v, failed) = call(&sub, "b", "{}").await;
    assert!(failed, "a tool left out is unknown: {v}");
}

/// A tool that never returns (a hung backend).
fn hang() -> Arc<dyn Tool<Account>> {
    Arc::new(from_fn("hang", "Never answers.", |_ctx, _, _: NoArgs| async {
        std::future::pending::<()>().await;
        Ok::<_, String>(Value::Null)
    }))
}

#[tokio::test]
async fn a_call_that_outlives_its_deadline_fails_naming_the_tool_and_the_limit() {
    let reg = Registry::new([hang()]);
    assert_eq!(reg.call_timeout(), DEFAULT_CALL_TIMEOUT);
    assert_eq!(DEFAULT_CALL_TIMEOUT, Duration::from_secs(30));
    let reg = reg.with_call_timeout(Duration::from_millis(50));
    let started = Instant::now();
    let (v, failed) = call(&reg, "hang", "{}").await;
    assert!(failed);
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains(r#"tool "hang""#) && msg.contains("50 ms"), "{msg}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(reg.subset(&["hang"]).call_timeout(), Duration::from_millis(50));
    assert_eq!(reg.with_call_timeout(Duration::ZERO).call_timeout(), DEFAULT_CALL_TIMEOUT);
}

#[tokio::test]
async fn a_cancelled_call_fails_at_once_and_a_precancelled_one_never_starts() {
    let reg = Registry::new([hang()]);
    let token = CancellationToken::new();
    let ctx = CallContext::new(token.clone());
    let stopper = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(30)).await;
        stopper.cancel();
    });
    let started = Instant::now();
    let res = reg.call(&ctx, &owner(), "hang", "{}").await;
    assert!(res.failed && res.content.contains("cancelled"), "{}", res.content);
    assert!(started.elapsed() < Duration::from_secs(5));

    let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = ran.clone();
    let quick: Arc<dyn Tool<Account>> =
        Arc::new(from_fn("quick", "Quick.", move |_ctx, _, _: NoArgs| {
            let flag = flag.clone();
            async move {
                flag.store(true, std::sync::atomic::Ordering::SeqCst);
                Ok::<_, String>(1)
            }
        }));
    let res = Registry::new([quick]).call(&ctx, &owner(), "quick", "{}").await;
    assert!(res.failed && res.content.contains("cancelled"));
    assert!(!ran.load(std::sync::atomic::Ordering::SeqCst), "a cancelled turn starts no tool");
}

#[tokio::test]
async fn a_call_without_a_name_is_answered_with_the_offered_tools() {
    let reg = Registry::new([echo("echo", ""), echo("shout", "")]);
    let (v, failed) = call(&reg, "", "{}").await;
    assert!(failed);
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("without a tool name") && msg.contains("echo, shout"), "{msg}");
}

#[tokio::test]
async fn arguments_that_are_not_json_fail_saying_so() {
    let reg = Registry::new([echo("echo", "")]);
    let (v, failed) = call(&reg, "echo", "say hi").await;
    assert!(failed);
    assert!(v["error"].as_str().unwrap().contains("not JSON"), "{v}");
}
