//! The evidence gate (agent only): every op that writes a claim must cite a banked
//! achievement that is the candidate's own and publishable.
//!
//! Every path is a claim except presentation: `title`, `template_id`, and `header` with
//! everything below it. An op is gated when its path is a claim or contains one (writing
//! `experience[0]` whole writes its bullets). Only `set` and `insert` are gated: `remove`
//! takes text out and `move` reorders a list, neither writes a word the candidate did not
//! already have on the CV. One uncited gated op refuses the whole batch. Evidence an exempt op
//! cites anyway is checked all the same (a revision never records an atom that is not the
//! candidate's own and publishable). Undo is exempt (it restores what was there).

use freehire_domain::{AtomId, Provenance};

use crate::error::EditError;
use crate::op::Op;
use crate::path::{Path, paths};
use crate::policy::Actor;

/// The top-level fields that are presentation, not claims.
pub const PRESENTATION: [&str; 3] = ["title", "template_id", "header"];

/// Whether writing `path` writes a claim (it is one, or some path below it is).
pub fn is_claim(path: &Path) -> bool {
    let pattern = path.pattern();
    let below = |p: &&String| {
        p.strip_prefix(pattern.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
    };
    paths().iter().filter(below).any(|p| {
        let root = p.split(['.', '[']).next().unwrap_or_default();
        !PRESENTATION.contains(&root)
    })
}

/// Whether `op` needs evidence.
pub fn is_gated(op: &Op) -> bool {
    matches!(op, Op::Set { .. } | Op::Insert { .. }) && is_claim(op.path())
}

/// Checks every gated op of the batch, in order; the first failure refuses all of it.
/// `lookup` finds the candidate's own atom (`None`: missing or another user's; the message
/// never says which).
pub fn check_evidence(
    actor: Actor,
    ops: &[Op],
    lookup: &dyn Fn(AtomId) -> Option<Provenance>,
) -> Result<(), EditError> {
    if actor != Actor::Agent {
        return Ok(());
    }
    for (at, op) in ops.iter().enumerate() {
        let path = op.path().to_string();
        let Some(atom) = op.evidence() else {
            if is_gated(op) {
                return Err(EditError::Uncited { at, path });
            }
            continue;
        };
        match lookup(atom) {
            None => return Err(EditError::EvidenceNotFound { at, path, atom }),
            Some(p) if !p.publishable() => {
                return Err(EditError::EvidenceUnconfirmed { at, path, atom });
            }
            Some(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(s: &str) -> Path {
        Path::parse(s).unwrap()
    }

    fn atom(n: i64) -> AtomId {
        AtomId::new(n).unwrap()
    }

    /// Atom 1 is manual, 2 agent_inferred, 3 cv_import, 4 stated_in_chat; others are missing
    /// (or another user's).
    fn bank(id: AtomId) -> Option<Provenance> {
        match id.get() {
            1 => Some(Provenance::Manual),
            2 => Some(Provenance::AgentInferred),
            3 => Some(Provenance::CvImport),
            4 => Some(Provenance::StatedInChat),
            _ => None,
        }
    }

    #[test]
    fn claims_are_everything_but_presentation() {
        for claim in [
            "summary",
            "experience",
            "experience[0]",
            "experience[0].company",
            "skills[1].items[0]",
            "sections[0].title",
        ] {
            assert!(is_claim(&p(claim)), "{claim}");
        }
        for shown in ["title", "template_id", "header", "header.headline", "header.links[0].url"] {
            assert!(!is_claim(&p(shown)), "{shown}");
        }
        assert!(!is_gated(&Op::Remove { path: p("experience[0].bullets[0]"), evidence: None }));
        assert!(!is_gated(&Op::Move {
            from: p("experience[0]"),
            to: p("experience[1]"),
            evidence: None
        }));
        assert!(is_gated(&Op::Insert {
            path: p("experience[0]"),
            value: json!({}),
            evidence: None
        }));
    }

    // scenario: The gate admits only the candidate's publishable atoms
    #[test]
    fn the_gate_admits_publishable_atoms_and_refuses_the_rest_by_id() {
        let set = |n| Op::set(p("experience[0].bullets[0]"), json!("Led X")).citing(atom(n));
        for ok in [1, 3, 4] {
            assert_eq!(check_evidence(Actor::Agent, &[set(ok)], &bank), Ok(()));
        }
        let e = check_evidence(Actor::Agent, &[set(1), set(2)], &bank).unwrap_err();
        assert!(matches!(e, EditError::EvidenceUnconfirmed { at: 1, atom: a, .. } if a == atom(2)));
        let text = e.to_string();
        assert!(
            text.contains("confirm") && text.contains("experience_add") && text.contains(" 2 "),
            "{text}"
        );
        let e = check_evidence(Actor::Agent, &[set(99)], &bank).unwrap_err();
        assert!(matches!(e, EditError::EvidenceNotFound { at: 0, .. }));
        assert!(e.to_string().contains("99") && e.to_string().contains("experience[0].bullets[0]"));
        let uncited = Op::set(p("summary"), json!("Expert in everything"));
        let e = check_evidence(Actor::Agent, &[set(1), uncited.clone()], &bank).unwrap_err();
        assert_eq!(e, EditError::Uncited { at: 1, path: "summary".into() });
        assert_eq!(check_evidence(Actor::Candidate, std::slice::from_ref(&uncited), &bank), Ok(()));
        assert_eq!(check_evidence(Actor::System, &[uncited], &bank), Ok(()));
        let removal = Op::Remove { path: p("experience[0].bullets[0]"), evidence: None };
        assert_eq!(check_evidence(Actor::Agent, std::slice::from_ref(&removal), &bank), Ok(()));
        let e = check_evidence(Actor::Agent, &[removal.citing(atom(2))], &bank).unwrap_err();
        assert!(matches!(e, EditError::EvidenceUnconfirmed { at: 0, .. }), "{e:?}");
        let headline = Op::set(p("header.headline"), json!("Backend engineer"));
        assert_eq!(check_evidence(Actor::Agent, &[headline], &bank), Ok(()));
    }
}
