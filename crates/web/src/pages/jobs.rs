//! `/jobs/{slug}`: one job, open or closed: title, company (linked), location, facets as
//! tags, salary, dates, the description, the apply link to the source, a banner when closed,
//! and the same role's copies in other cities, and for a signed-in viewer the save, dismiss and
//! "mark applied" buttons ([`super::actions`]). A malformed or unknown slug is the 404 page.
//!
//! The description is the one value rendered unescaped (`|safe` in `job.html`): it is stored
//! only after the ingest sanitiser (`freehire_ingest::sanitize_html`, an allow-list of tags
//! and attributes without scripts, styles or event handlers) cleaned it.

use askama::Template;
use axum::{
    extract::{Path, State},
    response::Response,
};
use freehire_domain::{Job, PublicSlug};

use super::actions::{Actions, ViewerMarks};
use crate::{WebError, WebState, format, layout::Ctx, layout::Layout};

/// A copy of the role elsewhere.
pub struct Copy {
    /// `/jobs/{slug}`.
    pub href: String,
    /// Its location.
    pub location: String,
}

/// The job page.
#[derive(Template)]
#[template(path = "job.html")]
pub struct JobPage {
    /// The layout.
    pub layout: Layout,
    /// The job's public slug.
    pub slug: String,
    /// The title.
    pub title: String,
    /// The company's name.
    pub company: String,
    /// `/companies/{slug}`, when it has a company.
    pub company_href: Option<String>,
    /// The location.
    pub location: String,
    /// Facet values as (label, value) rows.
    pub facts: Vec<(&'static str, String)>,
    /// Skills.
    pub skills: Vec<String>,
    /// The salary.
    pub salary: Option<String>,
    /// Posted (effective), first seen, last seen, closed.
    pub posted: String,
    /// First seen.
    pub first_seen: String,
    /// Last seen at the source.
    pub last_seen: String,
    /// When it closed, if it did.
    pub closed: Option<String>,
    /// Its reality class (`fresh`, `stale`, `likely-evergreen`) and what it rests on.
    pub reality: (&'static str, String),
    /// The warning of an old posting claiming a recent date.
    pub fake_freshness: bool,
    /// The ghost signal in words, when it says something (`possible`, `likely`).
    pub ghost: Option<String>,
    /// The viewer's live ghost report (the day they applied), for an open job; `Some(None)`:
    /// none yet (the form shows).
    pub my_ghost_report: Option<Option<String>>,
    /// The sanitised description (HTML).
    pub description: String,
    /// The apply link at the source.
    pub url: String,
    /// The source's name.
    pub source: String,
    /// The same role elsewhere.
    pub copies: Vec<Copy>,
    /// The viewer's save / apply / dismiss buttons (signed in only).
    pub actions: Option<Actions>,
    /// The sign-in page, coming back here.
    pub sign_in_href: String,
}

fn facts(job: &Job) -> Vec<(&'static str, String)> {
    let f = &job.posting.facets;
    let list = |v: Vec<String>| (!v.is_empty()).then(|| v.join(", "));
    [
        ("Work mode", f.work_mode.map(|v| format::label("", v.as_str()))),
        ("Seniority", f.seniority.map(|v| format::label("", v.as_str()))),
        ("Category", f.category.map(|v| format::label("", v.as_str()))),
        ("Employment", f.employment_type.map(|v| format::label("", v.as_str()))),
        ("Regions", list(f.regions.iter().map(|r| format::label("regions", r.as_str())).collect())),
        ("Countries", list(f.countries.iter().map(|c| c.as_str().to_ascii_uppercase()).collect())),
        ("Cities", list(f.cities.clone())),
        ("Experience", f.experience_years_min.map(|y| format!("{y}+ years"))),
        ("Education", f.education_level.map(|v| format::label("", v.as_str()))),
        ("English", f.english_level.map(|v| format::label("", v.as_str()))),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k, v)))
    .collect()
}

/// What a reality class rests on, in words.
fn reality_text(r: &freehire_domain::reality::Reality) -> String {
    let class = match r.class {
        freehire_domain::RealityClass::Fresh => "Fresh",
        freehire_domain::RealityClass::Stale => "Not fresh",
        freehire_domain::RealityClass::LikelyEvergreen => "Likely an evergreen advert",
    };
    let days = if r.age_days == 1 { "1 day".to_owned() } else { format!("{} days", r.age_days) };
    let mut why = vec![format!("first seen {days} ago")];
    if r.repost_count > r.mass_posting_count {
        why.push(format!("posted {} times before", r.repost_count - r.mass_posting_count));
    }
    if r.mass_posting_count > 1 {
        why.push(format!("{} open at once", r.mass_posting_count));
    }
    format!("{class}: {}", why.join(", "))
}

