//! `POST /cvs/import`: a CV pasted on the `/cvs` page becomes the base CV (or, with "keep my
//! base CV", only fills the experience bank) through
//! [`CvImport`](freehire_app::cv_import::CvImport), then the editor shows it with what was
//! banked. Text that holds no CV is the `/cvs` page again (422) with the message and the text
//! as it was pasted.

use axum::{body::Bytes, extract::State, response::Response};
use freehire_app::cv_import::{BaseCv, BaseOutcome, CvImport, ImportError};

use super::cvs::list_page;
use super::forms::{Errors, Fields, see_other, sign_in_first};
use super::tracking::signed_in;
use crate::{WebState, layout::Ctx};

/// `POST /cvs/import`.
pub async fn import(State(state): State<WebState>, ctx: Ctx, body: Bytes) -> Response {
    let user = signed_in!(ctx, "/cvs");
    let f = Fields::parse(&body);
    let base = if f.get("keep_base") == "on" { BaseCv::Keep } else { BaseCv::Replace };
    let service = CvImport::new(state.cvs.clone(), state.experience.clone());
    match service.import(user.id, f.get("text"), base, ctx.now).await {
        Ok(r) => {
            let done = if r.base == BaseOutcome::Kept { "kept" } else { "imported" };
            let to = format!(
                "/cvs/{}?done={done}&added={}&known={}",
                r.cv.id,
                r.bank.atoms_added + r.bank.atoms_upgraded,
                r.bank.atoms_already_banked
            );
            see_other(&to, &[])
        }
        Err(ImportError::Text(message)) => {
            list_page(&state, &ctx, &user, f.get("text").to_owned(), Errors::one("text", message))
                .await
        }
        Err(ImportError::Experience(e)) => ctx.error(e),
        Err(ImportError::Cv(e)) => ctx.error(e),
    }
}
