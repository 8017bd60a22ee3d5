//! Typed extractors: each parses its part of the request at the edge and answers the error
//! table's 400 naming the parameter, so handlers receive checked values.
//!
//! Query parameters are parsed from the raw query (not through axum's `Query`, whose
//! rejection does not name the parameter); a path slug is parsed by its domain type, and a
//! malformed one answers the same `invalid_parameter` (`param: "slug"`) on every route.

use axum::{
    extract::{FromRequestParts, Path},
    http::request::Parts,
};
use freehire_domain::{CompanySlug, DomainError, PublicSlug};
use freehire_search::{AgentSearchRequest, Endpoint, FacetsRequest, JobQuery};
use freehire_store::{CompanyFilter, ListPage};

use crate::ApiError;

/// The request's query parameters, decoded, in order.
fn params(parts: &Parts) -> Vec<(String, String)> {
    url::form_urlencoded::parse(parts.uri.query().unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

/// Implements [`FromRequestParts`] for a newtype over a value parsed from the query
/// parameters.
macro_rules! from_query {
    ($extractor:ident, $parse:expr) => {
        impl<S: Send + Sync> FromRequestParts<S> for $extractor {
            type Rejection = ApiError;

            async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
                let parse = $parse;
                Ok(Self(parse(&params(parts))?))
            }
        }
    };
}

/// `limit` and `offset` of a generic list: `limit` defaults to 20 and is clamped to 1..=100
/// (however large the integer, as search clamps it); `offset` must be a non-negative integer
/// and is clamped to the int32 range; a refused value is quoted as sent.
#[derive(Debug, Clone, Copy)]
pub struct ListQuery(pub ListPage);

/// `q` of the companies list: companies whose slug contains the slugified text.
#[derive(Debug, Clone)]
pub struct CompanyQuery(pub CompanyFilter);

/// The search grammar of `GET /jobs/search`.
#[derive(Debug, Clone)]
pub struct SearchQuery(pub JobQuery);

/// The search grammar of `GET /agent/jobs/search`, with `description_format`.
#[derive(Debug, Clone)]
pub struct AgentQuery(pub AgentSearchRequest);

/// The facets grammar of `GET /jobs/facets`.
#[derive(Debug, Clone)]
pub struct FacetsQuery(pub FacetsRequest);

from_query!(ListQuery, |p: &[(String, String)]| list_page(p));
from_query!(CompanyQuery, |p: &[(String, String)]| Ok::<_, ApiError>(CompanyFilter {
    q: p.iter().find(|(name, _)| name == "q").map(|(_, value)| value.clone()),
}));
from_query!(SearchQuery, |p: &[(String, String)]| JobQuery::parse(p, Endpoint::Search));
from_query!(AgentQuery, |p: &[(String, String)]| AgentSearchRequest::parse(p));
from_query!(FacetsQuery, |p: &[(String, String)]| FacetsRequest::parse(p));

fn list_page(params: &[(String, String)]) -> Result<ListPage, ApiError> {
    let first = |name: &str| params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let limit = first("limit").map(|v| integer("limit", v)).transpose()?;
    let offset = match first("offset") {
        Some(value) => {
            let v = integer("offset", value)?;
            if v < 0 {
                return Err(ApiError::bad_param("offset", value, "must be 0 or more"));
            }
            Some(v)
        }
        None => None,
    };
    let limit = limit.map_or(ListPage::DEFAULT_LIMIT, |l| {
        u32::try_from(l.clamp(1, i64::from(ListPage::MAX_LIMIT))).unwrap_or(ListPage::DEFAULT_LIMIT)
    });
    let offset = offset.map_or(0, |o| u64::try_from(o).unwrap_or_default());
    Ok(ListPage::new(limit, offset))
}

/// A decimal integer (surrounding spaces and a sign allowed), as search reads `limit` and
/// `offset`: values beyond `i64` saturate, so a huge `limit` is clamped rather than refused;
/// anything else is a 400 quoting the value sent.
fn integer(name: &str, value: &str) -> Result<i64, ApiError> {
    let t = value.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_param(name, value, "must be an integer"));
    }
    Ok(t.parse::<i64>().unwrap_or(if t.starts_with('-') { i64::MIN } else { i64::MAX }))
}

