//! The CV document: what the candidate's CV says, as data.
//!
//! Field names are the wire names: `cvedit`'s typed paths (`summary`,
//! `experience[2].bullets[1]`, `skills[0].items[3]`, `education[1].degree`, `header.email`)
//! are generated from them, and the PDF templates read the same JSON. Dates are shown as the
//! candidate wrote them ("Mar 2021", "Present"), so they are strings. Bullets are plain
//! strings; the evidence a bullet cites travels on the edit that wrote it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The contact block. The agent never writes `full_name`, `email`, `phone` or `links`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Header {
    /// The candidate's name.
    pub full_name: String,
    /// One line under the name ("Senior backend engineer").
    pub headline: String,
    /// Contact email.
    pub email: String,
    /// Contact phone.
    pub phone: String,
    /// City, country.
    pub location: String,
    /// Profile links (GitHub, LinkedIn, a site).
    pub links: Vec<Link>,
}

/// A labelled link.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Link {
    /// What it is ("GitHub").
    pub label: String,
    /// The URL.
    pub url: String,
}

/// One job held.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ExperienceEntry {
    /// The employer.
    pub company: String,
    /// The role.
    pub role: String,
    /// Where.
    pub location: String,
    /// From, as written ("Mar 2021").
    pub start: String,
    /// To, as written; empty when current.
    pub end: String,
    /// Still there.
    pub current: bool,
    /// Achievements, one line each: every one a claim the candidate made.
    pub bullets: Vec<String>,
}

/// One project.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ProjectEntry {
    /// Its name.
    pub name: String,
    /// Its link.
    pub link: String,
    /// One line on what it is.
    pub summary: String,
    /// Achievements.
    pub bullets: Vec<String>,
}

/// A named group of skills ("Languages": Rust, Go).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct SkillGroup {
    /// The group's name; may be empty for a single flat list.
    pub name: String,
    /// The skills, as shown.
    pub items: Vec<String>,
}

/// One degree or course.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct EducationEntry {
    /// The school.
    pub school: String,
    /// The degree ("BSc Computer Science").
    pub degree: String,
    /// From, as written.
    pub start: String,
    /// To, as written.
    pub end: String,
    /// Honours, thesis, one line each.
    pub details: Vec<String>,
}

/// Any other section (certifications, languages, talks).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Section {
    /// Its heading.
    pub title: String,
    /// Its lines.
    pub items: Vec<String>,
}

/// A CV's content.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct CvDocument {
    /// Contact block.
    pub header: Header,
    /// A short profile paragraph.
    pub summary: String,
    /// Jobs, newest first.
    pub experience: Vec<ExperienceEntry>,
    /// Projects.
    pub projects: Vec<ProjectEntry>,
    /// Skills by group.
    pub skills: Vec<SkillGroup>,
    /// Education.
    pub education: Vec<EducationEntry>,
    /// Other sections.
    pub sections: Vec<Section>,
}

/// The PDF layout a CV is rendered with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TemplateId {
    /// One column, plain headings, no tables or graphics: what ATS parsers read best.
    #[default]
    Classic,
    /// A sidebar with contacts and skills beside the experience.
    Sidebar,
}

impl TemplateId {
    /// Every template.
    pub const ALL: [TemplateId; 2] = [TemplateId::Classic, TemplateId::Sidebar];

    /// The wire value.
    pub const fn as_str(self) -> &'static str {
        match self {
            TemplateId::Classic => "classic",
            TemplateId::Sidebar => "sidebar",
        }
    }
}

/// Everything `cvedit` can edit: the CV's title (its name in the list, not on the page), the
/// template, and the document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct CvState {
    /// The CV's name in the list ("Base CV", "Tailored: Backend engineer at Acme").
    pub title: String,
    /// The layout.
    pub template_id: TemplateId,
    /// The content (flattened: `summary`, `experience[0]…` are top-level paths).
    #[serde(flatten)]
    pub document: CvDocument,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_json_is_flat_and_tolerant() {
        let s: CvState = serde_json::from_str(
            r#"{"title":"Base","template_id":"sidebar","summary":"Hi","experience":[{"company":"Acme","bullets":["Led X"]}]}"#,
        )
        .unwrap();
        assert_eq!(s.template_id, TemplateId::Sidebar);
        assert_eq!(s.document.experience[0].bullets, ["Led X"]);
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["summary"], "Hi");
        assert!(v.get("document").is_none());
        assert!(serde_json::from_str::<CvState>(r#"{"template_id":"fancy"}"#).is_err());
    }
}
