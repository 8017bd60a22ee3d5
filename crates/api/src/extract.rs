//! Typed extractors: each parses its part of the request at the edge and answers the error
//! table's 400 naming the parameter, so handlers receive checked values.
//!
//! Query parameters are parsed from the raw query (not through axum's `Query`, whose
//! rejection does not name the parameter); a path slug is parsed by its domain type, and a
//! malformed one answers the same `invalid_parameter` (`param: "slug"`) on every route.
//!
//! Each extractor also documents what it reads ([`IntoParams`], for the OpenAPI document): the
//! search grammar's parameters are generated from `freehire_search`'s vocabulary (every
//! [`Facet`] with its `_exclude` and `_mode` forms, [`SCALAR_PARAMS`], the endpoint's own
//! parameters), so a facet or a value added there is documented without an edit here.

use axum::{
    extract::{FromRequestParts, Path},
    http::request::Parts,
};
use freehire_app::catalogue::MAX_CITIES;
use freehire_app::posting_url::PostingUrl;
use freehire_app::suggest::{DEFAULT_SUGGESTIONS, MAX_SUGGESTIONS};
use freehire_domain::{CompanySlug, CountryCode, DomainError, PublicSlug};
use freehire_search::{
    AgentSearchRequest, DEFAULT_LIMIT, Endpoint, Facet, FacetsRequest, JobQuery, MAX_LIMIT,
    MAX_Q_BYTES, MAX_Q_WORDS, MAX_VALUE_CHARS, MAX_VALUES, MAX_WINDOW, MAX_WITHIN_DAYS,
    MIN_WITHIN_DAYS, Order, QField, SCALAR_PARAMS, SortField,
};
use freehire_store::{CompanyFilter, ListPage};
use utoipa::{
    IntoParams,
    openapi::{
        ObjectBuilder, Required, Type,
        path::{Parameter, ParameterBuilder, ParameterIn, ParameterStyle},
        schema::{ArrayBuilder, Schema},
    },
};

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

/// The filter of `POST /market/coverage`: the search grammar's parameters, checked as search
/// checks them (a bad value is a 400 naming it), kept as sent for the coverage to narrow.
#[derive(Debug, Clone)]
pub struct MarketQuery(pub Vec<(String, String)>);

/// The search grammar of `GET /agent/jobs/search`, with `description_format`.
#[derive(Debug, Clone)]
pub struct AgentQuery(pub AgentSearchRequest);

/// The facets grammar of `GET /jobs/facets`.
#[derive(Debug, Clone)]
pub struct FacetsQuery(pub FacetsRequest);

from_query!(ListQuery, |p: &[(String, String)]| list_page(p));
from_query!(CompanyQuery, |p: &[(String, String)]| {
    freehire_app::company_filter::parse(p)
        .map_err(|e| ApiError::bad_param(e.param, &e.value, &e.rule))
});
from_query!(SearchQuery, |p: &[(String, String)]| JobQuery::parse(p, Endpoint::Search));
from_query!(MarketQuery, |p: &[(String, String)]| {
    JobQuery::parse(p, Endpoint::Search).map(|_| p.to_vec())
});
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
    /// What the segment addresses (the parameter's description).
    const DESCRIPTION: &'static str;
    /// The shape [`Self::parse_slug`] accepts, as an ECMA-262 pattern.
    const PATTERN: &'static str;
    /// The longest segment accepted, if bounded.
    const MAX_LEN: Option<usize> = None;

    /// Parses the segment; the error's reason is answered.
    fn parse_slug(raw: &str) -> Result<Self, DomainError>;
}

impl PathSlug for PublicSlug {
    const DESCRIPTION: &'static str = "The job's public slug: lowercase letters, digits and \
        single hyphens, ending in an 8-character code (at most 512 characters).";
    const PATTERN: &'static str = "^([a-z0-9]+-)*[a-z0-9]{8}$";
    const MAX_LEN: Option<usize> = Some(PublicSlug::MAX_LEN);

