//! Discovery tools (reference §10.2): `get_profile`, `facets`, `search_jobs`, `get_job`,
//! `get_company`, `market_fit`, `present_jobs`.
//!
//! Filters are `{facetName: [values]}` in the search grammar (a facet, its `_exclude` and
//! `_mode` forms, or a scalar such as `salary_min`); blank values are dropped and an unknown
//! name is refused listing the valid ones. Descriptions are markdown ([`crate::describe`]),
//! each clipped so a full page of results fits under the registry's result cap.

use std::collections::BTreeMap;
use std::sync::Arc;

use freehire_domain::{CompanySlug, PublicSlug, UserId};
use freehire_search::{
    AgentSearchRequest, DescriptionFormat, Distribution, Endpoint, Facet, FacetsRequest,
    SCALAR_PARAMS,
};
use freehire_store::ListPage;
use freehire_tools::{NoArgs, Owner, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize, Serializer, ser::SerializeMap};
use serde_json::{Value, json};

use super::view::{CompanyView, JobView};
use super::{Services, internal, public_tool, tool};
use crate::assistant::ASSISTANT_RESULT_CAP;
use crate::catalogue::CompanyAt;
use crate::tracking::TrackingFilter;
use crate::{AppError, describe, market};

/// `search_jobs`' page size when none (or a non-positive one) is given.
pub const DEFAULT_SEARCH_LIMIT: u32 = 10;
/// `search_jobs`' largest page.
pub const MAX_SEARCH_LIMIT: u32 = 20;
/// `present_jobs`' most entries.
pub const PRESENT_MAX_ENTRIES: usize = 10;
/// `present_jobs`' most `why_fits` items per entry.
pub const PRESENT_MAX_WHY_FITS: usize = 4;
/// `present_jobs`' most `concerns` items per entry.
pub const PRESENT_MAX_CONCERNS: usize = 3;
/// How many values of each facet `facets` shows (most frequent first).
pub const FACET_VALUES_SHOWN: usize = 40;
/// `get_company`'s page of jobs.
pub const COMPANY_JOBS: u32 = 10;
/// The bytes of descriptions one page of results may carry in all (the rest of the result
/// cap is left for the other fields).
const DESCRIPTION_BUDGET: usize = ASSISTANT_RESULT_CAP - 10_000;

/// What the chat prompt points at when the candidate has set nothing up.
pub const PROFILE_NEXT: &str = "The candidate has not set anything up yet: no saved search and \
     no tracked vacancy. Point them to their account page at /account (language and time zone), \
     and offer to search now from what they tell you; saving a search or a few vacancies lets \
     you pick up where they left off next time.";

pub(super) fn tools(s: &Arc<Services>) -> Vec<Arc<dyn Tool<UserId>>> {
    let mut tools = vec![tool(
        s,
        "get_profile",
        "What freehire knows about the candidate: their account (language, time zone), \
         their saved searches (what they look for) and a summary of their tracking board. \
         Call it first, before asking them anything.",
        get_profile,
    )];
    tools.extend(public_tools(s));
    tools.push(tool(
        s,
        "present_jobs",
        "Shows vacancies to the candidate as cards: the only way to show vacancies. Pass \
         each public_slug verbatim with one `note` sentence, optional `why_fits` and \
         `concerns`. One call per group (a `heading` for a second group), before writing \
         text about them. Returns a receipt {presented, dropped}.",
        present_jobs,
    ));
    tools
}

/// The discovery tools that read only the public catalogue, for any owner (the owner is not
/// read): `facets`, `search_jobs`, `get_job`, `get_company`, `market_fit`. The MCP server
/// offers them to anonymous callers too.
pub(crate) fn public_tools<O: Owner>(s: &Arc<Services>) -> Vec<Arc<dyn Tool<O>>> {
    vec![
        public_tool(
            s,
            "facets",
            "Live value counts of every search filter (facet) and numeric ranges over the \
             vacancies matching `filters`: the valid filter names and values. Call it before \
             filtering; never invent a value or a skill slug.",
            facets,
        ),
        public_tool(
            s,
            "search_jobs",
            "Searches open vacancies: free text plus filters. Returns {total, limit, offset, \
             jobs}, each job with its public_slug and its description as markdown, so judge \
             the results from this one call.",
            search_jobs,
        ),
        public_tool(
            s,
            "get_job",
            "One vacancy by its public_slug, with its description as markdown.",
            get_job,
        ),
        public_tool(
            s,
            "get_company",
            "One company by its slug (company_slug of a job) and its first 10 open vacancies.",
            get_company,
        ),
        public_tool(
            s,
            "market_fit",
            "Measures how much of the market a set of skills reaches: of the vacancies matching \
             `filters`, the share listing at least one of `skills`, per-skill counts, the gaps \
             (skills few vacancies list) and the most listed skills. `skills` is the set being \
             measured, not a filter.",
            market_fit,
        ),
    ]
}

