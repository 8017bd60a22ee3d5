//! [`JobQuery`]: the search grammar (reference §5.5, §5.6) parsed from query parameters.
//!
//! **One rule for values.** A parameter the endpoint does not know is reported in
//! `ignored_params`; a known parameter whose value cannot be used is refused (HTTP 400) naming
//! the parameter and, for a closed vocabulary, listing the allowed values. A blank value is
//! the same as none. Every value given is checked, even where the first one wins.
//!
//! **Bounds**, checked before any engine work: `q` at most [`MAX_Q_BYTES`] = 512 bytes and
//! [`MAX_Q_WORDS`] = 32 words (a word is a run of letters and digits, as the engines split
//! text: 32 words cost the embedded engine about a millisecond each on the bench catalogue;
//! 6,000 words cost 18 s before the cap); every other value (each comma-separated fragment)
//! at most [`MAX_VALUE_CHARS`] = 200 characters (the longest real facet value is well under
//! 100; an unbounded one became a case-insensitive regex past the engine's state limit);
//! at most [`MAX_VALUES`] = 100 distinct values per facet parameter.

use std::collections::BTreeMap;

use crate::SearchError;
use crate::facet::{Facet, Mode, Selection};
use crate::ignored::{self, IgnoredParam, did_you_mean};
use crate::page::Page;
use crate::scalars::{SCALAR_PARAMS, Scalars};
use crate::sort::{Order, Sort, SortField};

/// The most bytes of `q` (trimmed).
pub const MAX_Q_BYTES: usize = 512;
/// The most words of `q` (runs of letters and digits).
pub const MAX_Q_WORDS: usize = 32;
/// The most characters of one value (one comma-separated fragment) of any parameter but `q`.
pub const MAX_VALUE_CHARS: usize = 200;
/// The most distinct values one facet parameter (or its `_exclude` form) may hold.
pub const MAX_VALUES: usize = 100;

/// The endpoint a query is parsed for: it decides which parameters besides the filter grammar
/// are known (everything else is reported in `ignored_params`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `GET /jobs/search`: `q, q_fields, sort, order, limit, offset`.
    Search,
    /// `GET /agent/jobs/search`: the search parameters plus `description_format`.
    AgentSearch,
    /// `GET /jobs/facets`: `q, facets, disjunctive` (no paging, no sort).
    Facets,
}

impl Endpoint {
    /// The endpoint's own parameters, besides the filter grammar.
    pub const fn own_params(self) -> &'static [&'static str] {
        match self {
            Endpoint::Search => &["q", "q_fields", "sort", "order", "limit", "offset"],
            Endpoint::AgentSearch => {
                &["q", "q_fields", "sort", "order", "limit", "offset", "description_format"]
            }
            Endpoint::Facets => &["q", "facets", "disjunctive"],
        }
    }

    /// Whether `name` is a parameter this endpoint understands: a facet, its `_exclude` and
    /// `_mode` forms, a scalar, or one of the endpoint's own.
    pub fn knows(self, name: &str) -> bool {
        // A facet's own name may end like a form (`work_mode`): try it whole, then each form.
        let facet = |base: &str| Facet::from_param(base).is_some();
        facet(name)
            || name.strip_suffix("_exclude").is_some_and(facet)
            || name.strip_suffix("_mode").is_some_and(facet)
            || SCALAR_PARAMS.contains(&name)
            || self.own_params().contains(&name)
    }

    fn pages(self) -> bool {
        !matches!(self, Endpoint::Facets)
    }
}

/// A searchable attribute `q_fields` may scope the text match to (our vocabulary, reference
/// §17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum QField {
    /// `title`.
    Title,
    /// `company`.
    Company,
    /// `description`.
    Description,
    /// `location`.
    Location,
}

impl QField {
    /// Every field, in ranking order.
    pub const ALL: &'static [QField] =
        &[QField::Title, QField::Company, QField::Description, QField::Location];

