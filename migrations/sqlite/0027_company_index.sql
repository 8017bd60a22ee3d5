-- The companies index's outbox (issue 18 part 5; reference search-ingest §5.4): every write
-- of the companies table (a refresh's upsert or delete, by the drain or by a read that
-- refreshes first) appends the slug to `company_index` by trigger, so the drain that keeps the
-- search engine's companies index in step sees every change, whichever path made it. The
-- drain reads the oldest marks, writes each company as the table now holds it (or removes it),
-- then deletes exactly the marks it read. Same as migrations/postgres/0027.
CREATE TABLE company_index (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    slug TEXT    NOT NULL
);

CREATE TRIGGER companies_index_insert AFTER INSERT ON companies
BEGIN
    INSERT INTO company_index (slug) VALUES (NEW.slug);
END;

CREATE TRIGGER companies_index_update AFTER UPDATE ON companies
BEGIN
    INSERT INTO company_index (slug) VALUES (NEW.slug);
END;

CREATE TRIGGER companies_index_delete AFTER DELETE ON companies
BEGIN
    INSERT INTO company_index (slug) VALUES (OLD.slug);
END;

-- Every company as it stands goes to the index once.
INSERT INTO company_index (slug) SELECT slug FROM companies ORDER BY slug;
