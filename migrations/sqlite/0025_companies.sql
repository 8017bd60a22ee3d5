-- The companies table (issue 18 part 5; reference search-ingest §4.1 `companies`, §5.4), kept
-- in step with the jobs by the pipeline: every change of a job that moves a company's
-- aggregate (inserted, deleted, closed or reopened, marked a duplicate, renamed, its facets
-- rewritten) appends the company's slug to `company_refresh` by trigger, on every write path
-- (ingest, sweeps, lifecycle, dedup, merges); the drain and the first read after a change
-- recompute those companies from their open, non-duplicate jobs. Same as
-- migrations/postgres/0025 (arrays are JSON text here).
CREATE TABLE companies (
    slug             TEXT    PRIMARY KEY,
    name             TEXT    NOT NULL,
    job_count        INTEGER NOT NULL,
    latest_posted_at TEXT    NOT NULL,
    regions          TEXT    NOT NULL DEFAULT '[]',
    countries        TEXT    NOT NULL DEFAULT '[]',
    work_modes       TEXT    NOT NULL DEFAULT '[]',
    top_skills       TEXT    NOT NULL DEFAULT '[]',
    sources          TEXT    NOT NULL DEFAULT '[]',
    refreshed_at     TEXT    NOT NULL
);
-- The default order: most open jobs first, then by slug.
CREATE INDEX companies_rank_idx ON companies (job_count DESC, slug);

-- Slugs whose company row is stale, append-only (no write ever waits on another's row); a
-- refresh deletes the marks it read, up to the highest id it read.
CREATE TABLE company_refresh (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    slug TEXT    NOT NULL
);
CREATE INDEX company_refresh_slug_idx ON company_refresh (slug, id);

CREATE TRIGGER jobs_company_insert AFTER INSERT ON jobs WHEN NEW.company_slug <> ''
BEGIN
    INSERT INTO company_refresh (slug) VALUES (NEW.company_slug);
END;

CREATE TRIGGER jobs_company_delete AFTER DELETE ON jobs WHEN OLD.company_slug <> ''
BEGIN
    INSERT INTO company_refresh (slug) VALUES (OLD.company_slug);
END;

CREATE TRIGGER jobs_company_update AFTER UPDATE ON jobs
WHEN OLD.company_slug IS NOT NEW.company_slug
  OR OLD.company IS NOT NEW.company
  OR (OLD.closed_at IS NULL) <> (NEW.closed_at IS NULL)
  OR OLD.duplicate_of IS NOT NEW.duplicate_of
  OR OLD.countries IS NOT NEW.countries
  OR OLD.regions IS NOT NEW.regions
  OR OLD.work_mode IS NOT NEW.work_mode
  OR OLD.skills IS NOT NEW.skills
  OR OLD.posted_at IS NOT NEW.posted_at
  OR OLD.source IS NOT NEW.source
BEGIN
    INSERT INTO company_refresh (slug)
        SELECT OLD.company_slug WHERE OLD.company_slug <> ''
        UNION SELECT NEW.company_slug WHERE NEW.company_slug <> '';
END;

-- Every company of the catalogue as it stands is stale once.
INSERT INTO company_refresh (slug)
    SELECT DISTINCT company_slug FROM jobs WHERE company_slug <> '';

-- Merged company slugs (reference §4.1 `company_slug_aliases`, §5.5): a job whose company
-- slugifies to `alias_slug` is stored under `canonical_slug`, and `/companies/{alias_slug}`
-- answers 301. The one company table not derived from jobs; no foreign key.
CREATE TABLE company_slug_aliases (
    alias_slug     TEXT PRIMARY KEY,
    canonical_slug TEXT NOT NULL,
    folded_key     TEXT NOT NULL DEFAULT '',
    reason         TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    CONSTRAINT company_slug_aliases_reason_check CHECK (reason IN ('legal_form', 'spelling')),
    CONSTRAINT company_slug_aliases_not_self CHECK (alias_slug <> canonical_slug)
);
CREATE INDEX company_slug_aliases_canonical_idx ON company_slug_aliases (canonical_slug);
