//! The Meilisearch adapter of [`SearchIndex`] (reference §5.1–§5.3, §5.11.3).
//!
//! [`MeiliIndex`] talks to a Meilisearch server through `meilisearch-sdk` over the workspace's
//! reqwest. Before its first write it creates the index (primary key `id`) when missing and
//! applies the `jobs` settings ([`settings`]), waiting for both tasks; the first search tries
//! the same and searches anyway when it fails (a key that may only search). Every write waits for
//! its task, so it is visible to the next search when the call returns. [`SearchIndex::rebuild`]
//! fills `<uid>_rebuild` (settings first, documents in batches, every task awaited), swaps it
//! with the live index in one step (`POST /swap-indexes`) and drops the old content, so a
//! search sees the old or the new content, never a mix.
//!
//! The companies index (reference §5.4) is a second Meilisearch index beside it
//! ([`MeiliConfig::companies_uid`]: `companies` beside the default `jobs`, `<uid>_companies`
//! otherwise), with its own settings (`companies`), prepared and rebuilt the same way.
//!
//! Errors: a search Meilisearch refuses as an invalid request (HTTP 400: a filter or sort on an
//! attribute the live settings lack, …) is [`IndexError::Rejected`], so the API can answer 400
//! or retry without the filter (reference §5.3); everything else is [`IndexError::Engine`].

mod companies;
mod document;
mod http;
mod search;
mod settings;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use meilisearch_sdk::client::{Client, SwapIndexes};
use meilisearch_sdk::errors::{Error, ErrorCode, ErrorType};
use meilisearch_sdk::task_info::TaskInfo;
use meilisearch_sdk::tasks::Task;
use secrecy::{ExposeSecret, SecretString};
use tokio::sync::OnceCell;

use crate::company::{CompanyDocument, CompanyHits, CompanySearch};
use crate::document::SearchDocument;
use crate::index::{Context, IndexError, SearchIndex, SearchRequest, SearchResults};
use http::MeiliHttp;

/// The index uid used when none is configured (reference §5.1).
pub const DEFAULT_INDEX_UID: &str = "jobs";

/// Documents per add-documents call.
const BATCH: usize = 5_000;

/// Where the Meilisearch index lives. Its `Debug` never shows the key (a [`SecretString`]).
#[derive(Clone, Debug)]
pub struct MeiliConfig {
    /// Server address, e.g. `http://127.0.0.1:7700` (no trailing slash needed).
    pub url: String,
    /// API key (the master key or a key allowed to search, write documents, manage indexes
    /// and settings, and read tasks); `None` for a server without a master key.
    pub api_key: Option<SecretString>,
    /// The index uid (default [`DEFAULT_INDEX_UID`]); rebuilds use `<uid>_rebuild`.
    pub index_uid: String,
    /// Longest wait for one HTTP call.
    pub request_timeout: Duration,
    /// Longest wait for one Meilisearch task (a write, a settings change, a swap).
    pub task_timeout: Duration,
}

impl MeiliConfig {
    /// The server at `url`, no key, index `jobs`, 60 s per call, 10 min per task.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            api_key: None,
            index_uid: DEFAULT_INDEX_UID.to_owned(),
            request_timeout: Duration::from_secs(60),
            task_timeout: Duration::from_secs(600),
        }
    }

    /// With an API key.
    #[must_use]
    pub fn with_api_key(mut self, key: Option<SecretString>) -> Self {
        self.api_key = key.filter(|k| !k.expose_secret().is_empty());
        self
    }

    /// The companies index's uid: `companies` beside the default job index, else
    /// `<index_uid>_companies`.
    pub fn companies_uid(&self) -> String {
        if self.index_uid == DEFAULT_INDEX_UID {
            "companies".to_owned()
        } else {
            format!("{}_companies", self.index_uid)
        }
    }

    /// With another index uid.
    #[must_use]
    pub fn with_index_uid(mut self, uid: impl Into<String>) -> Self {
        self.index_uid = uid.into();
        self
    }
}

/// A [`SearchIndex`] on a Meilisearch server.
pub struct MeiliIndex {
    client: Client<MeiliHttp>,
    uid: String,
    /// The companies index's uid.
    companies: String,
    task_timeout: Duration,
    ready: OnceCell<()>,
    /// Whether the companies index exists with its settings.
    companies_ready: OnceCell<()>,
    /// Whether a companies search already tried to prepare the companies index.
    companies_tried: AtomicBool,
    /// Whether a search already tried [`MeiliIndex::prepare`].
    search_tried: AtomicBool,
}

impl std::fmt::Debug for MeiliIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MeiliIndex").field("uid", &self.uid).finish()
    }
}

