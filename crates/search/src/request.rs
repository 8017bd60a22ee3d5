//! Endpoint-specific requests built on [`JobQuery`]: the facets request (reference §5.9) and
//! the agent search's description format (reference §5.7).

use crate::SearchError;
use crate::facet::Facet;
use crate::query::{Endpoint, JobQuery};

/// `GET /jobs/facets`: the filter grammar plus `q`, which distributions to compute, and
/// whether to count disjunctively.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FacetsRequest {
    /// The filter and text (no page, no sort).
    pub query: JobQuery,
    /// The distributions to compute, in table order; every facet with a distribution when
    /// `facets=` is absent.
    pub facets: Vec<Facet>,
    /// `disjunctive=true`: count each facet under the full filter minus its own selection
    /// (`true` or `false`; any other value is refused).
    pub disjunctive: bool,
}

impl FacetsRequest {
    /// Parses the facets request. `facets=` names facets to count (any facet; without it, every
    /// facet [counted by default](Facet::counted_by_default)); an unknown name is an error, and
    /// so is `facets=` together with `disjunctive=true`.
    pub fn parse(params: &[(String, String)]) -> Result<Self, SearchError> {
        let query = JobQuery::parse(params, Endpoint::Facets)?;
        let mut named: Option<Vec<Facet>> = None;
        let mut disjunctive = None;
        for (name, value) in params {
            match name.as_str() {
                "facets" => {
                    let list = named.get_or_insert_with(Vec::new);
                    for raw in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                        let raw = crate::query::bounded("facets", raw)?;
                        let facet = Facet::from_param(raw)
                            .ok_or_else(|| SearchError::unknown("facets", raw, distributions()))?;
                        if !list.contains(&facet) {
                            list.push(facet);
                        }
                    }
                }
                "disjunctive" => {
                    let v = crate::query::bounded("disjunctive", value.trim())?;
                    let b = match v {
                        "" => continue,
                        "true" => true,
                        "false" => false,
                        _ => return Err(SearchError::unknown("disjunctive", v, "true, false")),
                    };
                    disjunctive.get_or_insert(b);
                }
                _ => {}
            }
        }
        let disjunctive = disjunctive.unwrap_or(false);
        let facets = match named {
            Some(_) if disjunctive => return Err(SearchError::FacetsWithDisjunctive),
            Some(mut list) if !list.is_empty() => {
                list.sort();
                list
            }
            _ => Facet::ALL.iter().copied().filter(|f| f.counted_by_default()).collect(),
        };
        Ok(Self { query, facets, disjunctive })
    }

    /// Parses a raw query string.
    pub fn from_query_str(raw: &str) -> Result<Self, SearchError> {
        Self::parse(&pairs(raw))
    }
}

/// The facet names `facets=` accepts, comma-separated.
fn distributions() -> String {
    Facet::ALL.iter().map(|f| f.param()).collect::<Vec<_>>().join(", ")
}

/// How agent search renders each hit's full description (reference §5.7).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DescriptionFormat {
    /// Verbatim HTML (the default).
    #[default]
    Html,
    /// Plain text.
    Text,
    /// Markdown.
    Markdown,
}

impl DescriptionFormat {
    /// `html`, `text` or `markdown`; absent or blank is `html`, anything else is refused
    /// naming `description_format` and listing these.
    pub fn parse(raw: Option<&str>) -> Result<Self, SearchError> {
        const PARAM: &str = "description_format";
        match raw.map(str::trim).unwrap_or_default() {
            "" | "html" => Ok(Self::Html),
            "text" => Ok(Self::Text),
            "markdown" => Ok(Self::Markdown),
            other => Err(SearchError::unknown(
                PARAM,
                crate::query::bounded(PARAM, other)?,
                "html, text, markdown",
            )),
        }
    }
}

/// `GET /agent/jobs/search`: the search grammar plus `description_format`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSearchRequest {
    /// The search.
    pub query: JobQuery,
    /// How to render descriptions.
    pub description_format: DescriptionFormat,
}

impl AgentSearchRequest {
    /// Parses the agent search request (every `description_format` is checked; the first
    /// non-blank one wins).
    pub fn parse(params: &[(String, String)]) -> Result<Self, SearchError> {
        let query = JobQuery::parse(params, Endpoint::AgentSearch)?;
        let mut format = None;
        for (_, v) in params.iter().filter(|(k, _)| k == "description_format") {
            let parsed = DescriptionFormat::parse(Some(v))?;
            if !v.trim().is_empty() {
                format.get_or_insert(parsed);
            }
        }
        Ok(Self { query, description_format: format.unwrap_or_default() })
    }

    /// Parses a raw query string.
    pub fn from_query_str(raw: &str) -> Result<Self, SearchError> {
        Self::parse(&pairs(raw))
    }
}

/// Decodes a form-urlencoded query string into owned pairs.
pub(crate) fn pairs(raw: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(raw.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}
