//! CV documents: every `CvRepo` method on both backends. The base CV and the tailored copy
//! are idempotent, commits go through `cvedit` (the agent refused on protected fields and on
//! evidence that is missing, foreign or unconfirmed, with nothing written), quick sets
//! coalesce, the feed keeps 100 revisions, undo and batch revert are revisions of their own,
//! another user's CV is not found anywhere, and concurrent commits lose nothing.

use std::{collections::HashMap, sync::Arc};

use chrono::{DateTime, Duration, Utc};
use freehire_cv::{Actor, CvState, EditConfig, EditError, Header, Link, Op, Origin, Path};
use freehire_domain::{AtomId, CvId, Provenance, User};
use freehire_store::{
    CommitOutcome, CvEdit, CvKind, CvRevision, RevisionId, Store, testing::TestDb,
};
use serde_json::{Value, json};

use crate::fixtures::{posting, t};

async fn user(s: &dyn Store, address: &str) -> User {
    freehire_store::testing::user(s, address, t(1, 9)).await
}

fn p(s: &str) -> Path {
    Path::parse(s).unwrap()
}

fn atom(n: i64) -> AtomId {
    AtomId::new(n).unwrap()
}

fn base_state() -> CvState {
    serde_json::from_value(json!({
        "title": "Base CV",
        "template_id": "classic",
        "header": {
            "full_name": "Ada Lovelace",
            "headline": "Backend engineer",
            "email": "ada@example.com",
            "phone": "+44 20 0000 0000",
            "links": [{"label": "GitHub", "url": "https://github.com/ada"}]
        },
        "summary": "Builds reliable systems.",
        "experience": [{"company": "Acme", "role": "Engineer", "bullets": ["Led the migration"]}],
        "skills": [{"name": "Languages", "items": ["Rust"]}]
    }))
    .unwrap()
}

/// The owner's atoms as the app layer would pass them: 1 manual, 2 agent_inferred, 3 cv_import.
/// Atom 7 is another user's, so it is not here (and reads as missing).
fn owners_atoms() -> HashMap<AtomId, Provenance> {
    HashMap::from([
        (atom(1), Provenance::Manual),
        (atom(2), Provenance::AgentInferred),
        (atom(3), Provenance::CvImport),
    ])
}

fn candidate(ops: &[Op]) -> CvEdit<'_> {
    CvEdit { ops, actor: Actor::Candidate, origin: Origin::Editor, batch: None, note: None }
}

fn agent<'a>(ops: &'a [Op], batch: &'a str) -> CvEdit<'a> {
    CvEdit {
        ops,
        actor: Actor::Agent,
        origin: Origin::TailorAgent,
        batch: Some(batch),
        note: Some("tailoring"),
    }
}

fn committed(outcome: Option<CommitOutcome>) -> (CvState, Vec<CvRevision>) {
    match outcome {
        Some(CommitOutcome::Committed { state, revisions }) => (state, revisions),
        other => panic!("expected a commit, got {other:?}"),
    }
}

