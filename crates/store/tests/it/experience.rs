//! The experience bank: every `ExperienceRepo` method on both backends. Employments (listing
//! order, case-insensitive find, full replacement, the import's fill, the cascade), atoms
//! (one per claim key, raised in place from `agent_inferred` and never lowered, rewrites that
//! keep their provenance, merges gated on both rows' `updated_at`), and that another user's
//! ids reach nothing.

use chrono::{DateTime, Duration, Utc};
use freehire_domain::{
    AtomId, Author, EmploymentId, EmploymentKind, Provenance, User,
    experience::{Atom, AtomDraft, Employment, EmploymentDraft, MergePlan, Period, merge_plan},
};
use freehire_store::{AtomWrite, MergeOutcome, Store, StoreError, testing};

use crate::fixtures::t;

async fn user(s: &dyn Store, address: &str) -> User {
    testing::user(s, address, t(1, 9)).await
}

fn period(year: i32, month: Option<u8>) -> Option<Period> {
    Some(Period::new(year, month, "start").unwrap())
}

fn job(company: &str, role: &str, start: Option<Period>, current: bool) -> EmploymentDraft {
    EmploymentDraft {
        company: company.into(),
        role: role.into(),
        start,
        current,
        ..EmploymentDraft::new(EmploymentKind::Job)
    }
}

async fn create(
    s: &dyn Store,
    owner: &User,
    draft: &EmploymentDraft,
    at: DateTime<Utc>,
) -> Employment {
    s.create_employment(owner.id, draft, at).await.unwrap()
}

fn atom(claim: &str, employment: Option<EmploymentId>) -> AtomDraft {
    AtomDraft { employment_id: employment, ..AtomDraft::claim(claim) }
}

async fn inserted(
    s: &dyn Store,
    owner: &User,
    draft: &AtomDraft,
    author: Author,
    at: DateTime<Utc>,
) -> Atom {
    match s.add_atom(owner.id, draft, author, at).await.unwrap() {
        AtomWrite::Inserted(atom) => atom,
        other => panic!("{}: {other:?}", draft.claim),
    }
}

fn ids(atoms: &[Atom]) -> Vec<AtomId> {
    atoms.iter().map(|a| a.id).collect()
}

/// An instant with sub-microsecond digits: the store keeps microseconds, and merges compare
/// exactly what it read back.
fn odd(day: u32) -> DateTime<Utc> {
    t(day, 9) + Duration::nanoseconds(123_456_789)
}

