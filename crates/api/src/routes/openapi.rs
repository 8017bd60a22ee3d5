//! `GET /api/v1/openapi.json`: the OpenAPI 3.1 document of the API ([`crate::openapi`]), built
//! once from the router assembly and served as is.

use std::sync::LazyLock;

use axum::Json;
use utoipa::openapi::OpenApi;

use crate::openapi::Errors;

/// The document, built on first request.
static DOCUMENT: LazyLock<OpenApi> = LazyLock::new(crate::openapi);

/// This document.
#[utoipa::path(
    get, path = "/openapi.json", tag = "meta", operation_id = "openapi",
    responses(
        (status = 200, description = "The OpenAPI 3.1 document of this API.", body = Object),
        Errors<()>,
    ),
)]
pub async fn document() -> Json<&'static OpenApi> {
    Json(&DOCUMENT)
}