fn refused(outcome: Option<CommitOutcome>) -> EditError {
    match outcome {
        Some(CommitOutcome::Refused(e)) => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn commit(
    s: &dyn Store,
    u: &User,
    id: CvId,
    edit: &CvEdit<'_>,
    now: DateTime<Utc>,
) -> Option<CommitOutcome> {
    let atoms = owners_atoms();
    let lookup = move |id: AtomId| atoms.get(&id).copied();
    s.commit_cv(u.id, id, edit, &lookup, &EditConfig::default(), now).await.unwrap()
}

async fn revisions(s: &dyn Store, u: &User, id: CvId) -> Vec<CvRevision> {
    s.cv_revisions(u.id, id, 100).await.unwrap().unwrap()
}

async fn base(s: &dyn Store, u: &User) -> CvId {
    s.create_base_cv(u.id, &base_state(), t(2, 9)).await.unwrap().id
}

// scenario: The base CV is created once
pub async fn the_base_cv_is_created_once(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    assert!(s.base_cv(u.id).await.unwrap().is_none());
    let first = s.create_base_cv(u.id, &base_state(), t(2, 9)).await.unwrap();
    assert_eq!(first.kind, CvKind::Base);
    assert_eq!(first.state, base_state());
    assert_eq!((first.job_id, first.created_at, first.updated_at), (None, t(2, 9), t(2, 9)));
    let again = s.create_base_cv(u.id, &CvState::default(), t(3, 9)).await.unwrap();
    assert_eq!(again, first, "the existing base CV, unchanged");
    assert_eq!(s.base_cv(u.id).await.unwrap(), Some(first.clone()));
    assert_eq!(s.get_cv(u.id, first.id).await.unwrap(), Some(first.clone()));
    assert_eq!(s.list_cvs(u.id).await.unwrap(), vec![first]);
}

// scenario: A tailored copy is made once per vacancy
pub async fn a_tailored_copy_is_made_once_and_needs_a_base(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let job = s.upsert_jobs(&[posting("greenhouse", "1", "Backend")], t(1, 8)).await.unwrap()[0].id;
    let other = s.upsert_jobs(&[posting("greenhouse", "2", "SRE")], t(1, 8)).await.unwrap()[0].id;
    assert!(s.tailor_cv(u.id, job, t(2, 10)).await.unwrap().is_none(), "no base CV");
    let base_id = base(s, &u).await;
    let (copy, created) = s.tailor_cv(u.id, job, t(2, 10)).await.unwrap().unwrap();
    assert!(created);
    assert_eq!((copy.kind, copy.job_id), (CvKind::Tailored, Some(job)));
    assert_ne!(copy.id, base_id);
    assert_eq!(copy.state, base_state(), "a copy of the base CV");
    // Its history starts with "Created from your base CV", which nothing undoes.
    let seed = revisions(s, &u, copy.id).await;
    assert_eq!(seed.len(), 1, "{seed:?}");
    assert_eq!((seed[0].seq, seed[0].title.as_str()), (1, "Created from your base CV"));
    assert_eq!(seed[0].change.actor, Actor::System);
    assert!(!seed[0].undoable());
    let cfg = EditConfig::default();
    let e = refused(
        s.undo_cv(u.id, copy.id, seed[0].id, Actor::Candidate, &cfg, t(2, 10)).await.unwrap(),
    );
    assert_eq!(e.code(), "cannot_undo");
    assert!(e.to_string().contains("where this CV's history starts"), "{e}");
    let (again, created) = s.tailor_cv(u.id, job, t(2, 11)).await.unwrap().unwrap();
    assert!(!created);
    assert_eq!(again, copy);
    assert_eq!(revisions(s, &u, copy.id).await.len(), 1, "seeded once");
    // Racing bootstraps of another vacancy make one copy.
    let (a, b) =
        tokio::join!(s.tailor_cv(u.id, other, t(2, 12)), s.tailor_cv(u.id, other, t(2, 12)));
    let (a, b) = (a.unwrap().unwrap(), b.unwrap().unwrap());
    assert_eq!(a.0.id, b.0.id);
    assert!(a.1 ^ b.1, "exactly one of them created it");
    assert_eq!(revisions(s, &u, a.0.id).await.len(), 1, "one seed for the raced copy");
    let listed: Vec<_> = s.list_cvs(u.id).await.unwrap().into_iter().map(|c| c.id).collect();
    assert_eq!(listed, [base_id, a.0.id, copy.id], "the base first, then newest first");
    // The copy outlives its vacancy.
    db.execute(&format!("DELETE FROM jobs WHERE id = {}", job.get())).await;
    let kept = s.get_cv(u.id, copy.id).await.unwrap().unwrap();
    assert_eq!((kept.kind, kept.job_id), (CvKind::Tailored, None));
}

// scenario: The candidate commits an edit as one revision
pub async fn the_candidate_commits_and_a_no_op_files_nothing(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let id = base(s, &u).await;
    let ops = [
        Op::set(p("summary"), json!("Ships <b>reliable</b> systems.")),
        Op::set(p("header.email"), json!("ada@lovelace.dev")),
        Op::set(p("title"), json!("My CV")),
    ];
    let (state, filed) = committed(commit(s, &u, id, &candidate(&ops), t(3, 9)).await);
    assert_eq!(state.document.summary, "Ships reliable systems.", "sanitised");
    assert_eq!(
        (state.title.as_str(), state.document.header.email.as_str()),
        ("My CV", "ada@lovelace.dev")
    );
    let stored = s.get_cv(u.id, id).await.unwrap().unwrap();
    assert_eq!((stored.state, stored.updated_at), (state.clone(), t(3, 9)));
    assert_eq!(filed.len(), 1);
    let rev = &filed[0];
    assert_eq!(
        (rev.seq, rev.change.actor, rev.change.origin),
        (1, Actor::Candidate, Origin::Editor)
    );
    assert!(!rev.title.is_empty() && !rev.is_undo && !rev.reverted);
    assert_eq!(rev.ops.len(), 3);
    assert_eq!(revisions(s, &u, id).await, filed);
    // The same values again change nothing: no revision, updated_at kept.
    let (again, filed) = committed(commit(s, &u, id, &candidate(&ops[1..]), t(3, 10)).await);
    assert_eq!((again, filed.len()), (state, 0));
    assert_eq!(s.get_cv(u.id, id).await.unwrap().unwrap().updated_at, t(3, 9));
    assert_eq!(revisions(s, &u, id).await.len(), 1);
    // A malformed op is refused whole.
    let bad = [Op::set(p("summary"), json!("x")), Op::set(p("experience[5].role"), json!("y"))];
    assert!(matches!(
        refused(commit(s, &u, id, &candidate(&bad), t(3, 11)).await),
        EditError::InvalidOp { .. }
    ));
    assert_eq!(revisions(s, &u, id).await.len(), 1);
}

/// A refused attempt: what it tries, its ops, and the refusal expected.
type Attempt = (&'static str, Vec<Op>, fn(&EditError) -> bool);

// scenario: The store refuses an agent's batch before writing anything
pub async fn the_agent_is_refused_without_a_trace_and_cited_claims_are_accepted(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let id = base(s, &u).await;
    let bullet = |text: &str| Op::set(p("experience[0].bullets[0]"), Value::String(text.into()));
    let attempts: Vec<Attempt> = vec![
        ("header", vec![Op::set(p("header.email"), json!("x@y.z"))], |e| {
            matches!(e, EditError::Denied { .. })
        }),
        ("whole header", vec![Op::set(p("header"), json!({}))], |e| {
            matches!(e, EditError::Denied { .. })
        }),
        ("title", vec![Op::set(p("title"), json!("Mine"))], |e| {
            matches!(e, EditError::Denied { .. })
        }),
        ("template", vec![Op::set(p("template_id"), json!("sidebar"))], |e| {
            matches!(e, EditError::Denied { .. })
        }),
        (
            "uncited claim after a cited one",
            vec![bullet("Led X").citing(atom(1)), Op::set(p("summary"), json!("Expert"))],
            |e| matches!(e, EditError::Uncited { at: 1, .. }),
        ),
        ("foreign atom", vec![bullet("Led Y").citing(atom(7))], |e| {
            matches!(e, EditError::EvidenceNotFound { .. })
        }),
        ("agent_inferred atom", vec![bullet("Led Z").citing(atom(2))], |e| {
            matches!(e, EditError::EvidenceUnconfirmed { .. })
        }),
    ];
    for (what, ops, expected) in &attempts {
        let e = refused(commit(s, &u, id, &agent(ops, "turn-1"), t(3, 9)).await);
        assert!(expected(&e), "{what}: {e:?}");
        assert_eq!(s.get_cv(u.id, id).await.unwrap().unwrap().state, base_state(), "{what}");
        assert!(revisions(s, &u, id).await.is_empty(), "{what}: no revision filed");
    }
    let ops = [
        bullet("Led the Postgres migration").citing(atom(3)),
        Op::set(p("header.headline"), json!("SRE")),
    ];
    let (state, filed) = committed(commit(s, &u, id, &agent(&ops, "turn-1"), t(3, 9)).await);
    assert_eq!(state.document.experience[0].bullets, ["Led the Postgres migration"]);
    assert_eq!(filed[0].change.actor, Actor::Agent);
    assert_eq!(
        (filed[0].change.batch.as_deref(), filed[0].note.as_deref()),
        (Some("turn-1"), Some("tailoring"))
    );
    assert_eq!(filed[0].ops[0].evidence(), Some(atom(3)));
}

// scenario: Quick sets on one path file one revision
pub async fn quick_sets_on_one_path_coalesce(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let id = base(s, &u).await;
    let set = |text: &str| [Op::set(p("summary"), Value::String(text.into()))];
    let first = committed(commit(s, &u, id, &candidate(&set("One")), t(3, 9)).await).1;
    let second = committed(
        commit(s, &u, id, &candidate(&set("Two")), t(3, 9) + Duration::seconds(20)).await,
    )
    .1;
    assert_eq!(second[0].id, first[0].id, "absorbed into the newest");
    assert_eq!(second[0].inverse, first[0].inverse, "the original inverse is kept");
    assert_eq!(second[0].ops, set("Two"));
    assert_eq!(revisions(s, &u, id).await, second);
    // Past the window, a new revision.
    let third = committed(
        commit(s, &u, id, &candidate(&set("Three")), t(3, 9) + Duration::seconds(90)).await,
    )
    .1;
    assert_ne!(third[0].id, first[0].id);
    assert_eq!(revisions(s, &u, id).await.len(), 2);
    // Undoing the coalesced revision restores the state before the first set.
    let state = committed(
        s.undo_cv(u.id, id, first[0].id, Actor::Candidate, &EditConfig::default(), t(3, 11))
            .await
            .unwrap(),
    );
    assert_eq!(state.0.document.summary, "Builds reliable systems.");
}

// scenario: The revision feed keeps the newest 100
pub async fn the_feed_is_trimmed_at_100(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let id = base(s, &u).await;
    for n in 0..105 {
        let ops = [Op::set(p("summary"), Value::String(format!("Version {n}")))];
        let edit = CvEdit { batch: Some(&format!("b{n}")), ..candidate(&ops) };
        committed(commit(s, &u, id, &edit, t(3, 9) + Duration::seconds(n)).await);
    }
    let feed = revisions(s, &u, id).await;
    assert_eq!(feed.len(), 100);
    assert_eq!((feed[0].seq, feed[99].seq), (105, 6), "newest first, the oldest five gone");
    let stored =
        db.scalar(&format!("SELECT count(*) FROM cv_revisions WHERE cv_id = {}", id.get())).await;
    assert_eq!(stored, 100);
    assert_eq!(s.cv_revisions(u.id, id, 3).await.unwrap().unwrap().len(), 3);
}

// scenario: Undo is a revision of its own
pub async fn undo_restores_and_an_undone_revision_cannot_be_undone(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let id = base(s, &u).await;
    let cfg = EditConfig::default();
    let add = [Op::Insert {
        path: p("experience[0].bullets[1]"),
        value: json!("Cut costs 30%"),
        evidence: None,
    }];
    let rev = committed(commit(s, &u, id, &candidate(&add), t(3, 9)).await).1.remove(0);
    let (state, filed) =
        committed(s.undo_cv(u.id, id, rev.id, Actor::Candidate, &cfg, t(3, 10)).await.unwrap());
    assert_eq!(state, base_state(), "restored");
    assert_eq!(s.get_cv(u.id, id).await.unwrap().unwrap().state, base_state());
    let undo = &filed[0];
    assert!(undo.is_undo);
    assert_eq!((undo.reverts, undo.seq, undo.change.actor), (Some(rev.id), 2, Actor::Candidate));
    let feed = revisions(s, &u, id).await;
    assert_eq!(feed.len(), 2);
    assert!(feed[1].reverted, "the undone revision is marked");
    // Undoing it again is refused, and changes nothing.
    let e = refused(s.undo_cv(u.id, id, rev.id, Actor::Candidate, &cfg, t(3, 11)).await.unwrap());
    assert_eq!(e.code(), "cannot_undo");
    assert_eq!(revisions(s, &u, id).await.len(), 2);
    // An inverse that no longer applies: remove a bullet, then remove the whole entry.
    let remove = [Op::Remove { path: p("experience[0].bullets[0]"), evidence: None }];
    let removal = committed(commit(s, &u, id, &candidate(&remove), t(3, 12)).await).1.remove(0);
    let entry = [Op::Remove { path: p("experience[0]"), evidence: None }];
    committed(commit(s, &u, id, &candidate(&entry), t(3, 13)).await);
    let e =
        refused(s.undo_cv(u.id, id, removal.id, Actor::Candidate, &cfg, t(3, 14)).await.unwrap());
    assert!(matches!(e, EditError::CannotUndo(_)), "{e:?}");
    assert_eq!(revisions(s, &u, id).await.len(), 4);
    assert!(
        s.undo_cv(u.id, id, RevisionId(999_999), Actor::Candidate, &cfg, t(3, 15))
            .await
            .unwrap()
            .is_none()
    );
}

// scenario: Reverting a batch undoes the whole run
pub async fn revert_batch_restores_the_state_before_the_batch(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let id = base(s, &u).await;
    let cfg = EditConfig::default();
    let before_run = [Op::set(p("summary"), json!("Before the run"))];
    let (before, _) = committed(commit(s, &u, id, &candidate(&before_run), t(3, 8)).await);
    let steps = [
        vec![
            Op::set(p("experience[0].bullets[0]"), json!("Led the Postgres migration"))
                .citing(atom(1)),
        ],
        vec![Op::Insert {
            path: p("skills[0].items[1]"),
            value: json!("Go"),
            evidence: Some(atom(3)),
        }],
        vec![Op::Remove { path: p("experience[0].bullets[0]"), evidence: None }],
    ];
    for (n, ops) in steps.iter().enumerate() {
        committed(
            commit(
                s,
                &u,
                id,
                &agent(ops, "run-1"),
                t(3, 9) + Duration::seconds(i64::try_from(n).unwrap()),
            )
            .await,
        );
    }
    let other = [Op::set(p("summary"), json!("Another run")).citing(atom(1))];
    committed(commit(s, &u, id, &agent(&other, "run-2"), t(3, 9)).await);
    let (state, filed) = committed(
        s.revert_batch(u.id, id, "run-1", Actor::Candidate, &cfg, t(3, 10)).await.unwrap(),
    );
    let mut expected = before.clone();
    expected.document.summary = "Another run".into();
    assert_eq!(state, expected, "every edit of run-1 undone, run-2 kept");
    assert_eq!(s.get_cv(u.id, id).await.unwrap().unwrap().state, expected);
    assert_eq!(filed.len(), 3);
    assert!(filed.iter().all(|r| r.is_undo && r.change.batch.is_none()));
    let feed = revisions(s, &u, id).await;
    assert!(feed.iter().filter(|r| r.change.batch.as_deref() == Some("run-1")).all(|r| r.reverted));
    // Nothing is left to undo: a second revert changes nothing.
    let (again, filed) = committed(
        s.revert_batch(u.id, id, "run-1", Actor::Candidate, &cfg, t(3, 11)).await.unwrap(),
    );
    assert_eq!((again, filed.len()), (expected, 0));
}

// scenario: Another user's CV is not found
pub async fn another_users_cv_is_not_found_on_every_method(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let eve = user(s, "eve@example.com").await;
    let id = base(s, &ada).await;
    let ops = [Op::set(p("summary"), json!("Eve was here"))];
    let rev = committed(
        commit(s, &ada, id, &candidate(&[Op::set(p("summary"), json!("Mine"))]), t(3, 9)).await,
    )
    .1
    .remove(0);
    let cfg = EditConfig::default();
    assert!(s.get_cv(eve.id, id).await.unwrap().is_none());
    assert!(s.base_cv(eve.id).await.unwrap().is_none());
    assert!(s.list_cvs(eve.id).await.unwrap().is_empty());
    assert!(s.cv_for_model(eve.id, id).await.unwrap().is_none());
    assert!(s.cv_revisions(eve.id, id, 10).await.unwrap().is_none());
    assert!(commit(s, &eve, id, &candidate(&ops), t(3, 10)).await.is_none());
    assert!(
        s.undo_cv(eve.id, id, rev.id, Actor::Candidate, &cfg, t(3, 10)).await.unwrap().is_none()
    );
    assert!(
        s.revert_batch(eve.id, id, "b", Actor::Candidate, &cfg, t(3, 10)).await.unwrap().is_none()
    );
    let job = s.upsert_jobs(&[posting("greenhouse", "1", "Backend")], t(1, 8)).await.unwrap()[0].id;
    assert!(s.tailor_cv(eve.id, job, t(3, 10)).await.unwrap().is_none(), "eve has no base CV");
    let mine = s.get_cv(ada.id, id).await.unwrap().unwrap();
    assert_eq!(mine.state.document.summary, "Mine", "untouched");
    assert_eq!(revisions(s, &ada, id).await.len(), 1);
    // Deleting an account deletes its CVs and their revisions.
    db.execute(&format!("DELETE FROM users WHERE id = {}", ada.id.get())).await;
    assert_eq!(db.scalar("SELECT count(*) FROM cv_revisions").await, 0);
    assert_eq!(db.scalar("SELECT count(*) FROM cvs").await, 0);
}

// scenario: The model reads a CV without contacts
pub async fn the_model_reads_no_contacts(db: &TestDb) {
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let id = base(s, &u).await;
    let seen = s.cv_for_model(u.id, id).await.unwrap().unwrap();
    let header = &seen.document.header;
    assert!(header.full_name.is_empty(), "no contact identifier reaches the model");
    assert!(header.email.is_empty() && header.phone.is_empty() && header.links.is_empty());
    assert_eq!(header.headline, "Backend engineer");
    let mut expected = base_state();
    expected.document.header = Header {
        full_name: String::new(),
        email: String::new(),
        phone: String::new(),
        links: Vec::<Link>::new(),
        ..expected.document.header
    };
    assert_eq!(seen, expected);
}

// scenario: Concurrent commits take turns on the CV's row
pub async fn concurrent_commits_lose_nothing(db: &TestDb) {
    let u = user(db.store(), "ada@example.com").await;
    let id = base(db.store(), &u).await;
    let stores: Vec<Arc<dyn Store>> = vec![db.second_store().await, db.second_store().await];
    let owner = u.id;
    let mut set = tokio::task::JoinSet::new();
    for (task, store) in stores.into_iter().enumerate() {
        set.spawn(async move {
            let cfg = EditConfig { max_bullets: 100, allow_bullet_truncation: false };
            for n in 0..20 {
                let ops = [Op::Insert {
                    path: p("experience[0].bullets[0]"),
                    value: Value::String(format!("task {task} edit {n}")),
                    evidence: None,
                }];
                let lookup = |_: AtomId| None;
                let outcome = store
                    .commit_cv(owner, id, &candidate(&ops), &lookup, &cfg, t(3, 9))
                    .await
                    .unwrap();
                assert_eq!(committed(outcome).1.len(), 1);
            }
        });
    }
    while let Some(done) = set.join_next().await {
        done.unwrap();
    }
    let s = db.store();
    let state = s.get_cv(u.id, id).await.unwrap().unwrap().state;
    assert_eq!(state.document.experience[0].bullets.len(), 41, "40 inserts and the first bullet");
    for task in 0..2 {
        for n in 0..20 {
            let text = format!("task {task} edit {n}");
            assert!(state.document.experience[0].bullets.contains(&text), "{text}");
        }
    }
    let feed = revisions(s, &u, id).await;
    let seqs: Vec<i64> = feed.iter().map(|r| r.seq).collect();
    assert_eq!(seqs, (1..=40).rev().collect::<Vec<_>>(), "one revision each, numbered in turn");
}

// scenario: A tailored copy names its session and keeps its report
pub async fn a_tailored_copy_names_its_session_and_merges_its_report(db: &TestDb) {
    use freehire_cv::{ReportItem, RequirementStatus, TailorReport};
    let s = db.store();
    let u = user(s, "ada@example.com").await;
    let eve = user(s, "eve@example.com").await;
    let job = s.upsert_jobs(&[posting("greenhouse", "1", "Backend")], t(1, 8)).await.unwrap()[0].id;
    let base_id = base(s, &u).await;
    let (copy, _) = s.tailor_cv(u.id, job, t(2, 10)).await.unwrap().unwrap();
    assert!(!s.set_cv_session(u.id, base_id, "s-1").await.unwrap(), "a base CV has no session");
    assert!(!s.set_cv_session(eve.id, copy.id, "s-1").await.unwrap(), "another user's copy");
    assert!(s.set_cv_session(u.id, copy.id, "s-1").await.unwrap());
    let plan = TailorReport::run_plan(["Rust in production", "Team leadership"]);
    assert!(s.set_tailor_report(u.id, copy.id, &plan).await.unwrap());
    assert!(!s.set_tailor_report(eve.id, copy.id, &plan).await.unwrap());
    let closed = ReportItem {
        requirement: "rust in  PRODUCTION".into(),
        status: RequirementStatus::ClosedBank,
        note: Some("bullet 1".into()),
    };
    // Concurrent merges lose nothing: the row is held while each merges.
    let other =
        ReportItem { requirement: "On-call".into(), status: RequirementStatus::Open, note: None };
    let (a, b) = tokio::join!(
        s.merge_tailor_entry(u.id, copy.id, &closed),
        s.merge_tailor_entry(u.id, copy.id, &other)
    );
    assert!(a.unwrap() && b.unwrap());
    assert!(!s.merge_tailor_entry(eve.id, copy.id, &other).await.unwrap());
    let read = s.get_cv(u.id, copy.id).await.unwrap().unwrap();
    assert_eq!(read.session_id.as_deref(), Some("s-1"));
    let report = read.autopilot_report.unwrap();
    assert_eq!(report.items.len(), 3);
    assert_eq!(report.items[0].status, RequirementStatus::ClosedBank);
    assert_eq!(report.items[0].requirement, "rust in  PRODUCTION", "the newer wording");
    assert_eq!(report.items[1].status, RequirementStatus::NotReached);
    assert_eq!(report.items[2].requirement, "On-call");
}
