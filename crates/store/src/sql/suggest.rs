//! Suggestion statements ([`JobRepo::suggestion_terms`](crate::JobRepo)): the open,
//! non-duplicate jobs' titles, companies, skills and categories with how many jobs carry each,
//! most first. Only the skills differ by dialect (`unnest` of a `text[]`, `json_each` of a
//! JSON array).

/// `$1` floor, `$2` cap: titles carried by at least `$1` jobs.
pub(crate) const TITLES: &str = "SELECT title, count(*) FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL \
     GROUP BY title HAVING count(*) >= $1 ORDER BY count(*) DESC, title LIMIT $2";

/// `$1` floor, `$2` cap: companies with at least `$1` jobs (slug, a display name, count).
pub(crate) const COMPANIES: &str = "SELECT company_slug, max(company), count(*) FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND company_slug <> '' \
     GROUP BY company_slug HAVING count(*) >= $1 ORDER BY count(*) DESC, company_slug LIMIT $2";

/// `$1` cap: every category with its jobs.
pub(crate) const CATEGORIES: &str = "SELECT category, count(*) FROM jobs \
     WHERE closed_at IS NULL AND duplicate_of IS NULL AND category IS NOT NULL \
     GROUP BY category ORDER BY count(*) DESC, category LIMIT $1";

/// PostgreSQL, `$1` cap: every skill with its jobs.
pub(crate) const SKILLS_POSTGRES: &str = "SELECT s, count(*) FROM jobs \
     CROSS JOIN LATERAL unnest(skills) AS s \
     WHERE closed_at IS NULL AND duplicate_of IS NULL \
     GROUP BY s ORDER BY count(*) DESC, s LIMIT $1";

/// SQLite, `$1` cap: every skill with its jobs.
pub(crate) const SKILLS_SQLITE: &str = "SELECT s.value, count(*) FROM jobs, json_each(jobs.skills) AS s \
     WHERE jobs.closed_at IS NULL AND jobs.duplicate_of IS NULL \
     GROUP BY s.value ORDER BY count(*) DESC, s.value LIMIT $1";
