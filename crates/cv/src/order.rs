//! Ordering a batch written against the original document (`OrderAgainstOriginal`, reference
//! §10.6): the model addresses every op to the indices it saw in `cv_get`, so removing `[1]`
//! and `[3]` of four bullets must remove those two, not `[1]` and what became `[3]`.
//!
//! The ordered batch runs the `set`s first (in the given order, while every index is still
//! original), then the removals from the highest index down (deeper first), then the inserts
//! (deeper lists first, each list from the lowest index up), each index shifted by the
//! removals before it in its list and the inserts already placed. An insert at original index
//! `i` lands before the original item `i` (the list's length appends); inserts at the same
//! index keep their order. Refused: an op inside an item the batch removes, an item removed
//! twice, and a `move` together with inserts or removals (a move renumbers the list; it goes
//! in a batch of its own).

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::error::EditError;
use crate::op::{Op, OpKind};
use crate::path::{Path, Segment, render};

/// A batch in run order, with where each op came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Ordered {
    /// The ops, to apply in order.
    pub ops: Vec<Op>,
    /// `source[k]`: the position in the model's batch of `ops[k]`.
    pub source: Vec<usize>,
}

impl Ordered {
    /// Renumbers an error about the ordered batch to the model's positions.
    pub fn renumber(&self, e: EditError) -> EditError {
        e.renumber(|at| self.source.get(at).copied().unwrap_or(at))
    }
}

/// Orders `ops`, written against the original document, into run order (module doc).
pub fn order_against_original(ops: &[Op]) -> Result<Ordered, EditError> {
    let of = |kind| ops.iter().enumerate().filter(move |(_, op)| op.kind() == kind);
    let structural = of(OpKind::Insert).chain(of(OpKind::Remove)).next();
    if let (Some((at, mv)), Some(_)) = (of(OpKind::Move).next(), structural) {
        return Err(EditError::InvalidOp {
            at: Some(at),
            path: mv.path().to_string(),
            reason: "a batch that moves items cannot also insert or remove them; send the move \
                     in a cv_edit call of its own"
                .into(),
        });
    }
    let mut removes: Vec<(usize, &Op)> = of(OpKind::Remove).collect();
    removes.sort_by(|a, b| compare(b.1.path().segments(), a.1.path().segments()));
    if let Some(w) = removes.windows(2).find(|w| w[0].1.path() == w[1].1.path()) {
        return Err(EditError::InvalidOp {
            at: Some(w[0].0.max(w[1].0)),
            path: w[0].1.path().to_string(),
            reason: "this item is removed twice in one batch".into(),
        });
    }
    let removed: Vec<&[Segment]> = removes.iter().map(|(_, op)| op.path().segments()).collect();
    for (at, op) in ops.iter().enumerate() {
        for path in op.paths() {
            let inside =
                removed.iter().find(|r| path.segments().len() > r.len() && path.is_within(r));
            if let Some(r) = inside {
                return Err(EditError::InvalidOp {
                    at: Some(at),
                    path: path.to_string(),
                    reason: format!(
                        "this is inside `{}`, which the same batch removes",
                        render(r, |i| i.to_string())
                    ),
                });
            }
        }
    }
    let mut inserts: Vec<(usize, &Op)> = of(OpKind::Insert).collect();
    inserts.sort_by(|a, b| {
        let (x, y) = (a.1.path().segments(), b.1.path().segments());
        y.len().cmp(&x.len()).then_with(|| compare(x, y)).then(a.0.cmp(&b.0))
    });
    let mut placed: HashMap<&[Segment], usize> = HashMap::new();
    let mut out: Vec<(usize, Op)> = Vec::with_capacity(ops.len());
    out.extend(of(OpKind::Set).chain(of(OpKind::Move)).map(|(at, op)| (at, op.clone())));
    out.extend(removes.iter().map(|(at, op)| (*at, (*op).clone())));
    for (at, op) in inserts {
        let segments = op.path().segments();
        let mut shifted = shift(segments, &removed);
        if let (Some((list, _)), Some(Segment::Index(last))) =
            (op.path().split_index(), shifted.last_mut())
        {
            let before = placed.entry(list).or_default();
            *last += *before;
            *before += 1;
        }
        let path = Path::parse(&render(&shifted, |i| i.to_string())).map_err(|e| e.at(at))?;
        let Op::Insert { value, evidence, .. } = op else { continue };
        out.push((at, Op::Insert { path, value: value.clone(), evidence: *evidence }));
    }
    let (source, ops) = out.into_iter().unzip();
    Ok(Ordered { ops, source })
}

/// Each index of `segments` less the removals before it in its list.
fn shift(segments: &[Segment], removed: &[&[Segment]]) -> Vec<Segment> {
    segments
        .iter()
        .enumerate()
        .map(|(depth, seg)| match seg {
            Segment::Index(i) => {
                let list = &segments[..depth];
                let gone = removed
                    .iter()
                    .filter(|r| r.len() == depth + 1 && r.starts_with(list))
                    .filter(|r| matches!(r[depth], Segment::Index(j) if j < *i))
                    .count();
                Segment::Index(i - gone)
            }
            field => *field,
        })
        .collect()
}

