//! The static assets, compiled into the binary: the stylesheet, htmx (2.0.11, vendored
//! from the npm package with its licence, `assets/htmx.LICENSE`) and the pages' own small
//! script (`assets/app.js`: the copy buttons and the tracking board's drag-and-drop, both
//! enhancements of what the pages do without it, and the assistant's streamed chat). Each is served at a URL
//! carrying a hash of its content (`/assets/app-<hash>.css`), so it can be cached for a year
//! (`immutable`) and a changed file is a new URL.

use std::sync::LazyLock;

use axum::{
    extract::Path,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use sha2::{Digest, Sha256};

/// One asset.
pub struct Asset {
    /// Its URL path (under `/assets/`).
    pub path: String,
    /// Its bytes.
    pub body: &'static [u8],
    /// Its content type.
    pub content_type: &'static str,
}

const CSS: &[u8] = include_bytes!("../assets/app.css");
const HTMX: &[u8] = include_bytes!("../assets/htmx.min.js");
const APP: &[u8] = include_bytes!("../assets/app.js");

fn hashed(stem: &str, ext: &str, body: &'static [u8], content_type: &'static str) -> Asset {
    let digest = Sha256::digest(body);
    let hash = data_encoding::HEXLOWER.encode(&digest[..6]);
    Asset { path: format!("/assets/{stem}-{hash}.{ext}"), body, content_type }
}

/// The stylesheet.
pub static STYLESHEET: LazyLock<Asset> =
    LazyLock::new(|| hashed("app", "css", CSS, "text/css; charset=utf-8"));

/// htmx.
pub static SCRIPT: LazyLock<Asset> =
    LazyLock::new(|| hashed("htmx", "js", HTMX, "text/javascript; charset=utf-8"));

/// The pages' own script.
pub static APP_SCRIPT: LazyLock<Asset> =
    LazyLock::new(|| hashed("app", "js", APP, "text/javascript; charset=utf-8"));

/// `GET /assets/{file}`: the asset whose hashed name it is, cached for a year; 404 else.
pub async fn serve(Path(file): Path<String>) -> Response {
    let path = format!("/assets/{file}");
    for asset in [&*STYLESHEET, &*SCRIPT, &*APP_SCRIPT] {
        if asset.path == path {
            return (
                [
                    (header::CONTENT_TYPE, HeaderValue::from_static(asset.content_type)),
                    (
                        header::CACHE_CONTROL,
                        HeaderValue::from_static("public, max-age=31536000, immutable"),
                    ),
                ],
                asset.body,
            )
                .into_response();
        }
    }
    (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, "no-store")], "no such asset").into_response()
}
