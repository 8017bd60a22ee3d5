//! # freehire-domain
//!
//! The vocabulary of freehire as plain Rust types, shared by every other crate.
//!
//! - **Newtypes that parse at the edge**: [`UserId`], [`JobId`], [`BoardId`], [`PublicSlug`],
//!   [`CompanySlug`], [`Provider`], [`BoardKey`], [`CountryCode`]. A value of one of these types
//!   has already been checked; code past the edge never re-validates.
//! - **Vocabularies** (reference §14) as enums with `parse`/`as_str`: [`WorkMode`], [`Region`],
//!   [`Seniority`], [`Category`], [`EmploymentType`], [`SalaryPeriod`], [`EnglishLevel`],
//!   [`EducationLevel`], [`BoardStatus`], [`ClosedReason`], [`TechFlag`]. Unknown values are
//!   rejected with a [`DomainError`] that lists the allowed ones.
//! - **Jobs**: [`JobPosting`] (what a writer stores), [`Job`] (the stored row), [`Facets`],
//!   [`Salary`], the content hash and the effective posted date.
//! - **Accounts**: [`Email`], [`Password`] (never printed), [`Username`], [`Timezone`],
//!   [`Language`], [`ApiKeyName`], [`Role`], [`ApiKeyScope`], [`CodePurpose`], and the stored
//!   [`User`] and [`ApiKey`].
//! - **Tracking**: [`Stage`] (its [`StageGroup`] column, rank, silence threshold),
//!   [`EventKind`], [`EventSource`], [`check_applied_on`], the silence clock ([`silence`]) and
//!   the follow-up draft ([`followup_draft`], [`elapsed_wording`]); saved searches' [`Channel`] and
//!   [`DigestFrequency`], [`NotificationKind`], and the ids [`ApplicationId`],
//!   [`SavedSearchId`], [`SubscriptionId`], [`NotificationId`].
//! - **Plans** ([`plan`], reference §13): tiers, metered features, the allowance policy and
//!   its `PLAN_*` overrides, `decide`, standings and tailoring session ceilings.
//! - **Experience bank** ([`experience`], reference assistant.md §12): [`EmploymentDraft`],
//!   [`AtomDraft`], [`Provenance`] and [`Author`] ([`provenance_for`]), [`claim_key`], and
//!   [`user_said`], the provenance check with its negation guard (§4); merges, soft
//!   duplicates and retrieval scores.
//! - **Screening answers** ([`screening`], reference assistant.md §10.5): the facts application
//!   forms ask, stored per account, and the merge patch that updates them.
//! - **Boards**: [`Board`], [`NewBoard`], [`BoardHealth`] and the cooldown schedule.
//! - **Slugs** (reference §3.12): [`slugify`], [`company_slug`], [`company_key`], [`job_slug`].
//!
//! Pure: no IO, no async, no database or HTTP types.

mod account;
mod board;
mod error;
pub mod experience;
mod followup;
pub mod ghost;
mod ids;
mod job;
pub mod plan;
mod provider;
pub mod reality;
pub mod screening;
mod slug;
mod structured;
mod tracking;
mod vocab;

pub use account::{
    API_KEY_NAME_MAX_CHARS, ApiKey, ApiKeyName, EMAIL_MAX_CHARS, Email, LANGUAGE_MAX_CHARS,
    Language, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, Password, Timezone, USERNAME_MAX_CHARS, User,
    Username,
};
pub use board::{
    Board, BoardHealth, COOLDOWN_BASE, COOLDOWN_CAP, COOLDOWN_THRESHOLD, NewBoard, cooldown_for,
};
pub use error::DomainError;
pub use experience::{
    Atom, AtomDraft, Author, Employment, EmploymentDraft, EmploymentKind, Period, Provenance,
    Speaker, Utterance, claim_key, provenance_for, user_said,
};
pub use followup::{
    FollowupDraft, FollowupInput, Silence, SilenceState, elapsed_wording, followup_draft, silence,
};
pub use ids::{
    ApiKeyId, ApplicationId, AtomId, BoardId, CvId, EmploymentId, JobId, NotificationId,
    SavedSearchId, SubscriptionId, UserId,
};
pub use job::{Facets, Job, JobPosting, MAX_EXPERIENCE_YEARS, Salary, effective_posted_at};
pub use provider::{BoardKey, CountryCode, Provider};
pub use screening::{ScreeningAnswers, ScreeningPatch};
pub use slug::{
    CompanySlug, PublicSlug, SHORTCODE_LEN, company_key, company_slug, job_slug, shortcode, slugify,
};
pub use structured::Structured;
pub use tracking::{APPLIED_ON_MAX_AGE_DAYS, check_applied_on};
pub use vocab::{
    AliasReason, ApiKeyScope, BoardStatus, Category, Channel, ClosedReason, CodePurpose,
    DigestFrequency, EducationLevel, EmploymentType, EnglishLevel, EventKind, EventSource,
    FailureClass, GhostCriterion, GhostLevel, NotificationKind, RealityClass, Region, Role,
    SalaryPeriod, Seniority, Stage, StageGroup, TechFlag, WorkMode,
};
