//! `POST /api/v1/me/cvs/import`: a CV pasted as text becomes the base CV and fills the
//! experience bank (reference assistant.md §12.3, "Import"). The rules are
//! [`freehire_app::cv_import`]'s; this handler parses, calls the service and renders. Signed in
//! by cookie or an API key of either scope.

use axum::{Json, extract::State, http::StatusCode};
use freehire_app::cv_import::{BaseCv, ImportError, ImportReport};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::cvs::CvView;
use crate::{
    ApiError, AppState, ErrorCode,
    auth::CvUser,
    body::JsonBody,
    openapi::{
        Errors,
        code::{InvalidEdit, InvalidParameter, Unauthorized, Unavailable, UnsupportedMediaType},
    },
    view::Single,
};

impl From<ImportError> for ApiError {
    fn from(e: ImportError) -> Self {
        match e {
            ImportError::Text(m) => {
                ApiError::new(ErrorCode::InvalidParameter, m).with_param("text")
            }
            ImportError::Experience(e) => e.into(),
            ImportError::Cv(e) => e.into(),
        }
    }
}

/// `POST /me/cvs/import`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportBody {
    /// The CV's text as pasted (at most 60,000 characters), with its sections under headings
    /// (Experience, Projects, Education, Skills, …).
    pub text: String,
    /// `replace` (default): the base CV's content becomes the import, in one revision that
    /// can be undone; `keep`: an existing base CV stays as it is and only the bank is filled.
    #[serde(default)]
    #[schema(example = "replace")]
    pub base_cv: Option<String>,
}

/// What an import did.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ImportView {
    /// The base CV now.
    pub cv: CvView,
    /// `created`, `replaced` or `kept`.
    #[schema(example = "created")]
    pub base_cv: &'static str,
    /// Jobs and projects added to the bank.
    pub employments_created: usize,
    /// Jobs and projects already in the bank (same company and role): only their blanks were
    /// filled.
    pub employments_matched: usize,
    /// Achievements banked (provenance `cv_import`).
    pub atoms_added: usize,
    /// Unconfirmed achievements the CV confirmed (same id, now `cv_import`).
    pub atoms_upgraded: usize,
    /// Claims already in the bank, skipped.
    pub atoms_already_banked: usize,
    /// Lines that fit nowhere (at most 20), to add by hand.
    pub unread: Vec<String>,
}

impl From<&ImportReport> for ImportView {
    fn from(r: &ImportReport) -> Self {
        Self {
            cv: CvView::from(&r.cv),
            base_cv: r.base.as_str(),
            employments_created: r.bank.employments_created,
            employments_matched: r.bank.employments_matched,
            atoms_added: r.bank.atoms_added,
            atoms_upgraded: r.bank.atoms_upgraded,
            atoms_already_banked: r.bank.atoms_already_banked,
            unread: r.unread.clone(),
        }
    }
}

/// Parses the `base_cv` field.
pub fn base_cv(raw: Option<&str>) -> Result<BaseCv, ApiError> {
    match raw.map(str::trim) {
        None | Some("") | Some("replace") => Ok(BaseCv::Replace),
        Some("keep") => Ok(BaseCv::Keep),
        Some(other) => Err(ApiError::new(
            ErrorCode::InvalidParameter,
            format!("invalid base_cv {other:?}: allowed values are replace, keep"),
        )
        .with_param("base_cv")),
    }
}

/// Imports a CV pasted as text: 201. Every job and project goes into the experience bank
/// (matched by company and role, blanks filled), every bullet becomes an achievement with
/// provenance `cv_import` (claims already banked are skipped), and the base CV holds the
/// document. No model reads the text: every claim is a line that was pasted. Text with no
/// Experience, Projects, Education or Skills section is 400 naming `text`.
#[utoipa::path(
    post, path = "/me/cvs/import", tag = "cvs", operation_id = "import_cv",
    security(("session" = []), ("api_key" = [])),
    request_body = ImportBody,
    responses(
        (status = 201, description = "What the import did, and the base CV.", body = Single<ImportView>),
        Errors<(InvalidParameter, InvalidEdit, UnsupportedMediaType, Unauthorized, Unavailable)>,
    ),
)]
pub async fn import(
    State(state): State<AppState>,
    CvUser(caller): CvUser,
    JsonBody(body): JsonBody<ImportBody>,
) -> Result<(StatusCode, Json<Single<ImportView>>), ApiError> {
    let base = base_cv(body.base_cv.as_deref())?;
    let report =
        state.cv_import().import(caller.user.id, &body.text, base, (state.clock)()).await?;
    Ok((StatusCode::CREATED, Json(Single { data: ImportView::from(&report) })))
}
