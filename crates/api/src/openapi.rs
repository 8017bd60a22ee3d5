//! The OpenAPI 3.1 document of the API, generated from the handlers and the wire types, and
//! served at `GET /api/v1/openapi.json`.
//!
//! # Mounting is documenting
//!
//! The router is assembled in one place, `routes::api`, through
//! [`utoipa_axum::router::OpenApiRouter`]: every route is added with `.routes(routes!(handler))`,
//! which takes the method, the path and the operation from the handler's `#[utoipa::path]`
//! attribute and mounts the handler and its path item together. A handler without the
//! attribute does not compile there, and a path written in a `.route(…)` call beside it would
//! be the only way to answer a route the document lacks. Two tests in `tests/it/openapi.rs`
//! keep it so:
//!
//! - the source check: no file of `crates/api/src` (outside its `#[cfg(test)]` module) mounts
//!   with `.route(`, `.route_service(`, `.nest_service(` or `.merge(`, nor names
//!   `axum::routing`: only the assembly's `.routes(routes!(…))` and `.nest(…)` mount;
//! - the probe: every documented path is requested with every method through the real
//!   router; the (path, method) pairs answered by something other than the 404/405 fallbacks
//!   must be exactly the documented operations (plus `HEAD`, which axum answers for every
//!   `GET`).
//!
//! # Documenting a route (the pattern)
//!
//! ```text
//! #[utoipa::path(
//!     get, path = "/jobs/{slug}", tag = "jobs", operation_id = "get_job",
//!     params(Slug<PublicSlug>),
//!     responses(
//!         (status = 200, description = "The job.", body = Single<JobView>),
//!         Errors<(InvalidParameter, NotFound, Unavailable)>,
//!     ),
//! )]
//! pub async fn show(…) -> Result<Json<Single<JobView>>, ApiError> { … }
//! ```
//!
//! then `.routes(routes!(routes::jobs::show))` in `routes::api` (paths inside the
//! `/api/v1` nest are written without the prefix).
//!
//! - **Parameters** come from the typed extractors: each implements
//!   [`utoipa::IntoParams`] next to its parser in [`crate::extract`] (the search grammar's
//!   parameters are generated from `freehire_search`'s own vocabulary: every facet with its
//!   `_exclude` and `_mode` forms, the scalar bounds, the endpoint's own parameters).
//! - **Bodies** are the wire types of [`crate::view`] and the route modules, deriving
//!   [`utoipa::ToSchema`]; a type of a pure crate (`freehire-domain`, `freehire-search`)
//!   appears through `#[schema(value_type = …)]` or `schema_with` (see [`vocab`]), never by
//!   adding utoipa to that crate.
//! - **Errors**: [`Errors`]`<(code, …)>` lists the [`ErrorCode`]s the route itself can answer
//!   (one marker of [`code`] per code); it adds the codes every route can answer
//!   ([`EVERY_ROUTE`]: a malformed request, a URI or head too long, a body too large, a
//!   timeout, a panic) and groups them by status through [`ErrorCode::status`], the one
//!   table: one response per status, its body [`ErrorBody`] with `code` narrowed to that
//!   status's codes. 404 for an unknown path and 405 for a wrong method are the router's
//!   fallbacks, not operations: the document's description says so.
//! - **Authentication**: the document declares the security schemes `session` (the
//!   `freehire_session` cookie) and `api_key` (a bearer `fhk_…` key); a route that needs one
//!   says `security(("session" = []), ("api_key" = []))` in its attribute.

use std::{collections::BTreeMap, marker::PhantomData};

use utoipa::{
    IntoResponses, Modify, OpenApi,
    openapi::{
        AllOfBuilder, ContentBuilder, License, ObjectBuilder, RefOr, Response, ResponseBuilder,
        Type,
        schema::ArrayBuilder,
        security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme},
    },
};

use crate::{ErrorBody, ErrorCode};

