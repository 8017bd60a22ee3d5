//! Edit ops: `set`, `insert`, `remove`, `move` over [`Path`]s, each carrying the achievement
//! it cites. Wire form: `{"op":"set","path":"summary","value":"…","evidence":12}`.

use freehire_domain::AtomId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::path::Path;

/// One edit. Indices address the document as it is when the op runs (ops of a batch apply in
/// order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Op {
    /// Replace the value at `path` (which must exist).
    Set {
        /// Where.
        path: Path,
        /// The new value, of the path's shape.
        value: Value,
        /// The achievement this text comes from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        evidence: Option<AtomId>,
    },
    /// Insert into a list at `path`'s index (the list's length appends).
    Insert {
        /// The list position (`experience[0].bullets[3]`).
        path: Path,
        /// The new item, of the list's item shape.
        value: Value,
        /// The achievement this text comes from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        evidence: Option<AtomId>,
    },
    /// Remove a list item.
    Remove {
        /// The list position.
        path: Path,
        /// Not needed (a removal adds no claim); kept so every op has the same fields.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        evidence: Option<AtomId>,
    },
    /// Move a list item within its list: take it out at `from`, put it back at `to`.
    Move {
        /// Where the item is.
        from: Path,
        /// Where it ends up (same list).
        to: Path,
        /// Not needed (a move adds no claim).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        evidence: Option<AtomId>,
    },
}

/// The kind of an op, for titles and coalescing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    /// [`Op::Set`].
    Set,
    /// [`Op::Insert`].
    Insert,
    /// [`Op::Remove`].
    Remove,
    /// [`Op::Move`].
    Move,
}

impl Op {
    /// Its kind.
    pub fn kind(&self) -> OpKind {
        match self {
            Op::Set { .. } => OpKind::Set,
            Op::Insert { .. } => OpKind::Insert,
            Op::Remove { .. } => OpKind::Remove,
            Op::Move { .. } => OpKind::Move,
        }
    }

    /// The path it writes (`from` for a move).
    pub fn path(&self) -> &Path {
        match self {
            Op::Set { path, .. } | Op::Insert { path, .. } | Op::Remove { path, .. } => path,
            Op::Move { from, .. } => from,
        }
    }

    /// Every path it touches (a move touches both ends).
    pub fn paths(&self) -> Vec<&Path> {
        match self {
            Op::Move { from, to, .. } => vec![from, to],
            other => vec![other.path()],
        }
    }

    /// The achievement it cites.
    pub fn evidence(&self) -> Option<AtomId> {
        match self {
            Op::Set { evidence, .. }
            | Op::Insert { evidence, .. }
            | Op::Remove { evidence, .. }
            | Op::Move { evidence, .. } => *evidence,
        }
    }

    /// A `set` citing nothing.
    pub fn set(path: Path, value: Value) -> Op {
        Op::Set { path, value, evidence: None }
    }

    /// This op citing `atom`.
    pub fn citing(mut self, atom: AtomId) -> Op {
        match &mut self {
            Op::Set { evidence, .. }
            | Op::Insert { evidence, .. }
            | Op::Remove { evidence, .. }
            | Op::Move { evidence, .. } => *evidence = Some(atom),
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // scenario: Ops travel as tagged JSON
    #[test]
    fn ops_round_trip_in_their_wire_form() {
        let wire = json!([
            {"op": "set", "path": "experience[0].bullets[1]", "value": "Led X", "evidence": 12},
            {"op": "insert", "path": "skills[0].items[0]", "value": "Rust"},
            {"op": "remove", "path": "education[1]"},
            {"op": "move", "from": "projects[0]", "to": "projects[2]"}
        ]);
        let ops: Vec<Op> = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(ops[0].evidence().map(AtomId::get), Some(12));
        assert_eq!(ops[3].kind(), OpKind::Move);
        assert_eq!(ops[3].paths().len(), 2);
        assert_eq!(serde_json::to_value(&ops).unwrap(), wire);
    }

    #[test]
    fn an_unknown_field_or_kind_or_path_is_refused_by_name() {
        let e = serde_json::from_value::<Op>(
            json!({"op": "set", "path": "summary", "value": "x", "skill": 1}),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("skill"), "{e}");
        let e = serde_json::from_value::<Op>(json!({"op": "replace", "path": "summary"}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("replace"), "{e}");
        let e = serde_json::from_value::<Op>(json!({"op": "remove", "path": "experience[-1]"}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("experience[-1]"), "{e}");
    }
}
