//! Coalescing: a run of small edits to the same fields (typing in the editor, the assistant
//! refining one bullet) files one revision, not one per keystroke. The newest revision absorbs
//! a new change when all of these hold: same actor, origin and batch; both are only `set` ops
//! on the same paths in the same order; the newest is neither reverted nor itself an undo; it
//! is younger than [`COALESCE_WINDOW_SECS`]. The store then replaces the newest revision's
//! ops, title and note and keeps its original inverse.

use chrono::{DateTime, Utc};

use crate::op::{Op, OpKind};
use crate::policy::{Actor, Origin};

/// How young the newest revision must be to absorb a change: one minute.
pub const COALESCE_WINDOW_SECS: i64 = 60;

/// Who makes a change and as part of what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Who.
    pub actor: Actor,
    /// From where.
    pub origin: Origin,
    /// The batch (an assistant turn, an autopilot run); `None` for a lone edit.
    pub batch: Option<String>,
}

/// What coalescing needs of the newest stored revision.
#[derive(Debug, Clone, PartialEq)]
pub struct RevisionMeta {
    /// Who made it.
    pub change: Change,
    /// Its ops.
    pub ops: Vec<Op>,
    /// Whether an undo has reverted it.
    pub reverted: bool,
    /// Whether it is itself an undo.
    pub is_undo: bool,
    /// When it was filed.
    pub created_at: DateTime<Utc>,
}

/// Whether `newest` absorbs the change `ops` made by `change` at `now`.
pub fn coalesces(newest: &RevisionMeta, change: &Change, ops: &[Op], now: DateTime<Utc>) -> bool {
    let only_sets = |ops: &[Op]| !ops.is_empty() && ops.iter().all(|op| op.kind() == OpKind::Set);
    newest.change == *change
        && only_sets(&newest.ops)
        && only_sets(ops)
        && newest.ops.iter().map(Op::path).eq(ops.iter().map(Op::path))
        && !newest.reverted
        && !newest.is_undo
        && (now - newest.created_at).num_seconds() < COALESCE_WINDOW_SECS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Path;
    use chrono::TimeDelta;
    use serde_json::json;

    fn set(path: &str) -> Op {
        Op::set(Path::parse(path).unwrap_or_else(|e| panic!("{e}")), json!("x"))
    }

    // scenario: Quick edits to the same fields coalesce
    #[test]
    fn coalescing_needs_every_condition() {
        let t0 = DateTime::<Utc>::from_timestamp(1_800_000_000, 0).unwrap_or_default();
        let editor = Change { actor: Actor::Candidate, origin: Origin::Editor, batch: None };
        let newest = RevisionMeta {
            change: editor.clone(),
            ops: vec![set("summary"), set("experience[0].role")],
            reverted: false,
            is_undo: false,
            created_at: t0,
        };
        let same = [set("summary"), set("experience[0].role")];
        let soon = t0 + TimeDelta::seconds(30);
        assert!(coalesces(&newest, &editor, &same, soon));
        assert!(!coalesces(&newest, &editor, &same, t0 + TimeDelta::seconds(60)), "window");
        assert!(
            !coalesces(&newest, &editor, &[set("experience[0].role"), set("summary")], soon),
            "order"
        );
        assert!(!coalesces(&newest, &editor, &[set("summary")], soon), "paths");
        let remove = Op::Remove {
            path: Path::parse("experience[0]").unwrap_or_else(|e| panic!("{e}")),
            evidence: None,
        };
        assert!(!coalesces(&newest, &editor, &[remove], soon), "only sets");
        for other in [
            Change { actor: Actor::Agent, ..editor.clone() },
            Change { origin: Origin::Cli, ..editor.clone() },
            Change { batch: Some("turn-1".into()), ..editor.clone() },
        ] {
            assert!(!coalesces(&newest, &other, &same, soon), "{other:?}");
        }
        assert!(!coalesces(
            &RevisionMeta { reverted: true, ..newest.clone() },
            &editor,
            &same,
            soon
        ));
        assert!(!coalesces(
            &RevisionMeta { is_undo: true, ..newest.clone() },
            &editor,
            &same,
            soon
        ));
        assert!(!coalesces(&RevisionMeta { ops: vec![], ..newest }, &editor, &[], soon));
    }
}
