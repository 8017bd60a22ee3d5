//! Assistant sessions, transcripts and turn leases (reference §2.3, §18.2), on both backends.
//! Each test takes the whole test database: some read or change what no port offers (message
//! rows, deleting a job row as a prune would, a second store as another API process).

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use freehire_assistant::{
    AssistantError, Message, NewMessage, Role as MessageRole, SessionId, TranscriptStore,
};
use freehire_domain::{JobId, User};
use freehire_store::{
    AssistantSession, HeldLease, NewSession, Store, StoreError, Transcripts, testing::TestDb,
};

use crate::fixtures::{posting, t, user};

async fn job(s: &dyn Store, id: &str) -> JobId {
    s.upsert_jobs(&[posting("greenhouse", id, "Rust Engineer")], t(1, 8)).await.unwrap()[0].id
}

async fn session(s: &dyn Store, owner: &User, preset: &str) -> AssistantSession {
    let new = NewSession { owner: owner.id, preset, label: None, cv_id: None, job_id: None };
    s.create_session(new, t(2, 9)).await.unwrap()
}

fn clock() -> DateTime<Utc> {
    t(3, 9)
}

fn transcripts(db: &TestDb) -> Transcripts {
    Transcripts::new(db.store.clone(), clock)
}

fn user_text(text: &str) -> NewMessage {
    freehire_assistant::message::encode_user(text)
}

fn seqs(messages: &[Message]) -> Vec<i32> {
    messages.iter().map(|m| m.seq).collect()
}

async fn message_rows(db: &TestDb, id: SessionId) -> i64 {
    db.scalar(&format!("SELECT count(*) FROM assistant_messages WHERE session_id = '{id}'")).await
}

pub async fn nullable_columns_map_and_the_binding_reaches_the_insert(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let cv = s.create_base_cv(ada.id, &freehire_cv::CvState::default(), t(2, 9)).await.unwrap().id;
    let tailor = s
        .create_session(
            NewSession {
                owner: ada.id,
                preset: "tailor",
                label: Some("Tailor for Acme"),
                cv_id: Some(cv),
                job_id: None,
            },
            t(2, 9),
        )
        .await
        .unwrap();
    let read = s.assistant_session(tailor.id, ada.id).await.unwrap().unwrap();
    assert_eq!(read, tailor);
    assert_eq!(read.owner, ada.id);
    assert_eq!(read.preset, "tailor");
    assert_eq!(read.label.as_deref(), Some("Tailor for Acme"));
    assert_eq!(read.cv_id, Some(cv));
    assert_eq!(read.job_id, None);
    assert_eq!((read.created_at, read.updated_at), (t(2, 9), t(2, 9)));

    let job = job(s, "1").await;
    let interview = s
        .create_session(
            NewSession {
                owner: ada.id,
                preset: "interview",
                label: Some(""),
                cv_id: None,
                job_id: Some(job),
            },
            t(2, 10),
        )
        .await
        .unwrap();
    let read = s.assistant_session(interview.id, ada.id).await.unwrap().unwrap();
    assert_eq!(read.job_id, Some(job), "the job binding reaches the row");
    assert_eq!(read.label, None, "an empty label is none (NULL)");
    assert_eq!(read.cv_id, None);
    assert_ne!(tailor.id, interview.id);
}

pub async fn another_users_session_is_not_found(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let store = transcripts(db);
    store.append(chat.id, &ada.id, &user_text("mine")).await.unwrap();

    assert_eq!(s.assistant_session(chat.id, bob.id).await.unwrap(), None);
    assert_eq!(s.assistant_session(SessionId::random(), ada.id).await.unwrap(), None);
    assert_eq!(s.session_messages(chat.id, bob.id, None).await.unwrap(), None);
    assert_eq!(s.session_messages(chat.id, bob.id, Some(0)).await.unwrap(), None);
    let bobs = store.insert_next(chat.id, &bob.id, &user_text("theirs")).await;
    assert_eq!(bobs, Err(AssistantError::NotFound));
    assert_eq!(
        store.append(chat.id, &bob.id, &user_text("x")).await,
        Err(AssistantError::NotFound)
    );
    assert_eq!(store.recent(chat.id, &bob.id, 10).await, Err(AssistantError::NotFound));
    assert_eq!(store.transcript(chat.id, &bob.id).await, Err(AssistantError::NotFound));
    let missing = SessionId::random();
    assert_eq!(store.transcript(missing, &ada.id).await, Err(AssistantError::NotFound));
    assert_eq!(message_rows(db, chat.id).await, 1, "nothing was written for the other user");
    assert!(s.chat_sessions(bob.id).await.unwrap().is_empty());
    assert!(!s.delete_session(chat.id, bob.id).await.unwrap(), "not theirs: not found");
    assert!(s.assistant_session(chat.id, ada.id).await.unwrap().is_some(), "still there");
}

