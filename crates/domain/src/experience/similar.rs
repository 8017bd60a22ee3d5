//! Comparing atoms (reference assistant.md §12.3): the plan of a merge, soft-duplicate
//! clusters and the retrieval score. No model call anywhere: plain counting.
//!
//! - **Merge**: both atoms in the same employment (or both in none); the richer one is kept
//!   (metrics + skills + 1 for a context; a tie keeps the first); metrics and skills are
//!   unioned within the limits, the longer non-empty context wins, and the keeper takes the
//!   loser's provenance when only the loser's is publishable. The claim, key, employment and
//!   source stay the keeper's. The store applies the plan in one statement gated on both rows'
//!   `updated_at`.
//! - **Soft duplicates**: claims whose [`claim_key`](super::claim_key) words minus stopwords
//!   have a Jaccard similarity ≥ 0.6, within one employment (only such pairs can be merged);
//!   connected components of at least two, at most 8 clusters of at most 6 ids.
//! - **Retrieval**: 10 × shared canonical skills + 3 × the employment's stack ∩ the query
//!   skills + 1 × non-stopword tokens shared by the query text and the claim and context.
//!   Zero scores are left out; ties go to the newer `updated_at`, then the higher id.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::atom::{Atom, claim_key};
use super::limits::{MAX_METRICS, MAX_SKILLS};
use crate::{AtomId, EmploymentId, Provenance};

/// Why two atoms cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// The same atom twice.
    #[error("cannot merge atom {0} with itself")]
    SameAtom(AtomId),
    /// Atoms of different employments.
    #[error(
        "atoms {0} and {1} belong to different employments; only atoms of one employment merge"
    )]
    CrossEmployment(AtomId, AtomId),
}

/// What a merge writes: the keeper's new fields, the loser to delete, and the `updated_at` of
/// both as read (the store's statement changes nothing when either moved since).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergePlan {
    /// The atom that stays.
    pub keep: AtomId,
    /// The atom that goes.
    pub drop: AtomId,
    /// The keeper's context after the merge.
    pub context: String,
    /// The union of the metrics.
    pub metrics: Vec<String>,
    /// The union of the skills.
    pub skills: Vec<String>,
    /// The keeper's provenance after the merge.
    pub provenance: Provenance,
    /// The keeper's `updated_at` as read.
    pub keep_seen: DateTime<Utc>,
    /// The loser's `updated_at` as read.
    pub drop_seen: DateTime<Utc>,
}

/// Plans merging `b` into `a` (or `a` into `b` when `b` is richer).
pub fn merge_plan(a: &Atom, b: &Atom) -> Result<MergePlan, MergeError> {
    if a.id == b.id {
        return Err(MergeError::SameAtom(a.id));
    }
    if a.draft.employment_id != b.draft.employment_id {
        return Err(MergeError::CrossEmployment(a.id, b.id));
    }
    let (keep, lose) =
        if b.draft.richness_score() > a.draft.richness_score() { (b, a) } else { (a, b) };
    let union = |x: &[String], y: &[String], max: usize| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for v in x.iter().chain(y) {
            if out.len() < max && !out.contains(v) {
                out.push(v.clone());
            }
        }
        out
    };
    let (kc, lc) = (keep.draft.context.trim(), lose.draft.context.trim());
    let context = if lc.chars().count() > kc.chars().count() { lc } else { kc };
    let provenance =
        if lose.publishable() && !keep.publishable() { lose.provenance } else { keep.provenance };
    Ok(MergePlan {
        keep: keep.id,
        drop: lose.id,
        context: context.to_owned(),
        metrics: union(&keep.draft.metrics, &lose.draft.metrics, MAX_METRICS),
        skills: union(&keep.draft.skills, &lose.draft.skills, MAX_SKILLS),
        provenance,
        keep_seen: keep.updated_at,
        drop_seen: lose.updated_at,
    })
}

/// Groups of near-paraphrases, each a list of atom ids (see the module doc).
pub type SoftDuplicates = Vec<Vec<AtomId>>;

/// The Jaccard similarity at which two claims are near-paraphrases.
pub const SOFT_DUPLICATE_JACCARD: f64 = 0.6;
/// At most this many clusters are reported…
pub const MAX_CLUSTERS: usize = 8;
/// …of at most this many ids each.
pub const MAX_CLUSTER_IDS: usize = 6;

