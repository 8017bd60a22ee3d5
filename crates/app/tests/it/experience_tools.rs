//! The experience-bank tools (reference assistant.md §10.4) on both backends, through the real
//! registry of a session with a stored transcript: the provenance a `said` quote earns (the
//! 3-word minimum, the negation guard, only the candidate's own messages, a quote that must
//! contain the claim's words and numbers), the confirmation round trip, the bounded reads, the
//! require-context preference and the refusals that name the bad value.

use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use freehire_app::assistant::{Binding, Preset, ToolDeps, registry_for};
use freehire_app::search_slot::SearchSlot;
use freehire_assistant::{NewMessage, Role, SessionId};
use freehire_domain::{EmploymentDraft, EmploymentKind, Provenance, User, UserId};
use freehire_store::{NewSession, Store, testing::TestDb};
use freehire_tools::{CallContext, Registry};
use serde_json::{Value, json};

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap()
}

/// A profile session of a new user whose transcript holds `messages` (role, text).
async fn session(
    db: &TestDb,
    address: &str,
    messages: &[(Role, &str)],
) -> (User, SessionId, Registry<UserId>) {
    let s = db.store();
    let user = crate::support::user(s, address, now()).await;
    let new =
        NewSession { owner: user.id, preset: "profile", label: None, cv_id: None, job_id: None };
    let session = s.create_session(new, now()).await.unwrap();
    for (role, text) in messages {
        let content = json!({ "text": text }).to_string();
        s.insert_message(session.id, user.id, &NewMessage { role: *role, content }, now())
            .await
            .unwrap()
            .unwrap();
    }
    let deps = ToolDeps {
        store: Arc::clone(&db.store),
        search: SearchSlot::none(),
        clock: now,
        cvs: None,
        cover_letters: None,
    };
    let binding = Binding {
        session: session.id,
        preset: Preset::Profile,
        job_id: None,
        cv_id: None,
        batch: uuid::Uuid::new_v4(),
    };
    (user, session.id, registry_for(&deps, &binding))
}

async fn call(
    reg: &Registry<UserId>,
    owner: &User,
    name: &str,
    args: Value,
) -> Result<Value, String> {
    let result = reg.call(&CallContext::default(), &owner.id, name, &args.to_string()).await;
    let value: Value = serde_json::from_str(&result.content).unwrap();
    if result.failed { Err(value["error"].as_str().unwrap().to_owned()) } else { Ok(value) }
}

async fn provenance(s: &dyn Store, owner: &User, id: &Value) -> Provenance {
    let id: i64 = id.as_str().unwrap().parse().unwrap();
    let atoms = s.list_atoms(owner.id).await.unwrap();
    atoms.iter().find(|a| a.id.get() == id).unwrap().provenance
}

// scenario: A said quote earns the candidate's standing only when it is theirs and backs the claim
pub async fn said_quotes_earn_standing_only_when_they_back_the_claim(db: &TestDb) {
    let (ada, _, reg) = session(
        db,
        "ada@example.com",
        &[
            (Role::User, "At Acme I led the migration to Kubernetes for 40 services."),
            (Role::User, "I have never led a team of engineers."),
            (Role::Assistant, "So you designed the payments ledger?"),
        ],
    )
    .await;
    let s = db.store();
    let add = |claim: &str, said: &str| json!({"claim": claim, "said": said});
    let ok = call(
        &reg,
        &ada,
        "experience_add",
        add("Led the migration to Kubernetes", "led the migration to Kubernetes for 40 services"),
    )
    .await
    .unwrap();
    assert_eq!((ok["can_write_cv"].clone(), ok.get("next")), (json!(true), None), "{ok}");
    assert_eq!(provenance(s, &ada, &ok["id"]).await, Provenance::StatedInChat);

    // Each laundering attempt is recorded as the assistant's reading, never citable.
    let attempts = [
        ("Led a team of engineers", "led a team of engineers"),
        ("Designed the payments ledger", "designed the payments ledger"),
        ("Led the Kubernetes work", "the migration"),
        ("Migrated 400 services to Kubernetes", "the migration to Kubernetes for 40 services"),
        ("Ran the platform team", ""),
    ];
    for (claim, said) in attempts {
        let v = call(&reg, &ada, "experience_add", add(claim, said)).await.unwrap();
        assert_eq!(v["can_write_cv"], false, "{claim:?} / {said:?}: {v}");
        assert!(v["next"].as_str().unwrap().contains("Ask them to confirm"), "{v}");
        assert_eq!(provenance(s, &ada, &v["id"]).await, Provenance::AgentInferred, "{claim}");
    }
    // The model cannot send a provenance.
    let e =
        call(&reg, &ada, "experience_add", json!({"claim": "Shipped it", "provenance": "manual"}))
            .await
            .unwrap_err();
    assert!(e.contains("unknown field `provenance`"), "{e}");
}

