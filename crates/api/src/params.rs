//! Query-string parsing for list endpoints. Parameters are parsed by hand from the raw query so
//! a malformed value gets a 400 that names the parameter (axum's `Query` rejection does not).

use freehire_store::ListPage;

use crate::ApiError;

/// `limit` and `offset` of a generic list: `limit` defaults to 20 and is clamped to 1..=100;
/// `offset` must be a non-negative integer and is clamped to the int32 range.
pub fn list_page(raw_query: Option<&str>) -> Result<ListPage, ApiError> {
    let mut limit: Option<i64> = None;
    let mut offset: Option<i64> = None;
    for (name, value) in url::form_urlencoded::parse(raw_query.unwrap_or_default().as_bytes()) {
        match name.as_ref() {
            "limit" if limit.is_none() => limit = Some(integer("limit", &value)?),
            "offset" if offset.is_none() => {
                let v = integer("offset", &value)?;
                if v < 0 {
                    return Err(ApiError::bad_param("offset", &value, "must be 0 or more"));
                }
                offset = Some(v);
            }
            _ => {}
        }
    }
    let limit = limit.map_or(ListPage::DEFAULT_LIMIT, |l| {
        u32::try_from(l.clamp(1, i64::from(ListPage::MAX_LIMIT))).unwrap_or(ListPage::DEFAULT_LIMIT)
    });
    let offset = offset.map_or(0, |o| u64::try_from(o).unwrap_or_default());
    Ok(ListPage::new(limit, offset))
}

fn integer(name: &str, value: &str) -> Result<i64, ApiError> {
    value.trim().parse::<i64>().map_err(|_| ApiError::bad_param(name, value, "must be an integer"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_clamps() {
        let p = list_page(None).unwrap();
        assert_eq!((p.limit(), p.offset()), (20, 0));
        let p = list_page(Some("limit=500&offset=40")).unwrap();
        assert_eq!((p.limit(), p.offset()), (100, 40));
        let p = list_page(Some("limit=0")).unwrap();
        assert_eq!(p.limit(), 1);
        let p = list_page(Some("limit=-5")).unwrap();
        assert_eq!(p.limit(), 1);
        let p = list_page(Some("offset=99999999999")).unwrap();
        assert_eq!(p.offset(), i32::MAX as u64);
        let p = list_page(Some("q=rust&limit=5")).unwrap();
        assert_eq!(p.limit(), 5);
    }

    #[test]
    fn malformed_values_name_the_parameter() {
        let e = list_page(Some("limit=ten")).unwrap_err().to_string();
        assert_eq!(e, r#"invalid limit "ten": must be an integer"#);
        let e = list_page(Some("offset=-1")).unwrap_err().to_string();
        assert_eq!(e, r#"invalid offset "-1": must be 0 or more"#);
        let e = list_page(Some("offset=1.5")).unwrap_err().to_string();
        assert!(e.contains("offset"));
    }
}
