//! Posted dates (reference §3.11): the adapter's raw value arrives as RFC 3339, a plain date,
//! epoch seconds or epoch milliseconds (RFC 2822, as in RSS feeds, is accepted too). The
//! served date is [`effective_posted_at`] (re-exported from the domain).

use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};

pub use freehire_domain::effective_posted_at;

/// Epoch values at or above this are milliseconds (year 5138 in seconds).
const MILLIS_FROM: i64 = 100_000_000_000;

/// Parses a raw posted-at value; anything unrecognised is `None`.
pub fn parse_posted_at(raw: &str) -> Option<DateTime<Utc>> {
    let s = raw.trim();
    if s.is_empty() {
        return None;
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        let n: i64 = s.parse().ok()?;
        return if n >= MILLIS_FROM {
            Utc.timestamp_millis_opt(n).single()
        } else {
            Utc.timestamp_opt(n, 0).single()
        };
    }
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&Utc));
    }
    if let Ok(t) = DateTime::parse_from_rfc2822(s) {
        return Some(t.with_timezone(&Utc));
    }
    for fmt in
        ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"]
    {
        if let Ok(t) = NaiveDateTime::parse_from_str(s, fmt) {
            return Some(t.and_utc());
        }
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    // scenario: Epoch milliseconds
    #[test]
    fn posted_at_table() {
        let at = |y, mo, d, h, mi, s| Utc.with_ymd_and_hms(y, mo, d, h, mi, s).single();
        let cases = [
            ("2026-07-16T11:55:32-04:00", at(2026, 7, 16, 15, 55, 32)),
            ("2026-07-16T15:55:32Z", at(2026, 7, 16, 15, 55, 32)),
            ("2026-07-16T15:55:32.123", Utc.timestamp_millis_opt(1_784_217_332_123).single()),
            ("2026-07-16", at(2026, 7, 16, 0, 0, 0)),
            ("1784217332", at(2026, 7, 16, 15, 55, 32)),
            ("1784217332000", at(2026, 7, 16, 15, 55, 32)),
            ("Wed, 19 Aug 2026 23:10:38 GMT", at(2026, 8, 19, 23, 10, 38)),
            ("yesterday", None),
            ("", None),
            ("2026-13-01", None),
        ];
        for (raw, want) in cases {
            assert_eq!(parse_posted_at(raw), want, "{raw:?}");
        }
    }
}
