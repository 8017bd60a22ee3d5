//! The experience bank on the pages: `/experience` lists the viewer's employments (jobs and
//! projects) and their achievements with each one's provenance ("Confirmed" or "Unconfirmed:
//! the assistant's reading"), near-duplicates with a "Merge" button, and forms to add an
//! employment or an achievement. Each POST calls one
//! [`Experience`](freehire_app::experience::Experience) method and redirects back (303); a
//! refused value is the page again (422) with the message. Everything added or confirmed here
//! is the candidate's own (`manual`): "Confirm" is how an unconfirmed achievement becomes
//! citable in a CV. Another user's employment or achievement is the 404 page.

use askama::Template;
use axum::{
    body::Bytes,
    extract::{Path, RawQuery, State},
    response::Response,
};
use freehire_app::experience::{AddMode, Added, AtomPatch, Bank, ExperienceError};
use freehire_domain::experience::Period;
use freehire_domain::{
    AtomDraft, AtomId, Author, EmploymentDraft, EmploymentId, EmploymentKind, User,
};

use super::forms::{Errors, Fields, see_other, sign_in_first};
use super::tracking::signed_in;
use crate::{WebError, WebState, error::render, layout::Ctx, layout::Layout};

/// One achievement as listed.
pub struct AtomRow {
    /// Its id.
    pub id: i64,
    /// The claim.
    pub claim: String,
    /// Its context.
    pub context: String,
    /// Its figures.
    pub metrics: Vec<String>,
    /// Its skills.
    pub skills: Vec<String>,
    /// The stored provenance (`manual`, `stated_in_chat`, …).
    pub provenance: &'static str,
    /// Whether a CV may cite it.
    pub confirmed: bool,
}

/// One employment with its achievements.
pub struct EmploymentRow {
    /// Its id.
    pub id: i64,
    /// "Acme" or the project's name.
    pub place: String,
    /// The role.
    pub role: String,
    /// `job` or `project`.
    pub kind: &'static str,
    /// "Mar 2021 – Present".
    pub period: String,
    /// Its achievements.
    pub atoms: Vec<AtomRow>,
}

/// A group of near-duplicate achievements.
pub struct Cluster {
    /// Their claims.
    pub claims: Vec<String>,
    /// The first two ids (the merge form's).
    pub pair: (i64, i64),
}

/// `/experience`.
#[derive(Template)]
#[template(path = "experience.html")]
pub struct ExperiencePage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<&'static str>,
    /// A refused form's message by field.
    pub errors: Errors,
    /// Employments, current first.
    pub employments: Vec<EmploymentRow>,
    /// Achievements without an employment.
    pub loose: Vec<AtomRow>,
    /// Near duplicates.
    pub clusters: Vec<Cluster>,
    /// The require-context preference.
    pub require_context: bool,
    /// How many achievements are unconfirmed.
    pub unconfirmed: usize,
}

fn notice(raw: Option<&str>) -> Option<&'static str> {
    let done = url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(k, _)| k == "done")
        .map(|(_, v)| v.into_owned())?;
    Some(match done.as_str() {
        "employment" => "The employment is added.",
        "employment-deleted" => "The employment and its achievements are deleted.",
        "atom" => "The achievement is banked.",
        "confirmed" => "Confirmed: a CV may now cite it.",
        "atom-deleted" => "The achievement is deleted.",
        "merged" => "Merged into the richer of the two.",
        "settings" => "Saved.",
        _ => return None,
    })
}

fn atom_row(a: &freehire_domain::Atom) -> AtomRow {
    AtomRow {
        id: a.id.get(),
        claim: a.draft.claim.clone(),
        context: a.draft.context.clone(),
        metrics: a.draft.metrics.clone(),
        skills: a.draft.skills.clone(),
        provenance: a.provenance.as_str(),
        confirmed: a.publishable(),
    }
}

