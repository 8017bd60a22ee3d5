-- What each source stated in structured fields (work mode, countries, employment type, …), so
-- facets can be derived again after a dictionary change without losing them.
ALTER TABLE jobs ADD COLUMN structured jsonb NOT NULL DEFAULT '{}';