pub async fn deleting_an_owned_session_cascades_and_a_missing_one_is_not_found(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let store = transcripts(db);
    store.append(chat.id, &ada.id, &user_text("one")).await.unwrap();
    store.append(chat.id, &ada.id, &user_text("two")).await.unwrap();
    s.acquire_turn_lease(chat.id, uuid::Uuid::new_v4(), PA, t(3, 10), t(3, 9)).await.unwrap();

    assert!(s.delete_session(chat.id, ada.id).await.unwrap());
    assert_eq!(s.assistant_session(chat.id, ada.id).await.unwrap(), None);
    assert_eq!(message_rows(db, chat.id).await, 0, "the messages went with it");
    assert_eq!(s.turn_cancel_generation(chat.id).await.unwrap(), None, "and its lease row");
    assert!(!s.delete_session(chat.id, ada.id).await.unwrap(), "a second delete affects no row");
    assert!(!s.delete_session(SessionId::random(), ada.id).await.unwrap());
}

pub async fn appended_messages_read_back_in_order(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let store = transcripts(db);
    assert_eq!(store.transcript(chat.id, &ada.id).await.unwrap(), [], "empty, not missing");
    assert_eq!(store.recent(chat.id, &ada.id, 5).await.unwrap(), []);

    let first = store.append(chat.id, &ada.id, &user_text("find me Rust jobs")).await.unwrap();
    let answer = NewMessage { role: MessageRole::Assistant, content: r#"{"text":"Sure."}"#.into() };
    let second = store.append(chat.id, &ada.id, &answer).await.unwrap();
    assert_eq!((first.seq, second.seq), (1, 2));
    assert_eq!(first.role, MessageRole::User);
    assert_eq!(second.role, MessageRole::Assistant);

    let all = store.transcript(chat.id, &ada.id).await.unwrap();
    assert_eq!(all, [first.clone(), second.clone()]);
    let texts: Vec<_> = all.iter().filter_map(freehire_assistant::message::user_text).collect();
    assert_eq!(texts, ["find me Rust jobs"]);
    assert_eq!(freehire_assistant::message::conversation(&all).unwrap().len(), 2);
    assert_eq!(s.count_user_turns(chat.id).await.unwrap(), 1);
    let tool = NewMessage {
        role: MessageRole::Tool,
        content: r#"{"tool_call_id":"c1","name":"search_jobs","result":"{}"}"#.into(),
    };
    store.append(chat.id, &ada.id, &tool).await.unwrap();
    store.append(chat.id, &ada.id, &user_text("more")).await.unwrap();
    assert_eq!(s.count_user_turns(chat.id).await.unwrap(), 2, "user rows only");
    let stamped = db
        .scalar(&format!(
            "SELECT count(*) FROM assistant_messages WHERE session_id = '{}' AND created_at = '{}'",
            chat.id,
            if db.sqlite_file().is_some() {
                "2026-11-03T09:00:00.000000Z"
            } else {
                "2026-11-03 09:00:00+00"
            }
        ))
        .await;
    assert_eq!(stamped, 4, "created_at comes from the clock");
}

pub async fn recent_returns_the_tail_in_ascending_order(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let store = transcripts(db);
    for n in 1..=5 {
        store.append(chat.id, &ada.id, &user_text(&format!("m{n}"))).await.unwrap();
    }
    assert_eq!(seqs(&store.recent(chat.id, &ada.id, 3).await.unwrap()), [3, 4, 5]);
    assert_eq!(seqs(&store.recent(chat.id, &ada.id, 100).await.unwrap()), [1, 2, 3, 4, 5]);
    assert_eq!(seqs(&store.recent(chat.id, &ada.id, 1).await.unwrap()), [5]);
    assert_eq!(store.recent(chat.id, &ada.id, 0).await.unwrap(), []);
    assert_eq!(seqs(&store.transcript(chat.id, &ada.id).await.unwrap()), [1, 2, 3, 4, 5]);
}

pub async fn label_and_touch_are_owner_scoped_and_the_first_label_stays(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let store = transcripts(db);
    let label_of =
        |id| async move { db.store().assistant_session(id, ada.id).await.unwrap().unwrap().label };

    store.label(chat.id, &bob.id, "Bob's label").await.unwrap();
    assert_eq!(label_of(chat.id).await, None, "the wrong owner changes nothing");
    store.label(chat.id, &ada.id, "").await.unwrap();
    assert_eq!(label_of(chat.id).await, None, "an empty label is none");
    store.label(chat.id, &ada.id, "Remote Rust jobs").await.unwrap();
    assert_eq!(label_of(chat.id).await.as_deref(), Some("Remote Rust jobs"));
    store.label(chat.id, &ada.id, "Second message").await.unwrap();
    assert_eq!(label_of(chat.id).await.as_deref(), Some("Remote Rust jobs"), "the first stays");

    store.touch(chat.id, &bob.id).await.unwrap();
    let read = s.assistant_session(chat.id, ada.id).await.unwrap().unwrap();
    assert_eq!(read.updated_at, t(2, 9), "the wrong owner touches nothing");
    assert!(!s.touch_session(chat.id, bob.id, t(4, 9)).await.unwrap());
    store.touch(chat.id, &ada.id).await.unwrap();
    let read = s.assistant_session(chat.id, ada.id).await.unwrap().unwrap();
    assert_eq!(read.updated_at, clock(), "the owner touches");
    assert_eq!(read.created_at, t(2, 9));
}

/// After a prompt the runner labels and touches in one write: the same rules as the two.
pub async fn label_and_touch_in_one_write_keep_both_rules(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let store = transcripts(db);
    let read = || async { s.assistant_session(chat.id, ada.id).await.unwrap().unwrap() };

    assert!(!s.label_and_touch_session(chat.id, bob.id, "Bob's", t(4, 9)).await.unwrap());
    let before = read().await;
    assert_eq!((before.label, before.updated_at), (None, t(2, 9)), "the wrong owner: nothing");
    store.label_and_touch(chat.id, &ada.id, "").await.unwrap();
    let empty = read().await;
    assert_eq!((empty.label, empty.updated_at), (None, clock()), "an empty label is none");
    assert!(s.label_and_touch_session(chat.id, ada.id, "Remote Rust jobs", t(5, 9)).await.unwrap());
    let first = read().await;
    assert_eq!((first.label.as_deref(), first.updated_at), (Some("Remote Rust jobs"), t(5, 9)));
    assert!(s.label_and_touch_session(chat.id, ada.id, "Second message", t(6, 9)).await.unwrap());
    let second = read().await;
    assert_eq!(second.label.as_deref(), Some("Remote Rust jobs"), "the first label stays");
    assert_eq!(second.updated_at, t(6, 9), "every prompt touches");
    assert_eq!(second.created_at, t(2, 9));
}

pub async fn the_transcript_returns_the_stored_bytes(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let store = transcripts(db);
    // Already in the server's normal form (jsonb's `": "` and `", "`): unchanged everywhere.
    let normal = r#"{"text": "Grüße \"quoted\" \\ tab\t", "tool_calls": [{"id": "c1", "name": "search_jobs", "arguments": "{\"query\":\"rust\"}"}]}"#.to_owned();
    // Anything else: byte-for-byte on SQLite, the same JSON value on PostgreSQL.
    let loose = "{ \"text\" :\"spaced\",\n \"a\": 1.50 }";
    let written = [
        NewMessage { role: MessageRole::Assistant, content: normal.clone() },
        NewMessage { role: MessageRole::User, content: loose.to_owned() },
    ];
    let mut returned = Vec::new();
    for msg in &written {
        returned.push(store.append(chat.id, &ada.id, msg).await.unwrap());
    }
    let read = store.transcript(chat.id, &ada.id).await.unwrap();
    assert_eq!(read, returned, "the insert returns what the transcript reads");
    assert_eq!(read, store.recent(chat.id, &ada.id, 2).await.unwrap());
    assert_eq!(read[0].content, normal);
    let value = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap();
    assert_eq!(value(&read[1].content), value(loose));
    if db.sqlite_file().is_some() {
        assert_eq!(read[1].content, loose, "SQLite keeps the very bytes");
    }
    // And they are exactly what the table holds.
    let column = if db.sqlite_file().is_some() { "content" } else { "content::text" };
    let stored = db
        .scalar(&format!(
            "SELECT count(*) FROM assistant_messages WHERE session_id = '{}' AND seq = 2 \
             AND {column} = '{}'",
            chat.id,
            read[1].content.replace('\'', "''")
        ))
        .await;
    assert_eq!(stored, 1);
}

pub async fn the_rail_lists_chats_newest_first_without_tailor_and_browse(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    let mut made = Vec::new();
    for (n, preset) in ["chat", "tailor", "profile", "browse", "interview", "debrief", "chat"]
        .into_iter()
        .enumerate()
    {
        let created = session(s, &ada, preset).await;
        let hour = 20 - u32::try_from(n).unwrap();
        assert!(s.touch_session(created.id, ada.id, t(5, hour)).await.unwrap());
        made.push((preset, created.id));
    }
    session(s, &bob, "chat").await;
    let rail = s.chat_sessions(ada.id).await.unwrap();
    let presets: Vec<_> = rail.iter().map(|r| r.preset.as_str()).collect();
    assert_eq!(presets, ["chat", "profile", "interview", "debrief", "chat"]);
    let ids: Vec<_> = rail.iter().map(|r| r.id).collect();
    assert_eq!(ids, [made[0].1, made[2].1, made[4].1, made[5].1, made[6].1]);
    // A touch moves a session to the top; ties order by id, newest (largest) first.
    s.touch_session(made[6].1, ada.id, t(6, 9)).await.unwrap();
    s.touch_session(made[2].1, ada.id, t(6, 9)).await.unwrap();
    let rail = s.chat_sessions(ada.id).await.unwrap();
    let top: Vec<_> = rail.iter().take(2).map(|r| r.id).collect();
    let mut tied = vec![made[6].1, made[2].1];
    tied.sort_by_key(|id| std::cmp::Reverse(*id.as_uuid()));
    assert_eq!(top, tied);
    assert!(rail.iter().all(|r| r.owner == ada.id));
}

pub async fn the_database_refuses_an_unknown_preset(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    for bad in ["mail", "", "Chat"] {
        let new = NewSession { owner: ada.id, preset: bad, label: None, cv_id: None, job_id: None };
        let refused = s.create_session(new, t(2, 9)).await;
        assert!(matches!(refused, Err(StoreError::Database(_))), "{bad:?}: {refused:?}");
    }
    assert_eq!(db.scalar("SELECT count(*) FROM assistant_sessions").await, 0);
    for good in freehire_store::SESSION_PRESETS {
        session(s, &ada, good).await;
    }
    assert_eq!(db.scalar("SELECT count(*) FROM assistant_sessions").await, 6);
}

pub async fn a_jobs_deletion_unbinds_and_a_users_deletion_removes_everything(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    let job = job(s, "1").await;
    let new = NewSession {
        owner: ada.id,
        preset: "debrief",
        label: None,
        cv_id: None,
        job_id: Some(job),
    };
    let debrief = s.create_session(new, t(2, 9)).await.unwrap();
    let store = transcripts(db);
    store.append(debrief.id, &ada.id, &user_text("how did it go")).await.unwrap();
    db.execute(&format!("DELETE FROM jobs WHERE id = {}", job.get())).await;
    let read = s.assistant_session(debrief.id, ada.id).await.unwrap().unwrap();
    assert_eq!(read.job_id, None, "ON DELETE SET NULL");
    assert_eq!(message_rows(db, debrief.id).await, 1, "the transcript stays");

    let kept = session(s, &bob, "chat").await;
    store.append(kept.id, &bob.id, &user_text("hello")).await.unwrap();
    assert!(s.delete_user(ada.id).await.unwrap());
    assert_eq!(db.scalar("SELECT count(*) FROM assistant_sessions").await, 1);
    assert_eq!(message_rows(db, debrief.id).await, 0);
    assert_eq!(message_rows(db, kept.id).await, 1, "another user's rows stay");
}

/// Two API processes appending to one session at once: every message is stored, with
/// distinct, gapless sequence numbers (a collision is retried).
pub async fn concurrent_appends_from_two_stores_get_distinct_seqs(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let a = Arc::new(transcripts(db));
    let b = Arc::new(Transcripts::new(db.second_store().await, clock));
    const ROUNDS: i32 = 10;
    for round in 0..ROUNDS {
        // One message each per round: a loser's retry has no competitor left, so it lands.
        let barrier = Arc::new(tokio::sync::Barrier::new(2));
        let spawn = |store: Arc<Transcripts>, name: &'static str| {
            let barrier = barrier.clone();
            let owner = ada.id;
            tokio::spawn(async move {
                barrier.wait().await;
                store.append(chat.id, &owner, &user_text(&format!("{name}{round}"))).await
            })
        };
        let (x, y) = tokio::join!(spawn(a.clone(), "a"), spawn(b.clone(), "b"));
        let (x, y) = (x.unwrap().unwrap(), y.unwrap().unwrap());
        let mut pair = [x.seq, y.seq];
        pair.sort_unstable();
        assert_eq!(pair, [2 * round + 1, 2 * round + 2]);
    }
    let all = a.transcript(chat.id, &ada.id).await.unwrap();
    assert_eq!(seqs(&all), (1..=2 * ROUNDS).collect::<Vec<_>>());
}

