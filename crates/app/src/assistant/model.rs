//! The assistant's model (reference §14.1–§14.2): the configured OpenAI-compatible endpoint
//! and, with a key gateway, each user's own key.
//!
//! - [`AssistantModel::from_env`] reads `LLM_BASE_URL`, `LLM_API_KEY` and `LLM_MODEL`
//!   (`ASSISTANT_MODEL` overrides the model): `Ok(None)` when the URL or the model is unset,
//!   and the assistant routes then answer 503 naming those variables. With all of
//!   `LLM_ADMIN_*` set it adds the [`KeyResolver`] over a [`BifrostGateway`].
//! - [`AssistantModel::bind`] gives the model one turn runs on: with a gateway, the user's
//!   own key (minted on first use) wrapped so that an HTTP 401 on it repeats the call once on
//!   the service key and forgets the stale key (the rest of the turn stays on the service
//!   key); without one, the configured key. Resolve it before the stream's headers go out.
//! - [`spend_tags`]: the per-call headers of an assistant turn, `x-bf-dim-feature:
//!   assistant` and `x-bf-dim-preset: <preset>` (the runner sends `TurnConfig.headers` on
//!   every call).
//!
//! Scope rule: per-user keys serve only the API server's turns; background work builds its
//! own client on the service key and never binds (`tests/it/scope.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use async_trait::async_trait;
use freehire_domain::UserId;
use freehire_llm::{ChatModel, ChatRequest, Choice, LlmError, OpenAiClient, OpenAiConfig};
use freehire_store::Store;
use secrecy::{ExposeSecret, SecretString};

use super::Preset;
use crate::AppError;
use crate::llmkey::{BifrostGateway, KeyResolver};

/// The variables the assistant needs, for the 503 message of an unconfigured server.
pub const MODEL_VARIABLES: &str = "LLM_BASE_URL, LLM_API_KEY and LLM_MODEL";

/// The spend tags of an assistant turn of `preset`.
pub fn spend_tags(preset: Preset) -> Vec<(String, String)> {
    vec![
        ("x-bf-dim-feature".to_owned(), "assistant".to_owned()),
        ("x-bf-dim-preset".to_owned(), preset.as_str().to_owned()),
    ]
}

/// The configured model and, with a gateway, the per-user keys. Cheap to clone.
#[derive(Clone, Debug)]
pub struct AssistantModel {
    client: OpenAiClient,
    keys: Option<KeyResolver>,
}

impl AssistantModel {
    /// A model over `client` (its key is the service key), with per-user keys from `keys`.
    pub fn new(client: OpenAiClient, keys: Option<KeyResolver>) -> Self {
        Self { client, keys }
    }

    /// The model the environment configures (see the module docs); `Ok(None)` when
    /// `LLM_BASE_URL` or the model is unset.
    pub fn from_env(store: Arc<dyn Store>) -> Result<Option<Self>, AppError> {
        Self::from_lookup(store, |name| std::env::var(name).ok())
    }

    /// [`AssistantModel::from_env`] over any variable lookup (tests).
    pub fn from_lookup(
        store: Arc<dyn Store>,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Self>, AppError> {
        let get = |name: &str| var(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let (base_url, model) =
            (get("LLM_BASE_URL"), get("ASSISTANT_MODEL").or_else(|| get("LLM_MODEL")));
        let (Some(base_url), Some(model)) = (base_url.clone(), model.clone()) else {
            if base_url.is_some() || model.is_some() {
                tracing::warn!("the assistant needs both LLM_BASE_URL and LLM_MODEL; it stays off");
            }
            return Ok(None);
        };
        let mut config = OpenAiConfig::new(base_url, model);
        config.api_key = get("LLM_API_KEY").map(SecretString::from);
        let client = OpenAiClient::new(config)
            .map_err(|e| AppError::Config(format!("LLM_BASE_URL: {e}")))?;
        let gateway = crate::llmkey::BifrostConfig::from_lookup(&var)?
            .map(BifrostGateway::new)
            .transpose()?;
        let keys = gateway.map(|g| KeyResolver::new(store, Arc::new(g)));
        Ok(Some(Self::new(client, keys)))
    }

    /// The configured model name.
    pub fn model_name(&self) -> &str {
        self.client.model()
    }

    /// Whether per-user keys are in use.
    pub fn per_user_keys(&self) -> bool {
        self.keys.is_some()
    }

    /// Blocks `user`'s own gateway key, when per-user keys are on and one was minted: what
    /// account deletion runs before the account's rows go (reference §14.2 `Revoke`).
    pub async fn revoke_key(&self, user: UserId) {
        if let Some(keys) = &self.keys {
            keys.revoke(user).await;
        }
    }

    /// The model one turn of `user` runs on (see the module docs). Never fails: without a
    /// key of the user's own, the service key.
    pub async fn bind(&self, user: UserId) -> Arc<dyn ChatModel> {
        Arc::new(Measured(self.bind_key(user).await))
    }

    async fn bind_key(&self, user: UserId) -> Arc<dyn ChatModel> {
        let Some(keys) = &self.keys else {
            return Arc::new(self.client.clone());
        };
        let Some(secret) = keys.key_for(user).await else {
            return Arc::new(self.client.clone());
        };
        Arc::new(UserKeyModel {
            user_client: self.client.with_api_key(secret.expose_secret()),
            service: self.client.clone(),
            keys: keys.clone(),
            user,
            secret,
            refused: AtomicBool::new(false),
        })
    }
}

/// A model whose every call is timed into `freehire_model_call_duration_seconds`, labelled
/// by the call's feature tag and its outcome.
struct Measured(Arc<dyn ChatModel>);

#[async_trait]
impl ChatModel for Measured {
    async fn chat(&self, request: ChatRequest<'_>) -> Result<Choice, LlmError> {
        let feature = request
            .headers
            .iter()
            .find(|(name, _)| name == "x-bf-dim-feature")
            .map_or("untagged", |(_, value)| crate::telemetry::feature_label(value));
        let started = std::time::Instant::now();
        let answer = self.0.chat(request).await;
        crate::telemetry::model_call(feature, answer.is_ok(), started.elapsed());
        answer
    }
}

/// A user's key, falling back to the service key once it is refused.
struct UserKeyModel {
    user_client: OpenAiClient,
    service: OpenAiClient,
    keys: KeyResolver,
    user: UserId,
    secret: SecretString,
    refused: AtomicBool,
}

#[async_trait]
impl ChatModel for UserKeyModel {
    async fn chat(&self, request: ChatRequest<'_>) -> Result<Choice, LlmError> {
        if self.refused.load(Ordering::Acquire) {
            return self.service.chat(request).await;
        }
        match self.user_client.chat(request).await {
            Err(LlmError::Status { status: 401, .. }) => {
                if !self.refused.swap(true, Ordering::AcqRel) {
                    tracing::warn!(
                        user = self.user.get(),
                        "the gateway refused a per-user key; forgetting it and using the service key"
                    );
                    let keys = self.keys.clone();
                    let (user, secret) = (self.user, self.secret.expose_secret().to_owned());
                    tokio::spawn(async move { keys.forget(user, &secret).await });
                }
                self.service.chat(request).await
            }
            other => other,
        }
    }
}
