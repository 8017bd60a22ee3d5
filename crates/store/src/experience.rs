//! The experience bank's storage shapes (reference assistant.md §12.3, §16.3–§16.4): what
//! [`ExperienceRepo`](crate::ExperienceRepo) answers beside the domain's
//! [`Employment`] and [`Atom`], and the import's fill of an employment's blanks.
//!
//! Every method of the port takes the owner; another user's row is not found (`None`,
//! `false`, [`AtomWrite::NoSuchEmployment`], [`MergeOutcome::NotFound`]), never an error that
//! says it exists.

use freehire_domain::{
    AtomId, EmploymentKind,
    experience::{Atom, Employment, EmploymentDraft},
};

/// What [`add_atom`](crate::ExperienceRepo::add_atom) did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtomWrite {
    /// A new atom.
    Inserted(Atom),
    /// The owner's `agent_inferred` atom of the same claim key, raised to the write's
    /// publishable provenance: same id; its provenance, source and context are the write's,
    /// its claim, skills, metrics and employment unchanged.
    Upgraded(Atom),
    /// The owner already has an atom of this claim key and the write would not raise it
    /// (nothing changed): its id.
    AlreadyBanked(AtomId),
    /// The draft names an employment the owner does not have.
    NoSuchEmployment,
}

/// What [`merge_atoms`](crate::ExperienceRepo::merge_atoms) did.
#[allow(clippy::large_enum_variant)] // one answer per call, never kept in bulk: not boxed
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeOutcome {
    /// The keeper as merged; the loser is gone.
    Merged(Atom),
    /// Both atoms are the owner's but one changed since the plan read it: nothing changed
    /// (reload and plan again).
    Conflict,
    /// One of the atoms is not the owner's (or is gone): nothing changed.
    NotFound,
}

/// `stored` with its blanks filled from `incoming` (the CV import, reference §12.3): empty
/// strings take the incoming value, a period is taken whole when the stored one is missing
/// (never the end of a current employment), the stack becomes the sorted union, a project's
/// link is filled (a job has none). The kind and `current` are never touched.
pub fn fill_blanks(stored: &EmploymentDraft, incoming: &EmploymentDraft) -> EmploymentDraft {
    let fill = |mine: &String, theirs: &String| {
        if mine.trim().is_empty() { theirs.clone() } else { mine.clone() }
    };
    let mut stack: Vec<String> = stored.stack.iter().chain(&incoming.stack).cloned().collect();
    stack.sort();
    stack.dedup();
    EmploymentDraft {
        kind: stored.kind,
        company: fill(&stored.company, &incoming.company),
        role: fill(&stored.role, &incoming.role),
        location: fill(&stored.location, &incoming.location),
        start: stored.start.or(incoming.start),
        end: if stored.current { None } else { stored.end.or(incoming.end) },
        current: stored.current,
        summary: fill(&stored.summary, &incoming.summary),
        // Only a project has a link.
        link: match stored.kind {
            EmploymentKind::Project => fill(&stored.link, &incoming.link),
            EmploymentKind::Job => stored.link.clone(),
        },
        stack,
    }
}

/// The owner's employment whose company and role equal `company` and `role` compared
/// case-insensitively (Unicode lower case, so both backends agree: SQLite's `lower()` folds
/// ASCII only), the oldest first.
pub(crate) fn find_in(list: Vec<Employment>, company: &str, role: &str) -> Option<Employment> {
    let (company, role) = (company.trim().to_lowercase(), role.trim().to_lowercase());
    list.into_iter()
        .filter(|e| {
            e.draft.company.trim().to_lowercase() == company
                && e.draft.role.trim().to_lowercase() == role
        })
        .min_by_key(|e| (e.created_at, e.id))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use freehire_domain::experience::Period;

    use super::*;

    #[test]
    fn blanks_are_filled_periods_whole_stacks_unioned_and_current_kept() {
        let mut stored = EmploymentDraft::new(EmploymentKind::Job);
        stored.company = "Acme".into();
        stored.stack = vec!["rust".into(), "go".into()];
        stored.current = true;
        let mut incoming = EmploymentDraft::new(EmploymentKind::Project);
        incoming.company = "Other".into();
        incoming.role = "Engineer".into();
        incoming.start = Some(Period::new(2020, Some(3), "start").unwrap());
        incoming.end = Some(Period::new(2022, None, "end").unwrap());
        incoming.stack = vec!["go".into(), "kubernetes".into()];
        incoming.link = "https://x".into();
        let filled = fill_blanks(&stored, &incoming);
        assert_eq!(filled.link, "", "a job has no link");
        assert_eq!((filled.kind, filled.company.as_str()), (EmploymentKind::Job, "Acme"));
        assert_eq!(filled.role, "Engineer");
        assert_eq!((filled.start, filled.end, filled.current), (incoming.start, None, true));
        assert_eq!(filled.stack, ["go", "kubernetes", "rust"]);
        stored.current = false;
        stored.start = Some(Period::new(2019, None, "start").unwrap());
        let filled = fill_blanks(&stored, &incoming);
        assert_eq!((filled.start, filled.end), (stored.start, incoming.end));
        stored.kind = EmploymentKind::Project;
        assert_eq!(fill_blanks(&stored, &incoming).link, "https://x");
    }
}
