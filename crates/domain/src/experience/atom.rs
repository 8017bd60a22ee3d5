//! Atoms: the achievements of the experience bank (reference assistant.md §12.1–§12.2).
//!
//! An atom is one claim the candidate can stand behind ("cut p99 latency from 20s to 1s"),
//! with optional context, metrics and skills, and a [`Provenance`] the store derives from the
//! [`Author`] of the write ([`provenance_for`]). Atoms are unique per user by [`claim_key`].

use chrono::{DateTime, Utc};

use super::limits::{
    MAX_CLAIM_CHARS, MAX_CONTEXT_CHARS, MAX_METRICS, MAX_SHORT_CHARS, canonical_skills, clip,
};
use crate::{AtomId, Author, DomainError, EmploymentId, Provenance, UserId};

/// The provenance a write by `author` gives, `existing` being the stored one for an update.
///
/// | author | provenance |
/// |---|---|
/// | `candidate` | `manual` |
/// | `quoted` | `stated_in_chat`: the only way a claim's standing can rise |
/// | `rewrite` | `existing`, or `agent_inferred` when there is none |
/// | `agent` | `agent_inferred` |
/// | `import` | `cv_import` |
pub fn provenance_for(author: Author, existing: Option<Provenance>) -> Provenance {
    match author {
        Author::Candidate => Provenance::Manual,
        Author::Quoted => Provenance::StatedInChat,
        Author::Rewrite => existing.unwrap_or(Provenance::AgentInferred),
        Author::Agent => Provenance::AgentInferred,
        Author::Import => Provenance::CvImport,
    }
}

/// The dedup key of a claim: lowercased, every run of characters that are not letters, digits
/// or spaces replaced by a space, whitespace collapsed. Numbers are kept ("20s to 1s" and
/// "30s to 1s" differ); no stemming.
pub fn claim_key(claim: &str) -> String {
    let mut out = String::with_capacity(claim.len());
    let mut gap = false;
    for c in claim.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.push(c);
        } else {
            gap = true;
        }
    }
    out
}

/// What a writer sends for an atom. The provenance is not part of it: the store derives it
/// from the write's [`Author`].
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct AtomDraft {
    /// The employment it belongs to, if any.
    #[serde(default)]
    pub employment_id: Option<EmploymentId>,
    /// The claim itself; required.
    #[serde(default)]
    pub claim: String,
    /// What made it hard or mattered, may be empty.
    #[serde(default)]
    pub context: String,
    /// Figures ("p99 20s → 1s").
    #[serde(default)]
    pub metrics: Vec<String>,
    /// Canonical skill slugs.
    #[serde(default)]
    pub skills: Vec<String>,
    /// Where it came from (a CV section, a session), free text.
    #[serde(default)]
    pub source_ref: String,
}

impl AtomDraft {
    /// A draft with only a claim.
    pub fn claim(claim: impl Into<String>) -> Self {
        Self { claim: claim.into(), ..Self::default() }
    }

    /// Trims and clips every string, drops blank metrics (and those past [`MAX_METRICS`]),
    /// canonicalises the skills (unknown ones dropped).
    pub fn sanitize(mut self, canon: &dyn Fn(&str) -> Option<String>) -> Self {
        self.claim = clip(&self.claim, MAX_CLAIM_CHARS);
        self.context = clip(&self.context, MAX_CONTEXT_CHARS);
        self.source_ref = clip(&self.source_ref, MAX_SHORT_CHARS);
        self.metrics = self
            .metrics
            .iter()
            .map(|m| clip(m, MAX_SHORT_CHARS))
            .filter(|m| !m.is_empty())
            .take(MAX_METRICS)
            .collect();
        self.skills = canonical_skills(&self.skills, canon);
        self
    }

    /// The claim is required, and must have a [`claim_key`] (some letter or digit).
    pub fn validate(&self) -> Result<(), DomainError> {
        if claim_key(&self.claim).is_empty() {
            return Err(DomainError::invalid("claim", self.claim.clone(), "must not be empty"));
        }
        Ok(())
    }

    /// What the draft lacks: see [`Richness`].
    pub fn richness(&self) -> Richness {
        Richness {
            needs_context: self.context.trim().is_empty(),
            needs_metrics: self.metrics.is_empty()
                && !self.claim.chars().any(|c| c.is_ascii_digit()),
        }
    }

