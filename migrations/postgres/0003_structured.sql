-- What each source stated in structured fields (work mode, countries, employment type, …), so
-- facets can be derived again after a dictionary change without losing them.
ALTER TABLE jobs ADD COLUMN structured jsonb NOT NULL DEFAULT '{}';
-- SHA-256 of what the source said before derivation: a re-crawl that sees the same value
-- skips facet derivation and only marks the job seen.
ALTER TABLE jobs ADD COLUMN source_hash text NOT NULL DEFAULT '';