/// Filters in the search grammar: `{"countries": ["de"], "work_mode": ["remote"]}`.
pub type Filters = BTreeMap<String, Vec<String>>;

fn is_filter_name(name: &str) -> bool {
    Endpoint::Search.knows(name) && !Endpoint::Search.own_params().contains(&name)
}

/// The filter names, sorted.
pub fn filter_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = Facet::ALL.iter().map(|f| f.param()).collect();
    names.extend_from_slice(SCALAR_PARAMS);
    names.sort_unstable();
    names
}

/// The query parameters of `filters`, blank values dropped; an unknown name is refused.
pub fn filter_params(filters: Option<&Filters>) -> Result<Vec<(String, String)>, String> {
    let mut params = Vec::new();
    for (name, values) in filters.into_iter().flatten() {
        if !is_filter_name(name) {
            return Err(format!(
                "unknown filter {name:?} — call the facets tool for the valid filter names and \
                 values; valid names are: {} (a facet also takes <name>_exclude and <name>_mode)",
                filter_names().join(", ")
            ));
        }
        for value in values.iter().map(|v| v.trim()).filter(|v| !v.is_empty()) {
            params.push((name.clone(), value.to_owned()));
        }
    }
    Ok(params)
}

/// A search failure as the model reads it: a refused parameter names itself and the allowed
/// values; anything else is internal.
fn search_failure(tool: &str, e: AppError) -> String {
    match e {
        AppError::Query(e) => e.to_string(),
        other => internal(tool, other),
    }
}

async fn get_profile(s: Arc<Services>, owner: UserId, _: NoArgs) -> Result<Value, String> {
    let now = s.now();
    let user = s.store.user_by_id(owner).await.map_err(|e| internal("get_profile", e))?;
    let Some(user) = user else {
        return Err("the saved profile is not available".to_owned());
    };
    let searches = s.saved.list(owner).await.map_err(|e| internal("get_profile", e))?;
    let tracked = s
        .tracking
        .list(owner, TrackingFilter::All, 1, 0, now)
        .await
        .map_err(|e| internal("get_profile", e))?
        .total;
    let bank =
        s.experience.bank(owner).await.map_err(|e| internal("get_profile", e.to_string()))?;
    let screening = s.screening.get(owner).await.map_err(|e| internal("get_profile", e))?;
    if searches.is_empty()
        && tracked == 0
        && bank.atoms.is_empty()
        && bank.employments.is_empty()
        && screening.is_empty()
    {
        return Ok(json!({ "profile": null, "next": PROFILE_NEXT }));
    }
    let experience = json!({
        "employments": bank.employments.len(),
        "achievements": bank.atoms.len(),
        "confirmed": bank.atoms.iter().filter(|a| a.atom.publishable()).count(),
        "needs_context_count": bank.atoms.iter().filter(|a| a.richness.needs_context).count(),
        "needs_metrics_count": bank.atoms.iter().filter(|a| a.richness.needs_metrics).count(),
        "soft_duplicate_clusters": bank.soft_duplicates.iter()
            .map(|c| c.iter().map(ToString::to_string).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        "require_context": bank.require_context,
    });
    let mut counts = serde_json::Map::new();
    for filter in [TrackingFilter::Saved, TrackingFilter::Applied, TrackingFilter::Dismissed] {
        let page = s.tracking.list(owner, filter, 1, 0, now).await;
        let total = page.map_err(|e| internal("get_profile", e))?.total;
        counts.insert(filter.as_str().to_owned(), total.into());
    }
    let pipeline = s.tracking.pipeline(owner).await.map_err(|e| internal("get_profile", e))?;
    let columns: serde_json::Map<String, Value> =
        pipeline.groups.iter().map(|(g, n)| (g.as_str().to_owned(), (*n).into())).collect();
    counts.insert("tracked".to_owned(), tracked.into());
    counts.insert("board".to_owned(), json!(columns));
    let searches: Vec<Value> =
        searches.iter().map(|x| json!({ "name": x.name, "query": x.query })).collect();
    let mut account = json!({ "language": user.language.as_str() });
    if let Some(tz) = &user.timezone {
        account["timezone"] = tz.as_str().into();
    }
    if let Some(name) = &user.username {
        account["name"] = name.as_str().into();
    }
    Ok(json!({
        "account": account,
        "saved_searches": searches,
        "tracking": counts,
        "experience": experience,
        "screening_answers": screening,
        "screening_unstated": super::screening::unstated(&screening),
        "skills_profile": "freehire keeps no skills or specialisation profile yet: infer what \
             they look for from their saved searches and tracked vacancies, and ask only about \
             what those leave open",
    }))
}

/// `facets` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct FacetsArgs {
    /// Narrow the counts to vacancies matching these filters: `{facet_name: [values]}`.
    pub filters: Option<Filters>,
}

