-- What each source stated in structured fields, so facets can be derived again after a
-- dictionary change without losing them. JSON text. Same as migrations/postgres/0003.
ALTER TABLE jobs ADD COLUMN structured TEXT NOT NULL DEFAULT '{}';
