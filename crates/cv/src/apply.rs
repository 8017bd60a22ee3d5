//! Applying a batch of ops all-or-nothing to a copy of the state, with the inverse ops that
//! restore it exactly, and the diff that turns one state into another as whole-value sets.

use serde_json::Value;

use crate::CvState;
use crate::error::EditError;
use crate::op::Op;
use crate::path::{Path, Segment, render};

/// A batch applied: the new state and the ops that undo it (already in undo order).
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The state after every op.
    pub state: CvState,
    /// Applying these to `state` gives back the original exactly.
    pub inverse: Vec<Op>,
}

/// Applies `ops` in order to a copy of `state`. The first op that does not apply (an index
/// out of range, a value of the wrong shape) refuses the batch, naming the op and the path.
pub fn apply(state: &CvState, ops: &[Op]) -> Result<Applied, EditError> {
    let mut doc = to_value(state)?;
    let mut inverse = Vec::with_capacity(ops.len());
    for (at, op) in ops.iter().enumerate() {
        inverse.push(apply_one(&mut doc, op).map_err(|e| e.at(at))?);
    }
    inverse.reverse();
    let state = serde_json::from_value(doc).map_err(|e| {
        EditError::invalid("", format!("the edited document does not read back: {e}"))
    })?;
    Ok(Applied { state, inverse })
}

/// The ops that turn `from` into `to`: a `set` of each differing value, descending into
/// objects and into lists of the same length, so the sets are as small as the shapes allow.
pub fn diff(from: &CvState, to: &CvState) -> Result<Vec<Op>, EditError> {
    let (a, b) = (to_value(from)?, to_value(to)?);
    let mut out = Vec::new();
    diff_at(&mut Vec::new(), &a, &b, &mut out)?;
    Ok(out)
}

fn diff_at(at: &mut Vec<String>, a: &Value, b: &Value, out: &mut Vec<Op>) -> Result<(), EditError> {
    if a == b {
        return Ok(());
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if x.keys().eq(y.keys()) => {
            for (k, va) in x {
                at.push(if at.is_empty() { k.clone() } else { format!(".{k}") });
                diff_at(at, va, &y[k], out)?;
                at.pop();
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() && !at.is_empty() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                at.push(format!("[{i}]"));
                diff_at(at, va, vb, out)?;
                at.pop();
            }
        }
        _ => out.push(Op::set(Path::parse(&at.concat())?, b.clone())),
    }
    Ok(())
}

fn to_value(state: &CvState) -> Result<Value, EditError> {
    serde_json::to_value(state)
        .map_err(|e| EditError::invalid("", format!("the document does not serialise: {e}")))
}

fn apply_one(doc: &mut Value, op: &Op) -> Result<Op, EditError> {
    match op {
        Op::Set { path, value, .. } => {
            let new = conform(path, value)?;
            let slot = locate(doc, path.segments(), path)?;
            let old = std::mem::replace(slot, new);
            Ok(Op::set(path.clone(), old))
        }
        Op::Insert { path, value, .. } => {
            let new = conform(path, value)?;
            let (list, i) = list_at(doc, path, "insert")?;
            if i > list.len() {
                return Err(past_end(path, i, list.len(), "at most the list's length, to append"));
            }
            list.insert(i, new);
            Ok(Op::Remove { path: path.clone(), evidence: None })
        }
        Op::Remove { path, .. } => {
            let (list, i) = list_at(doc, path, "remove")?;
            if i >= list.len() {
                return Err(past_end(path, i, list.len(), "an existing position"));
            }
            let old = list.remove(i);
            Ok(Op::Insert { path: path.clone(), value: old, evidence: None })
        }
        Op::Move { from, to, .. } => {
            if from.split_index().map(|(p, _)| p) != to.split_index().map(|(p, _)| p) {
                return Err(EditError::invalid(
                    from.to_string(),
                    format!("a move stays within one list; `{to}` is not in the same list"),
                ));
            }
            let (list, i) = list_at(doc, from, "move")?;
            let j = to.split_index().map_or(i, |(_, j)| j);
            for (p, k) in [(from, i), (to, j)] {
                if k >= list.len() {
                    return Err(past_end(p, k, list.len(), "an existing position"));
                }
            }
            let item = list.remove(i);
            list.insert(j, item);
            Ok(Op::Move { from: to.clone(), to: from.clone(), evidence: None })
        }
    }
}

/// The op's value checked against the path's shape, completed with defaults.
fn conform(path: &Path, value: &Value) -> Result<Value, EditError> {
    path.shape().conform(value.clone()).map_err(|(below, expected)| {
        EditError::invalid(path.to_string(), format!("expected {expected} at `{path}{below}`"))
    })
}

fn locate<'a>(
    doc: &'a mut Value,
    segments: &[Segment],
    path: &Path,
) -> Result<&'a mut Value, EditError> {
    let mut here = doc;
    for (depth, seg) in segments.iter().enumerate() {
        let len = here.as_array().map_or(0, Vec::len);
        let next = match seg {
            Segment::Field(f) => here.get_mut(*f),
            Segment::Index(i) => here.get_mut(*i),
        };
        here = match (next, seg) {
            (Some(v), _) => v,
            (None, Segment::Index(i)) => {
                return Err(out_of_range(
                    path,
                    &segments[..depth],
                    *i,
                    len,
                    "an existing position",
                ));
            }
            (None, Segment::Field(f)) => {
                return Err(EditError::invalid(path.to_string(), format!("`{f}` is missing")));
            }
        };
    }
    Ok(here)
}

fn list_at<'a>(
    doc: &'a mut Value,
    path: &Path,
    verb: &str,
) -> Result<(&'a mut Vec<Value>, usize), EditError> {
    let Some((parent, i)) = path.split_index() else {
        return Err(EditError::invalid(
            path.to_string(),
            format!("{verb} needs a list position, such as `experience[0].bullets[2]`"),
        ));
    };
    match locate(doc, parent, path)? {
        Value::Array(list) => Ok((list, i)),
        _ => Err(EditError::invalid(path.to_string(), "not a list position")),
    }
}

fn past_end(path: &Path, index: usize, len: usize, want: &str) -> EditError {
    let list = path.split_index().map(|(p, _)| p).unwrap_or_default();
    out_of_range(path, list, index, len, want)
}

fn out_of_range(path: &Path, list: &[Segment], index: usize, len: usize, want: &str) -> EditError {
    EditError::invalid(
        path.to_string(),
        format!(
            "index {index} is out of range: `{}` has {len} entries; use {want}",
            render(list, |i| i.to_string())
        ),
    )
}