/// One facet's counts, serialised as `{value: count}` in count order.
struct Ranked<'a>(&'a [(String, u64)]);

impl Serialize for Ranked<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(value, count)| (value, count)))
    }
}

/// Facets in table order, each its most frequent values.
struct FacetsOut(BTreeMap<Facet, Distribution>);

impl Serialize for FacetsOut {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (facet, counts) in &self.0 {
            let shown = &counts[..counts.len().min(FACET_VALUES_SHOWN)];
            map.serialize_entry(facet.param(), &Ranked(shown))?;
        }
        map.end()
    }
}

async fn facets(s: Arc<Services>, a: FacetsArgs) -> Result<Value, String> {
    let params = filter_params(a.filters.as_ref())?;
    let index = s.index().await?;
    let request = FacetsRequest::parse(&params).map_err(|e| e.to_string())?;
    let counts = crate::search::facets(index.as_ref(), &request, s.now())
        .await
        .map_err(|e| search_failure("facets", e))?;
    let bounds =
        |b: Option<freehire_search::Bounds>| b.map(|b| json!({"min": b.min, "max": b.max}));
    let mut stats = serde_json::Map::new();
    for (name, b) in [
        ("salary_min", counts.stats.salary_min),
        ("salary_max", counts.stats.salary_max),
        ("experience_years_min", counts.stats.experience_years_min),
    ] {
        if let Some(b) = bounds(b) {
            stats.insert(name.to_owned(), b);
        }
    }
    let facets =
        serde_json::to_value(FacetsOut(counts.facets)).map_err(|e| internal("facets", e))?;
    Ok(json!({ "total": counts.total, "facets": facets, "stats": stats }))
}

/// `search_jobs` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchJobsArgs {
    /// Free text matched against title, company, description and location; empty lists the
    /// newest vacancies first.
    pub query: Option<String>,
    /// Filters: `{facet_name: [values]}` with names and values from the facets tool.
    pub filters: Option<Filters>,
    /// Page size: default 10, at most 20.
    pub limit: Option<i64>,
    /// Vacancies to skip (for the next page).
    pub offset: Option<i64>,
}

/// `text` cut to at most `bytes` bytes at a character boundary, marked when cut.
pub fn clip(text: String, bytes: usize) -> String {
    if text.len() <= bytes {
        return text;
    }
    let mut end = bytes;
    while end > 0 && !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

async fn search_jobs(s: Arc<Services>, a: SearchJobsArgs) -> Result<Value, String> {
    let limit = match a.limit {
        Some(n) if n > 0 => u32::try_from(n).unwrap_or(MAX_SEARCH_LIMIT).min(MAX_SEARCH_LIMIT),
        _ => DEFAULT_SEARCH_LIMIT,
    };
    let offset = a.offset.unwrap_or(0).max(0);
    let mut params = filter_params(a.filters.as_ref())?;
    if let Some(q) = a.query.as_deref().map(str::trim).filter(|q| !q.is_empty()) {
        params.push(("q".to_owned(), q.to_owned()));
    }
    params.push(("limit".to_owned(), limit.to_string()));
    params.push(("offset".to_owned(), offset.to_string()));
    let mut request = AgentSearchRequest::parse(&params).map_err(|e| e.to_string())?;
    request.description_format = DescriptionFormat::Markdown;
    let index = s.index().await?;
    let now = s.now();
    let found = crate::search::agent_hits(s.store.as_ref(), index.as_ref(), &request, now)
        .await
        .map_err(|e| search_failure("search_jobs", e))?;
    let share = DESCRIPTION_BUDGET / found.jobs.len().max(1);
    let jobs: Vec<JobView> = found
        .jobs
        .iter()
        .map(|j| JobView::new(j, Some(clip(j.posting.description.clone(), share)), now))
        .collect();
    let mut out = json!({ "total": found.total, "limit": limit, "offset": offset, "jobs": jobs });
    if !found.query.ignored_params.is_empty() {
        let ignored: Vec<&str> =
            found.query.ignored_params.iter().map(|p| p.param.as_str()).collect();
        out["ignored_filters"] = json!(ignored);
    }
    Ok(out)
}

/// A vacancy's address.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SlugArgs {
    /// The vacancy's public_slug, copied verbatim from a search or read result.
    pub slug: String,
}