/// Clusters of near-paraphrased claims among `atoms`, in the order their first member appears.
pub fn soft_duplicate_clusters(atoms: &[Atom]) -> SoftDuplicates {
    let tokens: Vec<HashSet<String>> =
        atoms.iter().map(|a| content_tokens(&a.draft.claim)).collect();
    let mut parent: Vec<usize> = (0..atoms.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..atoms.len() {
        for j in i + 1..atoms.len() {
            if atoms[i].draft.employment_id != atoms[j].draft.employment_id {
                continue;
            }
            let (a, b) = (&tokens[i], &tokens[j]);
            let union = a.union(b).count();
            if union > 0
                && a.intersection(b).count() as f64 / union as f64 >= SOFT_DUPLICATE_JACCARD
            {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                parent[ri.max(rj)] = ri.min(rj);
            }
        }
    }
    let mut groups: Vec<(usize, Vec<AtomId>)> = Vec::new();
    for (i, atom) in atoms.iter().enumerate() {
        let r = root(&mut parent, i);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, ids)) => ids.push(atom.id),
            None => groups.push((r, vec![atom.id])),
        }
    }
    groups
        .into_iter()
        .map(|(_, mut ids)| {
            ids.truncate(MAX_CLUSTER_IDS);
            ids
        })
        .filter(|ids| ids.len() >= 2)
        .take(MAX_CLUSTERS)
        .collect()
}

/// A retrieval query: free text and canonical skills (the caller adds the skills the text
/// mentions, through the skill dictionary).
#[derive(Debug, Clone, Default)]
pub struct RetrievalQuery {
    skills: HashSet<String>,
    tokens: HashSet<String>,
}

impl RetrievalQuery {
    /// A query of `text` and canonical `skills`.
    pub fn new(text: &str, skills: impl IntoIterator<Item = String>) -> Self {
        Self { skills: skills.into_iter().collect(), tokens: content_tokens(text) }
    }
}

/// An atom's score for `query`; `stack` is its employment's stack (empty without one).
pub fn retrieval_score(query: &RetrievalQuery, atom: &Atom, stack: &[String]) -> u32 {
    let count = |it: &mut dyn Iterator<Item = &String>| -> u32 {
        u32::try_from(it.filter(|s| query.skills.contains(*s)).count()).unwrap_or(u32::MAX)
    };
    let skills = count(&mut atom.draft.skills.iter());
    let stack = count(&mut stack.iter());
    let mut words = content_tokens(&atom.draft.claim);
    words.extend(content_tokens(&atom.draft.context));
    let text = u32::try_from(words.intersection(&query.tokens).count()).unwrap_or(u32::MAX);
    10 * skills + 3 * stack + text
}

/// The ids of the best `limit` atoms for `query`, best first, zero scores left out.
pub fn rank_atoms(
    query: &RetrievalQuery,
    atoms: &[Atom],
    stacks: &HashMap<EmploymentId, Vec<String>>,
    limit: usize,
) -> Vec<(AtomId, u32)> {
    let mut scored: Vec<(&Atom, u32)> = atoms
        .iter()
        .map(|a| {
            let stack =
                a.draft.employment_id.and_then(|e| stacks.get(&e)).map_or(&[][..], Vec::as_slice);
            (a, retrieval_score(query, a, stack))
        })
        .filter(|(_, s)| *s > 0)
        .collect();
    scored.sort_by(|(a, sa), (b, sb)| {
        sb.cmp(sa).then_with(|| b.updated_at.cmp(&a.updated_at)).then_with(|| b.id.cmp(&a.id))
    });
    scored.into_iter().take(limit).map(|(a, s)| (a.id, s)).collect()
}

/// The [`claim_key`] words of `text` that are not stopwords.
pub(crate) fn content_tokens(text: &str) -> HashSet<String> {
    claim_key(text)
        .split(' ')
        .filter(|w| !w.is_empty() && !STOPWORDS.contains(w))
        .map(str::to_owned)
        .collect()
}

