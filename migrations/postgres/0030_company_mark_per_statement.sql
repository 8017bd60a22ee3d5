-- Inserted jobs mark their companies once per statement (issue 18, ingest speed). The row
-- trigger of migration 0025 ran a PL/pgSQL call and one `company_refresh` insert (a heap row
-- and two index entries) for every inserted job: a first crawl's batch of 150 postings of one
-- company appended 150 identical marks, about a sixth of the batch upsert's time. A statement
-- trigger reads the statement's inserted rows (its transition table) and appends each of their
-- companies once. An `INSERT … ON CONFLICT DO UPDATE` lists only the rows it inserted there;
-- the rows it updated still go through the update trigger. Deletes keep their row trigger.
-- SQLite has no statement triggers and keeps one mark per row (migrations/sqlite/0025); a
-- refresh reads each slug once whatever the number of its marks.
DROP TRIGGER jobs_company_insert_delete ON jobs;

CREATE TRIGGER jobs_company_delete AFTER DELETE ON jobs
    FOR EACH ROW EXECUTE FUNCTION jobs_company_mark();

CREATE FUNCTION jobs_company_mark_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO company_refresh (slug)
        SELECT DISTINCT company_slug FROM inserted WHERE company_slug <> '';
    RETURN NULL;
END
$$;

CREATE TRIGGER jobs_company_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION jobs_company_mark_inserted();