/// Orders paths segment by segment (indices numerically), a prefix before its extensions.
fn compare(a: &[Segment], b: &[Segment]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = match (x, y) {
            (Segment::Field(f), Segment::Field(g)) => f.cmp(g),
            (Segment::Index(i), Segment::Index(j)) => i.cmp(j),
            (Segment::Field(_), Segment::Index(_)) => Ordering::Less,
            (Segment::Index(_), Segment::Field(_)) => Ordering::Greater,
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CvState, ExperienceEntry, apply};
    use proptest::prelude::*;
    use serde_json::json;

    fn p(s: &str) -> Path {
        Path::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn state(bullets: &[&str], entries: usize) -> CvState {
        let mut s = CvState::default();
        for e in 0..entries {
            s.document.experience.push(ExperienceEntry {
                company: format!("C{e}"),
                bullets: bullets.iter().map(|b| format!("{e}{b}")).collect(),
                ..Default::default()
            });
        }
        s
    }

    fn run(s: &CvState, ops: &[Op]) -> Result<CvState, EditError> {
        let ordered = order_against_original(ops)?;
        apply(s, &ordered.ops).map(|a| a.state).map_err(|e| ordered.renumber(e))
    }

    fn remove(path: &str) -> Op {
        Op::Remove { path: p(path), evidence: None }
    }

    fn insert(path: &str, text: &str) -> Op {
        Op::Insert { path: p(path), value: json!(text), evidence: None }
    }

    // scenario: Indices address the original document
    #[test]
    fn indices_address_the_original_document() {
        let s = state(&["a", "b", "c", "d"], 3);
        let got =
            run(&s, &[remove("experience[0].bullets[1]"), remove("experience[0].bullets[3]")])
                .unwrap();
        assert_eq!(got.document.experience[0].bullets, ["0a", "0c"]);
        let got = run(
            &s,
            &[
                insert("experience[0].bullets[3]", "before d"),
                remove("experience[0].bullets[0]"),
                Op::set(p("experience[0].bullets[2]"), json!("C")),
                insert("experience[0].bullets[1]", "before b"),
                insert("experience[0].bullets[4]", "end"),
            ],
        )
        .unwrap();
        assert_eq!(
            got.document.experience[0].bullets,
            ["before b", "0b", "C", "before d", "0d", "end"]
        );
        let got = run(
            &s,
            &[
                remove("experience[0]"),
                insert("experience[2].bullets[0]", "new"),
                insert("experience[3]", ""),
            ],
        );
        let EditError::InvalidOp { at: Some(2), .. } = got.unwrap_err() else {
            panic!("a job is not a string")
        };
        let got = run(
            &s,
            &[
                remove("experience[0]"),
                insert("experience[2].bullets[0]", "new"),
                Op::Insert {
                    path: p("experience[1]"),
                    value: json!({"company": "N"}),
                    evidence: None,
                },
            ],
        )
        .unwrap();
        let companies: Vec<_> =
            got.document.experience.iter().map(|e| e.company.as_str()).collect();
        assert_eq!(companies, ["N", "C1", "C2"]);
        assert_eq!(got.document.experience[2].bullets[0], "new");
        let mv = Op::Move { from: p("experience[0]"), to: p("experience[2]"), evidence: None };
        assert_eq!(
            run(&s, std::slice::from_ref(&mv)).unwrap().document.experience[2].company,
            "C0"
        );
    }

    #[test]
    fn conflicting_batches_are_refused_by_position() {
        let s = state(&["a", "b"], 2);
        let at = |ops: &[Op]| match run(&s, ops) {
            Err(EditError::InvalidOp { at, reason, .. }) => (at, reason),
            other => panic!("{other:?}"),
        };
        let (i, why) = at(&[
            Op::set(p("summary"), json!("x")),
            remove("experience[1]"),
            Op::set(p("experience[1].role"), json!("x")),
        ]);
        assert_eq!(i, Some(2));
        assert!(why.contains("experience[1]"), "{why}");
        assert!(at(&[remove("experience[0]"), remove("experience[0]")]).1.contains("twice"));
        let mv = Op::Move { from: p("experience[0]"), to: p("experience[1]"), evidence: None };
        assert_eq!(at(&[remove("experience[0].bullets[0]"), mv]).0, Some(1));
        let (i, _) =
            at(&[insert("experience[0].bullets[0]", "x"), remove("experience[0].bullets[5]")]);
        assert_eq!(i, Some(1), "an apply error names the model's position");
    }

    proptest! {
        // scenario: Indices address the original document
        #[test]
        fn removals_and_inserts_match_the_model(
            removed in proptest::sample::subsequence((0..6usize).collect::<Vec<_>>(), 0..=6),
            inserts in proptest::collection::vec(0..=6usize, 0..5),
            shuffle in any::<proptest::sample::Index>(),
        ) {
            let items = ["a", "b", "c", "d", "e", "f"];
            let s = state(&items, 1);
            let mut ops: Vec<Op> = removed.iter().map(|i| remove(&format!("experience[0].bullets[{i}]"))).collect();
            ops.extend(inserts.iter().enumerate().map(|(k, i)| insert(&format!("experience[0].bullets[{i}]"), &format!("new{k}"))));
            let n = ops.len();
            if n > 0 {
                ops.rotate_left(shuffle.index(n));
            }
            // The inserts in batch order, by original index.
            let placed: Vec<(usize, String)> = ops
                .iter()
                .filter_map(|op| match (op.path().split_index(), op) {
                    (Some((_, i)), Op::Insert { value, .. }) => Some((i, value.as_str().unwrap_or_default().to_owned())),
                    _ => None,
                })
                .collect();
            let mut want = Vec::new();
            for i in 0..=items.len() {
                want.extend(placed.iter().filter(|(at, _)| *at == i).map(|(_, text)| text.clone()));
                if i < items.len() && !removed.contains(&i) {
                    want.push(format!("0{}", items[i]));
                }
            }
            let got = run(&s, &ops).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&got.document.experience[0].bullets, &want);
        }
    }
}