    /// Metrics + skills + 1 for a context: which of two atoms a merge keeps.
    pub fn richness_score(&self) -> usize {
        self.metrics.len() + self.skills.len() + usize::from(!self.context.trim().is_empty())
    }
}

/// What an atom lacks, so the assistant knows what to ask the candidate next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Richness {
    /// A claim-only atom: no context.
    pub needs_context: bool,
    /// No metrics and no digit in the claim.
    pub needs_metrics: bool,
}

/// A stored atom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Atom {
    /// Its id: what a CV bullet cites.
    pub id: AtomId,
    /// Its owner.
    pub user_id: UserId,
    /// Its fields.
    pub draft: AtomDraft,
    /// Its dedup key, [`claim_key`] of the claim.
    pub claim_key: String,
    /// Where it came from.
    pub provenance: Provenance,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed (merges are gated on it).
    pub updated_at: DateTime<Utc>,
}

impl Atom {
    /// Whether a CV may cite it.
    pub fn publishable(&self) -> bool {
        self.provenance.publishable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // scenario: Provenance follows the author
    #[test]
    fn provenance_follows_the_author() {
        use Provenance::*;
        assert_eq!(provenance_for(Author::Candidate, Some(AgentInferred)), Manual);
        assert_eq!(provenance_for(Author::Quoted, Some(AgentInferred)), StatedInChat);
        assert_eq!(provenance_for(Author::Rewrite, Some(CvImport)), CvImport);
        assert_eq!(provenance_for(Author::Rewrite, None), AgentInferred);
        assert_eq!(provenance_for(Author::Agent, Some(Manual)), AgentInferred);
        assert_eq!(provenance_for(Author::Import, None), CvImport);
        assert!(!AgentInferred.publishable() && Manual.publishable() && CvImport.publishable());
        let e = Provenance::parse("trusted").unwrap_err().to_string();
        assert!(e.contains("cv_import, stated_in_chat, manual, agent_inferred"), "{e}");
    }

    proptest! {
        // scenario: A rewrite never raises provenance
        /// A rewrite never raises an atom's standing.
        #[test]
        fn rewrite_never_raises_provenance(i in 0usize..5) {
            let existing = Provenance::ALL.get(i).copied();
            let after = provenance_for(Author::Rewrite, existing);
            let before_ok = existing.is_some_and(Provenance::publishable);
            prop_assert!(!after.publishable() || before_ok);
            prop_assert!(existing.is_none() || Some(after) == existing);
        }

        /// The key is stable: keying a key changes nothing.
        #[test]
        fn claim_key_is_idempotent(s in "\\PC{0,60}") {
            let k = claim_key(&s);
            prop_assert_eq!(claim_key(&k), k);
        }
    }

    // scenario: Claim keys keep numbers
    #[test]
    fn claim_key_keeps_numbers_and_drops_punctuation() {
        assert_eq!(claim_key("  Cut p99: 20s → 1s!! "), "cut p99 20s 1s");
        assert_ne!(claim_key("20s to 1s"), claim_key("30s to 1s"));
        assert_eq!(claim_key("Led the Migration"), claim_key("led  the migration."));
    }

    #[test]
    fn sanitize_and_validate() {
        let canon = |s: &str| (s == "rust").then(|| s.to_owned());
        let d = AtomDraft {
            claim: "x".repeat(500),
            metrics: vec![" ".into(), "3x".into()],
            skills: vec!["rust".into(), "unknown".into()],
            ..AtomDraft::default()
        }
        .sanitize(&canon);
        assert_eq!(d.claim.chars().count(), MAX_CLAIM_CHARS);
        assert_eq!(
            (d.metrics.as_slice(), d.skills.as_slice()),
            (&["3x".to_owned()][..], &["rust".to_owned()][..])
        );
        assert!(AtomDraft::claim(" -- ").validate().unwrap_err().to_string().contains("claim"));
    }

    #[test]
    fn richness() {
        let bare = AtomDraft::claim("Led the migration");
        assert_eq!(bare.richness(), Richness { needs_context: true, needs_metrics: true });
        let numbered =
            AtomDraft { context: "legacy".into(), ..AtomDraft::claim("Cut deploys to 5 min") };
        assert_eq!(numbered.richness(), Richness { needs_context: false, needs_metrics: false });
        assert_eq!(numbered.richness_score(), 1);
    }
}
