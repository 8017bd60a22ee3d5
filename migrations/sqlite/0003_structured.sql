-- What each source stated in structured fields, so facets can be derived again after a
-- dictionary change without losing them. JSON text. Same as migrations/postgres/0003.
ALTER TABLE jobs ADD COLUMN structured TEXT NOT NULL DEFAULT '{}';
-- SHA-256 of what the source said before derivation: a re-crawl that sees the same value
-- skips facet derivation and only marks the job seen.
ALTER TABLE jobs ADD COLUMN source_hash TEXT NOT NULL DEFAULT '';
