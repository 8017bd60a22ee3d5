//! `interview_context` (reference §10.8): what an interview rehearsal or debrief works from,
//! for the job the session is bound to.
//!
//! It reads the caller's tracking of that job through
//! [`Tracking::detail`](crate::tracking::Tracking::detail); no row is an error, which is also
//! the ownership check (another user's application is "not found"). The result is
//! `{job: {title, company, public_slug, description}, application_stage, requirements}`:
//! the description is markdown clipped to [`TAILOR_DESCRIPTION_LIMIT`] characters (enough for
//! a long posting's requirements, a tenth of the result cap); `requirements` are the
//! description's requirement lines ([`freehire_cv::requirements`], each `{text, priority}`),
//! empty when it has none; there is no `invitation` until application mail is read.

use std::sync::Arc;

use freehire_domain::{JobId, Stage, UserId};
use freehire_search::DescriptionFormat;
use freehire_tools::{NoArgs, Tool};
use serde_json::{Value, json};

use super::{Services, internal, tool};
use crate::describe;
use crate::tracking::TrackingError;

/// The most characters of the job description `interview_context` returns.
pub const TAILOR_DESCRIPTION_LIMIT: usize = 6_000;

/// The error when the caller holds no application for the session's job.
pub const NO_APPLICATION: &str = "application not found: the vacancy of this session is not on \
     your tracking board, so there is no interview context";

pub(super) fn tool_for(s: &Arc<Services>, job: JobId) -> Arc<dyn Tool<UserId>> {
    tool(
        s,
        "interview_context",
        "The vacancy this interview session is about (title, company, description) and the \
         candidate's application stage. Call it first.",
        move |s: Arc<Services>, owner: UserId, _: NoArgs| interview_context(s, owner, job),
    )
}

/// `text` cut to at most `chars` characters, marked when cut.
fn clip_chars(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

async fn interview_context(s: Arc<Services>, owner: UserId, job: JobId) -> Result<Value, String> {
    let jobs = s.store.jobs_by_ids(&[job]).await.map_err(|e| internal("interview_context", e))?;
    let Some(job) = jobs.into_iter().next() else {
        return Err(NO_APPLICATION.to_owned());
    };
    let detail = match s.tracking.detail(owner, job.public_slug.as_str(), s.now()).await {
        Ok(detail) => detail,
        Err(TrackingError::NotFound(_)) => return Err(NO_APPLICATION.to_owned()),
        Err(e) => return Err(internal("interview_context", e)),
    };
    let markdown = describe::render(&job.posting.description, DescriptionFormat::Markdown);
    Ok(json!({
        "job": {
            "title": job.posting.title,
            "company": job.posting.company,
            "public_slug": job.public_slug.as_str(),
            "description": clip_chars(&markdown, TAILOR_DESCRIPTION_LIMIT),
        },
        "application_stage": detail.card.card.stage.map(Stage::as_str),
        "requirements": freehire_cv::requirements(&markdown),
    }))
}
