//! The CV routes (`/me/cvs*`): list, read and download a CV's PDF. A `cv`-scoped key is
//! enough.

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

impl Client {
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
