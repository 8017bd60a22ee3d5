//! [`JsonBody`]: a JSON request body parsed at the edge into its request type, every refusal
//! through the error table naming the field: a wrong content type is 415
//! `unsupported_media_type`, a body over [`MAX_BODY_BYTES`](crate::MAX_BODY_BYTES) (announced
//! or streamed) 413, malformed JSON 400 `invalid_parameter` with `param: "body"`, and a
//! missing, unknown or mistyped field 400 with `param` naming the field (its path, `a.b[2]`
//! for nested ones). `Option<JsonBody<T>>` accepts a request without a body.

use axum::{
    extract::{FromRequest, OptionalFromRequest, Request},
    http::header::{CONTENT_LENGTH, CONTENT_TYPE},
};
use serde::de::DeserializeOwned;

use crate::{ApiError, ErrorCode, MAX_BODY_BYTES};

/// A JSON body of type `T`.
#[derive(Debug, Clone)]
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, _: &S) -> Result<Self, ApiError> {
        let json = request
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|v| v.trim().to_ascii_lowercase())
            .is_some_and(|v| v == "application/json" || v.ends_with("+json"));
        if !json {
            return Err(ApiError::new(
                ErrorCode::UnsupportedMediaType,
                "the request body must be JSON (Content-Type: application/json)",
            ));
        }
        let limit = usize::try_from(MAX_BODY_BYTES).unwrap_or(usize::MAX);
        let bytes = axum::body::to_bytes(request.into_body(), limit).await.map_err(|_| {
            ApiError::new(
                ErrorCode::PayloadTooLarge,
                format!("the request body is too large (at most {MAX_BODY_BYTES} bytes)"),
            )
        })?;
        parse(&bytes).map(Self)
    }
}

/// An optional body (`Option<JsonBody<T>>`): none when the request has neither a
/// `Content-Type` nor a non-zero `Content-Length`; otherwise it must be JSON as above.
impl<S: Send + Sync, T: DeserializeOwned> OptionalFromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Option<Self>, ApiError> {
        let headers = request.headers();
        let announced = headers
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if !headers.contains_key(CONTENT_TYPE) && announced.unwrap_or(0) == 0 {
            return Ok(None);
        }
        <Self as FromRequest<S>>::from_request(request, state).await.map(Some)
    }
}

/// Parses a JSON body, naming the field at fault.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let inner = e.inner();
        let path = e.path().to_string();
        let message = inner.to_string();
        let param = field_of(&message).map(str::to_owned).or_else(|| {
            (path != "." && !inner.is_syntax() && !inner.is_eof()).then_some(path.clone())
        });
        match param {
            Some(param) => ApiError::new(
                ErrorCode::InvalidParameter,
                format!("invalid {param}: {}", strip_position(&message)),
            )
            .with_param(param),
            None => not_json(&message),
        }
    })?;
    de.end().map_err(|e| not_json(&e.to_string()))?;
    Ok(value)
}

fn not_json(message: &str) -> ApiError {
    ApiError::new(
        ErrorCode::InvalidParameter,
        format!("the request body is not valid JSON: {}", strip_position(message)),
    )
    .with_param("body")
}

/// The field a serde message names (`missing field `x``, `unknown field `x``).
fn field_of(message: &str) -> Option<&str> {
    let rest = message
        .strip_prefix("missing field `")
        .or_else(|| message.strip_prefix("unknown field `"))?;
    rest.split('`').next()
}

/// serde_json's message without its ` at line 1 column 7` suffix.
fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Login {
        email: String,
        password: String,
        nested: Option<Vec<u8>>,
    }

    fn param(body: &str) -> (Option<String>, String) {
        let e = parse::<Login>(body.as_bytes()).unwrap_err();
        (e.param().map(str::to_owned), e.to_string())
    }

    #[test]
    fn refusals_name_the_field() {
        assert_eq!(param(r#"{"email":"a"}"#).0.as_deref(), Some("password"));
        assert_eq!(
            param(r#"{"email":"a","password":"b","pasword":1}"#).0.as_deref(),
            Some("pasword")
        );
        assert_eq!(param(r#"{"email":1,"password":"b"}"#).0.as_deref(), Some("email"));
        assert_eq!(
            param(r#"{"email":"a","password":"b","nested":[1,"x"]}"#).0.as_deref(),
            Some("nested[1]")
        );
        let (p, m) = param(r#"{"email":"a""#);
        assert_eq!(p.as_deref(), Some("body"), "{m}");
        assert_eq!(param("").0.as_deref(), Some("body"));
        assert_eq!(param(r#"{"email":"a","password":"b"} x"#).0.as_deref(), Some("body"));
        assert!(parse::<Login>(br#"{"email":"a","password":"b"}"#).is_ok());
    }
}
