//! Who may write what: the actors and origins of an edit, and the fields the agent never
//! touches (the candidate's name and contacts, the CV's title and its template).

use serde::{Deserialize, Serialize};

use crate::error::EditError;
use crate::op::Op;
use crate::path::{Path, Segment};

/// Who makes an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The candidate, in the editor, the CLI or through an API key.
    Candidate,
    /// The assistant (the tailor preset's `cv_edit`): policy and evidence gate apply.
    Agent,
    /// The server itself (seeding from a base CV, an import, healing the header).
    System,
}

/// Where an edit comes from (recorded on the revision; coalescing compares it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The web editor.
    Editor,
    /// The tailoring assistant.
    TailorAgent,
    /// The command line (through the API).
    Cli,
    /// A template change or a template's seed.
    Template,
    /// An imported CV.
    Import,
}

impl Actor {
    /// The wire value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Actor::Candidate => "candidate",
            Actor::Agent => "agent",
            Actor::System => "system",
        }
    }
}

impl Origin {
    /// The wire value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Origin::Editor => "editor",
            Origin::TailorAgent => "tailor_agent",
            Origin::Cli => "cli",
            Origin::Template => "template",
            Origin::Import => "import",
        }
    }
}

/// The fields the agent may not write, nor any path below or above them.
pub const AGENT_DENIED: [&[&str]; 6] = [
    &["header", "full_name"],
    &["header", "email"],
    &["header", "phone"],
    &["header", "links"],
    &["title"],
    &["template_id"],
];

/// The protected field `path` covers for `actor`, if any: the path is the field, below it
/// (`header.links[0].url`) or contains it (`header`).
pub fn denied_field(actor: Actor, path: &Path) -> Option<&'static [&'static str]> {
    if actor != Actor::Agent {
        return None;
    }
    let fields: Vec<&str> = path
        .segments()
        .iter()
        .map_while(|s| match s {
            Segment::Field(f) => Some(*f),
            Segment::Index(_) => None,
        })
        .collect();
    let ends_in_fields = fields.len() == path.segments().len();
    AGENT_DENIED.into_iter().find(|denied| {
        fields.starts_with(denied) || (ends_in_fields && denied.starts_with(&fields))
    })
}

/// Refuses the batch when any op touches a field the actor may not write.
pub fn check_policy(actor: Actor, ops: &[Op]) -> Result<(), EditError> {
    for (at, op) in ops.iter().enumerate() {
        for path in op.paths() {
            if let Some(field) = denied_field(actor, path) {
                return Err(EditError::Denied {
                    at,
                    path: path.to_string(),
                    reason: format!("`{}` is the candidate's to write", field.join(".")),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Path {
        Path::parse(s).unwrap()
    }

    #[test]
    fn the_denied_fields_exist() {
        for denied in AGENT_DENIED {
            assert!(Path::parse(&denied.join(".")).is_ok(), "{denied:?}");
        }
    }

    // scenario: The agent never writes contacts, title or template
    #[test]
    fn the_agent_is_denied_contacts_title_template_and_their_containers() {
        for path in [
            "header",
            "header.full_name",
            "header.email",
            "header.phone",
            "header.links",
            "header.links[0]",
            "header.links[0].url",
            "title",
            "template_id",
        ] {
            assert!(denied_field(Actor::Agent, &p(path)).is_some(), "{path}");
            assert!(denied_field(Actor::Candidate, &p(path)).is_none(), "{path}");
            assert!(denied_field(Actor::System, &p(path)).is_none(), "{path}");
        }
        for path in ["header.headline", "header.location", "summary", "experience[0]"] {
            assert!(denied_field(Actor::Agent, &p(path)).is_none(), "{path}");
        }
        let op = Op::set(p("header.email"), serde_json::json!("x@y.z"));
        let e = check_policy(Actor::Agent, &[Op::set(p("summary"), "s".into()), op]).unwrap_err();
        assert!(
            matches!(&e, EditError::Denied { at: 1, path, .. } if path == "header.email"),
            "{e:?}"
        );
        let mv = Op::Move { from: p("header.links[0]"), to: p("header.links[1]"), evidence: None };
        assert!(check_policy(Actor::Agent, &[mv]).is_err());
    }
}