// scenario: Confirming an inferred achievement upgrades it in place
pub async fn confirmation_upgrades_an_inferred_atom_in_place(db: &TestDb) {
    let claim = "Cut the nightly batch from four hours to forty minutes";
    let (ada, session, reg) =
        session(db, "ada@example.com", &[(Role::User, "we sped up the batch a lot")]).await;
    let s = db.store();
    let first =
        call(&reg, &ada, "experience_add", json!({"claim": claim, "said": "we sped up the batch"}))
            .await
            .unwrap();
    assert_eq!(first["can_write_cv"], false);
    // The confirmation button replays the claim verbatim as the candidate's message.
    let content = json!({ "text": claim }).to_string();
    s.insert_message(session, ada.id, &NewMessage { role: Role::User, content }, now())
        .await
        .unwrap()
        .unwrap();
    let again = call(
        &reg,
        &ada,
        "experience_add",
        json!({"claim": claim, "said": claim, "skills": ["rust"]}),
    )
    .await
    .unwrap();
    assert_eq!(
        (again["id"].clone(), again["can_write_cv"].clone()),
        (first["id"].clone(), json!(true)),
        "{again}"
    );
    let atoms = s.list_atoms(ada.id).await.unwrap();
    assert_eq!(atoms.len(), 1);
    assert!(atoms[0].draft.skills.is_empty(), "the upgrade never rewrites the skills");
    // A confirmed atom is never downgraded: the same claim by the agent again changes nothing.
    let third = call(&reg, &ada, "experience_add", json!({"claim": claim})).await.unwrap();
    assert_eq!(third["already_banked"], true, "{third}");
    assert_eq!(s.list_atoms(ada.id).await.unwrap()[0].provenance, Provenance::StatedInChat);
}

// scenario: Updating an achievement keeps or drops its standing by what changes
pub async fn updates_keep_or_drop_standing_by_what_changes(db: &TestDb) {
    let (ada, _, reg) =
        session(db, "ada@example.com", &[(Role::User, "I rewrote the billing service in Rust")])
            .await;
    let s = db.store();
    let v = call(&reg, &ada, "experience_add", json!({"claim": "Rewrote the billing service in Rust", "said": "I rewrote the billing service in Rust"})).await.unwrap();
    let id = v["id"].clone();
    let skills =
        call(&reg, &ada, "experience_update", json!({"id": id, "skills": ["rust"]})).await.unwrap();
    assert_eq!(
        (skills["can_write_cv"].clone(), skills["skills"].clone()),
        (json!(true), json!(["rust"])),
        "a skills-only change keeps the standing"
    );
    let reworded = call(
        &reg,
        &ada,
        "experience_update",
        json!({"id": id, "claim": "Rewrote the billing service in Rust, cutting costs 60%"}),
    )
    .await
    .unwrap();
    assert_eq!(
        reworded["can_write_cv"], false,
        "a new claim without a backing quote is the assistant's reading"
    );
    assert_eq!(provenance(s, &ada, &id).await, Provenance::AgentInferred);
    let e = call(&reg, &ada, "experience_update", json!({"id": "abc"})).await.unwrap_err();
    assert_eq!(e, "id must be an atom id from experience_search");
    let e = call(&reg, &ada, "experience_update", json!({"id": "999999"})).await.unwrap_err();
    assert!(e.starts_with("achievement not found"), "{e}");
}

