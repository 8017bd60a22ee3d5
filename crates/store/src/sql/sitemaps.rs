//! Sitemap and URL-lookup statements (the catalogue's public surface, issue 17): pages of the
//! open, non-duplicate jobs by id and of the companies by slug, each with its last change, and
//! their totals. Both dialects agree on these.

/// `$1` limit, `$2` offset: open, non-duplicate jobs by id, with their `updated_at`.
pub(crate) const JOB_PAGE: &str = "SELECT public_slug, updated_at FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL ORDER BY id LIMIT $1 OFFSET $2";

/// How many jobs [`JOB_PAGE`] pages through.
pub(crate) const JOB_TOTAL: &str =
    "SELECT count(*) FROM jobs WHERE closed_at IS NULL AND duplicate_of IS NULL";

/// `$1` limit, `$2` offset: companies (slugs of open, non-duplicate jobs) by slug, with their
/// jobs' latest `updated_at`.
pub(crate) const COMPANY_PAGE: &str = "SELECT company_slug, max(updated_at) FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug <> '' \
     GROUP BY company_slug ORDER BY company_slug LIMIT $1 OFFSET $2";

/// How many companies [`COMPANY_PAGE`] pages through.
pub(crate) const COMPANY_TOTAL: &str = "SELECT count(DISTINCT company_slug) FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug <> ''";
