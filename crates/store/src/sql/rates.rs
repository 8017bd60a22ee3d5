//! Rate-cell statements ([`RateCellRepo`](crate::RateCellRepo), see [`rates`](crate::rates)).
//! A take is one upsert: a new subject's cell starts one interval ahead of now; an existing
//! cell moves to `max(tat, now) + interval` only while that stays within a period of now
//! (the `WHERE` of `DO UPDATE`), so a refused take changes nothing and returns no row.
//! `excluded.tat_us` is `now + interval`, which spares restating the clock.

/// PostgreSQL: `$1` bucket, `$2` subject, `$3` interval, `$4` period (µs). One statement on
/// the server's clock: the time, the cell after a counted take (`NULL` when refused) and the
/// cell as the statement's snapshot saw it (for the refusal's wait).
pub(crate) const TAKE_POSTGRES: &str = "WITH clock AS ( \
         SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS now_us), \
     taken AS ( \
         INSERT INTO rate_cells AS c (bucket, subject, tat_us) \
         SELECT $1, $2, clock.now_us + $3 FROM clock \
         ON CONFLICT (bucket, subject) DO UPDATE \
             SET tat_us = GREATEST(c.tat_us + $3, excluded.tat_us) \
             WHERE GREATEST(c.tat_us + $3, excluded.tat_us) <= excluded.tat_us - $3 + $4 \
         RETURNING c.tat_us) \
     SELECT clock.now_us, (SELECT tat_us FROM taken) AS taken_us, \
            (SELECT tat_us FROM rate_cells WHERE bucket = $1 AND subject = $2) AS held_us \
     FROM clock";

/// SQLite: `$1` bucket, `$2` subject, `$3` interval, `$4` period, `$5` now (µs); the cell
/// after a counted take, no row when refused.
pub(crate) const TAKE_SQLITE: &str = "INSERT INTO rate_cells AS c (bucket, subject, tat_us) \
     VALUES ($1, $2, $5 + $3) \
     ON CONFLICT (bucket, subject) DO UPDATE \
         SET tat_us = MAX(c.tat_us + $3, excluded.tat_us) \
         WHERE MAX(c.tat_us + $3, excluded.tat_us) <= excluded.tat_us - $3 + $4 \
     RETURNING tat_us";

/// `$1` bucket, `$2` subject: the stored cell.
pub(crate) const HELD: &str = "SELECT tat_us FROM rate_cells WHERE bucket = $1 AND subject = $2";

/// PostgreSQL: drops the cells whose time has passed on the server's clock.
pub(crate) const SWEEP_POSTGRES: &str = "DELETE FROM rate_cells \
     WHERE tat_us < (extract(epoch FROM clock_timestamp()) * 1000000)::bigint";

/// SQLite: `$1` now (µs): drops the cells whose time has passed.
pub(crate) const SWEEP_SQLITE: &str = "DELETE FROM rate_cells WHERE tat_us < $1";
