//! `/companies` (the list, with a name search, the region, country and work-mode filters and
//! paging) and `/companies/{slug}` (a company,
//! its facet summary and a page of its open jobs). A malformed slug or a company without open
//! jobs is the 404 page, a slug merged into another company a 301 to it; a bad
//! `limit`/`offset` reads as the first page.

use askama::Template;
use axum::{
    extract::{Path, RawQuery, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use freehire_app::search_slot::SearchStatus;
use freehire_app::{catalogue::CompanyAt, company_filter};
use freehire_domain::{CompanySlug, Job, Region};
use freehire_store::{CompanyFilter, CompanyList, ListPage};

use crate::{WebError, WebState, format, layout::Ctx, layout::Layout};

/// One company in the list.
pub struct Row {
    /// Its name.
    pub name: String,
    /// `/companies/{slug}`.
    pub href: String,
    /// Open jobs.
    pub jobs: u64,
    /// Newest posting.
    pub latest: String,
    /// Countries and work modes, briefly.
    pub summary: String,
}

/// The companies page.
#[derive(Template)]
#[template(path = "companies.html")]
pub struct CompaniesPage {
    /// The layout.
    pub layout: Layout,
    /// The name search.
    pub q: String,
    /// The region filter as typed (`eu`, …; empty = any).
    pub region: String,
    /// The regions offered: value and label.
    pub regions: Vec<(&'static str, String)>,
    /// The country filter as typed (ISO codes, comma-separated).
    pub country: String,
    /// The work mode filter as typed.
    pub work_mode: String,
    /// Whether any filter (the name search included) narrows the list.
    pub filtered: bool,
    /// A refused filter value, naming the filter and the allowed values.
    pub error: Option<String>,
    /// The rows.
    pub rows: Vec<Row>,
    /// Companies in all.
    pub total: u64,
    /// The previous page.
    pub prev_href: Option<String>,
    /// The next page.
    pub next_href: Option<String>,
}

/// One job of a company.
pub struct JobRow {
    /// Its title.
    pub title: String,
    /// `/jobs/{slug}`.
    pub href: String,
    /// Its location.
    pub location: String,
    /// Posted.
    pub posted: String,
}

/// A company page.
#[derive(Template)]
#[template(path = "company.html")]
pub struct CompanyPage {
    /// The layout.
    pub layout: Layout,
    /// Its name.
    pub name: String,
    /// Open jobs in all.
    pub total: u64,
    /// Facet summary rows.
    pub facts: Vec<(&'static str, String)>,
    /// `/jobs?company_slug=…`: its jobs in the search.
    pub search_href: String,
    /// A page of its jobs.
    pub jobs: Vec<JobRow>,
    /// The previous page.
    pub prev_href: Option<String>,
    /// The next page.
    pub next_href: Option<String>,
}

fn first<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn page_of(params: &[(String, String)]) -> ListPage {
    let offset = first(params, "offset").and_then(|v| v.trim().parse::<u64>().ok()).unwrap_or(0);
    ListPage::new(ListPage::DEFAULT_LIMIT, offset)
}

fn pager(
    base: &str,
    extra: &[(&str, &str)],
    offset: u64,
    shown: usize,
    total: u64,
) -> (Option<String>, Option<String>) {
    let limit = u64::from(ListPage::DEFAULT_LIMIT);
    let href = |offset: u64| {
        let mut s = url::form_urlencoded::Serializer::new(String::new());
        for (k, v) in extra {
            s.append_pair(k, v);
        }
        if offset > 0 {
            s.append_pair("offset", &offset.to_string());
        }
        let q = s.finish();
        if q.is_empty() { base.to_owned() } else { format!("{base}?{q}") }
    };
    let prev = (offset > 0).then(|| href(offset.saturating_sub(limit)));
    let next = (offset + (shown as u64) < total).then(|| href(offset + limit));
    (prev, next)
}

/// `GET /companies`.
pub async fn list(State(state): State<WebState>, ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let params: Vec<(String, String)> =
        url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes()).into_owned().collect();
    let q = first(&params, "q").unwrap_or_default().trim().to_owned();
    let page = page_of(&params);
    // The filters the form offers, kept as typed so the form and the pager show them again.
    let kept: Vec<(&str, String)> = ["q", "regions", "countries", "work_mode"]
        .into_iter()
        .filter_map(|k| {
            let v = first(&params, k).unwrap_or_default().trim();
            (!v.is_empty()).then(|| (k, v.to_owned()))
        })
        .collect();
    let shown =
        |k: &str| kept.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()).unwrap_or_default();
    let (filter, error) = match company_filter::parse(&params) {
        Ok(filter) => (filter, None),
        Err(e) => (CompanyFilter::default(), Some(e.to_string())),
    };
    // Served by the search engine's companies index; before the worker has built an index
    // there are no companies yet (the page says so), and an index that cannot be opened is
    // the 503 page.
    let list = match state.search.get().await {
        Ok(index) => match state.catalogue.companies(index.as_ref(), &filter, page).await {
            Ok(list) => list,
            Err(e) => return ctx.error(e),
        },
        Err(SearchStatus::Missing | SearchStatus::Ok) => CompanyList::default(),
        Err(SearchStatus::Off | SearchStatus::Unavailable) => {
            return ctx.error(WebError::Unavailable);
        }
    };
    let filtered = filter != CompanyFilter::default();
    let rows = list
        .companies
        .iter()
        .map(|c| Row {
            name: c.name.clone(),
            href: format!("/companies/{}", c.slug.as_str()),
            jobs: c.job_count,
            latest: format::day(c.latest_posted_at, ctx.tz),
            summary: c
                .countries
                .iter()
                .take(4)
                .map(|x| x.as_str().to_ascii_uppercase())
                .chain(c.work_modes.iter().map(|m| format::label("", m.as_str())))
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect::<Vec<_>>();
    let extra: Vec<(&str, &str)> = kept.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (prev_href, next_href) = pager("/companies", &extra, page.offset(), rows.len(), list.total);
    ctx.page(&CompaniesPage {
        layout: ctx.layout("Companies"),
        region: shown("regions"),
        regions: Region::ALL
            .iter()
            .map(|r| (r.as_str(), format::label("regions", r.as_str())))
            .collect(),
        country: shown("countries"),
        work_mode: shown("work_mode"),
        filtered,
        error,
        q,
        rows,
        total: list.total,
        prev_href,
        next_href,
    })
}

fn job_row(job: &Job, ctx: &Ctx) -> JobRow {
    JobRow {
        title: job.posting.title.clone(),
        href: format!("/jobs/{}", job.public_slug.as_str()),
        location: job.posting.location.clone(),
        posted: format::day(job.effective_posted_at(ctx.now), ctx.tz),
    }
}

/// `GET /companies/{slug}`.
pub async fn show(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let slug = match CompanySlug::parse(&raw) {
        Ok(slug) if !slug.as_str().is_empty() => slug,
        _ => return ctx.error(WebError::NotFound),
    };
    let params: Vec<(String, String)> =
        url::form_urlencoded::parse(query.as_deref().unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let page = page_of(&params);
    let detail = match state.catalogue.company(&slug, page, ctx.now).await {
        Ok(CompanyAt::Found(d)) => d,
        Ok(CompanyAt::MovedTo(canonical)) => {
            let mut to = format!("/companies/{}", canonical.as_str());
            if let Some(q) = query.filter(|q| !q.is_empty()) {
                to = format!("{to}?{q}");
            }
            return (StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, to)]).into_response();
        }
        Ok(CompanyAt::NotFound) => return ctx.error(WebError::NotFound),
        Err(e) => return ctx.error(e),
    };
    let c = &detail.company;
    let join = |v: Vec<String>| (!v.is_empty()).then(|| v.join(", "));
    let facts = [
        ("Regions", join(c.regions.iter().map(|r| format::label("regions", r.as_str())).collect())),
        ("Countries", join(c.countries.iter().map(|x| x.as_str().to_ascii_uppercase()).collect())),
        ("Work modes", join(c.work_modes.iter().map(|m| format::label("", m.as_str())).collect())),
        ("Top skills", join(c.top_skills.clone())),
        ("Sources", join(c.sources.iter().map(|s| s.as_str().to_owned()).collect())),
        ("Latest posting", Some(format::day(c.latest_posted_at, ctx.tz))),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k, v)))
    .collect();
    let jobs: Vec<JobRow> = detail.jobs.jobs.iter().map(|j| job_row(j, &ctx)).collect();
    let base = format!("/companies/{}", slug.as_str());
    let (prev_href, next_href) = pager(&base, &[], page.offset(), jobs.len(), detail.jobs.total);
    ctx.page(&CompanyPage {
        layout: ctx.layout(c.name.clone()),
        name: c.name.clone(),
        total: detail.jobs.total,
        facts,
        search_href: format!("/jobs?company_slug={}", slug.as_str()),
        jobs,
        prev_href,
        next_href,
    })
}
