-- Descriptions compressed with lz4 where the server has it (PostgreSQL built --with-lz4, as
-- Debian's packages and the official images are), issue 18's ingest speed: pglz compressing
-- each new description was about a tenth of a first crawl's CPU (the server's and ours
-- together). Rows written before keep pglz until rewritten; both read back alike. A server
-- without lz4 keeps pglz. SQLite has no counterpart.
DO $$
BEGIN
    ALTER TABLE jobs ALTER COLUMN description SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available: descriptions stay pglz-compressed';
END
$$;
