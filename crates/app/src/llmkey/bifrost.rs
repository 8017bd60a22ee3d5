//! [`BifrostGateway`]: [`KeyGateway`] over the Bifrost governance HTTP API (reference §14.2).
//!
//! Admin calls go to `/api/...` with HTTP Basic auth and a 5 s request timeout (inference is
//! under `/v1`, through the model client, not here).
//!
//! - Mint: `GET /api/governance/virtual-keys/{template}` and copy its `provider_configs` (an
//!   empty list is an error; a `key_ids` that is missing, null or empty becomes `["*"]`), then
//!   `POST /api/governance/virtual-keys` with `name: "freehire-user-<id>"`, the description,
//!   `is_active: true`, the configurations and the optional `budgets`
//!   (`LLM_USER_MAX_BUDGET`, `LLM_USER_BUDGET_WINDOW`) and `rate_limit` (`LLM_USER_RPM_LIMIT`
//!   per minute). The answer is the key or `{virtual_key: key}` and must carry `id` and
//!   `value`.
//! - Block: `PUT …/{id}` with `{is_active: false}`; delete: `DELETE …/{id}`; a 404 from
//!   either is done.
//! - Activity: `GET /api/logs/stats?virtual_key_ids=&start_time=&end_time=` twice (all, then
//!   `status=error`), reading `total_requests`, over whole UTC days.
//!
//! Only a 404 is [`KeyError::UnknownKey`]; every other non-2xx, a 401 on an admin call
//! included, is [`KeyError::Upstream`].

use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Duration as Days, NaiveTime, SecondsFormat, Utc};
use freehire_domain::UserId;
use reqwest::{Method, StatusCode};
use secrecy::{ExposeSecret, SecretString};
use serde_json::{Value, json};

use super::{Activity, KeyError, KeyGateway, MintedKey};
use crate::AppError;

/// The deadline of every admin request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Where the gateway is and how minted keys are shaped.
#[derive(Debug, Clone)]
pub struct BifrostConfig {
    /// The gateway's base URL (`LLM_ADMIN_URL`), without the `/api` path.
    pub url: String,
    /// The admin user (`LLM_ADMIN_USERNAME`).
    pub username: String,
    /// The admin password (`LLM_ADMIN_PASSWORD`).
    pub password: SecretString,
    /// The id of the key whose provider configurations minted keys copy
    /// (`LLM_ADMIN_TEMPLATE_KEY`).
    pub template_key: String,
    /// A per-key spend cap (`LLM_USER_MAX_BUDGET`); none by default.
    pub max_budget: Option<f64>,
    /// The cap's reset window (`LLM_USER_BUDGET_WINDOW`, e.g. `1M`, `1d`).
    pub budget_window: Option<String>,
    /// Requests per minute per key (`LLM_USER_RPM_LIMIT`).
    pub rpm_limit: Option<u64>,
}

impl BifrostConfig {
    /// The configuration the variables `var` looks up describe: `None` unless all four
    /// `LLM_ADMIN_*` are set (non-empty); a malformed optional value is an error naming it.
    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> Result<Option<Self>, AppError> {
        let get = |name: &str| var(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let (Some(url), Some(username), Some(password), Some(template_key)) = (
            get("LLM_ADMIN_URL"),
            get("LLM_ADMIN_USERNAME"),
            get("LLM_ADMIN_PASSWORD"),
            get("LLM_ADMIN_TEMPLATE_KEY"),
        ) else {
            return Ok(None);
        };
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(AppError::Config(format!(
                "LLM_ADMIN_URL={url:?} must start with http:// or https://"
            )));
        }
        let max_budget = match get("LLM_USER_MAX_BUDGET") {
            None => None,
            Some(v) => match v.parse::<f64>() {
                Ok(b) if b > 0.0 && b.is_finite() => Some(b),
                _ => {
                    return Err(AppError::Config(format!(
                        "LLM_USER_MAX_BUDGET={v:?} is not a positive number"
                    )));
                }
            },
        };
        let rpm_limit = match get("LLM_USER_RPM_LIMIT") {
            None => None,
            Some(v) => match v.parse::<u64>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    return Err(AppError::Config(format!(
                        "LLM_USER_RPM_LIMIT={v:?} is not a positive integer"
                    )));
                }
            },
        };
        Ok(Some(Self {
            url: url.trim_end_matches('/').to_owned(),
            username,
            password: SecretString::from(password),
            template_key,
            max_budget,
            budget_window: get("LLM_USER_BUDGET_WINDOW"),
            rpm_limit,
        }))
    }
}

/// The Bifrost governance client.
#[derive(Clone)]
pub struct BifrostGateway {
    http: reqwest::Client,
    config: BifrostConfig,
}

impl std::fmt::Debug for BifrostGateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BifrostGateway").field("url", &self.config.url).finish_non_exhaustive()
    }
}

/// The start of a body, for an error message.
fn excerpt(body: &str) -> String {
    body.chars().take(300).collect()
}

/// `v` or the object under its `virtual_key`.
fn key_object(v: &Value) -> &Value {
    v.get("virtual_key").filter(|k| k.is_object()).unwrap_or(v)
}

