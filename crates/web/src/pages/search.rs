//! `/` and `/jobs`: the search page. The query string is the JSON API's search grammar
//! (`GET /api/v1/jobs/search`), parsed by the same [`JobQuery`]; every link the page builds
//! (a facet value, a chip's removal, a page) is that grammar too, so a URL can be pasted into
//! the API.
//!
//! The page runs [`search::hits`] for the hits and [`search::facets`] with disjunctive counts
//! for the panels ([`PANELS`]: each facet counted under the filter without its own selection,
//! so picking a second country shows how many the union adds). With `HX-Request` (htmx) only
//! the results region (`#results`) is rendered; the region holds the form, the chips, the
//! panels and the hits, so one swap updates all of them. Only the form, the chips, the panels,
//! the did-you-mean links and the pager are boosted (`hx-boost`): a hit's link opens the job
//! page as a normal navigation. A history restore (`HX-History-Restore-Request`) gets the whole
//! page, and every answer says `Vary: HX-Request`.
//!
//! [`render_anonymous`] is the same page without a server (an anonymous viewer, UTC): the
//! `page` bench measures the page with it.

use askama::Template;
use axum::{
    extract::{RawQuery, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::Response,
};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use freehire_app::search;
use freehire_app::search_slot::SearchStatus;
use freehire_search::{
    Endpoint, Facet, FacetsRequest, JobQuery, MAX_WINDOW, SearchDocument, SearchIndex, SortField,
};

use super::actions::{Actions, ViewerMarks};
use crate::{WebError, WebState, error::render, format, layout::Ctx, layout::Layout};

/// The facets with a panel, in panel order, with their headings. The company panel is the one
/// place the company distribution (tens of thousands of values) is counted for the page.
pub const PANELS: [(Facet, &str); 8] = [
    (Facet::Countries, "Country"),
    (Facet::Regions, "Region"),
    (Facet::WorkMode, "Work mode"),
    (Facet::Seniority, "Seniority"),
    (Facet::Category, "Category"),
    (Facet::Skills, "Skills"),
    (Facet::EmploymentType, "Employment type"),
    (Facet::CompanySlug, "Company"),
];

/// Values shown per panel (selected values are always shown).
pub const PANEL_VALUES: usize = 12;

/// The "posted within" choices, in days.
pub const WITHIN: [(u32, &str); 6] =
    [(1, "24 hours"), (3, "3 days"), (7, "week"), (14, "2 weeks"), (30, "month"), (90, "3 months")];

/// The query parameters of a page, in order, without blank values (a GET form sends its
/// empty fields).
#[derive(Debug, Clone, Default)]
pub struct Params(pub Vec<(String, String)>);

impl Params {
    /// Decodes a raw query string.
    pub fn parse(raw: Option<&str>) -> Self {
        Self(
            url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
                .into_owned()
                .filter(|(_, v)| !v.trim().is_empty())
                .collect(),
        )
    }

    /// `/jobs?…` for these parameters (`/jobs` when none).
    pub fn href(&self) -> String {
        if self.0.is_empty() {
            return "/jobs".to_owned();
        }
        let mut out = url::form_urlencoded::Serializer::new(String::new());
        for (k, v) in &self.0 {
            out.append_pair(k, v);
        }
        format!("/jobs?{}", out.finish())
    }

    /// Without `offset` (any change of filter starts again at the first page).
    fn first_page(&self) -> Self {
        Self(self.0.iter().filter(|(k, _)| k != "offset").cloned().collect())
    }

    /// With `offset` set to `offset` (none for 0).
    fn at_offset(&self, offset: u32) -> Self {
        let mut p = self.first_page();
        if offset > 0 {
            p.0.push(("offset".to_owned(), offset.to_string()));
        }
        p
    }

    /// Without the parameter `name`.
    fn without(&self, name: &str) -> Self {
        Self(self.0.iter().filter(|(k, _)| k != name).cloned().collect()).first_page()
    }

    /// Without the fragment of `name` equal to `value` (canonically), if there is one.
    fn without_value(&self, name: &str, facet: Facet, value: &str) -> Option<Self> {
        let wanted = facet.value(name, value).ok()?;
        let mut found = false;
        let mut out = Vec::new();
        for (k, v) in &self.0 {
            if k != name {
                out.push((k.clone(), v.clone()));
                continue;
            }
            let kept: Vec<&str> = v
                .split(',')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .filter(|f| {
                    let same = facet.value(name, f).ok().as_ref() == Some(&wanted);
                    found |= same;
                    !same
                })
                .collect();
            if !kept.is_empty() {
                out.push((k.clone(), kept.join(",")));
            }
        }
        found.then(|| Self(out).first_page())
    }

    /// With `value` of `facet` selected if it was not, removed if it was.
    fn toggle(&self, facet: Facet, value: &str) -> Self {
        self.without_value(facet.param(), facet, value).unwrap_or_else(|| {
            let mut p = self.first_page();
            p.0.push((facet.param().to_owned(), value.to_owned()));
            p
        })
    }
}

/// One value of a facet panel.
pub struct FacetLink {
    /// How it reads.
    pub label: String,
    /// Matching jobs (disjunctive).
    pub count: u64,
    /// The page with this value toggled.
    pub href: String,
    /// Whether the query selects it.
    pub selected: bool,
}

/// One facet panel.
pub struct Panel {
    /// The facet's parameter (the panel's id).
    pub param: &'static str,
    /// Its heading.
    pub title: &'static str,
    /// Its values, most jobs first.
    pub values: Vec<FacetLink>,
}

/// A selected filter, removable.
pub struct Chip {
    /// How it reads.
    pub label: String,
    /// The page without it.
    pub href: String,
}

/// An ignored parameter and its likely meaning.
pub struct Ignored {
    /// The parameter as sent.
    pub param: String,
    /// What it probably meant.
    pub did_you_mean: Option<String>,
    /// The page with it renamed to that.
    pub fix_href: Option<String>,
}

/// One hit.
pub struct Hit {
    /// The job's public slug.
    pub slug: String,
    /// The viewer's buttons (signed in only).
    pub actions: Option<Actions>,
    /// The job's title.
    pub title: String,
    /// `/jobs/{slug}`.
    pub href: String,
    /// The company's name.
    pub company: String,
    /// `/companies/{slug}`, when the job has a company.
    pub company_href: Option<String>,
    /// The location as the source wrote it.
    pub location: String,
    /// The effective posted date, in the viewer's zone.
    pub posted: String,
    /// `posted` as RFC 3339 (the `<time datetime>`).
    pub posted_iso: String,
    /// The salary, if known.
    pub salary: Option<String>,
    /// Work mode, seniority and a few skills.
    pub tags: Vec<String>,
    /// The start of the description's text.
    pub snippet: String,
}

/// The sort choices: (value, label, selected).
pub struct SortChoice {
    /// `sort=` value (empty: the default).
    pub value: &'static str,
    /// How it reads.
    pub label: &'static str,
    /// Whether it is the current one.
    pub selected: bool,
}

/// The search page (or its region alone).
#[derive(Template)]
#[template(path = "search.html")]
pub struct SearchPage {
    /// The layout.
    pub layout: Layout,
    /// The region alone (an htmx request).
    pub partial: bool,
    /// The results region.
    pub region: Region,
}

/// The results region alone (the answer to an htmx request).
#[derive(Template)]
#[template(path = "search_region.html")]
pub struct RegionPage {
    /// The region.
    pub region: Region,
}

/// The "Save this search" form (signed in, with a query).
pub struct SaveSearch {
    /// The form's CSRF token.
    pub csrf: String,
    /// The current query string (without paging).
    pub query: String,
    /// The name proposed (the text query, else "My search").
    pub name: String,
}

/// The part htmx swaps.
pub struct Region {
    /// The "Save this search" form, for a signed-in viewer.
    pub save_search: Option<SaveSearch>,
    /// The text query.
    pub q: String,
    /// Hidden form fields: the selection the form keeps when the text changes.
    pub hidden: Vec<(String, String)>,
    /// `salary_min` as typed.
    pub salary_min: String,
    /// `salary_max` as typed.
    pub salary_max: String,
    /// The salary bounds over the matches.
    pub salary_hint: Option<String>,
    /// `posted_within_days` choices: (days, label, selected).
    pub within: Vec<(u32, &'static str, bool)>,
    /// Sort choices.
    pub sorts: Vec<SortChoice>,
    /// Whether `order=asc`.
    pub ascending: bool,
    /// A refused query's message (naming the parameter).
    pub error: Option<String>,
    /// Why there are no results at all (no index, nothing ingested).
    pub empty_state: Option<&'static str>,
    /// The selected filters.
    pub chips: Vec<Chip>,
    /// `/jobs` (clear every filter), when something is selected.
    pub clear_href: Option<String>,
    /// Ignored parameters.
    pub ignored: Vec<Ignored>,
    /// The facet panels.
    pub panels: Vec<Panel>,
    /// Matching jobs in all.
    pub total: u64,
    /// The hits.
    pub hits: Vec<Hit>,
    /// "21–40".
    pub range: String,
    /// The previous page.
    pub prev_href: Option<String>,
    /// The next page.
    pub next_href: Option<String>,
}

/// `GET /` and `GET /jobs`.
pub async fn page(
    State(state): State<WebState>,
    ctx: Ctx,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    let params = Params::parse(raw.as_deref());
    let index = state.search.get().await;
    let index = index.as_ref().map(|i| i.as_ref()).map_err(|s| *s);
    let (status, mut region) = region(index, ctx.now, ctx.tz, &params).await;
    if let Some(user) = &ctx.viewer
        && let Err(e) = viewer_region(&state, &ctx, user, &params, &mut region).await
    {
        return ctx.error(e);
    }
    // htmx restoring a page it has no snapshot of (its history cache is off) wants the page.
    let partial =
        headers.contains_key("hx-request") && !headers.contains_key("hx-history-restore-request");
    let mut response = if partial {
        render(status, &RegionPage { region })
    } else {
        let layout = ctx.layout(title(&region));
        render(status, &SearchPage { layout, partial, region })
    };
    // The same URL answers a page or a region: caches must tell them apart.
    response.headers_mut().insert(header::VARY, HeaderValue::from_static("HX-Request"));
    response
}

/// The signed-in viewer's part of the region: each hit's buttons in its state (saved,
/// dismissed, applied and the stage) and the "Save this search" form.
async fn viewer_region(
    state: &WebState,
    ctx: &Ctx,
    user: &freehire_domain::User,
    params: &Params,
    region: &mut Region,
) -> Result<(), WebError> {
    let query = Params(params.first_page().0.into_iter().filter(|(k, _)| k != "limit").collect());
    let raw_query =
        query.href().strip_prefix("/jobs").unwrap_or_default().trim_start_matches('?').to_owned();
    region.save_search = Some(SaveSearch {
        csrf: ctx.csrf.clone(),
        name: if region.q.is_empty() { "My search".to_owned() } else { region.q.clone() },
        query: raw_query,
    });
    if region.hits.is_empty() {
        return Ok(());
    }
    let marks = ViewerMarks::load(state, user, ctx.now).await?;
    let next = params.href();
    for hit in &mut region.hits {
        hit.actions = Some(marks.actions(&hit.slug, &ctx.csrf, &next));
    }
    Ok(())
}

/// The whole search page over `index` for `raw_query` (the query string, without `?`), as an
/// anonymous viewer sees it in UTC at `now`: what [`page`] answers a request without a session
/// (same parsing, engine calls, region and template), minus the request's extractors and the
/// middleware. For measuring or checking the page without a server (the `page` bench).
pub async fn render_anonymous(
    index: &dyn SearchIndex,
    raw_query: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(StatusCode, String), WebError> {
    let params = Params::parse(raw_query);
    let (status, region) = region(Ok(index), now, Tz::UTC, &params).await;
    let page = SearchPage { layout: Layout::anonymous(&title(&region)), partial: false, region };
    let html = page.render().map_err(|e| {
        tracing::error!(error = %e, "template failed");
        WebError::Internal
    })?;
    Ok((status, html))
}

/// The facet counts the page's panels show for `query`: every [`PANELS`] facet, disjunctive,
/// over all of the query's matches (no sort, no paging).
fn panel_request(query: &JobQuery) -> FacetsRequest {
    let mut counted = query.clone();
    counted.sort = None;
    counted.page = Default::default();
    FacetsRequest {
        query: counted,
        facets: PANELS.iter().map(|(f, _)| *f).collect(),
        disjunctive: true,
    }
}

/// The page's title: the text query, else "Jobs".
fn title(region: &Region) -> String {
    match &region.q {
        q if q.is_empty() => "Jobs".to_owned(),
        q => format!("{q}: jobs"),
    }
}

fn blank_region(params: &Params) -> Region {
    let first = |name: &str| {
        params.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default()
    };
    let sort = first("sort");
    let within = first("posted_within_days");
    let visible =
        ["q", "sort", "order", "offset", "limit", "salary_min", "salary_max", "posted_within_days"];
    Region {
        save_search: None,
        q: first("q"),
        hidden: params.0.iter().filter(|(k, _)| !visible.contains(&k.as_str())).cloned().collect(),
        salary_min: first("salary_min"),
        salary_max: first("salary_max"),
        salary_hint: None,
        within: WITHIN.iter().map(|(d, l)| (*d, *l, within == d.to_string())).collect(),
        sorts: std::iter::once(("", "Best match / newest"))
            .chain(SortField::ALL.iter().filter_map(|f| {
                let label = match f {
                    SortField::PostedAt => "Posted date",
                    SortField::CreatedAt => "First seen",
                    SortField::SalaryMin => "Salary (lower bound)",
                    SortField::SalaryMax => "Salary (upper bound)",
                    SortField::ViewCount => return None,
                };
                Some((f.as_str(), label))
            }))
            .map(|(value, label)| SortChoice { value, label, selected: value == sort })
            .collect(),
        ascending: first("order") == "asc",
        error: None,
        empty_state: None,
        chips: Vec::new(),
        clear_href: None,
        ignored: Vec::new(),
        panels: Vec::new(),
        total: 0,
        hits: Vec::new(),
        range: String::new(),
        prev_href: None,
        next_href: None,
    }
}

/// The region for `params` over `index` (or why there is none), dates in `tz`.
async fn region(
    index: Result<&dyn SearchIndex, SearchStatus>,
    now: DateTime<Utc>,
    tz: Tz,
    params: &Params,
) -> (StatusCode, Region) {
    let mut region = blank_region(params);
    let query = match JobQuery::parse(&params.0, Endpoint::Search) {
        Ok(q) => q,
        Err(e) => {
            region.error = Some(e.to_string());
            region.chips = chips(params);
            return (StatusCode::BAD_REQUEST, region);
        }
    };
    region.chips = chips(params);
    if !region.chips.is_empty() {
        region.clear_href = Some("/jobs".to_owned());
    }
    region.ignored = query
        .ignored_params
        .iter()
        .map(|i| Ignored {
            param: i.param.clone(),
            fix_href: i.did_you_mean.as_ref().map(|to| {
                let renamed = params
                    .0
                    .iter()
                    .map(|(k, v)| (if *k == i.param { to.clone() } else { k.clone() }, v.clone()))
                    .collect();
                Params(renamed).first_page().href()
            }),
            did_you_mean: i.did_you_mean.clone(),
        })
        .collect();
    let index = match index {
        Ok(index) => index,
        // A fresh installation: nothing is wrong, there is nothing yet.
        Err(SearchStatus::Missing | SearchStatus::Ok) => {
            region.empty_state = Some(
                "No jobs yet: run `freehire ingest` or wait for the worker (it builds the \
                 search index on its first run).",
            );
            return (StatusCode::OK, region);
        }
        Err(status) => {
            region.empty_state = Some(match status {
                SearchStatus::Off => "Search is not configured on this server.",
                _ => "The search index cannot be opened right now.",
            });
            return (StatusCode::SERVICE_UNAVAILABLE, region);
        }
    };
    let found = search::hits(index, &query, now).await;
    let counts = search::facets(index, &panel_request(&query), now).await;
    let ((results, answered), counts) = match (found, counts) {
        (Ok(found), Ok(counts)) => (found, counts),
        (Err(e), _) | (_, Err(e)) => {
            tracing::error!(error = %format!("{e:#}"), "search page failed");
            region.empty_state = Some("Search failed; the problem is logged. Try again later.");
            return (StatusCode::SERVICE_UNAVAILABLE, region);
        }
    };
    region.total = results.total;
    region.hits = results.hits.iter().map(|d| hit(d, tz)).collect();
    region.salary_hint = format::salary_bounds(
        counts.stats.salary_min.map(|b| b.min),
        counts.stats.salary_max.map(|b| b.max),
    );
    region.panels = PANELS
        .iter()
        .map(|(facet, title)| {
            let selected: Vec<String> = answered
                .facets
                .get(facet)
                .map(|sel| sel.include.iter().filter_map(text).collect())
                .unwrap_or_default();
            let dist = counts.facets.get(facet).cloned().unwrap_or_default();
            let mut values: Vec<FacetLink> = dist
                .iter()
                .enumerate()
                .filter(|(i, (v, _))| *i < PANEL_VALUES || selected.contains(v))
                .map(|(_, (v, n))| link(params, *facet, v, *n, selected.contains(v)))
                .collect();
            for v in &selected {
                if !dist.iter().any(|(d, _)| d == v) {
                    values.push(link(params, *facet, v, 0, true));
                }
            }
            Panel { param: facet.param(), title, values }
        })
        .collect();
    let page = answered.page;
    if results.total == 0 && !answered.narrows() {
        region.empty_state = Some("No jobs yet: run `freehire ingest` or wait for the worker.");
    }
    if !region.hits.is_empty() {
        let first = u64::from(page.offset) + 1;
        region.range = format!("{first}–{}", u64::from(page.offset) + region.hits.len() as u64);
    }
    if page.offset > 0 {
        region.prev_href = Some(params.at_offset(page.offset.saturating_sub(page.limit)).href());
    }
    let next = page.offset + page.limit;
    if u64::from(next) < results.total && next + page.limit <= MAX_WINDOW {
        region.next_href = Some(params.at_offset(next).href());
    }
    (StatusCode::OK, region)
}

fn text(v: &freehire_search::FacetValue) -> Option<String> {
    match v {
        freehire_search::FacetValue::Text(t) => Some(t.clone()),
        freehire_search::FacetValue::Empty => Some(freehire_search::NO_REGION.to_owned()),
        freehire_search::FacetValue::Flag(_) => None,
    }
}

fn link(params: &Params, facet: Facet, value: &str, count: u64, selected: bool) -> FacetLink {
    FacetLink {
        label: format::label(facet.param(), value),
        count,
        href: params.toggle(facet, value).href(),
        selected,
    }
}

/// The chips of the selected filters (facets, their exclusions, scalars and the text).
fn chips(params: &Params) -> Vec<Chip> {
    let mut out = Vec::new();
    for (name, value) in &params.0 {
        if let Some(facet) = Facet::from_param(name) {
            for v in value.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                if let Some(p) = params.without_value(name, facet, v) {
                    let label = format!("{}: {}", heading(facet), format::label(name, v));
                    out.push(Chip { label, href: p.href() });
                }
            }
        } else if let Some(facet) = name.strip_suffix("_exclude").and_then(Facet::from_param) {
            for v in value.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                if let Some(p) = params.without_value(name, facet, v) {
                    let label =
                        format!("{}: not {}", heading(facet), format::label(facet.param(), v));
                    out.push(Chip { label, href: p.href() });
                }
            }
        } else {
            let label = match name.as_str() {
                "q" => format!("“{value}”"),
                "salary_min" => format!("Salary from {value}"),
                "salary_max" => format!("Salary up to {value}"),
                "posted_within_days" => format!("Posted within {value} days"),
                "open_within_days" => format!("First seen within {value} days"),
                "experience_years_min" => format!("Experience from {value} years"),
                "experience_years_max" => format!("Experience up to {value} years"),
                "visa_sponsorship" => format!("Visa sponsorship: {value}"),
                n if n.ends_with("_mode") => format!("{}: all of", n.trim_end_matches("_mode")),
                _ => continue,
            };
            out.push(Chip { label, href: params.without(name).href() });
        }
    }
    out
}

/// The panel heading of a facet, or its parameter name.
fn heading(facet: Facet) -> String {
    PANELS.iter().find(|(f, _)| *f == facet).map_or_else(
        || match facet {
            Facet::CompanySlug => "Company".to_owned(),
            other => format::label("", other.param()),
        },
        |(_, t)| (*t).to_owned(),
    )
}

fn hit(d: &SearchDocument, tz: Tz) -> Hit {
    let posted = DateTime::from_timestamp(d.posted_ts, 0).unwrap_or_default();
    let mut tags: Vec<String> = [Facet::WorkMode, Facet::Seniority]
        .iter()
        .flat_map(|f| d.values(*f).iter().map(|v| format::label(f.param(), v)))
        .collect();
    tags.extend(d.values(Facet::Skills).iter().take(5).cloned());
    let salary = format::salary_bounds(d.salary_min, d.salary_max).map(|range| {
        let currency = d.values(Facet::SalaryCurrency).first().cloned().unwrap_or_default();
        let period =
            d.values(Facet::SalaryPeriod).first().map(|p| format!(" a {p}")).unwrap_or_default();
        format!("{range} {currency}{period}")
    });
    let mut snippet: String = d.description.chars().take(240).collect();
    if d.description.chars().count() > 240 {
        snippet.push('…');
    }
    Hit {
        slug: d.public_slug.clone(),
        actions: None,
        title: d.title.clone(),
        href: format!("/jobs/{}", d.public_slug),
        company: d.company.clone(),
        company_href: (!d.company_slug.is_empty())
            .then(|| format!("/companies/{}", d.company_slug)),
        location: d.location.clone(),
        posted: format::day(posted, tz),
        posted_iso: posted.to_rfc3339(),
        salary,
        tags,
        snippet,
    }
}
