//! Tailoring on the pages (reference assistant.md §11.3–§11.4): `POST /tailor` (the "Tailor my
//! CV" form of a job page: the service copies the base CV for the vacancy and starts or
//! resumes its tailor session, then 303 to the session's conversation), the workspace panel a
//! tailor session's conversation page shows ([`panel`]: the vacancy, the tailored copy's live
//! preview and PDF, the score, the tailor report per requirement, "Run autopilot" and "Undo
//! this run", the cover letter for the vacancy with "Draft a cover letter"),
//! `POST /cvs/{id}/batches/{batch}/undo` (every edit of one run, then 303 back) and
//! `POST /cover-letters` (drafts the vacancy's letter from the bank, then 303 back).
//!
//! A new copy's conversation runs autopilot by itself on load (the script posts the API's
//! streamed `autopilot` route, cookie only); `request_confirmation` steps render as Yes/No
//! buttons in the transcript ([`super::assistant::Confirm`]). Everything goes through the app's
//! services; another user's CV or session is the 404 page.

use axum::http::StatusCode;
use axum::{
    body::Bytes,
    extract::{Path, State},
    response::Response,
};
use freehire_app::assistant::cover_letters::{CoverLetterError, Source};
use freehire_app::assistant::service::SessionView;
use freehire_cv::letter::Band;
use freehire_domain::User;

use super::forms::{Fields, see_other, sign_in_first};
use super::tracking::signed_in;
use crate::{WebError, WebState, layout::Ctx};

/// One requirement of the tailor report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRow {
    /// The requirement, as the vacancy words it.
    pub requirement: String,
    /// `closed_bank`, `closed_candidate`, `open` or `not_reached`.
    pub status: &'static str,
    /// How the page names the status.
    pub label: &'static str,
    /// The assistant's note.
    pub note: String,
}

/// The workspace panel of a tailor session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panel {
    /// The copy's editor page.
    pub cv_href: String,
    /// The copy's id.
    pub cv_id: i64,
    /// The vacancy's title, company and page (while it exists).
    pub job_title: String,
    pub company: String,
    pub job_href: Option<String>,
    /// The deterministic score of the copy now (0–100).
    pub score: Option<u8>,
    /// The report, one row per requirement.
    pub report: Vec<ReportRow>,
    /// The newest run of the assistant's edits still live ("Undo this run").
    pub last_batch: Option<String>,
    /// Whether the page runs autopilot on load (a copy nothing was said about yet).
    pub auto: bool,
    /// The vacancy's public slug (the cover-letter form's `job`).
    pub job_slug: Option<String>,
    /// The cover letter for the vacancy, if one was drafted.
    pub letter: Option<LetterPanel>,
    /// Whether this server drafts letters (a model is configured).
    pub can_draft: bool,
}

/// A cover letter as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LetterPanel {
    /// `short` or `standard`.
    pub band: &'static str,
    /// Greeting, paragraphs, closing and signature: one paragraph of the page each.
    pub blocks: Vec<String>,
    /// How many achievements the paragraphs cite.
    pub cited: usize,
    /// Last drafted.
    pub drafted: String,
}

fn label(status: &str) -> &'static str {
    match status {
        "closed_bank" => "shown, from your bank",
        "closed_candidate" => "shown, you confirmed it",
        "open" => "open",
        _ => "not reached",
    }
}

