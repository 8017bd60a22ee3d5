//! The experience bank (reference assistant.md §12): the candidate's employments (jobs and
//! projects) and achievements ("atoms"), each atom labelled with its [`Provenance`].
//!
//! - [`employment`]: [`EmploymentDraft`] (what a writer sends; kind-aware JSON), [`Period`]
//!   (`{year, month?}`), [`Employment`] (the stored row).
//! - [`atom`]: [`AtomDraft`], [`Atom`], [`claim_key`], [`provenance_for`], [`Richness`].
//! - [`said`]: [`user_said`], the only way a quote becomes the candidate's own statement.
//! - [`similar`]: merging two atoms, soft-duplicate clusters and the retrieval score.
//! - [`limits`]: the field limits of §12.1.
//!
//! Skills are canonical skill slugs. Canonicalising a free-text skill needs the skill
//! dictionary of `freehire-normalize`, which sits above this crate, so `sanitize` takes the
//! canonicaliser as a function: unknown skills are dropped.
//!
//! Pure: no IO, no clock (timestamps come in with the stored rows).

pub mod atom;
pub mod employment;
pub mod limits;
pub mod said;
pub mod similar;

pub use atom::{Atom, AtomDraft, Richness, claim_key, provenance_for};
pub use employment::{Employment, EmploymentDraft, Period, format_range, sort_employments};
pub use said::{MIN_QUOTE_WORDS, Speaker, Utterance, quote_backs, user_said};
pub use similar::{
    MergeError, MergePlan, RetrievalQuery, SoftDuplicates, merge_plan, rank_atoms, retrieval_score,
    soft_duplicate_clusters,
};

pub use crate::vocab::{Author, EmploymentKind, Provenance};