/// PostgreSQL: a real collision. An uncommitted insert holds the next `seq`; an append that
/// computed the same number waits on the key, gets the unique violation once the other
/// commits, and lands on the number after it.
pub async fn a_real_sequence_collision_is_retried(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let chat = session(s, &ada, "chat").await;
    let store = Arc::new(transcripts(db));
    store.append(chat.id, &ada.id, &user_text("first")).await.unwrap();
    let pool = db.postgres_pool().expect("PostgreSQL");
    let mut other = pool.begin().await.unwrap();
    sqlx::query(
        "INSERT INTO assistant_messages (session_id, seq, role, content, created_at) \
         VALUES ($1, 2, 'assistant', '{\"text\":\"other\"}', now())",
    )
    .bind(chat.id.as_uuid())
    .execute(&mut *other)
    .await
    .unwrap();
    let append = {
        let store = store.clone();
        let owner = ada.id;
        tokio::spawn(async move { store.append(chat.id, &owner, &user_text("mine")).await })
    };
    // The append is blocked on the uncommitted key until the other transaction commits.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!append.is_finished(), "the append waits on the contested key");
    other.commit().await.unwrap();
    let mine = append.await.unwrap().unwrap();
    assert_eq!(mine.seq, 3, "retried after the collision");
    assert_eq!(seqs(&store.transcript(chat.id, &ada.id).await.unwrap()), [1, 2, 3]);
}

