//! The replayed history over a long session: the head moves in blocks and the window stays
//! bounded (reference §6.6).

use std::collections::BTreeSet;
use std::sync::Arc;

use freehire_assistant::message::{encode_assistant, encode_user};
use freehire_assistant::{MemoryStore, Runner, RunnerConfig, TranscriptStore};
use freehire_llm::{Message as M, ScriptedModel};

use crate::support::owner;

// scenario: Prefix stays put
// scenario: Window stays bounded
/// Reference: with limit 60, 25 turns whose newest seq runs from 200 to 224 and 80 rows read
/// per turn, the replayed head takes at most two distinct values; for newest 200..399 the
/// window holds between 60 and 79 messages.
#[tokio::test]
async fn the_replayed_head_moves_in_blocks_and_the_window_stays_bounded() {
    let store = Arc::new(MemoryStore::new());
    let s = store.create_session(owner());
    let runner =
        Runner::new(Arc::new(ScriptedModel::new([])), store.clone(), RunnerConfig::default());
    let mut heads = BTreeSet::new();
    for seq in 1..400 {
        let m = if seq % 2 == 1 {
            encode_user(&format!("m{seq}"))
        } else {
            encode_assistant(&format!("m{seq}"), &[])
        };
        store.append(s, &owner(), &m).await.unwrap();
        if seq < 200 {
            continue;
        }
        let h = runner.history(s, &owner(), "").await.unwrap();
        assert!((60..80).contains(&h.len()), "newest {seq}: {}", h.len());
        if seq < 225 {
            let head = match &h[0] {
                M::User(t) => t.clone(),
                M::Assistant { text, .. } => text.clone(),
                other => panic!("{other:?}"),
            };
            heads.insert(head);
        }
    }
    assert!(heads.len() <= 2, "{heads:?}");
}
