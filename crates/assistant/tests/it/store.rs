//! The transcript store port on the in-memory adapter: sequence numbers, the tail, stored
//! bytes unchanged, owner-scoped labels and touches, and the append retry on a contested
//! sequence number.

use std::sync::atomic::Ordering;

use freehire_assistant::message::{conversation, encode_assistant, encode_user};
use freehire_assistant::{AssistantError, MemoryStore, SessionId, TranscriptStore};

use crate::support::{FlakyStore, owner};
use uuid::Uuid;

#[tokio::test]
async fn append_and_read_the_transcript() {
    let store = MemoryStore::new();
    let s = store.create_session(owner());
    let a = store.append(s, &owner(), &encode_user("hi")).await.unwrap();
    let b = store.append(s, &owner(), &encode_assistant("hello", &[])).await.unwrap();
    assert_eq!((a.seq, b.seq), (1, 2));
    let all = store.transcript(s, &owner()).await.unwrap();
    assert_eq!(all.iter().map(|m| m.seq).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(conversation(&all).unwrap().len(), 2);
}

#[tokio::test]
async fn recent_transcript_returns_the_tail_in_ascending_order() {
    let store = MemoryStore::new();
    let s = store.create_session(owner());
    for i in 0..5 {
        store.append(s, &owner(), &encode_user(&i.to_string())).await.unwrap();
    }
    let tail = store.recent(s, &owner(), 3).await.unwrap();
    assert_eq!(tail.iter().map(|m| m.seq).collect::<Vec<_>>(), [3, 4, 5]);
    assert_eq!(store.recent(s, &owner(), 100).await.unwrap().len(), 5);
}

#[tokio::test]
async fn the_transcript_returns_the_stored_bytes_unchanged() {
    let store = MemoryStore::new();
    let s = store.create_session(owner());
    let odd = freehire_assistant::NewMessage {
        role: freehire_assistant::Role::User,
        content: "{ \"text\" :\n \"spaced  é\" }".into(),
    };
    store.append(s, &owner(), &odd).await.unwrap();
    let all = store.transcript(s, &owner()).await.unwrap();
    assert_eq!(all[0].content, odd.content);
    let wire = serde_json::to_string(&all[0]).unwrap();
    assert!(wire.contains("{ \"text\" :\n \"spaced  é\" }"), "{wire}");
}

#[tokio::test]
async fn labels_are_set_once_and_owner_scoped() {
    let store = MemoryStore::new();
    let s = store.create_session(owner());
    let stranger = Uuid::from_u128(999);
    store.label(s, &stranger, "hijack").await.unwrap();
    store.touch(s, &stranger).await.unwrap();
    assert_eq!(store.label_of(s, &owner()), None);
    assert_eq!(store.touches(s), 0);
    store.label(s, &owner(), "").await.unwrap();
    assert_eq!(store.label_of(s, &owner()), None, "an empty label is no label");
    store.label(s, &owner(), "first").await.unwrap();
    store.label(s, &owner(), "second").await.unwrap();
    store.touch(s, &owner()).await.unwrap();
    assert_eq!(store.label_of(s, &owner()).as_deref(), Some("first"));
    assert_eq!(store.label_of(s, &stranger), None);
    assert_eq!(store.touches(s), 1);
}

#[tokio::test]
async fn an_unknown_session_is_not_found() {
    let store = MemoryStore::<Uuid>::new();
    let err = store.append(SessionId::random(), &owner(), &encode_user("x")).await.unwrap_err();
    assert_eq!(err, AssistantError::NotFound);
    assert_eq!(err.to_string(), "assistant: session not found");
}

#[tokio::test]
async fn append_retries_a_sequence_collision() {
    let store = FlakyStore::default();
    let s = store.inner.create_session(owner());
    store.conflicts.store(1, Ordering::SeqCst);
    let m = store.append(s, &owner(), &encode_user("hi")).await.unwrap();
    assert_eq!(m.seq, 1);
    assert_eq!(store.inserts.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn append_gives_up_on_a_persistent_collision() {
    let store = FlakyStore::default();
    let s = store.inner.create_session(owner());
    store.conflicts.store(10, Ordering::SeqCst);
    assert_eq!(
        store.append(s, &owner(), &encode_user("hi")).await,
        Err(AssistantError::SeqConflict)
    );
    assert_eq!(store.inserts.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn other_errors_are_not_retried() {
    let store = FlakyStore::default();
    let s = store.inner.create_session(owner());
    store.fail_all_appends.store(true, Ordering::SeqCst);
    assert!(matches!(
        store.append(s, &owner(), &encode_user("hi")).await,
        Err(AssistantError::Store(_))
    ));
    assert_eq!(store.inserts.load(Ordering::SeqCst), 1);
}