/// PostgreSQL: a collision on every attempt (a trigger raising SQLSTATE 23505, counting its
/// calls in a sequence, which a rollback does not undo) gives up after three attempts.
pub async fn a_persistent_collision_gives_up_after_three_attempts(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let chat = session(s, &ada, "chat").await;
    db.execute("CREATE SEQUENCE append_attempts").await;
    db.execute(
        "CREATE FUNCTION collide() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
         PERFORM nextval('append_attempts'); \
         RAISE EXCEPTION 'taken' USING ERRCODE = 'unique_violation'; END $$",
    )
    .await;
    db.execute(
        "CREATE TRIGGER collide BEFORE INSERT ON assistant_messages \
         FOR EACH ROW EXECUTE FUNCTION collide()",
    )
    .await;
    let store = transcripts(db);
    let gave_up = store.append(chat.id, &ada.id, &user_text("never stored")).await;
    assert_eq!(gave_up, Err(AssistantError::SeqConflict));
    assert_eq!(db.scalar("SELECT last_value FROM append_attempts").await, 3);
    assert_eq!(message_rows(db, chat.id).await, 0);
}

// ---- turn leases ----

fn at(seconds: i64) -> DateTime<Utc> {
    t(7, 9) + Duration::seconds(seconds)
}

/// The coordinators ("processes") of the two stores.
const PA: uuid::Uuid = uuid::Uuid::from_u128(0xa);
const PB: uuid::Uuid = uuid::Uuid::from_u128(0xb);