/// English function words that carry no meaning for matching.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "but", "by", "can", "did", "do", "for", "from", "had", "has", "have", "he", "her", "his", "i",
    "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "our", "out", "over", "she",
    "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to",
    "up", "us", "was", "we", "were", "what", "when", "which", "while", "who", "will", "with",
    "would", "you", "your",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AtomDraft, UserId};

    fn atom(id: i64, employment: Option<i64>, draft: AtomDraft, provenance: Provenance) -> Atom {
        let at = DateTime::<Utc>::UNIX_EPOCH + chrono::Duration::seconds(id);
        let draft =
            AtomDraft { employment_id: employment.map(|e| EmploymentId::new(e).unwrap()), ..draft };
        Atom {
            id: AtomId::new(id).unwrap(),
            user_id: UserId::new(1).unwrap(),
            claim_key: claim_key(&draft.claim),
            draft,
            provenance,
            created_at: at,
            updated_at: at,
        }
    }

    // scenario: A merge keeps the richer atom
    #[test]
    fn merge_keeps_the_richer_unions_and_upgrades() {
        let poor = atom(1, Some(9), AtomDraft::claim("Led the migration"), Provenance::Manual);
        let rich = atom(
            2,
            Some(9),
            AtomDraft {
                context: "legacy monolith".into(),
                metrics: vec!["40 services".into()],
                skills: vec!["kubernetes".into()],
                ..AtomDraft::claim("Led the k8s migration")
            },
            Provenance::AgentInferred,
        );
        let plan = merge_plan(&poor, &rich).unwrap();
        assert_eq!((plan.keep, plan.drop), (rich.id, poor.id));
        assert_eq!(
            plan.provenance,
            Provenance::Manual,
            "the loser's publishable standing moves over"
        );
        assert_eq!(plan.context, "legacy monolith");
        let tie =
            merge_plan(&poor, &atom(3, Some(9), AtomDraft::claim("x y z"), Provenance::Manual))
                .unwrap();
        assert_eq!(tie.keep, poor.id, "a tie keeps the first");
        assert_eq!(merge_plan(&poor, &poor), Err(MergeError::SameAtom(poor.id)));
        let other = atom(4, None, AtomDraft::claim("x"), Provenance::Manual);
        assert!(matches!(merge_plan(&poor, &other), Err(MergeError::CrossEmployment(..))));
    }

    #[test]
    fn merge_respects_the_limits() {
        let m = |n: i64| (0..n).map(|i| format!("m{i}")).collect::<Vec<_>>();
        let a =
            atom(1, None, AtomDraft { metrics: m(8), ..AtomDraft::claim("a") }, Provenance::Manual);
        let b = atom(
            2,
            None,
            AtomDraft { metrics: m(10).into_iter().rev().collect(), ..AtomDraft::claim("b") },
            Provenance::Manual,
        );
        assert_eq!(merge_plan(&a, &b).unwrap().metrics.len(), MAX_METRICS);
    }

    // scenario: Soft duplicates cluster within an employment
    #[test]
    fn soft_duplicates_cluster_within_an_employment() {
        let c = |id, e, claim: &str| atom(id, e, AtomDraft::claim(claim), Provenance::Manual);
        let atoms = [
            c(1, Some(1), "Led the migration to Kubernetes"),
            c(2, Some(1), "Led a migration to Kubernetes clusters"),
            c(3, Some(2), "Led the migration to Kubernetes"),
            c(4, Some(1), "Wrote the billing service"),
            c(5, Some(1), "led migration kubernetes"),
        ];
        assert_eq!(
            soft_duplicate_clusters(&atoms),
            vec![vec![atoms[0].id, atoms[1].id, atoms[4].id]]
        );
        let many: Vec<Atom> =
            (1..=40).map(|i| c(i, None, &format!("shipped payments rewrite {}", i % 10))).collect();
        let clusters = soft_duplicate_clusters(&many);
        assert!(
            clusters.len() <= MAX_CLUSTERS
                && clusters.iter().all(|c| (2..=MAX_CLUSTER_IDS).contains(&c.len()))
        );
    }

    // scenario: Retrieval weights skills, then the stack, then text
    #[test]
    fn retrieval_weights_skills_then_stack_then_text() {
        let a = atom(
            1,
            Some(1),
            AtomDraft {
                skills: vec!["rust".into()],
                ..AtomDraft::claim("Built the ingest pipeline")
            },
            Provenance::Manual,
        );
        let b = atom(2, Some(2), AtomDraft::claim("Tuned the ingest pipeline"), Provenance::Manual);
        let c = atom(3, None, AtomDraft::claim("Organised the offsite"), Provenance::Manual);
        let stacks = HashMap::from([(EmploymentId::new(2).unwrap(), vec!["rust".to_owned()])]);
        let q = RetrievalQuery::new("ingest pipeline", ["rust".to_owned()]);
        let ranked = rank_atoms(&q, &[a.clone(), b.clone(), c.clone()], &stacks, 10);
        assert_eq!(ranked, vec![(a.id, 12), (b.id, 5)]);
        assert!(
            rank_atoms(&RetrievalQuery::new("3", []), &[a, b, c], &stacks, 10).is_empty(),
            "an id as text matches nothing"
        );
    }
}