/// The document's fixed parts: info, server, tags, the error schemas and the security
/// schemes. The paths are added by the router assembly (`routes::api`).
#[derive(OpenApi)]
#[openapi(
    info(
        title = "freehire",
        description = "The freehire job catalogue: open jobs from the source, faceted search, \
            companies.\n\nEvery answer is JSON. Errors are `{\"error\": message, \"code\": \
            code, \"param\"?: name}` (the `ErrorBody` schema); besides the statuses each \
            operation lists, an unknown path answers 404 `not_found` and a method a path does \
            not have 405 `method_not_allowed`.",
    ),
    servers((url = "/")),
    components(schemas(ErrorBody, ErrorCode)),
    modifiers(&Fixed),
    tags(
        (name = "health", description = "Liveness and readiness."),
        (name = "jobs", description = "The open catalogue, job by job."),
        (name = "search", description = "The search grammar over the search index."),
        (name = "companies", description = "Companies derived from the open jobs."),
        (name = "meta", description = "This document."),
        (name = "mcp", description = "The Model Context Protocol (streamable HTTP, stateless): \
            the public tools for anyone, your own with an API key."),
        (name = "operations", description = "The ingest fleet's health and the catalogue's \
            scale, for operators and status pages."),
        (name = "tracking", description = "Your saved, dismissed and applied jobs, their \
            stages, notes, timelines and follow-ups (cookie or API key)."),
        (name = "saved searches", description = "Saved searches, their subscriptions and shared boards."),
        (name = "notifications", description = "The notification history and settings."),
        (name = "cvs", description = "Your CVs: the base CV, edits through cvedit with \
            revisions and undo, and the PDF (cookie or an API key of either scope)."),
        (name = "experience", description = "Your experience bank: employments and \
            achievements with their provenance (cookie or an API key of either scope)."),
        (name = "assistant", description = "The assistant: sessions, transcripts, streamed \
            turns (`text/event-stream`) and your plan's usage (cookie or API key)."),
    ),
)]
pub struct ApiDoc;

/// What the derive cannot say: the version and licence from the manifest, and the security
/// schemes.
struct Fixed;

impl Modify for Fixed {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.info.version = env!("CARGO_PKG_VERSION").to_owned();
        openapi.info.license = Some(
            License::builder()
                .name("AGPL-3.0-or-later")
                .identifier(Some("AGPL-3.0-or-later"))
                .build(),
        );
        let components = openapi.components.get_or_insert_with(Default::default);
        let mut session = ApiKeyValue::new(SESSION_COOKIE);
        session.description = Some("The session cookie set by signing in.".to_owned());
        components.add_security_scheme("session", SecurityScheme::ApiKey(ApiKey::Cookie(session)));
        components.add_security_scheme(
            "api_key",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("fhk_…")
                    .description(Some("An API key: `Authorization: Bearer fhk_…`."))
                    .build(),
            ),
        );
    }
}

/// The name of the session cookie (security scheme `session`).
pub const SESSION_COOKIE: &str = "freehire_session";

/// The codes any route can answer, whatever it does: hyper's refusals (`bad_request`,
/// `uri_too_long`, `headers_too_large`), the body limit, the request deadline and a panic.
pub const EVERY_ROUTE: [ErrorCode; 6] = [
    ErrorCode::BadRequest,
    ErrorCode::UriTooLong,
    ErrorCode::HeadersTooLarge,
    ErrorCode::PayloadTooLarge,
    ErrorCode::Timeout,
    ErrorCode::Internal,
];

/// One error code as a type, for [`Errors`].
pub trait Code {
    /// The code.
    const CODE: ErrorCode;
}

/// A list of [`Code`]s: `()` or a tuple of markers.
pub trait Codes {
    /// The codes, in the order written.
    fn codes() -> Vec<ErrorCode>;
}

impl Codes for () {
    fn codes() -> Vec<ErrorCode> {
        Vec::new()
    }
}

macro_rules! tuple_codes {
    ($($name:ident),+) => {
        impl<$($name: Code),+> Codes for ($($name,)+) {
            fn codes() -> Vec<ErrorCode> {
                vec![$($name::CODE),+]
            }
        }
    };
}
tuple_codes!(A);
tuple_codes!(A, B);
tuple_codes!(A, B, C);
tuple_codes!(A, B, C, D);
tuple_codes!(A, B, C, D, E);
tuple_codes!(A, B, C, D, E, F);
tuple_codes!(A, B, C, D, E, F, G);
tuple_codes!(A, B, C, D, E, F, G, H);
tuple_codes!(A, B, C, D, E, F, G, H, I);
tuple_codes!(A, B, C, D, E, F, G, H, I, J);

/// One marker type per [`ErrorCode`], named like its variant, for [`Errors`].
pub mod code {
    use super::Code;
    use crate::ErrorCode;

