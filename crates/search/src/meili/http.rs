//! The HTTP transport of the Meilisearch client: `meilisearch-sdk`'s [`HttpClient`] over the
//! workspace's reqwest 0.13 (rustls), so the SDK brings no second reqwest. Every request
//! carries the API key as a bearer token and is bounded by a timeout.

use std::time::Duration;

use async_trait::async_trait;
use futures::io::{AsyncRead, AsyncReadExt};
use meilisearch_sdk::errors::Error;
use meilisearch_sdk::request::{HttpClient, Method, parse_response};
use secrecy::{ExposeSecret, SecretString};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The SDK's transport: one pooled reqwest client and the key, shown redacted by `Debug`.
#[derive(Clone, Debug)]
pub(crate) struct MeiliHttp {
    client: reqwest::Client,
    key: Option<SecretString>,
}

impl MeiliHttp {
    /// A transport sending `key` (when given) as `Authorization: Bearer`, each request bounded
    /// by `timeout`.
    pub(crate) fn new(
        key: Option<SecretString>,
        timeout: Duration,
    ) -> Result<Self, reqwest::Error> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .user_agent(concat!("freehire/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Self { client, key })
    }

    async fn send<Query: Serialize + Send + Sync, Output: DeserializeOwned + 'static>(
        &self,
        url: &str,
        method: Method<Query, ()>,
        body: Option<(Vec<u8>, String)>,
        expected_status_code: u16,
    ) -> Result<Output, Error> {
        let query = yaup::to_string(method.query())?;
        let url = format!("{url}{query}");
        let verb = match method {
            Method::Get { .. } => reqwest::Method::GET,
            Method::Delete { .. } => reqwest::Method::DELETE,
            Method::Post { .. } => reqwest::Method::POST,
            Method::Put { .. } => reqwest::Method::PUT,
            Method::Patch { .. } => reqwest::Method::PATCH,
        };
        let mut request = self.client.request(verb, &url);
        if let Some(key) = &self.key {
            request = request.bearer_auth(key.expose_secret());
        }
        if let Some((bytes, content_type)) = body {
            request = request.header(reqwest::header::CONTENT_TYPE, content_type).body(bytes);
        }
        let response = request.send().await.map_err(|e| Error::Other(Box::new(e)))?;
        let status = response.status().as_u16();
        let mut text = response.text().await.map_err(|e| Error::Other(Box::new(e)))?;
        if text.is_empty() {
            text = "null".to_owned();
        }
        parse_response(status, expected_status_code, &text, url)
    }
}

/// The method with its body taken out (sent separately as bytes).
fn split<Q, B>(method: Method<Q, B>) -> (Method<Q, ()>, Option<B>) {
    match method {
        Method::Get { query } => (Method::Get { query }, None),
        Method::Delete { query } => (Method::Delete { query }, None),
        Method::Post { query, body } => (Method::Post { query, body: () }, Some(body)),
        Method::Put { query, body } => (Method::Put { query, body: () }, Some(body)),
        Method::Patch { query, body } => (Method::Patch { query, body: () }, Some(body)),
    }
}

#[async_trait]
impl HttpClient for MeiliHttp {
    async fn request<Query, Body, Output>(
        &self,
        url: &str,
        method: Method<Query, Body>,
        expected_status_code: u16,
    ) -> Result<Output, Error>
    where
        Query: Serialize + Send + Sync,
        Body: Serialize + Send + Sync,
        Output: DeserializeOwned + 'static + Send,
    {
        let (method, body) = split(method);
        let body = match body {
            Some(b) => Some((serde_json::to_vec(&b)?, "application/json".to_owned())),
            None => None,
        };
        self.send(url, method, body, expected_status_code).await
    }

    async fn stream_request<
        Query: Serialize + Send + Sync,
        Body: AsyncRead + Send + Sync + 'static,
        Output: DeserializeOwned + 'static,
    >(
        &self,
        url: &str,
        method: Method<Query, Body>,
        content_type: &str,
        expected_status_code: u16,
    ) -> Result<Output, Error> {
        let (method, body) = split(method);
        let body = match body {
            Some(reader) => {
                let mut bytes = Vec::new();
                Box::pin(reader)
                    .read_to_end(&mut bytes)
                    .await
                    .map_err(|e| Error::Other(Box::new(e)))?;
                Some((bytes, content_type.to_owned()))
            }
            None => None,
        };
        self.send(url, method, body, expected_status_code).await
    }
}