/// A transport or protocol failure.
fn engine(e: Error) -> IndexError {
    IndexError::Engine(Context::boxed("meilisearch", e))
}

/// A search failure: an invalid request is the query's fault, anything else the engine's.
fn search_error(e: Error) -> IndexError {
    match e {
        Error::Meilisearch(m) if m.error_type == ErrorType::InvalidRequest => {
            IndexError::Rejected(Box::new(m))
        }
        other => engine(other),
    }
}

impl MeiliIndex {
    /// An adapter for `config` (nothing is sent until the first call).
    pub fn new(config: MeiliConfig) -> Result<Self, IndexError> {
        let url = config.url.trim_end_matches('/').to_owned();
        if url.is_empty() {
            return Err(IndexError::Engine("the Meilisearch URL is empty".into()));
        }
        let http = MeiliHttp::new(config.api_key.clone(), config.request_timeout)
            .map_err(|e| IndexError::Engine(Context::boxed("meilisearch client", e)))?;
        let companies = config.companies_uid();
        Ok(Self {
            // The SDK keeps its own copy of the key: this is the boundary where it leaves the secret.
            client: Client::new_with_client(
                url,
                config.api_key.as_ref().map(|k| k.expose_secret().to_owned()),
                http,
            ),
            uid: config.index_uid,
            companies,
            task_timeout: config.task_timeout,
            ready: OnceCell::new(),
            companies_ready: OnceCell::new(),
            companies_tried: AtomicBool::new(false),
            search_tried: AtomicBool::new(false),
        })
    }

    /// The live index uid.
    pub fn uid(&self) -> &str {
        &self.uid
    }

    /// Creates the index when missing and applies the settings, once per adapter (a failure
    /// is retried by the next call). Every write calls it first; a search tries it once and
    /// searches anyway when it fails (a key that may only search cannot change settings: the
    /// writer applies them). Call it at start-up to fail early.
    pub async fn prepare(&self) -> Result<(), IndexError> {
        self.ready.get_or_try_init(|| self.create_with_settings(&self.uid)).await.map(|_| ())
    }

    /// [`MeiliIndex::prepare`] for the companies index.
    async fn prepare_companies(&self) -> Result<(), IndexError> {
        let create = || self.create_with(&self.companies, companies::KEY, companies::settings());
        self.companies_ready.get_or_try_init(create).await.map(|_| ())
    }

    /// The bytes the server's whole database claims on disk (`GET /stats`: every index, not
    /// only this one).
    pub async fn database_size(&self) -> Result<u64, IndexError> {
        let stats = self.client.get_stats().await.map_err(engine)?;
        Ok(stats.database_size as u64)
    }

    /// Deletes the live index and its rebuild index, if they exist (for tests and tear-down).
    pub async fn drop_index(&self) -> Result<(), IndexError> {
        self.drop(&format!("{}_rebuild", self.uid)).await?;
        self.drop(&format!("{}_rebuild", self.companies)).await?;
        self.drop(&self.companies).await?;
        self.drop(&self.uid).await
    }

    /// Waits for a task to end, returning its final state.
    async fn finish(&self, task: TaskInfo) -> Result<Task, IndexError> {
        let deadline = Instant::now() + self.task_timeout;
        let mut pause = Duration::from_millis(5);
        loop {
            let state = self.client.get_task(&task).await.map_err(engine)?;
            if matches!(state, Task::Succeeded { .. } | Task::Failed { .. }) {
                return Ok(state);
            }
            if Instant::now() >= deadline {
                return Err(IndexError::Engine(
                    format!(
                        "meilisearch task {} did not finish within {:?}",
                        task.task_uid, self.task_timeout
                    )
                    .into(),
                ));
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(250));
        }
    }

    /// Waits for a task and fails when it failed.
    async fn wait(&self, task: TaskInfo) -> Result<(), IndexError> {
        match self.finish(task).await? {
            Task::Failed { content } => Err(engine(Error::Meilisearch(content.error))),
            _ => Ok(()),
        }
    }

    /// Creates job index `uid` (an existing one is kept) and applies the settings to it.
    async fn create_with_settings(&self, uid: &str) -> Result<(), IndexError> {
        self.create_with(uid, "id", settings::settings()).await
    }

    /// Creates index `uid` with primary key `key` (an existing one is kept) and applies
    /// `settings` to it.
    async fn create_with(
        &self,
        uid: &str,
        key: &str,
        settings: meilisearch_sdk::settings::Settings,
    ) -> Result<(), IndexError> {
        let created = self.client.create_index(uid, Some(key)).await.map_err(engine)?;
        match self.finish(created).await? {
            Task::Failed { content }
                if content.error.error_code != ErrorCode::IndexAlreadyExists =>
            {
                return Err(engine(Error::Meilisearch(content.error)));
            }
            _ => {}
        }
        let task = self.client.index(uid).set_settings(&settings).await.map_err(engine)?;
        self.wait(task).await
    }

