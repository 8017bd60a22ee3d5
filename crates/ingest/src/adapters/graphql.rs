//! Keyless GraphQL job boards (Ashby's embed endpoint, Gem): one POST of
//! `{operationName, variables, query}` and the `{data, errors}` envelope it answers with.
//!
//! A GraphQL server answers 200 even when the query failed: an answer without `data` (or with
//! `errors` and no `data`) is a decode failure naming the first error, never an empty board.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::IngestError;
use crate::http::Fetcher;

/// The envelope of a GraphQL answer.
#[derive(Deserialize)]
pub(crate) struct Envelope<T> {
    data: Option<T>,
    #[serde(default)]
    errors: Vec<GraphqlError>,
}

#[derive(Deserialize)]
struct GraphqlError {
    #[serde(default)]
    message: String,
}

impl<T> Envelope<T> {
    /// The `data`, if the answer has one (the fuzz entry points' reading).
    pub(crate) fn data_opt(self) -> Option<T> {
        self.data
    }

    /// The `data`, or a decode error naming the first GraphQL error.
    pub(crate) fn into_data(self, url: &url::Url) -> Result<T, IngestError> {
        match self.data {
            Some(data) => Ok(data),
            None => {
                let why = self.errors.first().map_or_else(
                    || "no data in the GraphQL answer".to_owned(),
                    |e| format!("GraphQL error: {}", e.message),
                );
                Err(IngestError::Decode {
                    url: url.to_string(),
                    format: "JSON",
                    source: why.into(),
                })
            }
        }
    }
}

/// POSTs one operation and returns its `data`.
pub(crate) async fn query<T: DeserializeOwned>(
    http: &Fetcher,
    url: &url::Url,
    operation: &str,
    query: &str,
    variables: Value,
) -> Result<T, IngestError> {
    let body = json!({"operationName": operation, "variables": variables, "query": query});
    let envelope: Envelope<T> = http.post_for_json(url, &body).await?;
    envelope.into_data(url)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_answer_without_data_is_an_error_naming_the_first() {
        let url = url::Url::parse("https://example.com/graphql").unwrap();
        let env: Envelope<Value> =
            serde_json::from_str(r#"{"errors": [{"message": "boom"}], "data": null}"#).unwrap();
        let err = env.into_data(&url).unwrap_err();
        assert!(crate::error_chain(&err).contains("GraphQL error: boom"), "{err}");
        let env: Envelope<Value> = serde_json::from_str(r#"{"data": {"x": 1}}"#).unwrap();
        assert_eq!(env.into_data(&url).unwrap()["x"], 1);
    }
}
