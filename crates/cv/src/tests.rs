//! Whole-crate tests: apply, commit plans, and the property tests (inverses restore, one
//! uncited op refuses any batch, the agent never changes contacts, title or template).

use freehire_domain::{AtomId, Provenance};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::shape::Shape;
use crate::*;

fn p(s: &str) -> Path {
    Path::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn atom(n: i64) -> AtomId {
    AtomId::new(n).unwrap_or_else(|e| panic!("{e}"))
}

/// Atom 1 is the candidate's (manual), 2 is agent_inferred, anything else is missing.
fn bank(id: AtomId) -> Option<Provenance> {
    match id.get() {
        1 => Some(Provenance::Manual),
        2 => Some(Provenance::AgentInferred),
        _ => None,
    }
}

fn agent() -> Change {
    Change { actor: Actor::Agent, origin: Origin::TailorAgent, batch: Some("turn-1".into()) }
}

fn candidate() -> Change {
    Change { actor: Actor::Candidate, origin: Origin::Editor, batch: None }
}

/// A sanitised state with something in every list.
fn base() -> CvState {
    let mut s =
        CvState { title: "Base CV".into(), template_id: TemplateId::Classic, ..Default::default() };
    let d = &mut s.document;
    d.header = Header {
        full_name: "Ada Lovelace".into(),
        headline: "Backend engineer".into(),
        email: "ada@example.com".into(),
        phone: "+44 1".into(),
        location: "London".into(),
        links: vec![
            Link { label: "GitHub".into(), url: "https://github.com/ada".into() },
            Link { label: "Site".into(), url: "https://ada.dev".into() },
        ],
    };
    d.summary = "Builds engines.".into();
    for (i, company) in ["Acme", "Globex", "Initech"].into_iter().enumerate() {
        d.experience.push(ExperienceEntry {
            company: company.into(),
            role: "Engineer".into(),
            start: format!("{}", 2015 + i),
            bullets: (0..3).map(|b| format!("{company} bullet {b}")).collect(),
            ..Default::default()
        });
    }
    for name in ["Engine", "Loom"] {
        d.projects.push(ProjectEntry {
            name: name.into(),
            bullets: vec![format!("{name} shipped")],
            ..Default::default()
        });
    }
    d.skills.push(SkillGroup {
        name: "Languages".into(),
        items: vec!["Rust".into(), "Go".into(), "SQL".into()],
    });
    d.skills.push(SkillGroup { name: "Tools".into(), items: vec!["Git".into()] });
    d.education.push(EducationEntry {
        school: "UCL".into(),
        degree: "BSc".into(),
        details: vec!["First".into()],
        ..Default::default()
    });
    d.sections.push(Section { title: "Talks".into(), items: vec!["RustConf".into()] });
    s
}

// scenario: Ops apply all-or-nothing and name what is wrong
#[test]
fn ops_apply_in_order_and_refuse_by_path() {
    let s = base();
    let ops = vec![
        Op::Insert {
            path: p("experience[0].bullets[3]"),
            value: json!("Appended"),
            evidence: None,
        },
        Op::Remove { path: p("experience[0].bullets[0]"), evidence: None },
        Op::Move { from: p("skills[0].items[2]"), to: p("skills[0].items[0]"), evidence: None },
        Op::set(p("experience[1]"), json!({"company": "Hooli", "bullets": ["One"]})),
        Op::Insert { path: p("projects[2]"), value: json!({"name": "Third"}), evidence: None },
    ];
    let a = apply(&s, &ops).unwrap_or_else(|e| panic!("{e}"));
    let d = &a.state.document;
    assert_eq!(d.experience[0].bullets, ["Acme bullet 1", "Acme bullet 2", "Appended"]);
    assert_eq!(d.skills[0].items, ["SQL", "Rust", "Go"]);
    assert_eq!(
        d.experience[1],
        ExperienceEntry {
            company: "Hooli".into(),
            bullets: vec!["One".into()],
            ..Default::default()
        }
    );
    assert_eq!(d.projects[2].name, "Third");
    assert_eq!(apply(&a.state, &a.inverse).map(|b| b.state), Ok(s.clone()));

    let refuse = |ops: &[Op], at: usize, path: &str, says: &str| {
        let e = apply(&s, ops).unwrap_err();
        let EditError::InvalidOp { at: Some(got), path: got_path, reason } = &e else {
            panic!("{e:?}");
        };
        assert_eq!((*got, got_path.as_str()), (at, path), "{e}");
        assert!(reason.contains(says), "{reason}");
    };
    let ok = Op::set(p("summary"), json!("New"));
    refuse(
        &[ok.clone(), Op::set(p("experience[3].role"), json!("x"))],
        1,
        "experience[3].role",
        "`experience` has 3 entries",
    );
    refuse(
        &[Op::Insert { path: p("experience[0].bullets[4]"), value: json!("x"), evidence: None }],
        0,
        "experience[0].bullets[4]",
        "has 3 entries",
    );
    refuse(
        &[Op::Remove { path: p("education[1]"), evidence: None }],
        0,
        "education[1]",
        "has 1 entries",
    );
    refuse(&[Op::Remove { path: p("summary"), evidence: None }], 0, "summary", "list position");
    refuse(
        &[ok.clone(), Op::set(p("experience[0].bullets[0]"), json!(7))],
        1,
        "experience[0].bullets[0]",
        "expected a string",
    );
    refuse(
        &[Op::set(p("experience[0]"), json!({"company": "A", "bullets": [1]}))],
        0,
        "experience[0]",
        "expected a string at `experience[0].bullets[0]`",
    );
    refuse(
        &[Op::set(p("template_id"), json!("fancy"))],
        0,
        "template_id",
        "one of classic, sidebar",
    );
    refuse(
        &[Op::set(p("experience[0]"), json!({"skill": "x"}))],
        0,
        "experience[0]",
        "allowed fields are",
    );
    refuse(
        &[Op::Move { from: p("skills[0].items[0]"), to: p("skills[1].items[0]"), evidence: None }],
        0,
        "skills[0].items[0]",
        "within one list",
    );
    refuse(
        &[Op::Move { from: p("skills[1].items[0]"), to: p("skills[1].items[1]"), evidence: None }],
        0,
        "skills[1].items[1]",
        "has 1 entries",
    );
}

// scenario: A change that changes nothing files nothing
#[test]
fn a_no_op_files_nothing_and_sanitising_picks_the_diff_inverse() {
    let s = base();
    let same = [Op::set(p("summary"), json!("Builds engines."))];
    let c = plan_commit(&s, &same, &candidate(), &bank, &EditConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!c.changed && c.inverse.is_empty() && c.ops.is_empty());
    assert_eq!(c.title, "No changes");
    let dirty = [
        Op::set(p("summary"), json!("  Builds <b>engines</b>.  ")),
        Op::set(p("experience[0].bullets[0]"), json!("  ")),
    ];
    let c = plan_commit(&s, &dirty, &candidate(), &bank, &EditConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(c.changed, "the blank bullet is dropped");
    assert_eq!(c.after.document.summary, "Builds engines.");
    assert_eq!(c.after.document.experience[0].bullets.len(), 2);
    assert_eq!(apply(&c.after, &c.inverse).map(|a| a.state), Ok(s));
}

// scenario: The agent must cite claims, the candidate need not
#[test]
fn the_agent_cites_claims_and_may_not_launder_them() {
    let s = base();
    let cfg = EditConfig::default();
    let whole = json!({"company": "Acme", "bullets": ["Led a team of 50"]});
    let e = plan_commit(&s, &[Op::set(p("experience[0]"), whole.clone())], &agent(), &bank, &cfg)
        .unwrap_err();
    assert_eq!(e, EditError::Uncited { at: 0, path: "experience[0]".into() });
    let cited = Op::set(p("experience[0]"), whole.clone()).citing(atom(1));
    assert!(plan_commit(&s, &[cited], &agent(), &bank, &cfg).is_ok());
    let inferred = Op::set(p("experience[0]"), whole.clone()).citing(atom(2));
    assert!(matches!(
        plan_commit(&s, &[inferred], &agent(), &bank, &cfg),
        Err(EditError::EvidenceUnconfirmed { .. })
    ));
    let foreign = Op::set(p("experience[0]"), whole.clone()).citing(atom(77));
    assert!(matches!(
        plan_commit(&s, &[foreign], &agent(), &bank, &cfg),
        Err(EditError::EvidenceNotFound { .. })
    ));
    assert!(
        plan_commit(&s, &[Op::set(p("experience[0]"), whole)], &candidate(), &bank, &cfg).is_ok()
    );
    let header = Op::set(p("header"), json!({"full_name": "Ada Lovelace"})).citing(atom(1));
    assert!(matches!(
        plan_commit(&s, &[header], &agent(), &bank, &cfg),
        Err(EditError::Denied { .. })
    ));
    let removal = [
        Op::Remove { path: p("experience[2]"), evidence: None },
        Op::Move { from: p("experience[0]"), to: p("experience[1]"), evidence: None },
    ];
    let c = plan_commit(&s, &removal, &agent(), &bank, &cfg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.after.document.experience.len(), 2);

    let many: Vec<Op> = (3..=20)
        .map(|i| Op::Insert {
            path: p(&format!("experience[0].bullets[{i}]")),
            value: json!(format!("B{i}")),
            evidence: Some(atom(1)),
        })
        .collect();
    let e = plan_commit(&s, &many, &agent(), &bank, &cfg).unwrap_err();
    assert_eq!(
        e,
        EditError::BulletCap { path: "experience[0].bullets".into(), count: 21, max: 20 }
    );
}

// scenario: The agent cannot disguise a job as a project
#[test]
fn the_agent_may_not_add_a_job_as_a_project_but_old_projects_do_not_block_it() {
    let mut s = base();
    let cfg = EditConfig::default();
    let job = Op::Insert {
        path: p("projects[2]"),
        value: json!({"name": "Billing", "summary": "Engineer at Acme, 2019 - 2021"}),
        evidence: Some(atom(1)),
    };
    let e = plan_commit(&s, std::slice::from_ref(&job), &agent(), &bank, &cfg).unwrap_err();
    assert!(
        matches!(&e, EditError::ProjectLooksLikeJob { path, .. } if path == "projects[2]"),
        "{e:?}"
    );
    assert!(plan_commit(&s, std::slice::from_ref(&job), &candidate(), &bank, &cfg).is_ok());
    s.document.projects[0].summary = "Contractor at Hooli".into();
    let ok = Op::set(p("summary"), json!("Engines.")).citing(atom(1));
    assert!(plan_commit(&s, &[ok], &agent(), &bank, &cfg).is_ok());
}

// scenario: Whole-document saves refuse the agent
#[test]
fn whole_document_saves_are_the_candidates() {
    let s = base();
    let mut edited = s.clone();
    edited.document.summary = " New summary ".into();
    edited.document.experience.pop();
    edited.title = "Renamed".into();
    let cfg = EditConfig::default();
    assert_eq!(plan_document(&s, &edited, &agent(), &cfg), Err(EditError::DocumentDenied));
    let c = plan_document(&s, &edited, &candidate(), &cfg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.after.document.summary, "New summary");
    assert_eq!(apply(&s, &c.ops).map(|a| a.state), Ok(c.after.clone()));
    assert_eq!(apply(&c.after, &c.inverse).map(|a| a.state), Ok(s));
}

// scenario: Undo restores or reports it cannot
#[test]
fn undo_restores_and_refuses_when_the_document_moved_on() {
    let s = base();
    let cfg = EditConfig::default();
    let ops =
        [Op::Insert { path: p("experience[2].bullets[3]"), value: json!("New"), evidence: None }];
    let c = plan_commit(&s, &ops, &candidate(), &bank, &cfg).unwrap_or_else(|e| panic!("{e}"));
    let u = plan_undo(&c.after, &c.inverse, &c.title, &cfg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(u.after, s);
    assert_eq!(u.title, "Undid \"Added a bullet to Initech\"");
    assert_eq!(
        plan_undo(&u.after, &u.inverse, &u.title, &cfg).map(|r| r.after),
        Ok(c.after.clone())
    );
    let mut moved_on = c.after.clone();
    moved_on.document.experience.pop();
    assert!(matches!(
        plan_undo(&moved_on, &c.inverse, &c.title, &cfg),
        Err(EditError::CannotUndo(_))
    ));
}

/// A value of `shape` built from `text`.
fn sample(shape: &Shape, text: &str) -> Value {
    match shape {
        Shape::Text => json!(text),
        Shape::Bool => json!(text.len().is_multiple_of(2)),
        Shape::Choice(c) => json!(c[text.len() % c.len()]),
        Shape::List(item) => json!([sample(item, text)]),
        Shape::Record(fields) => {
            Value::Object(fields.iter().map(|f| (f.name.clone(), sample(&f.shape, text))).collect())
        }
    }
}

/// A path of the vocabulary with its `[]`s filled by `idx`.
fn fill(pattern: &str, idx: &[usize]) -> Path {
    let mut out = String::new();
    let mut n = 0;
    for (i, part) in pattern.split("[]").enumerate() {
        if i > 0 {
            out.push_str(&format!("[{}]", idx[n % idx.len()]));
            n += 1;
        }
        out.push_str(part);
    }
    p(&out)
}

/// Any op over the whole vocabulary (indices 0 and 1, so most exist), valid or not, citing
/// atom 1 three times in four.
fn any_op() -> impl Strategy<Value = Op> {
    let vocabulary = paths();
    (
        0..4u8,
        0..vocabulary.len(),
        proptest::collection::vec(0..2usize, 3),
        0..3usize,
        "[ a-z<>]{0,10}",
        0..4u8,
    )
        .prop_map(move |(kind, which, idx, to, text, cite)| {
            let path = fill(&vocabulary[which], &idx);
            let value = sample(path.shape(), &text);
            // A list operation needs a list position; elsewhere it becomes a set.
            let kind = if path.split_index().is_some() { kind } else { 0 };
            let op = match kind {
                0 => Op::set(path, value),
                1 => Op::Insert { path, value, evidence: None },
                2 => Op::Remove { path, evidence: None },
                _ => {
                    let to = match path.split_index() {
                        Some((list, _)) => {
                            p(&format!("{}[{to}]", path::render(list, |i| i.to_string())))
                        }
                        None => path.clone(),
                    };
                    Op::Move { from: path, to, evidence: None }
                }
            };
            if cite > 0 { op.citing(atom(1)) } else { op }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    // scenario: Inverses restore the state exactly
    #[test]
    fn inverses_and_diffs_restore_the_state(ops in proptest::collection::vec(any_op(), 1..5)) {
        let s = base();
        if let Ok(a) = apply(&s, &ops) {
            prop_assert_eq!(apply(&a.state, &a.inverse).map(|b| b.state), Ok(s.clone()));
            let back = diff(&a.state, &s).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(apply(&a.state, &back).map(|b| b.state), Ok(s.clone()));
        }
        if let Ok(c) = plan_commit(&s, &ops, &candidate(), &bank, &EditConfig::default()) {
            prop_assert_eq!(apply(&c.after, &c.inverse).map(|b| b.state), Ok(s));
        }
    }

    // scenario: One uncited claim refuses the whole batch
    #[test]
    fn one_uncited_claim_refuses_the_batch_wherever_it_is(
        cited in proptest::collection::vec((0..3usize, 0..3usize, any::<bool>()), 0..8),
        at in 0..8usize,
        uncited_insert in any::<bool>(),
    ) {
        let mut ops: Vec<Op> = cited
            .iter()
            .map(|&(e, b, remove)| {
                let path = p(&format!("experience[{e}].bullets[{b}]"));
                if remove { Op::Remove { path, evidence: None } } else { Op::set(path, json!("Cited")).citing(atom(1)) }
            })
            .collect();
        let at = at.min(ops.len());
        let path = p("skills[0].items[1]");
        let bad = if uncited_insert { Op::Insert { path, value: json!("Kubernetes"), evidence: None } } else { Op::set(path, json!("Kubernetes")) };
        ops.insert(at, bad);
        let e = plan_commit(&base(), &ops, &agent(), &bank, &EditConfig::default());
        prop_assert_eq!(e, Err(EditError::Uncited { at, path: "skills[0].items[1]".into() }));
    }

    // scenario: The agent never writes contacts, title or template
    #[test]
    fn the_agent_never_changes_contacts_title_or_template(ops in proptest::collection::vec(any_op(), 1..5)) {
        let s = base();
        let touches = ops.iter().any(|op| op.paths().iter().any(|path| policy::denied_field(Actor::Agent, path).is_some()));
        match plan_commit(&s, &ops, &agent(), &bank, &EditConfig::default()) {
            Ok(c) => {
                prop_assert!(!touches);
                let (h, a) = (&s.document.header, &c.after.document.header);
                prop_assert_eq!((&h.full_name, &h.email, &h.phone, &h.links), (&a.full_name, &a.email, &a.phone, &a.links));
                prop_assert_eq!((&s.title, s.template_id), (&c.after.title, c.after.template_id));
            }
            Err(EditError::Denied { .. }) => prop_assert!(touches),
            Err(_) => prop_assert!(!touches),
        }
    }
}

/// The generators above are not vacuous: a fair share of random batches applies, and a fair
/// share of the agent's is admitted, so the properties are checked on real changes.
#[test]
fn random_batches_often_apply() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = proptest::collection::vec(any_op(), 1..5);
    let (mut applied, mut admitted, n) = (0, 0, 400);
    for _ in 0..n {
        let Ok(tree) = strategy.new_tree(&mut runner) else { continue };
        let ops = tree.current();
        applied += usize::from(apply(&base(), &ops).is_ok());
        admitted += usize::from(
            plan_commit(&base(), &ops, &agent(), &bank, &EditConfig::default())
                .is_ok_and(|c| c.changed),
        );
    }
    eprintln!("applied {applied}/{n}, agent admitted {admitted}/{n}");
    assert!(applied * 5 > n, "applied {applied}/{n}");
    assert!(admitted * 10 > n, "admitted {admitted}/{n}");
}