    /// Deletes index `uid`; a missing one is fine.
    async fn drop(&self, uid: &str) -> Result<(), IndexError> {
        let task = self.client.delete_index(uid).await.map_err(engine)?;
        match self.finish(task).await? {
            Task::Failed { content } if content.error.error_code != ErrorCode::IndexNotFound => {
                Err(engine(Error::Meilisearch(content.error)))
            }
            _ => Ok(()),
        }
    }

    /// Adds (or replaces) documents in index `uid`: every batch is sent, then every task awaited.
    async fn add(&self, uid: &str, docs: &[SearchDocument]) -> Result<(), IndexError> {
        let index = self.client.index(uid);
        let mut tasks = Vec::new();
        for batch in docs.chunks(BATCH) {
            let json: Vec<serde_json::Value> = batch.iter().map(document::to_meili).collect();
            tasks.push(index.add_or_replace(&json, Some("id")).await.map_err(engine)?);
        }
        for task in tasks {
            self.wait(task).await?;
        }
        Ok(())
    }

    /// Adds (or replaces) companies in index `uid`, as [`MeiliIndex::add`] does jobs.
    async fn add_companies(&self, uid: &str, docs: &[CompanyDocument]) -> Result<(), IndexError> {
        let index = self.client.index(uid);
        let mut tasks = Vec::new();
        for batch in docs.chunks(BATCH) {
            tasks.push(index.add_or_replace(batch, Some(companies::KEY)).await.map_err(engine)?);
        }
        for task in tasks {
            self.wait(task).await?;
        }
        Ok(())
    }
}

#[async_trait]
impl SearchIndex for MeiliIndex {
    fn engine(&self) -> &'static str {
        "meilisearch"
    }

    async fn upsert(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.prepare().await?;
        if docs.is_empty() {
            return Ok(());
        }
        self.add(&self.uid, &docs).await
    }

    async fn delete(&self, ids: &[i64]) -> Result<(), IndexError> {
        self.prepare().await?;
        if ids.is_empty() {
            return Ok(());
        }
        let task = self.client.index(&self.uid).delete_documents(ids).await.map_err(engine)?;
        self.wait(task).await
    }

    async fn rebuild(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.prepare().await?;
        let next = format!("{}_rebuild", self.uid);
        self.drop(&next).await?;
        self.create_with_settings(&next).await?;
        self.add(&next, &docs).await?;
        let swap = SwapIndexes { indexes: (self.uid.clone(), next.clone()), rename: None };
        let task = self.client.swap_indexes([&swap]).await.map_err(engine)?;
        self.wait(task).await?;
        self.drop(&next).await
    }

    async fn upsert_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError> {
        self.prepare_companies().await?;
        self.add_companies(&self.companies, &docs).await
    }

    async fn delete_companies(&self, slugs: &[String]) -> Result<(), IndexError> {
        self.prepare_companies().await?;
        if slugs.is_empty() {
            return Ok(());
        }
        let task =
            self.client.index(&self.companies).delete_documents(slugs).await.map_err(engine)?;
        self.wait(task).await
    }

    async fn rebuild_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError> {
        self.prepare_companies().await?;
        let next = format!("{}_rebuild", self.companies);
        self.drop(&next).await?;
        self.create_with(&next, companies::KEY, companies::settings()).await?;
        self.add_companies(&next, &docs).await?;
        let swap = SwapIndexes { indexes: (self.companies.clone(), next.clone()), rename: None };
        let task = self.client.swap_indexes([&swap]).await.map_err(engine)?;
        self.wait(task).await?;
        self.drop(&next).await
    }

    async fn search_companies(&self, search: &CompanySearch) -> Result<CompanyHits, IndexError> {
        // As for jobs: a search-only key cannot apply settings; the search reports failures.
        if self.companies_ready.get().is_none()
            && !self.companies_tried.swap(true, Ordering::Relaxed)
        {
            let _ = self.prepare_companies().await;
        }
        companies::search(&self.client.index(&self.companies), search).await
    }

    async fn search(&self, request: SearchRequest<'_>) -> Result<SearchResults, IndexError> {
        if self.ready.get().is_none() && !self.search_tried.swap(true, Ordering::Relaxed) {
            // Best effort: a search-only key cannot apply settings; the search below reports
            // any real failure.
            let _ = self.prepare().await;
        }
        search::search(&self.client.index(&self.uid), request).await
    }
}