    fn parse_slug(raw: &str) -> Result<Self, DomainError> {
        PublicSlug::parse(raw)
    }
}

impl PathSlug for CompanySlug {
    const DESCRIPTION: &'static str =
        "The company's slug: lowercase letters, digits and single hyphens.";
    const PATTERN: &'static str = "^[a-z0-9]+(-[a-z0-9]+)*$";

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

// OpenAPI parameters.

impl<T: PathSlug> IntoParams for Slug<T> {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(T::PATTERN))
            .max_length(T::MAX_LEN);
        vec![
            ParameterBuilder::new()
                .name("slug")
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .description(Some(T::DESCRIPTION))
                .schema(Some(schema))
                .build(),
        ]
    }
}

impl IntoParams for ListQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            query(
                "limit",
                &format!(
                    "Items per page: {} when absent, clamped to 1..={} (never refused).",
                    ListPage::DEFAULT_LIMIT,
                    ListPage::MAX_LIMIT
                ),
                int_schema(),
            ),
            query("offset", "Items skipped (0 or more; clamped to 2^31 - 1).", non_negative()),
        ]
    }
}

impl IntoParams for CompanyQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let list = |name: &str, what: &str| {
            query(
                name,
                &format!(
                    "Keeps the companies with open jobs {what} (repeated or comma-separated: \
                     any of them; facets combine with AND)."
                ),
                ObjectBuilder::new().schema_type(Type::String),
            )
        };
        vec![
            query(
                "q",
                "Keeps the companies whose slug contains the slugified text.",
                ObjectBuilder::new().schema_type(Type::String),
            ),
            list("regions", "in these regions (`eu`, `north_america`, …)"),
            list("countries", "in these countries (ISO 3166 alpha-2, lowercase)"),
            list("work_mode", "in these work modes (`remote`, `hybrid`, `onsite`)"),
            list("source", "read from these ATS platforms"),
            list("skills", "listing these skills among the company's top skills"),
        ]
    }
}

impl IntoParams for SearchQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        grammar(Endpoint::Search)
    }
}

impl IntoParams for MarketQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        grammar(Endpoint::Search)
    }
}

impl IntoParams for AgentQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        grammar(Endpoint::AgentSearch)
    }
}

impl IntoParams for FacetsQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        grammar(Endpoint::Facets)
    }
}

/// `url` of `GET /jobs/find`: the posting's address, canonicalised ([`PostingUrl`]).
#[derive(Debug, Clone)]
pub struct FindQuery(pub PostingUrl);

/// `q`, `country` and `limit` of `GET /geo/cities`.
#[derive(Debug, Clone)]
pub struct CitiesQuery(pub CityLookup);

/// What `GET /geo/cities` looks for.
#[derive(Debug, Clone)]
pub struct CityLookup {
    /// The typed text (blank finds nothing).
    pub q: String,
    /// Only cities of this country.
    pub country: Option<CountryCode>,
    /// How many at most (1..=[`MAX_CITIES`], default [`CITIES_DEFAULT`]).
    pub limit: usize,
}

/// Cities `GET /geo/cities` answers when `limit` is absent.
pub const CITIES_DEFAULT: usize = 10;

/// `q` and `limit` of `GET /suggest`.
#[derive(Debug, Clone)]
pub struct SuggestQuery(pub SuggestLookup);

/// What `GET /suggest` completes.
#[derive(Debug, Clone)]
pub struct SuggestLookup {
    /// The typed text (blank completes nothing).
    pub q: String,
    /// How many at most (clamped to 1..=[`MAX_SUGGESTIONS`]).
    pub limit: usize,
}

/// `page` of a sitemap: absent for the sitemap index, else a page from 1.
#[derive(Debug, Clone, Copy)]
pub struct SitemapQuery(pub Option<u32>);