/// The ghost signal in words, when its level says something.
fn ghost_text(g: &freehire_domain::ghost::Ghost) -> Option<String> {
    let level = match g.level {
        freehire_domain::GhostLevel::None => return None,
        freehire_domain::GhostLevel::Possible => "Possibly a ghost job",
        freehire_domain::GhostLevel::Likely => "Likely a ghost job",
    };
    let why: Vec<&str> = g
        .criteria
        .iter()
        .map(|c| match c {
            freehire_domain::GhostCriterion::EvergreenPosting => "it reads as a standing advert",
            freehire_domain::GhostCriterion::AtsAbsent => {
                "the employer's own board no longer lists it"
            }
            freehire_domain::GhostCriterion::SilentApplications => {
                "applications to it went unanswered"
            }
            freehire_domain::GhostCriterion::UserReports => "applicants reported it",
        })
        .collect();
    let people = g.contributors.map(|n| format!(" ({n} people)")).unwrap_or_default();
    Some(format!("{level}: {}{people}.", why.join("; ")))
}

/// `GET /jobs/{slug}`.
pub async fn page(State(state): State<WebState>, ctx: Ctx, Path(raw): Path<String>) -> Response {
    let Ok(slug) = PublicSlug::parse(&raw) else {
        return ctx.error(WebError::NotFound);
    };
    let detail = match state.catalogue.job_detail(&slug, ctx.now).await {
        Ok(Some(detail)) => detail,
        Ok(None) => return ctx.error(WebError::NotFound),
        Err(e) => return ctx.error(e),
    };
    let here = format!("/jobs/{}", slug.as_str());
    let actions = match &ctx.viewer {
        Some(user) => match ViewerMarks::load(&state, user, ctx.now).await {
            Ok(marks) => Some(marks.actions(slug.as_str(), &ctx.csrf, &here)),
            Err(e) => return ctx.error(e),
        },
        None => None,
    };
    let sign_in_href = format!(
        "/login?{}",
        url::form_urlencoded::Serializer::new(String::new()).append_pair("next", &here).finish()
    );
    let job = &detail.job;
    let my_ghost_report = match (&ctx.viewer, job.is_open()) {
        (Some(user), true) => match state.tracking.my_ghost_report(user.id, job.id).await {
            Ok(day) => Some(day.map(|d| d.format("%Y-%m-%d").to_string())),
            Err(e) => return ctx.error(e),
        },
        _ => None,
    };
    let p = &job.posting;
    let page = JobPage {
        layout: ctx.layout(format!("{} at {}", p.title, p.company)),
        slug: slug.as_str().to_owned(),
        title: p.title.clone(),
        company: p.company.clone(),
        company_href: (!job.company_slug.as_str().is_empty())
            .then(|| format!("/companies/{}", job.company_slug.as_str())),
        location: p.location.clone(),
        facts: facts(job),
        skills: p.facets.skills.clone(),
        salary: p.salary.as_ref().map(format::salary),
        posted: ctx.date(job.effective_posted_at(ctx.now)),
        first_seen: ctx.date(job.created_at),
        last_seen: ctx.date(job.last_seen_at),
        closed: job.closed_at.map(|at| ctx.date(at)),
        reality: (detail.signals.reality.class.as_str(), reality_text(&detail.signals.reality)),
        fake_freshness: detail.signals.reality.fake_freshness,
        ghost: detail.signals.ghost.as_ref().and_then(ghost_text),
        my_ghost_report,
        description: p.description.clone(),
        url: p.url.clone(),
        source: p.source.as_str().to_owned(),
        copies: detail
            .copies
            .iter()
            .map(|c| Copy {
                href: format!("/jobs/{}", c.public_slug.as_str()),
                location: if c.posting.location.is_empty() {
                    "(no location)".to_owned()
                } else {
                    c.posting.location.clone()
                },
            })
            .collect(),
        actions,
        sign_in_href,
    };
    ctx.page(&page)
}