/// `slug` trimmed, or `slug is required`.
pub(super) fn required_slug(slug: &str) -> Result<&str, String> {
    let slug = slug.trim();
    if slug.is_empty() { Err("slug is required".to_owned()) } else { Ok(slug) }
}

async fn get_job(s: Arc<Services>, a: SlugArgs) -> Result<Value, String> {
    let raw = required_slug(&a.slug)?;
    let missing = || format!("no vacancy with slug {raw:?}");
    let slug = PublicSlug::parse(raw).map_err(|_| missing())?;
    let detail =
        s.catalogue.job_detail(&slug, s.now()).await.map_err(|e| internal("get_job", e))?;
    let detail = detail.ok_or_else(missing)?;
    let now = s.now();
    let description =
        describe::render(&detail.job.posting.description, DescriptionFormat::Markdown);
    let mut out = serde_json::to_value(JobView::new(&detail.job, Some(description), now))
        .map_err(|e| internal("get_job", e))?;
    let r = &detail.signals.reality;
    out["reality"] = json!({
        "class": r.class.as_str(),
        "age_days": r.age_days,
        "repost_count": r.repost_count,
        "mass_posting_count": r.mass_posting_count,
        "fake_freshness": r.fake_freshness,
    });
    if !detail.copies.is_empty() {
        let copies: Vec<Value> = detail
            .copies
            .iter()
            .map(|c| json!({ "public_slug": c.public_slug.as_str(), "location": c.posting.location }))
            .collect();
        out["other_locations"] = json!(copies);
    }
    Ok(out)
}

/// A company's address.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CompanyArgs {
    /// The company's slug (a job's company_slug).
    pub slug: String,
}

async fn get_company(s: Arc<Services>, a: CompanyArgs) -> Result<Value, String> {
    let raw = required_slug(&a.slug)?;
    let missing = || format!("no company with slug {raw:?}");
    let slug = CompanySlug::parse(raw).map_err(|_| missing())?;
    let now = s.now();
    let page = ListPage::new(COMPANY_JOBS, 0);
    let fetch = |slug: CompanySlug| {
        let s = Arc::clone(&s);
        async move {
            s.catalogue.company(&slug, page, now).await.map_err(|e| internal("get_company", e))
        }
    };
    // A merged slug answers as the company it was merged into.
    let detail = match fetch(slug).await? {
        CompanyAt::MovedTo(canonical) => fetch(canonical).await?,
        other => other,
    };
    let CompanyAt::Found(detail) = detail else { return Err(missing()) };
    let jobs: Vec<JobView> = detail.jobs.jobs.iter().map(|j| JobView::new(j, None, now)).collect();
    Ok(json!({
        "company": CompanyView::new(&detail.company),
        "jobs": jobs,
        "total_jobs": detail.jobs.total,
    }))
}

/// `market_fit` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct MarketFitArgs {
    /// The canonical skill slugs to measure (from the facets tool), at most 20.
    pub skills: Vec<String>,
    /// The slice of the market to measure: `{facet_name: [values]}`; a `skills` filter here
    /// is ignored.
    pub filters: Option<Filters>,
}

#[derive(Serialize)]
struct MarketFit {
    #[serde(flatten)]
    coverage: market::Coverage,
    /// No fit analysis exists yet.
    coherence_percent: u8,
}

