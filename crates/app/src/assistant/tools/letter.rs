//! `cover_letter_draft` (reference assistant.md §10.6), a tailor session's tool: drafts the
//! candidate's cover letter for the session's vacancy through
//! [`CoverLetters::draft`](crate::assistant::cover_letters::CoverLetters::draft), the chain the HTTP route
//! runs (the same evidence, gate and storage), charged as the tool's own use
//! ([`Source::Tool`]). A refused allowance is a tool error the model relays, not a 402; a bank
//! with nothing citable tells the model to ask for a confirmation first. The result is the
//! saved letter: its id, band, text and the paragraphs with the achievements they cite.

use std::sync::Arc;

use freehire_cv::letter::Band;
use freehire_domain::{JobId, UserId};
use freehire_tools::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Services, internal, tool};
use crate::assistant::cover_letters::{CoverLetterError, CoverLetters, Source};

/// What the model relays when the allowance is spent.
pub const ALLOWANCE_SPENT: &str = "the candidate has used today's cover-letter allowance; tell \
     them it resets tomorrow, or that Pro lifts the limit";

/// What the model is told when nothing in the bank may be cited.
pub const NOTHING_TO_CITE: &str = "nothing in the candidate's experience bank is theirs to cite \
     yet: ask them to confirm an achievement, then try again";

/// `cover_letter_draft` arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftArgs {
    /// `short` (two paragraphs) or `standard` (three; anything else is standard).
    pub band: Option<String>,
}

pub(super) fn tool_for(
    s: &Arc<Services>,
    letters: &CoverLetters,
    job: JobId,
) -> Arc<dyn Tool<UserId>> {
    let letters = letters.clone();
    tool(
        s,
        "cover_letter_draft",
        "Drafts and saves the candidate's cover letter for this vacancy from their confirmed \
         achievements only (each paragraph cites them; anything unbacked is dropped). Returns \
         the letter; show it and offer changes through the bank, not by rewriting it.",
        move |_s, owner, a: DraftArgs| {
            let letters = letters.clone();
            async move { draft(&letters, owner, job, a).await }
        },
    )
}

async fn draft(
    letters: &CoverLetters,
    owner: UserId,
    job: JobId,
    args: DraftArgs,
) -> Result<Value, String> {
    let band = Band::lenient(args.band.as_deref());
    match letters.draft(owner, job, band, Source::Tool).await {
        Ok(d) => Ok(json!({
            "id": d.letter.id.to_string(),
            "band": d.letter.band.as_str(),
            "text": d.letter.letter.text(),
            "paragraphs": d.letter.letter.paragraphs.iter().map(|p| json!({
                "text": p.text,
                "evidence_ids": p.evidence_ids.iter().map(ToString::to_string).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "dropped_paragraphs": d.dropped,
        })),
        Err(CoverLetterError::Refused(_)) => Err(ALLOWANCE_SPENT.to_owned()),
        Err(CoverLetterError::NoPublishableEvidence) => Err(NOTHING_TO_CITE.to_owned()),
        Err(CoverLetterError::JobNotFound) => Err("the vacancy of this session is gone".to_owned()),
        Err(e @ (CoverLetterError::Draft(_) | CoverLetterError::Model(_))) => Err(e.to_string()),
        Err(e) => Err(internal("cover_letter_draft", e)),
    }
}
