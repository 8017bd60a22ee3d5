-- The companies table (issue 18 part 5; reference search-ingest §4.1 `companies`, §5.4), kept
-- in step with the jobs by the pipeline: every change of a job that moves a company's
-- aggregate (inserted, deleted, closed or reopened, marked a duplicate, renamed, its facets
-- rewritten) appends the company's slug to `company_refresh` by trigger, on every write path
-- (ingest, sweeps, lifecycle, dedup, merges); the drain and the first read after a change
-- recompute those companies from their open, non-duplicate jobs. Same as
-- migrations/sqlite/0025.
CREATE TABLE companies (
    slug             text        PRIMARY KEY,
    name             text        NOT NULL,
    job_count        bigint      NOT NULL,
    latest_posted_at timestamptz NOT NULL,
    regions          text[]      NOT NULL DEFAULT '{}',
    countries        text[]      NOT NULL DEFAULT '{}',
    work_modes       text[]      NOT NULL DEFAULT '{}',
    top_skills       text[]      NOT NULL DEFAULT '{}',
    sources          text[]      NOT NULL DEFAULT '{}',
    refreshed_at     timestamptz NOT NULL
);
-- The default order: most open jobs first, then by slug.
CREATE INDEX companies_rank_idx ON companies (job_count DESC, slug COLLATE "C");

-- Slugs whose company row is stale, append-only: concurrent writers never wait on one
-- another's mark (an upsert of one counter row per slug would make two workers writing one
-- company's boards queue on it, or deadlock). A refresh deletes the marks it read, up to the
-- highest id it read.
CREATE TABLE company_refresh (
    id   bigserial PRIMARY KEY,
    slug text      NOT NULL
);
CREATE INDEX company_refresh_slug_idx ON company_refresh (slug, id);

CREATE FUNCTION jobs_company_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.company_slug <> '' THEN
        INSERT INTO company_refresh (slug) VALUES (OLD.company_slug);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.company_slug <> ''
       AND (TG_OP = 'INSERT' OR NEW.company_slug <> OLD.company_slug) THEN
        INSERT INTO company_refresh (slug) VALUES (NEW.company_slug);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER jobs_company_insert_delete AFTER INSERT OR DELETE ON jobs
    FOR EACH ROW EXECUTE FUNCTION jobs_company_mark();

CREATE TRIGGER jobs_company_update AFTER UPDATE ON jobs FOR EACH ROW
WHEN (OLD.company_slug IS DISTINCT FROM NEW.company_slug
   OR OLD.company IS DISTINCT FROM NEW.company
   OR (OLD.closed_at IS NULL) <> (NEW.closed_at IS NULL)
   OR OLD.duplicate_of IS DISTINCT FROM NEW.duplicate_of
   OR OLD.countries IS DISTINCT FROM NEW.countries
   OR OLD.regions IS DISTINCT FROM NEW.regions
   OR OLD.work_mode IS DISTINCT FROM NEW.work_mode
   OR OLD.skills IS DISTINCT FROM NEW.skills
   OR OLD.posted_at IS DISTINCT FROM NEW.posted_at
   OR OLD.source IS DISTINCT FROM NEW.source)
EXECUTE FUNCTION jobs_company_mark();

-- Every company of the catalogue as it stands is stale once.
INSERT INTO company_refresh (slug)
    SELECT DISTINCT company_slug FROM jobs WHERE company_slug <> '';

-- Merged company slugs (reference §4.1 `company_slug_aliases`, §5.5): a job whose company
-- slugifies to `alias_slug` is stored under `canonical_slug`, and `/companies/{alias_slug}`
-- answers 301. The one company table not derived from jobs; no foreign key.
CREATE TABLE company_slug_aliases (
    alias_slug     text        PRIMARY KEY,
    canonical_slug text        NOT NULL,
    folded_key     text        NOT NULL DEFAULT '',
    reason         text        NOT NULL,
    created_at     timestamptz NOT NULL,
    CONSTRAINT company_slug_aliases_reason_check CHECK (reason IN ('legal_form', 'spelling')),
    CONSTRAINT company_slug_aliases_not_self CHECK (alias_slug <> canonical_slug)
);
CREATE INDEX company_slug_aliases_canonical_idx ON company_slug_aliases (canonical_slug);