/// Renews `process`'s leases to `until`; the generation of `holder`'s lease of `session`
/// if the process still holds it.
async fn renewed(
    s: &dyn Store,
    process: uuid::Uuid,
    session: SessionId,
    holder: uuid::Uuid,
    until: DateTime<Utc>,
) -> Option<i64> {
    let held = s.renew_turn_leases(process, until).await.unwrap();
    held.iter().find(|h| h.session == session && h.holder == holder).map(|h| h.generation)
}

/// Two stores (two API processes) on one database share one running lease and one queue
/// place per session; a new claim never overtakes the waiter; cancels move the generation.
pub async fn one_running_lease_and_one_queue_place_across_stores(db: &TestDb) {
    let a = db.store.clone();
    let b = db.second_store().await;
    let ada = user(a.as_ref(), "ada@example.com").await;
    let chat = session(a.as_ref(), &ada, "chat").await;
    let id = chat.id;
    let (holder, waiter, third) =
        (uuid::Uuid::new_v4(), uuid::Uuid::new_v4(), uuid::Uuid::new_v4());

    assert_eq!(a.turn_cancel_generation(id).await.unwrap(), None, "no row before a turn");
    assert!(!a.cancel_turn(id, at(0)).await.unwrap(), "nothing to cancel");
    assert_eq!(b.queue_for_turn(id, waiter, at(30), at(0)).await.unwrap(), None, "no row yet");

    assert_eq!(a.acquire_turn_lease(id, holder, PA, at(30), at(0)).await.unwrap(), Some(0));
    assert_eq!(b.acquire_turn_lease(id, waiter, PB, at(30), at(1)).await.unwrap(), None, "busy");
    assert_eq!(a.acquire_turn_lease(id, holder, PA, at(31), at(1)).await.unwrap(), Some(0), "own");
    assert_eq!(b.queue_for_turn(id, waiter, at(31), at(1)).await.unwrap(), Some(0));
    assert_eq!(b.queue_for_turn(id, waiter, at(32), at(2)).await.unwrap(), Some(0), "renewed");
    assert_eq!(a.queue_for_turn(id, third, at(32), at(2)).await.unwrap(), None, "queue full");

    assert!(b.cancel_turn(id, at(3)).await.unwrap(), "a live holder was cancelled");
    assert_eq!(a.turn_cancel_generation(id).await.unwrap(), Some(1));
    assert_eq!(renewed(a.as_ref(), PA, id, holder, at(40)).await, Some(1), "seen on renew");

    assert!(a.release_turn_lease(id, holder).await.unwrap());
    assert!(!a.release_turn_lease(id, holder).await.unwrap(), "released once");
    assert_eq!(
        a.acquire_turn_lease(id, third, PA, at(40), at(4)).await.unwrap(),
        None,
        "a newcomer does not overtake the waiter"
    );
    assert_eq!(b.acquire_turn_lease(id, waiter, PB, at(40), at(4)).await.unwrap(), Some(1));
    assert_eq!(a.queue_for_turn(id, third, at(40), at(4)).await.unwrap(), Some(1), "place freed");
    assert_eq!(renewed(a.as_ref(), PA, id, holder, at(50)).await, None, "not the holder");
    assert!(a.leave_turn_queue(id, third).await.unwrap());
    assert!(!a.leave_turn_queue(id, third).await.unwrap());
    assert!(b.release_turn_lease(id, waiter).await.unwrap());
    assert!(!a.cancel_turn(id, at(5)).await.unwrap(), "nothing running");
    assert_eq!(a.turn_cancel_generation(id).await.unwrap(), Some(2));
}

