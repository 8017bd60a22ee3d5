//! The CV routes (`/me/cvs*`): list, read and download a CV's PDF; import one pasted as text;
//! tailor the base CV to a
//! vacancy, read a tailored copy's workspace, undo one run of the assistant's edits. A
//! `cv`-scoped key is enough.

use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::wire::Envelope;
use crate::{Client, ClientError};

/// A CV (`CvView`): its id, kind, title, template and document (kept as JSON: the document's
/// shape is the server's).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Cv {
    /// Its id.
    pub id: i64,
    /// `base` or `tailored`.
    pub kind: String,
    /// Its name in the list.
    pub title: String,
    /// `classic` or `sidebar`.
    pub template_id: String,
    /// The content.
    pub document: serde_json::Value,
    /// When it last changed.
    pub updated_at: String,
}

/// A tailoring started or resumed (`POST /me/cvs/tailor`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Tailored {
    /// The copy tailored to the vacancy.
    pub tailor_cv_id: i64,
    /// The base CV.
    pub base_cv_id: i64,
    /// The copy's score now (`{score, categories}`), or null.
    pub analysis: serde_json::Value,
    /// The tailor session.
    pub session_id: String,
    /// True when this call created the copy.
    pub cold_start_running: bool,
}

/// A tailored copy's workspace (`GET /me/cvs/{id}/tailoring`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Workspace {
    /// The vacancy's slug, title and company.
    pub job_slug: Option<String>,
    pub job_title: Option<String>,
    pub company: Option<String>,
    /// The tailor session.
    pub session_id: Option<String>,
    /// `{items: [{requirement, status, note?}]}`.
    pub report: serde_json::Value,
    /// The copy's score now, or null.
    pub analysis: serde_json::Value,
    /// The newest live run of the assistant's edits.
    pub last_batch: Option<String>,
}

/// What an import did (`POST /me/cvs/import`).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Imported {
    /// The base CV now.
    pub cv: Cv,
    /// `created`, `replaced` or `kept`.
    pub base_cv: String,
    /// Jobs and projects added to the bank.
    pub employments_created: u64,
    /// Jobs and projects the bank already had.
    pub employments_matched: u64,
    /// Achievements banked.
    pub atoms_added: u64,
    /// Unconfirmed achievements the CV confirmed.
    pub atoms_upgraded: u64,
    /// Claims already banked.
    pub atoms_already_banked: u64,
    /// Lines that fit nowhere.
    pub unread: Vec<String>,
}

impl Client {
    /// `POST /me/cvs/import`: `text` becomes the base CV (unless `keep_base` and there is one)
    /// and fills the experience bank.
    pub async fn import_cv(&self, text: &str, keep_base: bool) -> Result<Imported, ClientError> {
        let base = if keep_base { "keep" } else { "replace" };
        let body = serde_json::json!({ "text": text, "base_cv": base });
        let i: Envelope<Imported> = self.call(Method::POST, "me/cvs/import", Some(&body)).await?;
        Ok(i.data)
    }

    /// `POST /me/cvs/tailor`.
    pub async fn tailor_cv(&self, job_slug: &str) -> Result<Tailored, ClientError> {
        let body = serde_json::json!({ "job_slug": job_slug });
        let t: Envelope<Tailored> = self.call(Method::POST, "me/cvs/tailor", Some(&body)).await?;
        Ok(t.data)
    }

    /// `GET /me/cvs/{id}/tailoring`.
    pub async fn cv_tailoring(&self, id: i64) -> Result<Workspace, ClientError> {
        let path = format!("me/cvs/{id}/tailoring");
        let w: Envelope<Workspace> = self.call(Method::GET, &path, None::<&()>).await?;
        Ok(w.data)
    }

    /// `POST /me/cvs/{id}/batches/{batch}/undo`: the CV after the undo.
    pub async fn undo_cv_batch(&self, id: i64, batch: &str) -> Result<Cv, ClientError> {
        #[derive(Deserialize)]
        struct Edited {
            cv: Cv,
        }
        let path = format!("me/cvs/{id}/batches/{batch}/undo");
        let e: Envelope<Edited> =
            self.call(Method::POST, &path, Some(&serde_json::json!({}))).await?;
        Ok(e.data.cv)
    }

    /// `GET /me/cvs`.
    pub async fn cvs(&self) -> Result<Vec<Cv>, ClientError> {
        let list: Envelope<Vec<Cv>> = self.call(Method::GET, "me/cvs", None::<&()>).await?;
        Ok(list.data)
    }

    /// `GET /me/cvs/{id}`.
    pub async fn cv(&self, id: i64) -> Result<Cv, ClientError> {
        let cv: Envelope<Cv> = self.call(Method::GET, &format!("me/cvs/{id}"), None::<&()>).await?;
        Ok(cv.data)
    }

    /// `GET /me/cvs/{id}/pdf`: the PDF's bytes.
    pub async fn cv_pdf(&self, id: i64) -> Result<Vec<u8>, ClientError> {
        let (_, bytes) = self.send(Method::GET, &format!("me/cvs/{id}/pdf"), None::<&()>).await?;
        Ok(bytes)
    }
}