    macro_rules! markers {
        ($($name:ident),+ $(,)?) => {
            $(
                #[doc = concat!("[`ErrorCode::", stringify!($name), "`].")]
                #[derive(Debug)]
                pub struct $name;
                impl Code for $name {
                    const CODE: ErrorCode = ErrorCode::$name;
                }
            )+
            /// Every marker's code, in the order declared (a test compares it with
            /// [`ErrorCode::ALL`]).
            #[cfg(test)]
            pub(crate) const MARKED: &[ErrorCode] = &[$(ErrorCode::$name),+];
        };
    }
    markers!(
        InvalidParameter,
        BadRequest,
        UriTooLong,
        HeadersTooLarge,
        PayloadTooLarge,
        UnsupportedMediaType,
        NotAcceptable,
        Unauthorized,
        Forbidden,
        InvalidQuery,
        UnfilteredSearch,
        NotFound,
        MethodNotAllowed,
        Conflict,
        NotSilent,
        RateLimited,
        PaymentRequired,
        SearchUnavailable,
        Unavailable,
        AssistantUnavailable,
        QuotaExceeded,
        TurnQueueFull,
        NothingToRetry,
        NotOpenable,
        InvalidEdit,
        CannotUndo,
        Timeout,
        Internal,
    );
}

/// The error responses of an operation: the codes of `L` (what the route itself answers)
/// and [`EVERY_ROUTE`], one response per status (see the module docs).
#[derive(Debug)]
pub struct Errors<L>(PhantomData<L>);

impl<L: Codes> IntoResponses for Errors<L> {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        error_responses(&L::codes())
    }
}

/// The responses for `codes` and [`EVERY_ROUTE`], grouped by status.
pub fn error_responses(codes: &[ErrorCode]) -> BTreeMap<String, RefOr<Response>> {
    let mut by_status: BTreeMap<u16, Vec<ErrorCode>> = BTreeMap::new();
    for code in ErrorCode::ALL {
        if codes.contains(&code) || EVERY_ROUTE.contains(&code) {
            by_status.entry(code.status().as_u16()).or_default().push(code);
        }
    }
    by_status
        .into_iter()
        .map(|(status, codes)| {
            let description = codes
                .iter()
                .map(|c| format!("`{}`: {}", c.as_str(), meaning(*c)))
                .collect::<Vec<_>>()
                .join(" ");
            let narrowed = ObjectBuilder::new()
                .property(
                    "code",
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some(codes.iter().map(|c| c.as_str()))),
                )
                .required("code");
            let schema = AllOfBuilder::new()
                .item(RefOr::Ref(utoipa::openapi::Ref::from_schema_name("ErrorBody")))
                .item(narrowed);
            let response = ResponseBuilder::new()
                .description(description)
                .content("application/json", ContentBuilder::new().schema(Some(schema)).build())
                .build();
            (status.to_string(), RefOr::T(response))
        })
        .collect()
}

/// What a code means, for the response descriptions (every code has one).
const fn meaning(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::InvalidParameter => "a request parameter is malformed; `param` names it.",
        ErrorCode::BadRequest => "the request is not well-formed HTTP.",
        ErrorCode::UriTooLong => "the request URI is longer than 65,534 bytes.",
        ErrorCode::HeadersTooLarge => "the request head is larger than the server reads.",
        ErrorCode::PayloadTooLarge => "the announced request body is over 1 MiB.",
        ErrorCode::UnsupportedMediaType => "the request body is not JSON (`Content-Type`).",
        ErrorCode::NotAcceptable => {
            "the `Accept` header rules out every answer the route gives (MCP: send \
             `Accept: application/json, text/event-stream`)."
        }
        ErrorCode::Unauthorized => {
            "no session or API key, or one that does not hold (a wrong password, an unknown, \
             expired or revoked key or session)."
        }
        ErrorCode::Forbidden => {
            "the caller is known but the route does not accept it: a `cv` key on a `full` route, \
             a key on a cookie-only route, an unverified account minting keys."
        }
        ErrorCode::InvalidQuery => "the search engine refused the query as a whole.",
        ErrorCode::UnfilteredSearch => {
            "the saved search matches every job (no filter, no text), so it cannot be \
             subscribed to; `param` is `query`."
        }
        ErrorCode::NotFound => "the addressed resource does not exist.",
        ErrorCode::InvalidEdit => {
            "cvedit refused the CV edit (a bad path or value, a field the actor may not touch, a \
             claim without evidence, a list over its ceiling); `reason` names which, nothing \
             was written."
        }
        ErrorCode::CannotUndo => "the revision's change no longer applies to the CV as it is now.",
        ErrorCode::MethodNotAllowed => "the path does not have this method.",
        ErrorCode::Conflict => {
            "the resource exists in another state, or a value is taken (`param` names it)."
        }
        ErrorCode::NotSilent => {
            "the application is not silent (still within its stage's days, or settled): no \
             follow-up is due."
        }
        ErrorCode::RateLimited => "too many requests; retry later.",
        ErrorCode::PaymentRequired => "the action needs a paid plan.",
        ErrorCode::SearchUnavailable => {
            "no search index is configured, it is not built yet, or the engine failed."
        }
        ErrorCode::Unavailable => "the database does not answer; retry later.",
        ErrorCode::AssistantUnavailable => {
            "the assistant has no model configured: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL."
        }
        ErrorCode::QuotaExceeded => {
            "today's allowance of the feature is spent; the body's `allowance` says how much \
             was used of what limit and when it resets."
        }
        ErrorCode::TurnQueueFull => "the session already has a turn running and a message waiting.",
        ErrorCode::NothingToRetry => "there is no message to retry; send one first.",
        ErrorCode::NotOpenable => {
            "the conversation does not open by itself (another preset, no job) or has started."
        }
        ErrorCode::Timeout => "the request was not answered within 30 s.",
        ErrorCode::Internal => "our fault (the cause is logged, not answered).",
    }
}