/// A killed process's lease and queue place run out: another takes them over, and the old
/// holder's renewal then fails.
pub async fn an_expired_lease_or_queue_place_is_taken_over(db: &TestDb) {
    let a = db.store.clone();
    let b = db.second_store().await;
    let ada = user(a.as_ref(), "ada@example.com").await;
    let id = session(a.as_ref(), &ada, "chat").await.id;
    let (dead, live, dead_waiter) =
        (uuid::Uuid::new_v4(), uuid::Uuid::new_v4(), uuid::Uuid::new_v4());

    assert_eq!(a.acquire_turn_lease(id, dead, PA, at(30), at(0)).await.unwrap(), Some(0));
    assert_eq!(
        b.acquire_turn_lease(id, live, PB, at(60), at(29)).await.unwrap(),
        None,
        "still live"
    );
    assert_eq!(
        b.acquire_turn_lease(id, live, PB, at(60), at(30)).await.unwrap(),
        Some(0),
        "expired"
    );
    assert_eq!(renewed(a.as_ref(), PA, id, dead, at(90)).await, None, "the old holder lost it");
    assert!(!a.release_turn_lease(id, dead).await.unwrap(), "and cannot release the new one");
    assert!(!b.cancel_turn(id, at(61)).await.unwrap(), "the new lease expired too by now");

    assert_eq!(a.queue_for_turn(id, dead_waiter, at(70), at(40)).await.unwrap(), Some(1));
    assert_eq!(b.queue_for_turn(id, live, at(90), at(69)).await.unwrap(), None, "place held");
    assert_eq!(b.queue_for_turn(id, live, at(90), at(70)).await.unwrap(), Some(1), "expired");
    assert_eq!(
        a.acquire_turn_lease(id, uuid::Uuid::new_v4(), PA, at(100), at(71)).await.unwrap(),
        None,
        "the live waiter keeps its turn"
    );
}