fn page(
    bank: &Bank,
    layout: Layout,
    notice: Option<&'static str>,
    errors: Errors,
) -> ExperiencePage {
    let employments = bank
        .employments
        .iter()
        .map(|e| EmploymentRow {
            id: e.id.get(),
            place: e.draft.company.clone(),
            role: e.draft.role.clone(),
            kind: e.draft.kind.as_str(),
            period: freehire_domain::experience::format_range(
                e.draft.start,
                e.draft.end,
                e.draft.current,
            )
            .unwrap_or_default(),
            atoms: bank
                .atoms
                .iter()
                .filter(|a| a.atom.draft.employment_id == Some(e.id))
                .map(|a| atom_row(&a.atom))
                .collect(),
        })
        .collect();
    let loose = bank
        .atoms
        .iter()
        .filter(|a| a.atom.draft.employment_id.is_none())
        .map(|a| atom_row(&a.atom))
        .collect();
    let claim = |id: &AtomId| {
        bank.atoms.iter().find(|a| a.atom.id == *id).map(|a| a.atom.draft.claim.clone())
    };
    let clusters = bank
        .soft_duplicates
        .iter()
        .filter_map(|c| match c.as_slice() {
            [a, b, ..] => Some(Cluster {
                claims: c.iter().filter_map(claim).collect(),
                pair: (a.get(), b.get()),
            }),
            _ => None,
        })
        .collect();
    ExperiencePage {
        layout,
        notice,
        errors,
        employments,
        loose,
        clusters,
        require_context: bank.require_context,
        unconfirmed: bank.atoms.iter().filter(|a| !a.atom.publishable()).count(),
    }
}

async fn show_page(
    state: &WebState,
    ctx: &Ctx,
    user: &User,
    notice: Option<&'static str>,
    errors: Errors,
) -> Response {
    let bank = match state.experience.bank(user.id).await {
        Ok(b) => b,
        Err(e) => return ctx.error(WebError::from(e)),
    };
    let status = errors.status();
    render(status, &page(&bank, ctx.layout("Experience"), notice, errors))
}

/// `GET /experience`.
pub async fn show(State(state): State<WebState>, ctx: Ctx, RawQuery(raw): RawQuery) -> Response {
    let user = signed_in!(ctx, "/experience");
    show_page(&state, &ctx, &user, notice(raw.as_deref()), Errors::none()).await
}

/// A service result: redirect with `done`, the page with the message, or the error page.
async fn answer<T>(
    state: &WebState,
    ctx: &Ctx,
    user: &User,
    done: &str,
    result: Result<T, ExperienceError>,
) -> Response {
    match result.map_err(WebError::from) {
        Ok(_) => see_other(&format!("/experience?done={done}"), &[]),
        Err(WebError::Refused { field, message }) => {
            show_page(state, ctx, user, None, Errors::one(field, message)).await
        }
        Err(e) => ctx.error(e),
    }
}

/// `2021` or `2021-03` from a form field; blank is none.
fn period(f: &Fields, name: &'static str) -> Result<Option<Period>, ExperienceError> {
    let Some(raw) = f.optional(name) else { return Ok(None) };
    let bad = || {
        ExperienceError::Invalid(freehire_domain::DomainError::Invalid {
            field: name,
            value: raw.to_owned(),
            reason: "write the year, or the year and month (2021-03)",
        })
    };
    let (y, m) = match raw.split_once('-') {
        Some((y, m)) => (y, Some(m.trim().parse::<u8>().map_err(|_| bad())?)),
        None => (raw, None),
    };
    let year = y.trim().parse().map_err(|_| bad())?;
    Ok(Some(Period::new(year, m, name)?))
}

fn list(raw: &str, sep: char) -> Vec<String> {
    raw.split(sep).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
}

/// `POST /experience/employments`.
pub async fn add_employment(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx, "/experience");
    let f = Fields::parse(&body);
    let draft = (|| {
        let kind = EmploymentKind::parse(f.get("kind").trim())?;
        Ok::<_, ExperienceError>(EmploymentDraft {
            company: f.get("company").to_owned(),
            role: f.get("role").to_owned(),
            location: f.get("location").to_owned(),
            start: period(&f, "start")?,
            end: period(&f, "end")?,
            current: f.get("current") == "on",
            link: f.get("link").to_owned(),
            stack: list(f.get("stack"), ','),
            ..EmploymentDraft::new(kind)
        })
    })();
    let result = match draft {
        Ok(d) => state.experience.create_employment(user.id, d, ctx.now).await,
        Err(e) => Err(e),
    };
    answer(&state, &ctx, &user, "employment", result).await
}