/// Schemas of the closed vocabularies of `freehire-domain` (which does not depend on utoipa),
/// for `#[schema(schema_with = …)]` on the wire types.
pub mod vocab {
    use freehire_domain::{
        Category, ClosedReason, EducationLevel, EmploymentType, EnglishLevel, FailureClass,
        GhostCriterion, GhostLevel, RealityClass, Region, SalaryPeriod, Seniority, TechFlag,
        WorkMode,
    };
    use utoipa::openapi::{Object, ObjectBuilder, Type, schema::Array};

    use super::ArrayBuilder;

    /// A string schema with these values.
    pub fn one_of(values: impl IntoIterator<Item = &'static str>) -> Object {
        ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values)).build()
    }

    fn list(item: Object) -> Array {
        ArrayBuilder::new().items(item).build()
    }

    macro_rules! vocab_schemas {
        ($($one:ident, $many:ident: $ty:ident;)+) => {
            $(
                #[doc = concat!("One [`", stringify!($ty), "`] wire value.")]
                pub fn $one() -> Object {
                    one_of($ty::ALL.iter().map(|v| v.as_str()))
                }
                #[doc = concat!("A list of [`", stringify!($ty), "`] wire values.")]
                pub fn $many() -> Array {
                    list($one())
                }
            )+
        };
    }
    vocab_schemas! {
        region, regions: Region;
        work_mode, work_modes: WorkMode;
        seniority, seniorities: Seniority;
        category, categories: Category;
        employment_type, employment_types: EmploymentType;
        education_level, education_levels: EducationLevel;
        english_level, english_levels: EnglishLevel;
        salary_period, salary_periods: SalaryPeriod;
        tech_flag, tech_flags: TechFlag;
        failure_class, failure_classes: FailureClass;
        closed_reason, closed_reasons: ClosedReason;
        reality_class, reality_classes: RealityClass;
        ghost_level, ghost_levels: GhostLevel;
        ghost_criterion, ghost_criteria: GhostCriterion;
    }

    /// A lowercase ISO 3166-1 alpha-2 country code.
    pub fn country() -> Object {
        ObjectBuilder::new().schema_type(Type::String).pattern(Some("^[a-z]{2}$")).build()
    }

    /// A list of country codes.
    pub fn countries() -> Array {
        list(country())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn every_code_has_a_marker() {
        assert_eq!(code::MARKED, &ErrorCode::ALL[..]);
    }

    #[test]
    fn errors_group_by_status_and_narrow_the_code() {
        let responses = Errors::<(code::InvalidParameter, code::NotFound)>::responses();
        let statuses: Vec<&str> = responses.keys().map(String::as_str).collect();
        assert_eq!(statuses, ["400", "404", "413", "414", "431", "500", "503"]);
        let bad = serde_json::to_value(&responses["400"]).unwrap();
        let narrowed = &bad["content"]["application/json"]["schema"]["allOf"][1];
        assert_eq!(
            narrowed["properties"]["code"]["enum"],
            serde_json::json!(["invalid_parameter", "bad_request"])
        );
        let description = bad["description"].as_str().unwrap();
        assert!(description.contains("`param` names it"), "{description}");
        let late = serde_json::to_value(&Errors::<()>::responses()["503"]).unwrap();
        let codes = &late["content"]["application/json"]["schema"]["allOf"][1];
        assert_eq!(codes["properties"]["code"]["enum"], serde_json::json!(["timeout"]));
    }
}
