//! CVs on the pages: `/cvs` lists the viewer's CVs, creates the base CV from a short form, and
//! imports one pasted as text ([`super::cv_import`]);
//! `/cvs/{id}` is the editor: the live preview (the PDF's own pages, as SVG images from the
//! same Typst layout, so page breaks agree), the PDF download, the template choice, the
//! summary, each job's bullets (one per line) and a new job, and the revision feed with an Undo
//! button per revision. Every form posts one `cvedit` batch as the candidate through
//! [`Cvs`](freehire_app::cvs::Cvs) and redirects back (303); a refused edit is the editor again
//! (422) with `cvedit`'s message. Another user's CV is the 404 page.

use askama::Template;
use axum::{
    body::Bytes,
    extract::{Path, RawQuery, State},
    http::header,
    response::{IntoResponse, Response},
};
use freehire_app::cvs::CvError;
use freehire_cv::{CvDocument, CvState, Header, Op, Origin, TemplateId};
use freehire_domain::{CvId, User};
use freehire_store::{Cv, RevisionId};
use serde_json::{Value, json};

use super::forms::{Errors, Fields, see_other, sign_in_first};
use super::tracking::signed_in;
use crate::{WebError, WebState, error::render, layout::Ctx, layout::Layout};

impl From<CvError> for WebError {
    fn from(e: CvError) -> Self {
        match e {
            CvError::NotFound(_) => Self::NotFound,
            CvError::Edit(e) => Self::Refused { field: "cv", message: e.to_string() },
            CvError::Render(e) => {
                tracing::error!(error = %e, "CV render failed");
                Self::Internal
            }
            CvError::Store(e) => e.into(),
        }
    }
}

/// One CV in the list.
pub struct CvRow {
    /// `/cvs/{id}`.
    pub href: String,
    /// Its title.
    pub title: String,
    /// `base` or `tailored`.
    pub kind: &'static str,
    /// When it last changed.
    pub updated: String,
}

/// `/cvs`.
#[derive(Template)]
#[template(path = "cvs.html")]
pub struct CvsPage {
    /// The layout.
    pub layout: Layout,
    /// The CVs.
    pub cvs: Vec<CvRow>,
    /// Whether the base CV exists (the form creates it otherwise).
    pub has_base: bool,
    /// The text of a refused import, shown again.
    pub pasted: String,
    /// Why an import was refused.
    pub errors: Errors,
}

/// One job of the editor.
pub struct JobForm {
    /// Its index in `experience`.
    pub index: usize,
    /// "Engineer · Acme".
    pub heading: String,
    /// Its bullets, one per line.
    pub bullets: String,
}

/// One revision in the feed.
pub struct RevisionRow {
    /// Its id (the Undo form).
    pub id: i64,
    /// What it did.
    pub title: String,
    /// Who: candidate, agent or system.
    pub actor: &'static str,
    /// When.
    pub at: String,
    /// Whether it can still be undone (not an undo, not reverted, not a copy's seed).
    pub undoable: bool,
}

/// `/cvs/{id}`.
#[derive(Template)]
#[template(path = "cv.html")]
pub struct CvPage {
    /// The layout.
    pub layout: Layout,
    /// A message after a redirect.
    pub notice: Option<String>,
    /// A refused edit's message.
    pub errors: Errors,
    /// The CV's id.
    pub id: i64,
    /// Its title.
    pub title: String,
    /// `classic` or `sidebar`.
    pub template: &'static str,
    /// Every template, for the choice.
    pub templates: Vec<&'static str>,
    /// The summary.
    pub summary: String,
    /// The jobs.
    pub jobs: Vec<JobForm>,
    /// How many preview pages.
    pub pages: usize,
    /// The newest revisions.
    pub revisions: Vec<RevisionRow>,
}

/// `GET /cvs`.
pub async fn list(State(state): State<WebState>, ctx: Ctx) -> Response {
    let user = signed_in!(ctx, "/cvs");
    list_page(&state, &ctx, &user, String::new(), Errors::none()).await
}

/// The `/cvs` page, with a refused import's text and message.
pub(crate) async fn list_page(
    state: &WebState,
    ctx: &Ctx,
    user: &User,
    pasted: String,
    errors: Errors,
) -> Response {
    let cvs = match state.cvs.list(user.id).await {
        Ok(c) => c,
        Err(e) => return ctx.error(e),
    };
    let page = CvsPage {
        layout: ctx.layout("CVs"),
        has_base: cvs.iter().any(|c| c.kind == freehire_store::CvKind::Base),
        cvs: cvs
            .iter()
            .map(|c| CvRow {
                href: format!("/cvs/{}", c.id),
                title: c.state.title.clone(),
                kind: c.kind.as_str(),
                updated: super::saved::day(ctx, c.updated_at),
            })
            .collect(),
        pasted,
        errors,
    };
    render(page.errors.status(), &page)
}

