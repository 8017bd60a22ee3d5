-- The class of a board's last failure (issue 18): dns, connect, tls, timeout, network,
-- http_status, gone, block_page, parse, too_large, refused, incomplete, invalid_board, storage
-- or other, so `boards list`, `GET /status` and the status page say what kind of failure it
-- was beside its message. Rows written before this migration have none.
ALTER TABLE board_health ADD COLUMN last_error_class text;