from_query!(FindQuery, |p: &[(String, String)]| {
    let url = p.iter().find(|(k, _)| k == "url").map(|(_, v)| v.as_str());
    match url {
        Some(url) => Ok(PostingUrl::parse(url)?),
        None => Err(ApiError::bad_param("url", "", "is required: the posting's address")),
    }
});
from_query!(CitiesQuery, |p: &[(String, String)]| -> Result<CityLookup, ApiError> {
    let first = |name: &str| p.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let country = match first("country").filter(|c| !c.trim().is_empty()) {
        Some(raw) => Some(CountryCode::parse(raw.trim()).map_err(|_| {
            ApiError::bad_param("country", raw, "must be an ISO 3166-1 alpha-2 code such as \"de\"")
        })?),
        None => None,
    };
    let limit = match first("limit") {
        Some(raw) => usize::try_from(integer("limit", raw)?.clamp(1, MAX_CITIES as i64))
            .unwrap_or(CITIES_DEFAULT),
        None => CITIES_DEFAULT,
    };
    Ok(CityLookup { q: first("q").unwrap_or_default().to_owned(), country, limit })
});
from_query!(SuggestQuery, |p: &[(String, String)]| -> Result<SuggestLookup, ApiError> {
    let first = |name: &str| p.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let limit = match first("limit") {
        Some(raw) => usize::try_from(integer("limit", raw)?.clamp(1, MAX_SUGGESTIONS as i64))
            .unwrap_or(DEFAULT_SUGGESTIONS),
        None => DEFAULT_SUGGESTIONS,
    };
    Ok(SuggestLookup { q: first("q").unwrap_or_default().to_owned(), limit })
});
from_query!(SitemapQuery, |p: &[(String, String)]| -> Result<Option<u32>, ApiError> {
    let Some((_, raw)) = p.iter().find(|(k, _)| k == "page") else {
        return Ok(None);
    };
    let page = integer("page", raw)?;
    if page < 1 {
        return Err(ApiError::bad_param("page", raw, "must be 1 or more"));
    }
    Ok(Some(u32::try_from(page).unwrap_or(u32::MAX)))
});

impl IntoParams for FindQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            optional(
                "url",
                "The posting's address as pasted (http or https; tracking parameters, the \
                 fragment, `www.` and a trailing slash do not matter).",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .max_length(Some(freehire_app::posting_url::MAX_URL_LEN)),
            )
            .required(Required::True)
            .build(),
        ]
    }
}

impl IntoParams for CitiesQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            query(
                "q",
                "The typed text: cities whose name, or a word of it, starts with it (accents \
                 and case ignored). Blank finds nothing.",
                ObjectBuilder::new().schema_type(Type::String),
            ),
            query(
                "country",
                "Only cities of this country (ISO 3166-1 alpha-2, any case).",
                ObjectBuilder::new().schema_type(Type::String).pattern(Some("^[A-Za-z]{2}$")),
            ),
            query(
                "limit",
                &format!(
                    "Cities at most: {CITIES_DEFAULT} when absent, clamped to 1..={MAX_CITIES}."
                ),
                int_schema(),
            ),
        ]
    }
}

impl IntoParams for SuggestQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            query(
                "q",
                "The typed text: titles, companies, skills and categories starting with it, or \
                 with a word that does (accents and case ignored). Blank completes nothing.",
                ObjectBuilder::new().schema_type(Type::String),
            ),
            query(
                "limit",
                &format!(
                    "Suggestions at most: {DEFAULT_SUGGESTIONS} when absent, clamped to \
                     1..={MAX_SUGGESTIONS}."
                ),
                int_schema(),
            ),
        ]
    }
}

impl IntoParams for SitemapQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![query(
            "page",
            "A page of the sitemap (from 1); absent for the sitemap index listing every page.",
            int_schema().minimum(Some(1)),
        )]
    }
}

/// An optional query parameter.
fn query(name: &str, description: &str, schema: impl Into<Schema>) -> Parameter {
    optional(name, description, schema).build()
}

fn optional(name: &str, description: &str, schema: impl Into<Schema>) -> ParameterBuilder {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(schema.into()))
}