/// `POST /cvs`: the base CV from the short form (name, email, headline, summary).
pub async fn create(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx, "/cvs");
    let f = Fields::parse(&body);
    let cv = CvState {
        title: "Base CV".to_owned(),
        template_id: TemplateId::Classic,
        document: CvDocument {
            header: Header {
                full_name: f.get("full_name").to_owned(),
                email: f.get("email").to_owned(),
                headline: f.get("headline").to_owned(),
                ..Header::default()
            },
            summary: f.get("summary").to_owned(),
            ..CvDocument::default()
        },
    };
    match state.cvs.create_base(user.id, cv, Origin::Editor, ctx.now).await {
        Ok((cv, _)) => see_other(&format!("/cvs/{}?done=created", cv.id), &[]),
        Err(e) => ctx.error(e),
    }
}

fn notice(raw: Option<&str>) -> Option<String> {
    let query: Vec<(String, String)> =
        url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
    let field = |name: &str| query.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let count = |name: &str| field(name).and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
    Some(match field("done")? {
        "created" => "Your base CV is created.".to_owned(),
        "saved" => "Saved.".to_owned(),
        "undone" => "Undone.".to_owned(),
        "imported" => format!(
            "Imported: {} achievements added to your experience bank, {} already there.",
            count("added"),
            count("known")
        ),
        "kept" => format!(
            "Your base CV is kept as it was; {} achievements added to your experience bank, {} \
             already there.",
            count("added"),
            count("known")
        ),
        _ => return None,
    })
}

async fn editor(
    state: &WebState,
    ctx: &Ctx,
    user: &User,
    id: CvId,
    notice: Option<String>,
    errors: Errors,
) -> Response {
    let cv: Cv = match state.cvs.get(user.id, id).await {
        Ok(c) => c,
        Err(e) => return ctx.error(e),
    };
    let revisions = match state.cvs.revisions(user.id, id, 20).await {
        Ok(r) => r,
        Err(e) => return ctx.error(e),
    };
    let pages = match state.cvs.preview(user.id, id).await {
        Ok((_, pages)) => pages.len(),
        Err(e) => return ctx.error(e),
    };
    let doc = &cv.state.document;
    let page = CvPage {
        layout: ctx.layout(cv.state.title.clone()),
        notice,
        id: cv.id.get(),
        title: cv.state.title.clone(),
        template: cv.state.template_id.as_str(),
        templates: TemplateId::ALL.iter().map(|t| t.as_str()).collect(),
        summary: doc.summary.clone(),
        jobs: doc
            .experience
            .iter()
            .enumerate()
            .map(|(index, e)| JobForm {
                index,
                heading: [e.role.as_str(), e.company.as_str()]
                    .iter()
                    .filter(|s| !s.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" · "),
                bullets: e.bullets.join("\n"),
            })
            .collect(),
        pages,
        revisions: revisions
            .iter()
            .map(|r| RevisionRow {
                id: r.id.0,
                title: r.title.clone(),
                actor: r.change.actor.as_str(),
                at: super::saved::day(ctx, r.created_at),
                undoable: r.undoable(),
            })
            .collect(),
        errors,
    };
    let status = page.errors.status();
    render(status, &page)
}

fn cv_id(raw: &str) -> Option<CvId> {
    raw.parse().ok()
}

/// `GET /cvs/{id}`.
pub async fn show(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let user = signed_in!(ctx, "/cvs");
    let Some(id) = cv_id(&raw) else { return ctx.error(WebError::NotFound) };
    editor(&state, &ctx, &user, id, notice(q.as_deref()), Errors::none()).await
}

/// Applies `ops` and redirects back, or shows the editor with `cvedit`'s refusal.
async fn apply(state: &WebState, ctx: &Ctx, user: &User, id: CvId, ops: Vec<Op>) -> Response {
    match state
        .cvs
        .edit(user.id, id, &ops, Origin::Editor, None, ctx.now)
        .await
        .map_err(WebError::from)
    {
        Ok(_) => see_other(&format!("/cvs/{id}?done=saved"), &[]),
        Err(WebError::Refused { message, .. }) => {
            editor(state, ctx, user, id, None, Errors::one("cv", message)).await
        }
        Err(e) => ctx.error(e),
    }
}

fn set(path: &str, value: Value) -> Result<Op, WebError> {
    let path = freehire_cv::Path::parse(path)
        .map_err(|e| WebError::Refused { field: "cv", message: e.to_string() })?;
    Ok(Op::Set { path, value, evidence: None })
}