/// A string (or number) field as text.
fn text(v: &Value, field: &str) -> Option<String> {
    match v.get(field)? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The template's provider configurations, each with `key_ids` defaulted to `["*"]`.
fn provider_configs(template: &Value) -> Result<Vec<Value>, KeyError> {
    let configs = key_object(template)
        .get("provider_configs")
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
        .ok_or_else(|| KeyError::Malformed("the template key has no provider_configs".into()))?;
    Ok(configs
        .iter()
        .map(|c| {
            let mut c = c.clone();
            if let Some(obj) = c.as_object_mut() {
                let empty = obj
                    .get("key_ids")
                    .is_none_or(|ids| ids.is_null() || ids.as_array().is_some_and(Vec::is_empty));
                if empty {
                    obj.insert("key_ids".into(), json!(["*"]));
                }
            }
            c
        })
        .collect())
}

impl BifrostGateway {
    /// A client for `config`.
    pub fn new(config: BifrostConfig) -> Result<Self, AppError> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| AppError::Config(format!("the gateway HTTP client: {e}")))?;
        Ok(Self { http, config })
    }

    /// The gateway the environment configures, if all four `LLM_ADMIN_*` are set.
    pub fn from_env() -> Result<Option<Self>, AppError> {
        BifrostConfig::from_lookup(|name| std::env::var(name).ok())?.map(Self::new).transpose()
    }

    fn keys_url(&self) -> String {
        format!("{}/api/governance/virtual-keys", self.config.url)
    }

    /// One admin call: the parsed JSON body of a 2xx (`Null` when empty).
    async fn call(
        &self,
        method: Method,
        url: &str,
        query: &[(&str, &str)],
        body: Option<&Value>,
    ) -> Result<Value, KeyError> {
        let parsed = if query.is_empty() {
            url::Url::parse(url)
        } else {
            url::Url::parse_with_params(url, query)
        };
        let url =
            parsed.map_err(|e| KeyError::Malformed(format!("the gateway URL {url:?}: {e}")))?;
        let mut request = self
            .http
            .request(method, url)
            .basic_auth(&self.config.username, Some(self.config.password.expose_secret()));
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await.map_err(KeyError::Transport)?;
        let status = response.status();
        let text = response.text().await.map_err(KeyError::Transport)?;
        if status == StatusCode::NOT_FOUND {
            return Err(KeyError::UnknownKey);
        }
        if !status.is_success() {
            return Err(KeyError::Upstream { status: status.as_u16(), message: excerpt(&text) });
        }
        if text.trim().is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_str(&text).map_err(|_| KeyError::Malformed(excerpt(&text)))
    }

    /// A call whose 404 means done.
    async fn done_if_unknown(
        &self,
        method: Method,
        id: &str,
        body: Option<&Value>,
    ) -> Result<(), KeyError> {
        let url = format!("{}/{id}", self.keys_url());
        match self.call(method, &url, &[], body).await {
            Ok(_) | Err(KeyError::UnknownKey) => Ok(()),
            Err(e) => Err(e),
        }
    }

    async fn count(&self, query: &[(&str, &str)]) -> Result<u64, KeyError> {
        let url = format!("{}/api/logs/stats", self.config.url);
        let v = self.call(Method::GET, &url, query, None).await?;
        let stats = v.get("data").filter(|d| d.is_object()).unwrap_or(&v);
        stats
            .get("total_requests")
            .and_then(Value::as_u64)
            .ok_or_else(|| KeyError::Malformed(excerpt(&v.to_string())))
    }
}

#[async_trait]
impl KeyGateway for BifrostGateway {
    async fn mint(&self, user: UserId) -> Result<MintedKey, KeyError> {
        let template_url = format!("{}/{}", self.keys_url(), self.config.template_key);
        let template = self.call(Method::GET, &template_url, &[], None).await?;
        let configs = provider_configs(&template)?;
        let mut body = json!({
            "name": format!("freehire-user-{}", user.get()),
            "description": "per-user spend attribution",
            "is_active": true,
            "provider_configs": configs,
        });
        if let Some(max) = self.config.max_budget {
            let mut budget = json!({ "max_limit": max });
            if let Some(window) = &self.config.budget_window {
                budget["reset_duration"] = json!(window);
            }
            body["budgets"] = json!([budget]);
        }
        if let Some(rpm) = self.config.rpm_limit {
            body["rate_limit"] =
                json!({ "request_max_limit": rpm, "request_reset_duration": "1m" });
        }
        let answer = self.call(Method::POST, &self.keys_url(), &[], Some(&body)).await?;
        let key = key_object(&answer);
        match (text(key, "id"), text(key, "value")) {
            (Some(id), Some(value)) => Ok(MintedKey { id, secret: SecretString::from(value) }),
            _ => Err(KeyError::Malformed("the minted key has no id or value".into())),
        }
    }

    async fn block(&self, key_id: &str) -> Result<(), KeyError> {
        self.done_if_unknown(Method::PUT, key_id, Some(&json!({ "is_active": false }))).await
    }

    async fn delete(&self, key_id: &str) -> Result<(), KeyError> {
        self.done_if_unknown(Method::DELETE, key_id, None).await
    }

    async fn activity(
        &self,
        key_id: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Activity, KeyError> {
        if key_id.is_empty() {
            return Ok(Activity::default());
        }
        let start = from.date_naive().and_time(NaiveTime::MIN).and_utc();
        let end = (to.date_naive() + Days::days(1)).and_time(NaiveTime::MIN).and_utc();
        let (start, end) = (
            start.to_rfc3339_opts(SecondsFormat::Secs, true),
            end.to_rfc3339_opts(SecondsFormat::Secs, true),
        );
        let window = [("virtual_key_ids", key_id), ("start_time", &start), ("end_time", &end)];
        let total = self.count(&window).await?;
        let mut failed = window.to_vec();
        failed.push(("status", "error"));
        let errors = self.count(&failed).await?;
        Ok(Activity { total, errors })
    }
}