/// The panel of `view` when it is a tailor session bound to a CV copy of the viewer's;
/// `answered` says the conversation has an assistant message (then autopilot is not started
/// by itself).
pub async fn panel(
    state: &WebState,
    user: &User,
    view: &SessionView,
    answered: bool,
) -> Option<Panel> {
    if view.session.preset != "tailor" {
        return None;
    }
    let cv = view.session.cv_id?;
    let w = match state.assistant.workspace(user.id, cv).await {
        Ok(w) => w,
        Err(e) => {
            tracing::warn!(error = %e, "the tailoring panel could not be read");
            return None;
        }
    };
    let report = w
        .report
        .items
        .iter()
        .map(|i| ReportRow {
            requirement: i.requirement.clone(),
            status: i.status.as_str(),
            label: label(i.status.as_str()),
            note: i.note.clone().unwrap_or_default(),
        })
        .collect();
    let letters = state.assistant.cover_letters();
    let letter = match &w.job {
        Some(job) => letters.for_job(user.id, job.id).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "the cover letter could not be read");
            None
        }),
        None => None,
    };
    let letter = letter.map(|l| {
        let mut blocks = vec![l.letter.greeting.clone()];
        blocks.extend(l.letter.paragraphs.iter().map(|p| p.text.clone()));
        blocks.push(l.letter.closing.clone());
        if !l.letter.signature.is_empty() {
            blocks.push(l.letter.signature.clone());
        }
        let mut cited: Vec<_> =
            l.letter.paragraphs.iter().flat_map(|p| p.evidence_ids.iter().copied()).collect();
        cited.sort();
        cited.dedup();
        LetterPanel {
            band: l.band.as_str(),
            blocks,
            cited: cited.len(),
            drafted: l.updated_at.format("%Y-%m-%d %H:%M UTC").to_string(),
        }
    });
    Some(Panel {
        job_slug: w.job.as_ref().map(|j| j.public_slug.as_str().to_owned()),
        letter,
        can_draft: letters.available(),
        cv_href: format!("/cvs/{cv}"),
        cv_id: cv.get(),
        job_title: w.job.as_ref().map(|j| j.posting.title.clone()).unwrap_or_default(),
        company: w.job.as_ref().map(|j| j.posting.company.clone()).unwrap_or_default(),
        job_href: w.job.as_ref().map(|j| format!("/jobs/{}", j.public_slug.as_str())),
        score: w.analysis.map(|a| a.score),
        report,
        last_batch: w.last_batch,
        auto: !answered,
    })
}

/// `POST /tailor` (field `job`, a public slug): start or resume tailoring, then the
/// conversation.
pub async fn start(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let job = f.get("job").trim().to_owned();
    let user = signed_in!(ctx, format!("/jobs/{job}"));
    match state.assistant.tailor(user.id, &job).await {
        Ok(t) => see_other(&format!("/assistant/{}", t.session), &[]),
        Err(e) => ctx.error(e),
    }
}

/// `POST /cover-letters` (fields `job`, a public slug; `band`; `next`, a local page): drafts
/// the cover letter for the vacancy, then 303 back. A bank with nothing citable, a spent
/// allowance or no model is the error page with the service's message.
pub async fn draft_letter(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let f = Fields::parse(&body);
    let user = signed_in!(ctx, "/cvs");
    let band = Band::lenient(f.optional("band"));
    let next = local(f.get("next"), "/cvs");
    let letters = state.assistant.cover_letters();
    match letters.draft_for_slug(user.id, f.get("job"), band, Source::Http).await {
        Ok(_) => see_other(&format!("{next}#cover-letter"), &[]),
        Err(e) => ctx.error(letter_error(e)),
    }
}

fn letter_error(e: CoverLetterError) -> WebError {
    let message = e.to_string();
    match e {
        CoverLetterError::JobNotFound | CoverLetterError::NotFound => WebError::NotFound,
        CoverLetterError::Unavailable => {
            WebError::Assistant { status: StatusCode::SERVICE_UNAVAILABLE, message }
        }
        CoverLetterError::Refused(r) => {
            WebError::Assistant { status: StatusCode::PAYMENT_REQUIRED, message: r.message }
        }
        CoverLetterError::NoPublishableEvidence => {
            WebError::Assistant { status: StatusCode::CONFLICT, message }
        }
        CoverLetterError::Model(_) | CoverLetterError::Draft(_) => {
            WebError::Assistant { status: StatusCode::SERVICE_UNAVAILABLE, message }
        }
        CoverLetterError::Experience(e) => {
            tracing::error!(error = %e, "cover letter failed");
            WebError::Internal
        }
        CoverLetterError::Store(e) => e.into(),
    }
}

/// `next` when it is a local path, else `fallback`.
fn local(next: &str, fallback: &str) -> String {
    if next.starts_with('/') && !next.starts_with("//") {
        next.to_owned()
    } else {
        fallback.to_owned()
    }
}

/// `POST /cvs/{id}/batches/{batch}/undo` (field `next`, a local page): undo one run.
pub async fn undo_batch(
    State(state): State<WebState>,
    ctx: Ctx,
    Path((raw, batch)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    let user = signed_in!(ctx, "/cvs");
    let Ok(id) = raw.parse() else { return ctx.error(WebError::NotFound) };
    let f = Fields::parse(&body);
    let next = local(f.get("next"), &format!("/cvs/{id}"));
    match state.cvs.revert_batch(user.id, id, &batch, ctx.now).await {
        Ok(_) => see_other(&next, &[]),
        Err(e) => ctx.error(WebError::from(e)),
    }
}