/// `POST /experience/employments/{id}/delete`.
pub async fn delete_employment(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
) -> Response {
    let user = signed_in!(ctx, "/experience");
    let Ok(id) = raw.parse::<EmploymentId>() else { return ctx.error(WebError::NotFound) };
    let result = state.experience.delete_employment(user.id, id).await;
    answer(&state, &ctx, &user, "employment-deleted", result).await
}

/// `POST /experience/atoms`: the candidate's own words (`manual`).
pub async fn add_atom(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx, "/experience");
    let f = Fields::parse(&body);
    let employment_id =
        match f.optional("employment_id").map(str::parse::<EmploymentId>).transpose() {
            Ok(id) => id,
            Err(e) => {
                return show_page(
                    &state,
                    &ctx,
                    &user,
                    None,
                    Errors::one("employment_id", e.to_string()),
                )
                .await;
            }
        };
    let draft = AtomDraft {
        employment_id,
        claim: f.get("claim").to_owned(),
        context: f.get("context").to_owned(),
        metrics: list(f.get("metrics"), '\n'),
        skills: list(f.get("skills"), ','),
        source_ref: "web".to_owned(),
    };
    let result = state
        .experience
        .add_atom(user.id, draft, Author::Candidate, AddMode::Interactive, ctx.now)
        .await;
    let result = match result {
        Ok(Added::AlreadyBanked(_)) => Err(ExperienceError::ClaimTaken),
        other => other,
    };
    answer(&state, &ctx, &user, "atom", result).await
}

/// `POST /experience/atoms/{id}/confirm`: the candidate confirms it as their own, as it stands.
pub async fn confirm_atom(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
) -> Response {
    let user = signed_in!(ctx, "/experience");
    let Ok(id) = raw.parse::<AtomId>() else { return ctx.error(WebError::NotFound) };
    let result = state
        .experience
        .update_atom(user.id, id, AtomPatch::default(), Author::Candidate, ctx.now)
        .await;
    answer(&state, &ctx, &user, "confirmed", result).await
}

/// `POST /experience/atoms/{id}/delete`.
pub async fn delete_atom(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
) -> Response {
    let user = signed_in!(ctx, "/experience");
    let Ok(id) = raw.parse::<AtomId>() else { return ctx.error(WebError::NotFound) };
    let result = state.experience.delete_atom(user.id, id).await;
    answer(&state, &ctx, &user, "atom-deleted", result).await
}

/// `POST /experience/merge` (`a`, `b`).
pub async fn merge(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx, "/experience");
    let f = Fields::parse(&body);
    let (Ok(a), Ok(b)) = (f.get("a").parse::<AtomId>(), f.get("b").parse::<AtomId>()) else {
        return ctx.error(WebError::NotFound);
    };
    let result = state.experience.merge_atoms(user.id, a, b, ctx.now).await;
    answer(&state, &ctx, &user, "merged", result).await
}

/// `POST /experience/settings` (`require_context`: a checkbox).
pub async fn settings(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx, "/experience");
    let on = Fields::parse(&body).get("require_context") == "on";
    let result = state.experience.set_require_context(user.id, on).await;
    answer(&state, &ctx, &user, "settings", result).await
}

impl From<ExperienceError> for WebError {
    fn from(e: ExperienceError) -> Self {
        let message = e.to_string();
        match e {
            ExperienceError::NotFound(_) => Self::NotFound,
            ExperienceError::Invalid(d) => d.into(),
            ExperienceError::ContextRequired => Self::Refused { field: "context", message },
            ExperienceError::ClaimTaken => Self::Refused { field: "claim", message },
            ExperienceError::Merge(_) | ExperienceError::MergeConflict => {
                Self::Refused { field: "merge", message }
            }
            ExperienceError::Store(e) => e.into(),
        }
    }
}