/// One statement renews and reads every lease of a process and nothing of another's; a
/// release or a takeover removes the session from its set.
pub async fn a_process_renews_and_reads_all_its_leases_at_once(db: &TestDb) {
    let a = db.store.clone();
    let b = db.second_store().await;
    let ada = user(a.as_ref(), "ada@example.com").await;
    let (one, two, three) = (
        session(a.as_ref(), &ada, "chat").await.id,
        session(a.as_ref(), &ada, "chat").await.id,
        session(a.as_ref(), &ada, "chat").await.id,
    );
    let (h1, h2, h3) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    assert_eq!(a.acquire_turn_lease(one, h1, PA, at(30), at(0)).await.unwrap(), Some(0));
    assert_eq!(a.acquire_turn_lease(two, h2, PA, at(30), at(0)).await.unwrap(), Some(0));
    assert_eq!(b.acquire_turn_lease(three, h3, PB, at(30), at(0)).await.unwrap(), Some(0));
    assert!(b.cancel_turn(two, at(1)).await.unwrap());

    let sorted = |mut v: Vec<HeldLease>| {
        v.sort_by_key(|h| h.holder);
        v
    };
    let expected = sorted(vec![
        HeldLease { session: one, holder: h1, generation: 0 },
        HeldLease { session: two, holder: h2, generation: 1 },
    ]);
    assert_eq!(sorted(a.held_turn_leases(PA).await.unwrap()), expected);
    assert_eq!(sorted(b.renew_turn_leases(PA, at(60)).await.unwrap()), expected, "renewed");
    // Renewed to 60: still live at 59 for another process.
    assert_eq!(b.acquire_turn_lease(one, h3, PB, at(90), at(59)).await.unwrap(), None);
    assert_eq!(
        b.held_turn_leases(PB).await.unwrap(),
        vec![HeldLease { session: three, holder: h3, generation: 0 }]
    );

    assert!(a.release_turn_lease(two, h2).await.unwrap());
    // Expired at 60: taken over by the other process.
    assert_eq!(b.acquire_turn_lease(one, h3, PB, at(90), at(60)).await.unwrap(), Some(0));
    assert_eq!(a.held_turn_leases(PA).await.unwrap(), vec![], "released and taken over");
    assert_eq!(a.renew_turn_leases(PA, at(99)).await.unwrap(), vec![]);
    assert_eq!(b.held_turn_leases(PB).await.unwrap().len(), 2);
}

/// The lease clock is the database's (PostgreSQL) or this machine's (SQLite): close to now.
pub async fn the_lease_clock_reads_the_time(db: &TestDb) {
    let before = Utc::now();
    let clock = db.store().lease_clock().await.unwrap();
    let drift = (clock - before).num_milliseconds().abs();
    assert!(drift < 5_000, "{clock} is {drift} ms from {before}");
}
