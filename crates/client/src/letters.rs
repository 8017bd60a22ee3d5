//! The cover-letter routes (`/me/cover-letters*`): draft one for a vacancy, list, read,
//! delete. A `cv`-scoped key is enough.

use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::wire::Envelope;
use crate::{Client, ClientError};

/// One paragraph and the achievements it cites.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Paragraph {
    /// Its text.
    pub text: String,
    /// The achievements' ids.
    pub evidence_ids: Vec<i64>,
}

/// A cover letter (`LetterView`, and `DraftedView`'s `dropped_paragraphs`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct CoverLetter {
    /// Its id.
    pub id: i64,
    /// The vacancy's slug.
    pub job_slug: Option<String>,
    /// The vacancy's title.
    pub job_title: Option<String>,
    /// Its employer.
    pub company: Option<String>,
    /// `short` or `standard`.
    pub band: String,
    /// The paragraphs.
    pub paragraphs: Vec<Paragraph>,
    /// The whole letter as text.
    pub text: String,
    /// Last drafted (RFC 3339).
    pub updated_at: String,
    /// Paragraphs the gate dropped (a fresh draft only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped_paragraphs: Option<usize>,
}

impl Client {
    /// `POST /me/cover-letters`.
    pub async fn draft_cover_letter(
        &self,
        job_slug: &str,
        band: &str,
    ) -> Result<CoverLetter, ClientError> {
        let body = serde_json::json!({ "job_slug": job_slug, "band": band });
        let made: Envelope<CoverLetter> =
            self.call(Method::POST, "me/cover-letters", Some(&body)).await?;
        Ok(made.data)
    }

    /// `GET /me/cover-letters`.
    pub async fn cover_letters(&self) -> Result<Vec<CoverLetter>, ClientError> {
        let list: Envelope<Vec<CoverLetter>> =
            self.call(Method::GET, "me/cover-letters", None::<&()>).await?;
        Ok(list.data)
    }

    /// `GET /me/cover-letters/{id}`.
    pub async fn cover_letter(&self, id: i64) -> Result<CoverLetter, ClientError> {
        let one: Envelope<CoverLetter> =
            self.call(Method::GET, &format!("me/cover-letters/{id}"), None::<&()>).await?;
        Ok(one.data)
    }

    /// `DELETE /me/cover-letters/{id}`.
    pub async fn delete_cover_letter(&self, id: i64) -> Result<(), ClientError> {
        self.send(Method::DELETE, &format!("me/cover-letters/{id}"), None::<&()>).await.map(drop)
    }
}