// scenario: Employments are listed current first and found case-insensitively
pub async fn employments_are_created_listed_found_replaced_and_deleted(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let old = create(s, &ada, &job("Acme", "Engineer", period(2015, None), false), t(2, 9)).await;
    assert_eq!((old.user_id, old.created_at, old.updated_at), (ada.id, t(2, 9), t(2, 9)));
    let undated = create(s, &ada, &job("Nowhere", "Intern", None, false), t(2, 10)).await;
    let current =
        create(s, &ada, &job("Initech", "Lead", period(2010, Some(5)), true), t(2, 11)).await;
    let mut project = job("Tool", "Maintainer", period(2020, Some(2)), false);
    project.kind = EmploymentKind::Project;
    project.link = "https://tool.example".into();
    project.stack = vec!["go".into(), "rust".into()];
    project.end = Some(Period::new(2022, Some(1), "end").unwrap());
    project.location = "Remote".into();
    project.summary = "A tool".into();
    let project = create(s, &ada, &project, t(2, 12)).await;
    // A second Acme engineer, newer: find returns the oldest.
    let again = create(s, &ada, &job("ACME", "engineer", period(2016, None), false), t(3, 9)).await;

    let listed = s.list_employments(ada.id).await.unwrap();
    let order: Vec<EmploymentId> = listed.iter().map(|e| e.id).collect();
    assert_eq!(order, [current.id, project.id, again.id, old.id, undated.id]);
    assert_eq!(listed[1], project, "every field round-trips");
    assert_eq!(s.get_employment(ada.id, project.id).await.unwrap(), Some(project.clone()));

    let found = s.find_employment(ada.id, "acme", "ENGINEER").await.unwrap().unwrap();
    assert_eq!(found.id, old.id);
    assert_eq!(s.find_employment(ada.id, "Acme", "Manager").await.unwrap(), None);

    // A full replacement: every field, created_at kept.
    let mut replaced = job("Acme GmbH", "Staff Engineer", period(2014, Some(9)), false);
    replaced.end = Some(Period::new(2019, None, "end").unwrap());
    let updated = s.update_employment(ada.id, old.id, &replaced, t(4, 9)).await.unwrap().unwrap();
    assert_eq!(updated.draft, replaced);
    assert_eq!((updated.created_at, updated.updated_at), (t(2, 9), t(4, 9)));
    let missing = EmploymentId::new(999_999).unwrap();
    assert_eq!(s.update_employment(ada.id, missing, &replaced, t(4, 9)).await.unwrap(), None);

    // A draft that does not validate writes nothing.
    let empty = EmploymentDraft::new(EmploymentKind::Job);
    let err = s.create_employment(ada.id, &empty, t(4, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");
    let err = s.update_employment(ada.id, old.id, &empty, t(4, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");
    assert_eq!(s.list_employments(ada.id).await.unwrap().len(), 5);

    // Deleting an employment deletes its atoms, and only them.
    let a =
        inserted(s, &ada, &atom("Shipped the tool", Some(project.id)), Author::Candidate, t(5, 9))
            .await;
    let b = inserted(s, &ada, &atom("Wrote the docs", None), Author::Candidate, t(5, 9)).await;
    assert!(s.delete_employment(ada.id, project.id).await.unwrap());
    assert!(!s.delete_employment(ada.id, project.id).await.unwrap());
    assert_eq!(s.get_employment(ada.id, project.id).await.unwrap(), None);
    assert_eq!(ids(&s.list_atoms(ada.id).await.unwrap()), [b.id]);
    assert!(!s.delete_atom(ada.id, a.id).await.unwrap());
}

// scenario: The import fills an employment's blanks
pub async fn the_import_fills_only_the_blanks(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let mut stored = job("Acme", "", None, true);
    stored.stack = vec!["rust".into(), "go".into()];
    let stored = create(s, &ada, &stored, t(2, 9)).await;
    let mut import = job("Other Co", "Engineer", period(2019, Some(4)), false);
    import.end = Some(Period::new(2021, None, "end").unwrap());
    import.location = "Berlin".into();
    import.summary = "Built things".into();
    import.stack = vec!["kubernetes".into(), "go".into()];
    let filled =
        s.fill_employment_blanks(ada.id, stored.id, &import, t(3, 9)).await.unwrap().unwrap();
    let d = &filled.draft;
    assert_eq!((d.company.as_str(), d.role.as_str()), ("Acme", "Engineer"));
    assert_eq!((d.location.as_str(), d.summary.as_str()), ("Berlin", "Built things"));
    assert_eq!(d.start, import.start, "a missing period is taken whole");
    assert_eq!((d.current, d.end), (true, None), "current is never touched");
    assert_eq!(d.stack, ["go", "kubernetes", "rust"]);
    assert_eq!((filled.created_at, filled.updated_at), (t(2, 9), t(3, 9)));
    // A second import changes no filled field.
    let other = job("Third", "Manager", period(2001, None), false);
    let again =
        s.fill_employment_blanks(ada.id, stored.id, &other, t(4, 9)).await.unwrap().unwrap();
    assert_eq!(again.draft, filled.draft);
    assert_eq!(s.get_employment(ada.id, stored.id).await.unwrap(), Some(again));
    let missing = EmploymentId::new(999_999).unwrap();
    assert_eq!(s.fill_employment_blanks(ada.id, missing, &other, t(4, 9)).await.unwrap(), None);
}

// scenario: A claim is banked once per claim key
pub async fn a_claim_is_banked_once_per_key(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let acme = create(s, &ada, &job("Acme", "Engineer", None, false), t(2, 9)).await;
    let draft = AtomDraft {
        context: "legacy monolith".into(),
        metrics: vec!["p99 20s → 1s".into()],
        skills: vec!["rust".into()],
        source_ref: "session 1".into(),
        ..atom("Cut p99 latency from 20s to 1s", Some(acme.id))
    };
    let first = inserted(s, &ada, &draft, Author::Agent, odd(3)).await;
    assert_eq!(first.provenance, Provenance::AgentInferred);
    assert_eq!(first.claim_key, "cut p99 latency from 20s to 1s");
    assert_eq!((first.draft.clone(), first.user_id), (draft.clone(), ada.id));
    assert_eq!(first.created_at, first.updated_at);
    assert_eq!(first.created_at.timestamp_subsec_nanos(), 123_456_000, "microseconds kept");

    // The same claim in other case and punctuation, by the agent again: nothing changes.
    let echo = atom("cut P99 latency -- from 20s to 1s!", None);
    let again = s.add_atom(ada.id, &echo, Author::Agent, t(4, 9)).await.unwrap();
    assert_eq!(again, AtomWrite::AlreadyBanked(first.id));
    assert_eq!(s.list_atoms(ada.id).await.unwrap(), vec![first.clone()]);

    // A number makes another claim; a claim with no letter or digit is refused.
    inserted(s, &ada, &atom("Cut p99 latency from 30s to 1s", None), Author::Agent, t(4, 9)).await;
    let err = s.add_atom(ada.id, &atom(" -- ", None), Author::Agent, t(4, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");
    // An employment that is not the owner's (or none at all) banks nothing.
    let missing = EmploymentId::new(999_999).unwrap();
    let orphan = atom("Led a thing", Some(missing));
    let orphan = s.add_atom(ada.id, &orphan, Author::Agent, t(4, 9)).await.unwrap();
    assert_eq!(orphan, AtomWrite::NoSuchEmployment);
    assert_eq!(s.list_atoms(ada.id).await.unwrap().len(), 2);
}

// scenario: A quote raises an inferred claim in place and nothing lowers a confirmed one
pub async fn a_quote_raises_an_inferred_claim_and_nothing_lowers_a_confirmed_one(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let acme = create(s, &ada, &job("Acme", "Engineer", None, false), t(2, 9)).await;
    let guess = AtomDraft {
        metrics: vec!["40%".into()],
        skills: vec!["postgresql".into()],
        context: "guessed".into(),
        source_ref: "agent".into(),
        ..atom("Reduced database costs by 40%", Some(acme.id))
    };
    let inferred = inserted(s, &ada, &guess, Author::Agent, t(3, 9)).await;
    // The candidate says it: same id, provenance, source and context the quote's.
    let quote = AtomDraft {
        context: "after the migration".into(),
        source_ref: "session 7".into(),
        metrics: vec!["other".into()],
        skills: vec!["go".into()],
        ..atom("reduced database costs by 40%.", None)
    };
    let AtomWrite::Upgraded(raised) =
        s.add_atom(ada.id, &quote, Author::Quoted, t(4, 9)).await.unwrap()
    else {
        panic!("not upgraded");
    };
    assert_eq!(raised.id, inferred.id);
    assert_eq!(raised.provenance, Provenance::StatedInChat);
    assert_eq!(
        (raised.draft.context.as_str(), raised.draft.source_ref.as_str()),
        ("after the migration", "session 7")
    );
    assert_eq!(raised.draft.claim, guess.claim, "the claim is untouched");
    assert_eq!(
        (raised.draft.metrics.clone(), raised.draft.skills.clone()),
        (guess.metrics.clone(), guess.skills.clone())
    );
    assert_eq!(raised.draft.employment_id, Some(acme.id));
    assert_eq!((raised.created_at, raised.updated_at), (t(3, 9), t(4, 9)));
    // Confirmed now: neither the agent nor another confirmation changes it.
    for author in [Author::Agent, Author::Candidate, Author::Import] {
        let write = s.add_atom(ada.id, &guess, author, t(5, 9)).await.unwrap();
        assert_eq!(write, AtomWrite::AlreadyBanked(inferred.id), "{author:?}");
    }
    assert_eq!(s.list_atoms(ada.id).await.unwrap(), vec![raised]);

    // A manual claim is never lowered by the agent.
    let manual =
        inserted(s, &ada, &atom("Mentored four engineers", None), Author::Candidate, t(3, 9)).await;
    assert_eq!(manual.provenance, Provenance::Manual);
    let write = atom("mentored four engineers", None);
    let write = s.add_atom(ada.id, &write, Author::Agent, t(6, 9)).await.unwrap();
    assert_eq!(write, AtomWrite::AlreadyBanked(manual.id));
    let kept = s.get_atoms(ada.id, &[manual.id]).await.unwrap();
    assert_eq!(kept, vec![manual]);
}

// scenario: A rewrite keeps the provenance and a claim key stays unique
pub async fn updates_keep_or_write_provenance_and_keys_stay_unique(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let acme = create(s, &ada, &job("Acme", "Engineer", None, false), t(2, 9)).await;
    let imported =
        inserted(s, &ada, &atom("Built the billing system", None), Author::Import, t(3, 9)).await;
    let guessed =
        inserted(s, &ada, &atom("Probably led the team", None), Author::Agent, t(3, 9)).await;
    assert_eq!(
        (imported.provenance, guessed.provenance),
        (Provenance::CvImport, Provenance::AgentInferred)
    );

    let reworded = AtomDraft {
        context: "a rewrite".into(),
        metrics: vec!["3 countries".into()],
        skills: vec!["go".into()],
        source_ref: "cv".into(),
        ..atom("Built the billing system in three countries", Some(acme.id))
    };
    let rewritten = s
        .update_atom(ada.id, imported.id, &reworded, Author::Rewrite, t(4, 9))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(rewritten.provenance, Provenance::CvImport, "a rewrite keeps cv_import");
    assert_eq!(rewritten.draft, reworded);
    assert_eq!(rewritten.claim_key, "built the billing system in three countries");
    assert_eq!((rewritten.created_at, rewritten.updated_at), (t(3, 9), t(4, 9)));
    let still = s
        .update_atom(ada.id, guessed.id, &atom("Led the team", None), Author::Rewrite, t(4, 9))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(still.provenance, Provenance::AgentInferred, "a rewrite raises nothing");
    let mine = s
        .update_atom(
            ada.id,
            guessed.id,
            &atom("Led the team of five", None),
            Author::Candidate,
            t(5, 9),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(mine.provenance, Provenance::Manual, "the candidate's edit is manual");

    // Another atom's claim (any case) is taken; the atoms stay as they were.
    let taken = atom("LED THE TEAM OF FIVE.", None);
    let err =
        s.update_atom(ada.id, rewritten.id, &taken, Author::Candidate, t(6, 9)).await.unwrap_err();
    assert!(matches!(err, StoreError::Conflict { field: "claim" }), "{err:?}");
    let missing = EmploymentId::new(999_999).unwrap();
    let moved = atom("Built it", Some(missing));
    assert_eq!(
        s.update_atom(ada.id, rewritten.id, &moved, Author::Candidate, t(6, 9)).await.unwrap(),
        None
    );
    let err = s
        .update_atom(ada.id, rewritten.id, &atom("!!", None), Author::Candidate, t(6, 9))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");
    let mut listed = s.list_atoms(ada.id).await.unwrap();
    listed.sort_by_key(|a| a.id);
    assert_eq!(listed, vec![rewritten.clone(), mine.clone()]);
    // Listing order: by employment, unattached last.
    assert_eq!(ids(&s.list_atoms(ada.id).await.unwrap()), [rewritten.id, mine.id]);
    assert!(s.delete_atom(ada.id, mine.id).await.unwrap());
    assert!(!s.delete_atom(ada.id, mine.id).await.unwrap());
}

// scenario: A merge is gated on both rows as read
pub async fn a_merge_enriches_the_keeper_unless_a_row_moved(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let acme = create(s, &ada, &job("Acme", "Engineer", None, false), t(2, 9)).await;
    let rich = AtomDraft {
        metrics: vec!["3x".into()],
        skills: vec!["rust".into()],
        ..atom("Made the build three times faster", Some(acme.id))
    };
    let poor = AtomDraft {
        context: "a slow CI was blocking releases".into(),
        skills: vec!["go".into()],
        ..atom("Sped up the build", Some(acme.id))
    };
    let keeper = inserted(s, &ada, &rich, Author::Agent, odd(3)).await;
    let loser = inserted(s, &ada, &poor, Author::Candidate, odd(4)).await;
    let plan = merge_plan(&keeper, &loser).unwrap();
    assert_eq!((plan.keep, plan.drop), (keeper.id, loser.id));

    // One row moves after the plan read it: nothing changes.
    let moved =
        s.update_atom(ada.id, loser.id, &poor, Author::Candidate, odd(5)).await.unwrap().unwrap();
    assert_eq!(s.merge_atoms(ada.id, &plan, t(6, 9)).await.unwrap(), MergeOutcome::Conflict);
    assert_eq!(s.list_atoms(ada.id).await.unwrap(), vec![keeper.clone(), moved.clone()]);
    let stale_keeper =
        MergePlan { keep_seen: keeper.updated_at - Duration::microseconds(1), ..plan.clone() };
    let fresh = MergePlan { drop_seen: moved.updated_at, ..plan.clone() };
    assert_eq!(
        s.merge_atoms(ada.id, &MergePlan { drop_seen: moved.updated_at, ..stale_keeper }, t(6, 9))
            .await
            .unwrap(),
        MergeOutcome::Conflict
    );
    assert_eq!(s.list_atoms(ada.id).await.unwrap().len(), 2);

    // Planned again from the rows as they are: the keeper enriched, the loser gone.
    let MergeOutcome::Merged(merged) = s.merge_atoms(ada.id, &fresh, t(6, 9)).await.unwrap() else {
        panic!("not merged");
    };
    assert_eq!(merged.id, keeper.id);
    assert_eq!(merged.draft.claim, rich.claim);
    assert_eq!(merged.draft.context, "a slow CI was blocking releases");
    assert_eq!(merged.draft.metrics, ["3x"]);
    assert_eq!(merged.draft.skills, ["rust", "go"]);
    assert_eq!(merged.provenance, Provenance::Manual, "the loser's publishable provenance");
    assert_eq!((merged.created_at, merged.updated_at), (keeper.created_at, t(6, 9)));
    assert_eq!(s.list_atoms(ada.id).await.unwrap(), vec![merged]);
    // The loser is gone now: the same plan finds nothing.
    assert_eq!(s.merge_atoms(ada.id, &fresh, t(7, 9)).await.unwrap(), MergeOutcome::NotFound);
    let same = MergePlan { drop: keeper.id, ..fresh };
    assert!(matches!(s.merge_atoms(ada.id, &same, t(7, 9)).await, Err(StoreError::Invalid(_))));
}

// scenario: Another user's bank is not found
pub async fn another_users_ids_reach_nothing(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let eve = user(s, "eve@example.com").await;
    let acme = create(s, &ada, &job("Acme", "Engineer", period(2020, None), false), t(2, 9)).await;
    let a = inserted(
        s,
        &ada,
        &atom("Shipped the payments API", Some(acme.id)),
        Author::Candidate,
        t(3, 9),
    )
    .await;
    let b = inserted(
        s,
        &ada,
        &atom("Shipped the payments SDK", Some(acme.id)),
        Author::Candidate,
        t(3, 10),
    )
    .await;
    let plan = merge_plan(&a, &b).unwrap();
    let other = job("Evil", "Boss", None, false);

    assert!(s.list_employments(eve.id).await.unwrap().is_empty());
    assert_eq!(s.get_employment(eve.id, acme.id).await.unwrap(), None);
    assert_eq!(s.find_employment(eve.id, "Acme", "Engineer").await.unwrap(), None);
    assert_eq!(s.update_employment(eve.id, acme.id, &other, t(4, 9)).await.unwrap(), None);
    assert_eq!(s.fill_employment_blanks(eve.id, acme.id, &other, t(4, 9)).await.unwrap(), None);
    assert!(!s.delete_employment(eve.id, acme.id).await.unwrap());
    assert!(s.list_atoms(eve.id).await.unwrap().is_empty());
    assert!(s.get_atoms(eve.id, &[a.id, b.id]).await.unwrap().is_empty());
    let onto_ada = atom("Took over Acme", Some(acme.id));
    let onto_ada = s.add_atom(eve.id, &onto_ada, Author::Candidate, t(4, 9)).await.unwrap();
    assert_eq!(onto_ada, AtomWrite::NoSuchEmployment);
    assert_eq!(
        s.update_atom(eve.id, a.id, &atom("Mine now", None), Author::Candidate, t(4, 9))
            .await
            .unwrap(),
        None
    );
    assert!(!s.delete_atom(eve.id, a.id).await.unwrap());
    assert_eq!(s.merge_atoms(eve.id, &plan, t(4, 9)).await.unwrap(), MergeOutcome::NotFound);
    // Eve's own atom cannot move to Ada's employment, and her key space is her own.
    let hers =
        inserted(s, &eve, &atom("Shipped the payments API", None), Author::Candidate, t(4, 9))
            .await;
    let moved = atom("Shipped the payments API", Some(acme.id));
    assert_eq!(
        s.update_atom(eve.id, hers.id, &moved, Author::Candidate, t(5, 9)).await.unwrap(),
        None
    );
    // One of the pair is someone else's: not found, nothing merged.
    let mixed = MergePlan { drop: hers.id, drop_seen: hers.updated_at, ..plan.clone() };
    assert_eq!(s.merge_atoms(ada.id, &mixed, t(5, 9)).await.unwrap(), MergeOutcome::NotFound);

    // Ada's bank is as it was.
    assert_eq!(s.list_employments(ada.id).await.unwrap(), vec![acme.clone()]);
    assert_eq!(s.list_atoms(ada.id).await.unwrap(), vec![a.clone(), b.clone()]);
    assert_eq!(s.get_atoms(ada.id, &[b.id, hers.id, a.id]).await.unwrap(), vec![a, b]);
    assert_eq!(s.get_atoms(eve.id, &[hers.id]).await.unwrap(), vec![hers]);
    assert!(s.get_atoms(ada.id, &[]).await.unwrap().is_empty());
}

// scenario: The require-context flag and the user's deletion
pub async fn the_flag_round_trips_and_the_bank_goes_with_its_user(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    assert!(!s.experience_require_context(ada.id).await.unwrap());
    assert!(s.set_experience_require_context(ada.id, true).await.unwrap());
    assert!(s.experience_require_context(ada.id).await.unwrap());
    assert!(!s.experience_require_context(bob.id).await.unwrap(), "per user");
    assert!(s.set_experience_require_context(ada.id, false).await.unwrap());
    assert!(!s.experience_require_context(ada.id).await.unwrap());

    let acme = create(s, &ada, &job("Acme", "Engineer", None, false), t(2, 9)).await;
    let a = inserted(s, &ada, &atom("Shipped it", Some(acme.id)), Author::Candidate, t(3, 9)).await;
    let loose =
        inserted(s, &ada, &atom("Spoke at a conference", None), Author::Candidate, t(3, 9)).await;
    assert!(s.delete_user(ada.id).await.unwrap());
    assert!(s.list_employments(ada.id).await.unwrap().is_empty());
    assert!(s.get_atoms(ada.id, &[a.id, loose.id]).await.unwrap().is_empty());
    assert!(!s.set_experience_require_context(ada.id, true).await.unwrap(), "no such user");
    assert!(!s.experience_require_context(ada.id).await.unwrap());
    // Bob's key space never held Ada's claims.
    inserted(s, &bob, &atom("Shipped it", None), Author::Candidate, t(4, 9)).await;
}

// scenario: Concurrent writes of one claim bank one atom
pub async fn concurrent_writes_of_one_claim_bank_one_atom(s: &dyn Store) {
    let ada = user(s, "ada@example.com").await;
    let guess = atom("Migrated the fleet to Kubernetes", None);
    let quote = atom("migrated the fleet to kubernetes", None);
    let (a, b, c, d) = tokio::join!(
        s.add_atom(ada.id, &guess, Author::Agent, t(3, 9)),
        s.add_atom(ada.id, &guess, Author::Agent, t(3, 9)),
        s.add_atom(ada.id, &quote, Author::Quoted, t(3, 9)),
        s.add_atom(ada.id, &quote, Author::Quoted, t(3, 9)),
    );
    let writes = [a.unwrap(), b.unwrap(), c.unwrap(), d.unwrap()];
    let banked = s.list_atoms(ada.id).await.unwrap();
    assert_eq!(banked.len(), 1, "{writes:?}");
    let id = banked[0].id;
    assert_eq!(banked[0].provenance, Provenance::StatedInChat, "a quote always wins");
    let inserted = writes.iter().filter(|w| matches!(w, AtomWrite::Inserted(_))).count();
    assert_eq!(inserted, 1, "{writes:?}");
    for write in &writes {
        let at = match write {
            AtomWrite::Inserted(a) | AtomWrite::Upgraded(a) => a.id,
            AtomWrite::AlreadyBanked(id) => *id,
            AtomWrite::NoSuchEmployment => panic!("{writes:?}"),
        };
        assert_eq!(at, id);
    }
}