/// The lines of a textarea, trimmed, blanks dropped.
fn lines(raw: &str) -> Vec<String> {
    raw.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect()
}

/// One editor form: the signed-in viewer's CV `raw`, the op `build` makes of the form, applied.
async fn edit_form(
    state: WebState,
    ctx: Ctx,
    raw: &str,
    body: &[u8],
    build: impl FnOnce(&Fields) -> Result<Op, WebError>,
) -> Response {
    let user = signed_in!(ctx, "/cvs");
    let Some(id) = cv_id(raw) else { return ctx.error(WebError::NotFound) };
    match build(&Fields::parse(body)) {
        Ok(op) => apply(&state, &ctx, &user, id, vec![op]).await,
        Err(e) => ctx.error(e),
    }
}

/// `POST /cvs/{id}/summary` (`summary`).
pub async fn summary(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    body: Bytes,
) -> Response {
    edit_form(state, ctx, &raw, &body, |f| set("summary", json!(f.get("summary")))).await
}

/// `POST /cvs/{id}/template` (`template_id`).
pub async fn template(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    body: Bytes,
) -> Response {
    edit_form(state, ctx, &raw, &body, |f| set("template_id", json!(f.get("template_id").trim())))
        .await
}

/// `POST /cvs/{id}/experience/{index}/bullets` (`bullets`: one per line).
pub async fn bullets(
    State(state): State<WebState>,
    ctx: Ctx,
    Path((raw, index)): Path<(String, usize)>,
    body: Bytes,
) -> Response {
    edit_form(state, ctx, &raw, &body, |f| {
        set(&format!("experience[{index}].bullets"), json!(lines(f.get("bullets"))))
    })
    .await
}

/// `POST /cvs/{id}/experience` (`company`, `role`, `start`, `end`, `bullets`): a new job on top.
pub async fn add_job(
    State(state): State<WebState>,
    ctx: Ctx,
    Path(raw): Path<String>,
    body: Bytes,
) -> Response {
    edit_form(state, ctx, &raw, &body, |f| {
        let entry = json!({
            "company": f.get("company"), "role": f.get("role"), "start": f.get("start"),
            "end": f.get("end"), "current": f.get("end").trim().is_empty(),
            "bullets": lines(f.get("bullets")),
        });
        freehire_cv::Path::parse("experience[0]")
            .map(|path| Op::Insert { path, value: entry, evidence: None })
            .map_err(|e| WebError::Refused { field: "cv", message: e.to_string() })
    })
    .await
}

/// `POST /cvs/{id}/revisions/{revision}/undo`.
pub async fn undo(
    State(state): State<WebState>,
    ctx: Ctx,
    Path((raw, revision)): Path<(String, i64)>,
) -> Response {
    let user = signed_in!(ctx, "/cvs");
    let Some(id) = cv_id(&raw) else { return ctx.error(WebError::NotFound) };
    match state.cvs.undo(user.id, id, RevisionId(revision), ctx.now).await.map_err(WebError::from) {
        Ok(_) => see_other(&format!("/cvs/{id}?done=undone"), &[]),
        Err(WebError::Refused { message, .. }) => {
            editor(&state, &ctx, &user, id, None, Errors::one("cv", message)).await
        }
        Err(e) => ctx.error(e),
    }
}

/// `GET /cvs/{id}/pdf`: the download.
pub async fn pdf(State(state): State<WebState>, ctx: Ctx, Path(raw): Path<String>) -> Response {
    let user = signed_in!(ctx, "/cvs");
    let Some(id) = cv_id(&raw) else { return ctx.error(WebError::NotFound) };
    match state.cvs.pdf(user.id, id).await {
        Ok((cv, rendered)) => (
            [
                (header::CONTENT_TYPE, "application/pdf".to_owned()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"cv-{}.pdf\"", cv.id)),
            ],
            rendered.pdf,
        )
            .into_response(),
        Err(e) => ctx.error(e),
    }
}

/// `GET /cvs/{id}/preview/{page}`: one page of the preview, as SVG.
pub async fn preview(
    State(state): State<WebState>,
    ctx: Ctx,
    Path((raw, page)): Path<(String, usize)>,
) -> Response {
    let user = signed_in!(ctx, "/cvs");
    let Some(id) = cv_id(&raw) else { return ctx.error(WebError::NotFound) };
    match state.cvs.preview(user.id, id).await {
        Ok((_, pages)) => match pages.into_iter().nth(page) {
            Some(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
            None => ctx.error(WebError::NotFound),
        },
        Err(e) => ctx.error(e),
    }
}
