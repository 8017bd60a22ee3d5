//! Search pagination (reference §5.6, §15.3): `limit` defaults to 20 and is clamped to 1..=100,
//! `offset` is 0 or more and clamped to the int32 range, and `offset + limit` must stay within
//! the first 10,000 hits. A blank `limit` or `offset` is the same as none; an error about the
//! offset quotes it as sent.

use crate::SearchError;

/// `limit` when none is given (our choice, reference §17).
pub const DEFAULT_LIMIT: u32 = 20;
/// The largest `limit`; larger values are clamped, not rejected.
pub const MAX_LIMIT: u32 = 100;
/// The deepest hit a page may reach: `offset + limit ≤ MAX_WINDOW`.
pub const MAX_WINDOW: u32 = 10_000;

/// One page of hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Hits per page, 1..=100.
    pub limit: u32,
    /// Hits skipped; `offset + limit ≤ 10,000`.
    pub offset: u32,
}

impl Default for Page {
    fn default() -> Self {
        Self { limit: DEFAULT_LIMIT, offset: 0 }
    }
}

impl Page {
    /// Builds a page from the raw `limit` and `offset` values (the first of each, if any).
    pub fn parse(limit: Option<&str>, offset: Option<&str>) -> Result<Self, SearchError> {
        let (limit, offset) =
            (limit.filter(|v| !v.trim().is_empty()), offset.filter(|v| !v.trim().is_empty()));
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(raw) => {
                let n = integer("limit", raw)?;
                u32::try_from(n.clamp(1, i64::from(MAX_LIMIT))).unwrap_or(DEFAULT_LIMIT)
            }
        };
        let offset_value = match offset {
            None => 0,
            Some(raw) => {
                let n = integer("offset", raw)?;
                if n < 0 {
                    return Err(SearchError::invalid("offset", raw, "must be 0 or more"));
                }
                u32::try_from(n.min(i64::from(i32::MAX))).unwrap_or(0)
            }
        };
        if u64::from(offset_value) + u64::from(limit) > u64::from(MAX_WINDOW) {
            let sent = offset.map(str::trim).unwrap_or("0").to_owned();
            return Err(SearchError::WindowTooDeep { offset: sent, limit });
        }
        let offset = offset_value;
        Ok(Self { limit, offset })
    }
}

/// A decimal integer (surrounding spaces allowed); anything else is an error naming `param`.
/// Values beyond `i64` saturate, so a huge `limit` is still clamped rather than refused.
fn integer(param: &str, raw: &str) -> Result<i64, SearchError> {
    let t = raw.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SearchError::invalid(param, raw, "must be an integer"));
    }
    Ok(t.parse::<i64>().unwrap_or(if t.starts_with('-') { i64::MIN } else { i64::MAX }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_clamps_and_window() {
        assert_eq!(Page::parse(None, None), Ok(Page { limit: 20, offset: 0 }));
        assert_eq!(Page::parse(Some("500"), None).map(|p| p.limit), Ok(100));
        assert_eq!(Page::parse(Some("0"), None).map(|p| p.limit), Ok(1));
        assert_eq!(Page::parse(Some("-3"), None).map(|p| p.limit), Ok(1));
        assert_eq!(Page::parse(Some("99999999999999999999999"), None).map(|p| p.limit), Ok(100));
        assert_eq!(Page::parse(Some("20"), Some("9980")), Ok(Page { limit: 20, offset: 9980 }));
        assert_eq!(
            Page::parse(Some("20"), Some("9990")),
            Err(SearchError::WindowTooDeep { offset: "9990".into(), limit: 20 })
        );
        assert_eq!(
            Page::parse(None, Some(" 99999999999")),
            Err(SearchError::WindowTooDeep { offset: "99999999999".into(), limit: 20 })
        );
        assert_eq!(Page::parse(Some(" "), Some("")), Ok(Page::default()), "blank is absent");
    }

    #[test]
    fn malformed_values_name_the_parameter() {
        let e = Page::parse(Some("ten"), None).unwrap_err();
        assert_eq!(e.to_string(), r#"invalid limit "ten": must be an integer"#);
        let e = Page::parse(None, Some("-1")).unwrap_err();
        assert_eq!(e.to_string(), r#"invalid offset "-1": must be 0 or more"#);
        assert_eq!(Page::parse(None, Some("1.5")).unwrap_err().param(), "offset");
        assert_eq!(Page::parse(Some("1e3"), None).unwrap_err().param(), "limit");
        let e = Page::parse(Some("20"), Some("9990")).unwrap_err();
        assert_eq!(e.to_string(), "offset + limit must be at most 10000 (offset 9990 + limit 20)");
        assert_eq!(e.param(), "offset");
    }
}