// scenario: Bank reads are bounded and name what they could not read
pub async fn bank_reads_are_bounded(db: &TestDb) {
    let (ada, _, reg) = session(db, "ada@example.com", &[]).await;
    let s = db.store();
    let job = EmploymentDraft {
        company: "Acme".into(),
        role: "Engineer".into(),
        ..EmploymentDraft::new(EmploymentKind::Job)
    };
    let employment = s.create_employment(ada.id, &job, now()).await.unwrap();
    let mut ids = Vec::new();
    for i in 0..10 {
        let v = call(&reg, &ada, "experience_add", json!({"claim": format!("Shipped feature number {i}"), "employment_id": employment.id.to_string(), "skills": ["Rust", "not-a-skill"]})).await.unwrap();
        assert_eq!(v["skills"], json!(["rust"]), "skills are canonical, unknown ones dropped");
        ids.push(v["id"].as_str().unwrap().to_owned());
    }
    let mut asked: Vec<Value> = ids.iter().map(|i| json!(i)).collect();
    asked.insert(0, json!("nope"));
    asked.push(json!(ids[0]));
    let got = call(&reg, &ada, "experience_get", json!({"ids": asked})).await.unwrap();
    assert_eq!(got["achievements"].as_array().unwrap().len(), 7, "{got}");
    assert_eq!(got["unresolved"], json!(["nope"]));
    assert_eq!(got["unread"].as_array().unwrap().len(), 3, "{got}");
    assert_eq!(got["achievements"][0]["company"], "Acme");
    let e = call(&reg, &ada, "experience_get", json!({"ids": [" "]})).await.unwrap_err();
    assert!(e.starts_with("give at least one achievement id"), "{e}");
    let found =
        call(&reg, &ada, "experience_search", json!({"query": "feature number 3"})).await.unwrap();
    assert_eq!(found["evidence"].as_array().unwrap().len(), 8, "at most 8: {found}");
    let e = call(&reg, &ada, "experience_search", json!({})).await.unwrap_err();
    assert_eq!(e, "give a query, a skill list, or both");
    let e =
        call(&reg, &ada, "experience_add", json!({"claim": "x y z", "employment_id": "999999"}))
            .await
            .unwrap_err();
    assert!(e.contains(&format!("{} = Acme Engineer", employment.id)), "{e}");
    let e = call(&reg, &ada, "experience_merge", json!({"ids": [ids[0]]})).await.unwrap_err();
    assert!(e.contains("exactly 2"), "{e}");
    let merged =
        call(&reg, &ada, "experience_merge", json!({"ids": [ids[0], ids[1]]})).await.unwrap();
    assert_eq!(merged["deleted_id"], json!(ids[1]), "{merged}");
    assert_eq!(s.list_atoms(ada.id).await.unwrap().len(), 9);
}

// scenario: The require-context preference gates interactive adds
pub async fn require_context_gates_interactive_adds(db: &TestDb) {
    let (ada, _, reg) = session(db, "ada@example.com", &[]).await;
    let on =
        call(&reg, &ada, "experience_set_require_context", json!({"enabled": true})).await.unwrap();
    assert_eq!(on, json!({"require_context": true}));
    let e = call(&reg, &ada, "experience_add", json!({"claim": "Shipped the thing"}))
        .await
        .unwrap_err();
    assert!(e.starts_with("context is required"), "{e}");
    let ok = call(
        &reg,
        &ada,
        "experience_add",
        json!({"claim": "Shipped the thing", "context": "under a deadline"}),
    )
    .await;
    assert!(ok.is_ok(), "{ok:?}");
    let profile = call(&reg, &ada, "get_profile", json!({})).await.unwrap();
    assert_eq!(profile["experience"]["achievements"], 1, "{profile}");
    assert_eq!(profile["experience"]["require_context"], true);
    assert_eq!(profile["experience"]["needs_metrics_count"], 1);
}