    /// The field (and attribute) name.
    pub const fn as_str(self) -> &'static str {
        match self {
            QField::Title => "title",
            QField::Company => "company",
            QField::Description => "description",
            QField::Location => "location",
        }
    }

    /// The field with this exact name.
    pub fn parse(raw: &str) -> Option<Self> {
        QField::ALL.iter().copied().find(|f| f.as_str() == raw)
    }

    /// The field names, comma-separated.
    pub fn allowed() -> String {
        QField::ALL.iter().map(|f| f.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// A parsed job search: text, facet selections, scalar bounds, sort, page, and the
/// parameters that were ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobQuery {
    /// The text query, trimmed; `None` when absent or blank.
    pub q: Option<String>,
    /// Fields the text match is scoped to; empty means all searchable fields.
    pub q_fields: Vec<QField>,
    /// Active facet selections, keyed in the reference's table order.
    pub facets: BTreeMap<Facet, Selection>,
    /// Scalar bounds.
    pub scalars: Scalars,
    /// The explicit sort, when `sort=` named a sortable field.
    pub sort: Option<Sort>,
    /// The page (the default page on the facets endpoint).
    pub page: Page,
    /// Unknown or unusable parameters, sorted by name, at most 10.
    pub ignored_params: Vec<IgnoredParam>,
}

impl JobQuery {
    /// Parses a raw query string (`a=1&b=2`, form-urlencoded).
    pub fn from_query_str(raw: &str, endpoint: Endpoint) -> Result<Self, SearchError> {
        Self::parse(&crate::request::pairs(raw), endpoint)
    }

    /// Parses a list of `(name, value)` pairs, in the order given.
    ///
    /// Errors name the parameter: a vocabulary value outside its vocabulary (a facet, its
    /// `_mode`, `q_fields`, `sort`, `order`, `visa_sponsorship`), a malformed country,
    /// currency, provider or company slug, a malformed or out-of-range scalar, a non-integer
    /// `limit`/`offset`, a negative `offset`, `offset + limit` past 10,000, or a value past
    /// its length bound (see the module docs).
    pub fn parse(params: &[(String, String)], endpoint: Endpoint) -> Result<Self, SearchError> {
        let mut query = JobQuery::default();
        let mut ignored = Vec::new();
        let mut first: BTreeMap<&str, &str> = BTreeMap::new();

        for (name, value) in params {
            let name = name.as_str();
            if name.is_empty() {
                continue;
            }
            if let Some(facet) = Facet::from_param(name) {
                let sel = query.facets.entry(facet).or_default();
                for raw in fragments(value) {
                    push_bounded(name, &mut sel.include, facet.value(name, bounded(name, raw)?)?)?;
                }
            } else if let Some(facet) = name.strip_suffix("_exclude").and_then(Facet::from_param) {
                let sel = query.facets.entry(facet).or_default();
                for raw in fragments(value) {
                    push_bounded(name, &mut sel.exclude, facet.value(name, bounded(name, raw)?)?)?;
                }
            } else if let Some(facet) = name.strip_suffix("_mode").and_then(Facet::from_param) {
                if let Some(mode) = read_mode(name, facet, value)? {
                    query.facets.entry(facet).or_default().mode = mode;
                }
            } else if SCALAR_PARAMS.contains(&name) {
                query.scalars.read(name, bounded(name, value)?)?;
            } else if endpoint.own_params().contains(&name) {
                if name == "q_fields" {
                    query.read_q_fields(value)?;
                } else if name != "q" {
                    let value = bounded(name, value)?;
                    check_own(name, value.trim())?;
                    if !value.trim().is_empty() {
                        first.entry(name).or_insert(value);
                    }
                } else {
                    let q = value.trim();
                    check_q(q)?;
                    if !q.is_empty() {
                        first.entry(name).or_insert(q);
                    }
                }
            } else {
                ignored.push(IgnoredParam {
                    param: name.to_owned(),
                    did_you_mean: did_you_mean(name, |c| endpoint.knows(c)),
                });
            }
        }

        query.facets.retain(|_, sel| sel.is_active());
        query.q = first.get("q").map(|q| (*q).to_owned());
        if endpoint.pages() {
            let order = first.get("order").and_then(|o| Order::parse(o.trim())).unwrap_or_default();
            query.sort = first
                .get("sort")
                .and_then(|s| SortField::parse(s.trim()))
                .map(|field| Sort { field, order });
            query.page = Page::parse(first.get("limit").copied(), first.get("offset").copied())?;
        }
        query.ignored_params = ignored::finish(ignored);
        Ok(query)
    }

    fn read_q_fields(&mut self, value: &str) -> Result<(), SearchError> {
        for raw in fragments(value) {
            let field = QField::parse(bounded("q_fields", raw)?)
                .ok_or_else(|| SearchError::unknown("q_fields", raw, QField::allowed()))?;
            push_unique(&mut self.q_fields, field);
        }
        Ok(())
    }

    /// The Meilisearch sort list: the explicit sort; otherwise `posted_at:desc` for an empty
    /// `q` and nothing (relevance) for a non-empty one.
    pub fn sort_directives(&self) -> Vec<String> {
        match (self.sort, &self.q) {
            (Some(sort), _) => vec![sort.directive()],
            (None, None) => {
                vec![Sort { field: SortField::PostedAt, order: Order::Desc }.directive()]
            }
            (None, Some(_)) => Vec::new(),
        }
    }

    /// `attributesToSearchOn`: the `q_fields` names, or `None` for every searchable field.
    pub fn attributes_to_search_on(&self) -> Option<Vec<&'static str>> {
        (!self.q_fields.is_empty()).then(|| self.q_fields.iter().map(|f| f.as_str()).collect())
    }

    /// Whether the query has any filter (facet selections or scalar bounds).
    pub fn has_filter(&self) -> bool {
        !self.facets.is_empty() || !self.scalars.active_params().is_empty()
    }

    /// `search.Narrows`: a non-blank `q` or a non-empty filter. A query that does not narrow
    /// means "everything" (subscriptions to it are refused).
    pub fn narrows(&self) -> bool {
        self.q.is_some() || self.has_filter()
    }

    /// The parameter names that contribute to the filter, sorted (reported in
    /// `ignored_params` when the engine rejects the filter and the search is retried without
    /// it).
    pub fn active_filter_params(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (facet, sel) in &self.facets {
            if !sel.include.is_empty() {
                out.push(facet.param().to_owned());
            }
            if !sel.exclude.is_empty() {
                out.push(format!("{}_exclude", facet.param()));
            }
            if sel.mode == Mode::And && !sel.include.is_empty() {
                out.push(format!("{}_mode", facet.param()));
            }
        }
        out.extend(self.scalars.active_params().into_iter().map(str::to_owned));
        out.sort();
        out
    }

    /// The same query without `facet`'s included values (its excludes stay): the filter a
    /// disjunctive count of that facet runs under.
    pub fn without_selection_of(&self, facet: Facet) -> JobQuery {
        let mut q = self.clone();
        if let Some(sel) = q.facets.get_mut(&facet) {
            sel.include.clear();
            sel.mode = Mode::Or;
        }
        q.facets.retain(|_, sel| sel.is_active());
        q
    }
}

