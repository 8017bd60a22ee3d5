//! Revision titles, written by the server from the ops (the model's note is stored apart):
//! "Edited experience[0].bullets[1]", "Added 2 bullets to Acme", "Removed a skill from
//! Languages", "Edited summary and 2 more".

use serde_json::Value;

use crate::CvState;
use crate::op::{Op, OpKind};
use crate::path::{Segment, render};

/// The title of a revision made of `ops`, applied to `before`.
pub fn describe(before: &CvState, ops: &[Op]) -> String {
    let Some(first) = ops.first() else {
        return "No changes".into();
    };
    let same_list = first.path().split_index().map(|(list, _)| list).filter(|list| {
        ops.iter().all(|op| {
            op.kind() == first.kind() && op.path().split_index().map(|(l, _)| l) == Some(*list)
        })
    });
    if let (Some(list), OpKind::Insert | OpKind::Remove) = (same_list, first.kind()) {
        let (verb, prep) =
            if first.kind() == OpKind::Insert { ("Added", "to") } else { ("Removed", "from") };
        let noun = noun(list);
        let count = match ops.len() {
            1 => format!("a {noun}"),
            n => format!("{n} {noun}s"),
        };
        return match owner(before, list) {
            Some(owner) => format!("{verb} {count} {prep} {owner}"),
            None => format!("{verb} {count}"),
        };
    }
    match (first, ops.len()) {
        (Op::Set { path, .. }, 1) => format!("Edited {path}"),
        (Op::Insert { path, .. }, 1) => format!("Added {path}"),
        (Op::Remove { path, .. }, 1) => format!("Removed {path}"),
        (Op::Move { from, to, .. }, 1) => format!("Moved {from} to {to}"),
        (op, n) => format!("Edited {} and {} more", op.path(), n - 1),
    }
}

/// What one item of the list is called.
fn noun(list: &[Segment]) -> &'static str {
    match list.last() {
        Some(Segment::Field("experience")) => "job",
        Some(Segment::Field("projects")) => "project",
        Some(Segment::Field("skills")) => "skill group",
        Some(Segment::Field("education")) => "education entry",
        Some(Segment::Field("sections")) => "section",
        Some(Segment::Field("bullets")) => "bullet",
        Some(Segment::Field("links")) => "link",
        Some(Segment::Field("details")) => "detail",
        _ if list.first() == Some(&Segment::Field("skills")) => "skill",
        _ => "line",
    }
}

/// The entry that owns a nested list (`experience[0]` for `experience[0].bullets`), by its
/// company, name, school or title; its path when those are empty.
fn owner(before: &CvState, list: &[Segment]) -> Option<String> {
    let owner = list.strip_suffix(&[*list.last()?])?;
    if owner.is_empty() {
        return None;
    }
    let doc = serde_json::to_value(before).ok()?;
    let mut here = &doc;
    for seg in owner {
        here = match seg {
            Segment::Field(f) => here.get(*f)?,
            Segment::Index(i) => here.get(*i)?,
        };
    }
    let named = ["company", "name", "school", "title"]
        .iter()
        .find_map(|k| here.get(*k).and_then(Value::as_str).filter(|s| !s.is_empty()));
    Some(named.map_or_else(|| render(owner, |i| i.to_string()), str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ExperienceEntry, Path, SkillGroup};
    use serde_json::json;

    fn p(s: &str) -> Path {
        Path::parse(s).unwrap()
    }

    // scenario: Revision titles are written by the server
    #[test]
    fn titles_name_the_edit() {
        let mut s = CvState::default();
        s.document.experience.push(ExperienceEntry {
            company: "Acme".into(),
            bullets: vec!["a".into()],
            ..Default::default()
        });
        s.document.experience.push(ExperienceEntry::default());
        s.document.skills.push(SkillGroup { name: "Languages".into(), items: vec!["Rust".into()] });
        let ins = |path: &str| Op::Insert { path: p(path), value: json!("x"), evidence: None };
        assert_eq!(describe(&s, &[]), "No changes");
        assert_eq!(
            describe(&s, &[Op::set(p("experience[0].bullets[1]"), json!("x"))]),
            "Edited experience[0].bullets[1]"
        );
        assert_eq!(
            describe(&s, &[ins("experience[0].bullets[1]"), ins("experience[0].bullets[2]")]),
            "Added 2 bullets to Acme"
        );
        assert_eq!(
            describe(&s, &[ins("experience[1].bullets[0]")]),
            "Added a bullet to experience[1]"
        );
        assert_eq!(
            describe(&s, &[Op::Remove { path: p("skills[0].items[0]"), evidence: None }]),
            "Removed a skill from Languages"
        );
        assert_eq!(
            describe(&s, &[Op::Remove { path: p("experience[1]"), evidence: None }]),
            "Removed a job"
        );
        assert_eq!(
            describe(
                &s,
                &[
                    Op::set(p("summary"), json!("x")),
                    ins("experience[0].bullets[0]"),
                    ins("skills[0].items[0]")
                ]
            ),
            "Edited summary and 2 more"
        );
        let mv = Op::Move { from: p("experience[0]"), to: p("experience[1]"), evidence: None };
        assert_eq!(describe(&s, &[mv]), "Moved experience[0] to experience[1]");
    }
}