/// An optional query parameter that may be repeated (`a=x&a=y`) or comma-joined (`a=x,y`).
fn repeated(name: &str, description: &str, item: impl Into<Schema>) -> Parameter {
    let item = utoipa::openapi::RefOr::T(item.into());
    let list = ArrayBuilder::new().items(item).max_items(Some(MAX_VALUES));
    optional(name, description, list).style(Some(ParameterStyle::Form)).explode(Some(true)).build()
}

fn int_schema() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Integer)
}

fn non_negative() -> ObjectBuilder {
    int_schema().minimum(Some(0))
}

fn one_of<'a>(values: impl IntoIterator<Item = &'a str>) -> ObjectBuilder {
    let values: Vec<String> = values.into_iter().map(str::to_owned).collect();
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values))
}

/// The parameters of the search grammar on `endpoint`: its own, then every facet (with its
/// `_exclude` and `_mode` forms), then the scalar bounds.
fn grammar(endpoint: Endpoint) -> Vec<Parameter> {
    let mut out: Vec<Parameter> = endpoint.own_params().iter().filter_map(|p| own(p)).collect();
    for facet in Facet::ALL {
        let item = facet_value(*facet);
        let name = facet.param();
        out.push(repeated(
            name,
            &format!(
                "Jobs with any of these `{name}` values (all of them with `{name}_mode=and`)."
            ),
            item.clone(),
        ));
        out.push(repeated(
            &format!("{name}_exclude"),
            &format!("Jobs with none of these `{name}` values."),
            item,
        ));
        let (modes, rule) = if facet.is_geography() {
            (&["or"][..], "regions, countries and cities always combine with OR")
        } else {
            (&["or", "and"][..], "`and`: every value")
        };
        out.push(query(
            &format!("{name}_mode"),
            &format!("How the `{name}` values combine: `or` (the default); {rule}."),
            one_of(modes.iter().copied()),
        ));
    }
    out.extend(SCALAR_PARAMS.iter().filter_map(|p| scalar(p)));
    out
}

/// One value of `facet`: its closed vocabulary, or the shape its parser checks.
fn facet_value(facet: Facet) -> Schema {
    let text = ObjectBuilder::new().schema_type(Type::String).max_length(Some(MAX_VALUE_CHARS));
    let schema = match (facet.closed_values(), facet) {
        (Some(values), _) => one_of(values),
        (None, Facet::Source) => text.pattern(Some("^[a-z][a-z0-9_-]{0,39}$")),
        (None, Facet::CompanySlug) => text.pattern(Some(CompanySlug::PATTERN)),
        (None, Facet::Countries) => text.pattern(Some("^[A-Za-z]{2}$")),
        (None, Facet::SalaryCurrency) => text.pattern(Some("^[A-Za-z]{3}$")),
        (None, _) => text,
    };
    schema.into()
}

/// An endpoint's own parameter (besides the filter grammar); `None` for a name this table
/// does not know (a unit test keeps it complete).
fn own(name: &str) -> Option<Parameter> {
    let (description, schema): (String, Schema) = match name {
        "q" => (
            format!(
                "Text query, at most {MAX_Q_BYTES} bytes and {MAX_Q_WORDS} words; \
                 relevance-ranked unless `sort` is given."
            ),
            ObjectBuilder::new().schema_type(Type::String).max_length(Some(MAX_Q_BYTES)).into(),
        ),
        "q_fields" => {
            let fields = one_of(QField::ALL.iter().map(|f| f.as_str()));
            return Some(repeated(
                name,
                "Fields the text query is scoped to (all when absent).",
                fields,
            ));
        }
        "facets" => {
            let names = Facet::ALL.iter().map(|f| f.param());
            return Some(repeated(
                name,
                "The distributions to count (every facet but `company_slug` when absent; \
                 `company_slug` when named); not together with `disjunctive=true`.",
                one_of(names),
            ));
        }
        "sort" => (
            "Sort field; when absent, relevance for a text query, else `posted_at`.".into(),
            one_of(SortField::ALL.iter().map(|f| f.as_str())).into(),
        ),
        "order" => (
            "Sort direction (`desc` when absent).".into(),
            one_of([Order::Asc, Order::Desc].map(Order::as_str)).into(),
        ),
        "limit" => (
            format!(
                "Hits per page: {DEFAULT_LIMIT} when absent, clamped to 1..={MAX_LIMIT} \
                 (never refused)."
            ),
            int_schema().into(),
        ),
        "offset" => (
            format!("Hits skipped; `offset + limit` must be at most {MAX_WINDOW}."),
            non_negative().maximum(Some(MAX_WINDOW - 1)).into(),
        ),
        "description_format" => (
            "How each job's full description is rendered (`html` when absent).".into(),
            one_of(DESCRIPTION_FORMATS).into(),
        ),
        "disjunctive" => (
            "Count each facet under the filter without its own selection.".into(),
            ObjectBuilder::new().schema_type(Type::Boolean).into(),
        ),
        _ => return None,
    };
    Some(query(name, &description, schema))
}