/// A slug type parsed from a path segment.
pub trait PathSlug: Sized {
    /// Parses the segment; the error's reason is answered.
    fn parse_slug(raw: &str) -> Result<Self, DomainError>;
}

impl PathSlug for PublicSlug {
    fn parse_slug(raw: &str) -> Result<Self, DomainError> {
        PublicSlug::parse(raw)
    }
}

impl PathSlug for CompanySlug {
    fn parse_slug(raw: &str) -> Result<Self, DomainError> {
        // The empty slug (jobs without a company) is no company's address.
        let slug = CompanySlug::parse(raw)?;
        if slug.as_str().is_empty() {
            return Err(DomainError::Invalid {
                field: "company_slug",
                value: String::new(),
                reason: "must be lowercase letters, digits and single hyphens",
            });
        }
        Ok(slug)
    }
}

/// The `{slug}` path segment as a `T`; a malformed one is a 400 naming `slug`.
#[derive(Debug, Clone)]
pub struct Slug<T>(pub T);

impl<S: Send + Sync, T: PathSlug> FromRequestParts<S> for Slug<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::bad_param("slug", "", &e.body_text()))?;
        match T::parse_slug(&raw) {
            Ok(slug) => Ok(Self(slug)),
            Err(DomainError::Invalid { reason, .. }) => {
                Err(ApiError::bad_param("slug", &raw, reason))
            }
            Err(DomainError::UnknownValue { allowed, .. }) => {
                Err(ApiError::bad_param("slug", &raw, &format!("allowed values are {allowed}")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn page(query: &str) -> Result<ListPage, ApiError> {
        list_page(&url::form_urlencoded::parse(query.as_bytes()).into_owned().collect::<Vec<_>>())
    }

    #[test]
    fn defaults_and_clamps() {
        let p = page("").unwrap();
        assert_eq!((p.limit(), p.offset()), (20, 0));
        let p = page("limit=500&offset=40").unwrap();
        assert_eq!((p.limit(), p.offset()), (100, 40));
        let p = page("limit=0").unwrap();
        assert_eq!(p.limit(), 1);
        let p = page("limit=-5").unwrap();
        assert_eq!(p.limit(), 1);
        let p = page("offset=99999999999").unwrap();
        assert_eq!(p.offset(), i32::MAX as u64);
        let p = page("q=rust&limit=5").unwrap();
        assert_eq!(p.limit(), 5);
    }

    #[test]
    fn huge_integers_clamp_like_search() {
        let p = page("limit=99999999999999999999999&offset=99999999999999999999999").unwrap();
        assert_eq!((p.limit(), p.offset()), (100, i32::MAX as u64));
        assert_eq!(page("limit=-99999999999999999999999").unwrap().limit(), 1);
        assert_eq!(page("limit=%2B7").unwrap().limit(), 7);
        let e = page("offset=-99999999999999999999999").unwrap_err().to_string();
        assert_eq!(e, r#"invalid offset "-99999999999999999999999": must be 0 or more"#);
        let e = page("offset=1e3").unwrap_err().to_string();
        assert_eq!(e, r#"invalid offset "1e3": must be an integer"#);
    }

    #[test]
    fn malformed_values_name_the_parameter() {
        let e = page("limit=ten").unwrap_err().to_string();
        assert_eq!(e, r#"invalid limit "ten": must be an integer"#);
        let e = page("offset=-1").unwrap_err().to_string();
        assert_eq!(e, r#"invalid offset "-1": must be 0 or more"#);
        let e = page("offset=1.5").unwrap_err().to_string();
        assert!(e.contains("offset"));
        assert_eq!(page("offset=1.5").unwrap_err().param(), Some("offset"));
    }
}