/// Comma-separated fragments of a value, trimmed, empty ones dropped.
fn fragments(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// `raw` when it is at most [`MAX_VALUE_CHARS`] characters long.
pub(crate) fn bounded<'a>(param: &str, raw: &'a str) -> Result<&'a str, SearchError> {
    // A string of at most MAX_VALUE_CHARS bytes has at most that many characters.
    if raw.len() > MAX_VALUE_CHARS {
        let chars = raw.chars().count();
        if chars > MAX_VALUE_CHARS {
            return Err(SearchError::too_long(param, chars, MAX_VALUE_CHARS, "characters"));
        }
    }
    Ok(raw)
}

/// `q` (trimmed) within [`MAX_Q_BYTES`] and [`MAX_Q_WORDS`].
fn check_q(q: &str) -> Result<(), SearchError> {
    if q.len() > MAX_Q_BYTES {
        return Err(SearchError::too_long("q", q.len(), MAX_Q_BYTES, "bytes"));
    }
    let words = q.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).count();
    if words > MAX_Q_WORDS {
        return Err(SearchError::too_long("q", words, MAX_Q_WORDS, "words"));
    }
    Ok(())
}

/// Checks a value of `sort` or `order`; blank passes. (The first `limit` and `offset` are
/// checked by [`Page::parse`]; `description_format`, `facets` and `disjunctive` by their
/// requests.)
fn check_own(name: &str, v: &str) -> Result<(), SearchError> {
    if v.is_empty() {
        return Ok(());
    }
    match name {
        "sort" if SortField::parse(v).is_none() => {
            Err(SearchError::unknown(name, v, SortField::allowed()))
        }
        "order" if Order::parse(v).is_none() => {
            Err(SearchError::unknown(name, v, Order::allowed()))
        }
        _ => Ok(()),
    }
}

/// A `<facet>_mode` value: `or` or `and` (blank: none); the geography facets always combine
/// with OR, so for them only `or` is allowed.
fn read_mode(name: &str, facet: Facet, value: &str) -> Result<Option<Mode>, SearchError> {
    match value.trim() {
        "" => Ok(None),
        "or" => Ok(Some(Mode::Or)),
        "and" if !facet.is_geography() => Ok(Some(Mode::And)),
        v if facet.is_geography() => Err(SearchError::unknown(
            name,
            bounded(name, v)?,
            "or (regions, countries and cities always combine with OR)",
        )),
        v => Err(SearchError::unknown(name, bounded(name, v)?, "and, or")),
    }
}

/// [`push_unique`], refusing a list past [`MAX_VALUES`].
fn push_bounded<T: PartialEq>(param: &str, list: &mut Vec<T>, item: T) -> Result<(), SearchError> {
    push_unique(list, item);
    if list.len() > MAX_VALUES {
        return Err(SearchError::too_long(param, list.len(), MAX_VALUES, "values"));
    }
    Ok(())
}

fn push_unique<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}
