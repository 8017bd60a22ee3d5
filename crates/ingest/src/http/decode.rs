//! Decoding bodies, refusing HTML where JSON or XML was expected.

use super::client::Fetched;
use crate::IngestError;
use crate::error::BoxedCause;

fn head(body: &[u8]) -> String {
    let start = body.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(body.len());
    String::from_utf8_lossy(&body[start..body.len().min(start + 64)]).to_ascii_lowercase()
}

/// Whether a body opens like an HTML page (a block, login or error page). The content type is
/// not trusted either way: some APIs mislabel JSON as `text/html`.
pub(crate) fn is_html_page(body: &[u8]) -> bool {
    let head = head(body);
    head.starts_with("<!doctype html") || head.starts_with("<html") || head.starts_with("<head")
}

/// Decodes JSON.
pub(crate) fn json<T: serde::de::DeserializeOwned>(fetched: &Fetched) -> Result<T, IngestError> {
    // JSON never starts with markup: any `<` here is a page, not an API answer.
    if head(&fetched.body).starts_with('<') {
        return Err(IngestError::BlockPage { url: fetched.url.to_string(), expected: "JSON" });
    }
    serde_json::from_slice(&fetched.body).map_err(|e| IngestError::Decode {
        url: fetched.url.to_string(),
        format: "JSON",
        source: Box::new(e),
    })
}

/// Decodes XML.
pub(crate) fn xml<T: serde::de::DeserializeOwned>(fetched: &Fetched) -> Result<T, IngestError> {
    if is_html_page(&fetched.body) {
        return Err(IngestError::BlockPage { url: fetched.url.to_string(), expected: "XML" });
    }
    let decode_err = |source: BoxedCause| IngestError::Decode {
        url: fetched.url.to_string(),
        format: "XML",
        source,
    };
    let text = std::str::from_utf8(&fetched.body).map_err(|e| decode_err(Box::new(e)))?;
    quick_xml::de::from_str(text).map_err(|e| decode_err(Box::new(e)))
}