async fn market_fit(s: Arc<Services>, a: MarketFitArgs) -> Result<Value, String> {
    let mut skills: Vec<String> = Vec::new();
    for skill in a.skills.iter().map(|x| x.trim()).filter(|x| !x.is_empty()) {
        if !skills.iter().any(|k| k == skill) {
            skills.push(skill.to_owned());
        }
    }
    if skills.is_empty() {
        return Err("skills is required — list the canonical slugs to measure".to_owned());
    }
    if skills.len() > market::MAX_COVERAGE_SKILLS {
        return Err(format!("too many skills (max {})", market::MAX_COVERAGE_SKILLS));
    }
    let params = filter_params(a.filters.as_ref())?;
    let index = s.index().await?;
    let coverage = market::coverage(index.as_ref(), &params, &skills, s.now())
        .await
        .map_err(|e| search_failure("market_fit", e))?;
    serde_json::to_value(MarketFit { coverage, coherence_percent: 0 })
        .map_err(|e| internal("market_fit", e))
}

/// One vacancy to show.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct PresentEntry {
    /// The vacancy's public_slug, copied verbatim.
    pub slug: String,
    /// One sentence: why this vacancy is shown.
    pub note: String,
    /// Up to 4 short reasons it fits the candidate.
    #[schemars(length(max = 4))]
    pub why_fits: Option<Vec<String>>,
    /// Up to 3 short concerns.
    #[schemars(length(max = 3))]
    pub concerns: Option<Vec<String>>,
}

/// `present_jobs` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct PresentJobsArgs {
    /// A heading for this group of cards (give a second group its own).
    pub heading: Option<String>,
    /// The vacancies to show, 1 to 10, in the order to show them.
    #[schemars(length(min = 1, max = 10))]
    pub jobs: Vec<PresentEntry>,
}

/// Checks the entries; the first problem names its index and slug.
fn check_entries(jobs: &[PresentEntry]) -> Result<(), String> {
    if jobs.is_empty() {
        return Err("jobs must contain at least one vacancy to show".to_owned());
    }
    if jobs.len() > PRESENT_MAX_ENTRIES {
        return Err(format!(
            "jobs has {} entries; show at most {PRESENT_MAX_ENTRIES} — keep the best ones, or \
             call present_jobs again with a heading for another group",
            jobs.len()
        ));
    }
    for (i, job) in jobs.iter().enumerate() {
        let slug = job.slug.trim();
        if slug.is_empty() {
            return Err(format!(
                "jobs[{i}] has no slug — copy the public_slug from a search or read result"
            ));
        }
        if job.note.trim().is_empty() {
            return Err(format!(
                "jobs[{i}] ({slug}) has no note — give every vacancy one sentence on why it is \
                 shown"
            ));
        }
        let why = job.why_fits.as_ref().map_or(0, Vec::len);
        if why > PRESENT_MAX_WHY_FITS {
            return Err(format!(
                "jobs[{i}] ({slug}) has {why} why_fits; give at most {PRESENT_MAX_WHY_FITS}, the \
                 strongest"
            ));
        }
        let concerns = job.concerns.as_ref().map_or(0, Vec::len);
        if concerns > PRESENT_MAX_CONCERNS {
            return Err(format!(
                "jobs[{i}] ({slug}) has {concerns} concerns; give at most \
                 {PRESENT_MAX_CONCERNS}, the most important"
            ));
        }
    }
    Ok(())
}

/// Why a slug was not shown.
pub const NO_SUCH_SLUG: &str =
    "no vacancy has this public_slug — copy it from a search or read result";

async fn present_jobs(s: Arc<Services>, _: UserId, a: PresentJobsArgs) -> Result<Value, String> {
    check_entries(&a.jobs)?;
    let asked: Vec<&str> = a.jobs.iter().map(|j| j.slug.trim()).collect();
    let parsed: Vec<PublicSlug> = asked.iter().filter_map(|s| PublicSlug::parse(s).ok()).collect();
    let found =
        s.catalogue.jobs_by_slugs(&parsed).await.map_err(|e| internal("present_jobs", e))?;
    let mut presented: Vec<&str> = Vec::new();
    let mut dropped = Vec::new();
    for slug in &asked {
        if presented.contains(slug) {
            dropped.push(json!({ "slug": slug, "reason": "listed twice; shown once" }));
        } else if found.iter().any(|j| j.public_slug.as_str() == *slug) {
            presented.push(slug);
        } else {
            dropped.push(json!({ "slug": slug, "reason": NO_SUCH_SLUG }));
        }
    }
    if presented.is_empty() {
        return Err(format!(
            "none of these slugs exist, so there is nothing to show: {}",
            asked.join(", ")
        ));
    }
    Ok(json!({ "presented": presented, "dropped": dropped }))
}