/// The `description_format` values ([`freehire_search::DescriptionFormat::parse`]).
const DESCRIPTION_FORMATS: [&str; 3] = ["html", "text", "markdown"];

/// A scalar bound of the grammar; `None` for a name this table does not know (a unit test
/// keeps it complete).
fn scalar(name: &str) -> Option<Parameter> {
    let int64 = || {
        int_schema().format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
            utoipa::openapi::KnownFormat::Int64,
        )))
    };
    let days = || int_schema().minimum(Some(MIN_WITHIN_DAYS)).maximum(Some(MAX_WITHIN_DAYS));
    let (description, schema): (&str, Schema) = match name {
        "visa_sponsorship" => (
            "Jobs that do (`true`) or do not (`false`) sponsor a visa.",
            ObjectBuilder::new().schema_type(Type::Boolean).into(),
        ),
        "salary_min" => {
            ("Jobs whose salary minimum is at least this (any currency).", int64().into())
        }
        "salary_max" => {
            ("Jobs whose salary maximum is at most this (any currency).", int64().into())
        }
        "experience_years_min" => {
            ("Jobs asking at least this many years of experience.", int64().into())
        }
        "experience_years_max" => {
            ("Jobs asking at most this many years of experience.", int64().minimum(Some(0)).into())
        }
        "posted_within_days" => ("Jobs posted within this many days.", days().into()),
        "open_within_days" => ("Jobs first seen within this many days.", days().into()),
        _ => return None,
    };
    Some(query(name, description, schema))
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
    fn the_grammar_is_documented_whole() {
        for endpoint in [Endpoint::Search, Endpoint::AgentSearch, Endpoint::Facets] {
            for name in endpoint.own_params() {
                assert!(own(name).is_some(), "{endpoint:?}: {name} undocumented");
            }
            let names: Vec<String> = grammar(endpoint).into_iter().map(|p| p.name).collect();
            for name in &names {
                assert!(endpoint.knows(name), "{endpoint:?} documents unknown {name}");
            }
            let mut unique = names.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), names.len(), "{endpoint:?}: a name twice");
            let expected = endpoint.own_params().len() + 3 * Facet::ALL.len() + SCALAR_PARAMS.len();
            assert_eq!(names.len(), expected, "{endpoint:?}");
        }
        for name in SCALAR_PARAMS {
            assert!(scalar(name).is_some(), "{name} undocumented");
        }
    }

    #[test]
    fn documented_description_formats_are_the_accepted_ones() {
        for format in DESCRIPTION_FORMATS {
            assert!(freehire_search::DescriptionFormat::parse(Some(format)).is_ok(), "{format}");
        }
        let refused = freehire_search::DescriptionFormat::parse(Some("pdf")).unwrap_err();
        assert!(refused.to_string().ends_with(&DESCRIPTION_FORMATS.join(", ")), "{refused}");
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
