//! The scripted model: replies in order, streams text through the sink, records calls and
//! fails once the script is used up.

use std::sync::Mutex;

use freehire_llm::{
    ChatModel, ChatRequest, LlmError, Message, Scripted, ScriptedModel, StreamSink,
};

#[derive(Default)]
struct Collect(Mutex<Vec<String>>);

impl StreamSink for Collect {
    fn on_text(&self, delta: &str) {
        self.0.lock().unwrap().push(delta.to_owned());
    }
    fn on_thinking(&self, _: &str) {}
}

#[tokio::test]
async fn the_script_is_replayed_in_order_and_recorded() {
    let model = ScriptedModel::new([
        Scripted::text("héllo"),
        Scripted::call("c1", "echo", "{}"),
        Scripted::fail("boom"),
    ]);
    let msgs = vec![Message::User("hi".into())];
    let sink = Collect::default();
    let first = model.chat(ChatRequest::new(&msgs, &[]).streaming(&sink)).await.unwrap();
    assert_eq!(first.content, "héllo");
    assert_eq!(sink.0.lock().unwrap().concat(), "héllo");
    let second = model.chat(ChatRequest::new(&msgs, &[])).await.unwrap();
    assert_eq!(second.tool_calls[0].name, "echo");
    assert_eq!(
        model.chat(ChatRequest::new(&msgs, &[])).await,
        Err(LlmError::Scripted("boom".into()))
    );
    assert!(model.chat(ChatRequest::new(&msgs, &[])).await.is_err(), "exhausted script fails");
    assert_eq!(model.call_count(), 4);
    assert_eq!(model.calls()[0].messages, msgs);
}

#[tokio::test]
async fn the_fallback_answers_once_the_script_is_used_up() {
    let model = ScriptedModel::new([]).with_fallback(Scripted::text("again"));
    let msgs = vec![Message::User("hi".into())];
    for _ in 0..3 {
        assert_eq!(model.chat(ChatRequest::new(&msgs, &[])).await.unwrap().content, "again");
    }
}
