//! The companies table and the alias registry (migration 0025): the statements both dialects
//! agree on. The filtered page, the batch deletes and the per-slug aggregates differ in list
//! parameters and live in each adapter's `companies.rs`.

/// The columns a company read selects (decoded by `CompanyRecord`).
macro_rules! company_columns {
    () => {
        "slug, name, job_count, latest_posted_at, regions, countries, work_modes, top_skills, \
         sources"
    };
}

/// The oldest stale marks, `$1` at most: `(id, slug)`.
pub(crate) const PENDING: &str = "SELECT id, slug FROM company_refresh ORDER BY id LIMIT $1";

/// Writes one company's row as recomputed at `$10`.
pub(crate) const UPSERT: &str = concat!(
    "INSERT INTO companies (",
    company_columns!(),
    ", refreshed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
     ON CONFLICT (slug) DO UPDATE SET name = excluded.name, job_count = excluded.job_count, \
     latest_posted_at = excluded.latest_posted_at, regions = excluded.regions, \
     countries = excluded.countries, work_modes = excluded.work_modes, \
     top_skills = excluded.top_skills, sources = excluded.sources, \
     refreshed_at = excluded.refreshed_at"
);

/// The oldest marks of the companies index outbox (migration 0027), `$1` at most:
/// `(id, slug)`.
pub(crate) const PENDING_INDEX: &str = "SELECT id, slug FROM company_index ORDER BY id LIMIT $1";

/// Every company (a rebuild of the companies index).
pub(crate) const ALL: &str = concat!("SELECT ", company_columns!(), " FROM companies");

/// One company by slug.
pub(crate) const BY_SLUG: &str =
    concat!("SELECT ", company_columns!(), " FROM companies WHERE slug = $1");

/// The slug a merged slug `$1` now lives under.
pub(crate) const CANONICAL: &str =
    "SELECT canonical_slug FROM company_slug_aliases WHERE alias_slug = $1";

/// Every alias, by alias slug.
pub(crate) const ALIASES: &str = "SELECT alias_slug, canonical_slug, folded_key, reason, \
     created_at FROM company_slug_aliases ORDER BY alias_slug";

/// Forgets that `$1` (the new canonical slug) was itself an alias: a merge the other way.
pub(crate) const UNALIAS: &str = "DELETE FROM company_slug_aliases WHERE alias_slug = $1";

/// Aliases of `$1` (the slug being merged away) follow it to `$2`, so no chain forms.
pub(crate) const REPOINT: &str =
    "UPDATE company_slug_aliases SET canonical_slug = $2 WHERE canonical_slug = $1";

/// Records `$1` → `$2` with the folded key `$3`, the reason `$4`, at `$5`.
pub(crate) const ADD_ALIAS: &str = "INSERT INTO company_slug_aliases \
     (alias_slug, canonical_slug, folded_key, reason, created_at) VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (alias_slug) DO UPDATE SET canonical_slug = excluded.canonical_slug, \
     folded_key = excluded.folded_key, reason = excluded.reason, created_at = excluded.created_at";

/// Moves every job of `$1` (open or not) to `$2`, stamping `$3`; returns their ids.
pub(crate) const MOVE_JOBS: &str =
    "UPDATE jobs SET company_slug = $2, updated_at = $3 WHERE company_slug = $1 RETURNING id";
