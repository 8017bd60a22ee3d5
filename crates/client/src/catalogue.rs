//! The catalogue's reads the command line's `facets`, `search`, `market-fit`, `job` and
//! `company` call (keyless through [`Client::public`], or with the key): each answer is the
//! API's JSON as it came (`{data, meta?}`), so `--json` prints exactly what the server said
//! and the human output reads the fields it shows.

use reqwest::Method;
use serde_json::Value;

use crate::client::segment;
use crate::{Client, ClientError};

/// `name=value&…`, each part percent-encoded.
pub fn query_string(params: &[(String, String)]) -> String {
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in params {
        out.append_pair(name, value);
    }
    out.finish()
}

fn with_query(path: &str, params: &[(String, String)]) -> String {
    if params.is_empty() { path.to_owned() } else { format!("{path}?{}", query_string(params)) }
}

impl Client {
    /// `GET /auth/me`: the key's account.
    pub async fn me(&self) -> Result<Value, ClientError> {
        self.call(Method::GET, "auth/me", None::<&()>).await
    }

    /// `GET /jobs/facets?…`: value counts under the filter.
    pub async fn facets(&self, params: &[(String, String)]) -> Result<Value, ClientError> {
        self.call(Method::GET, &with_query("jobs/facets", params), None::<&()>).await
    }

    /// `GET /agent/jobs/search?…&description_format=markdown`: full jobs, descriptions as
    /// Markdown (the reference client's search).
    pub async fn search(&self, params: &[(String, String)]) -> Result<Value, ClientError> {
        let mut params = params.to_vec();
        if !params.iter().any(|(k, _)| k == "description_format") {
            params.push(("description_format".into(), "markdown".into()));
        }
        self.call(Method::GET, &with_query("agent/jobs/search", &params), None::<&()>).await
    }

    /// `GET /jobs/{slug}`.
    pub async fn job(&self, slug: &str) -> Result<Value, ClientError> {
        self.call(Method::GET, &format!("jobs/{}", segment(slug)), None::<&()>).await
    }

    /// `GET /companies/{slug}`: the company and its open jobs.
    /// `GET /companies?…`: companies with open jobs, most first, filtered (reference §5.4).
    pub async fn companies(&self, params: &[(String, String)]) -> Result<Value, ClientError> {
        self.call(Method::GET, &with_query("companies", params), None::<&()>).await
    }

    /// `GET /companies/{slug}`: one company and its open jobs (a merged slug's 301 is
    /// followed to the company it was merged into).
    pub async fn company(&self, slug: &str) -> Result<Value, ClientError> {
        self.call(Method::GET, &format!("companies/{}", segment(slug)), None::<&()>).await
    }

    /// `POST /market/coverage?…` with `{skills}`.
    pub async fn market_coverage(
        &self,
        params: &[(String, String)],
        skills: &[String],
    ) -> Result<Value, ClientError> {
        let body = serde_json::json!({ "skills": skills });
        self.call(Method::POST, &with_query("market/coverage", params), Some(&body)).await
    }

    /// `GET /me/tracking?filter=…&limit=…` as the API's JSON.
    pub async fn my_jobs(&self, filter: &str, limit: u32) -> Result<Value, ClientError> {
        let path = format!("me/tracking?filter={filter}&limit={limit}");
        self.call(Method::GET, &path, None::<&()>).await
    }
}
