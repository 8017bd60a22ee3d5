//! Choosing the search engine by configuration: the embedded engine (a directory, no server;
//! the default) or a Meilisearch server. The binaries flatten [`SearchEngineArgs`] into their
//! command lines and open the engine with [`open`]: the API for reading, the worker and
//! `freehire reindex` for writing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use freehire_search::{EmbeddedIndex, MeiliConfig, MeiliIndex, SearchIndex};
use secrecy::SecretString;

use crate::AppError;

/// Default directory of the embedded index.
pub const DEFAULT_INDEX_DIR: &str = "./data/index";

/// Which engine holds the search index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The embedded tantivy engine in a directory (no server).
    #[default]
    Embedded,
    /// A Meilisearch server.
    Meilisearch,
}

/// The search-engine options every binary shares (flattened into its clap config).
#[derive(Debug, Clone, clap::Args)]
pub struct SearchEngineArgs {
    /// Search engine: `embedded` (an index directory, no server) or `meilisearch` (needs
    /// `FREEHIRE_MEILI_URL`).
    #[arg(long, env = "FREEHIRE_SEARCH_ENGINE", value_enum, default_value_t = EngineKind::Embedded)]
    pub search_engine: EngineKind,

    /// The embedded engine's index directory (the worker holds its writer; the API opens it
    /// read-only).
    #[arg(long, env = "FREEHIRE_INDEX_DIR", default_value = DEFAULT_INDEX_DIR)]
    pub index_dir: PathBuf,

    /// Meilisearch server address, e.g. `http://127.0.0.1:7700`.
    #[arg(long, env = "FREEHIRE_MEILI_URL")]
    pub meili_url: Option<String>,

    /// Meilisearch API key (the master key, or a key allowed to manage the index). A
    /// [`SecretString`]: its `Debug` is redacted; it is exposed only where it is handed to the
    /// Meilisearch adapter.
    #[arg(long, env = "FREEHIRE_MEILI_MASTER_KEY", hide_env_values = true)]
    pub meili_key: Option<SecretString>,

    /// Meilisearch index uid (rebuilds use `<uid>_rebuild`).
    #[arg(long, env = "FREEHIRE_MEILI_INDEX", default_value = freehire_search::DEFAULT_INDEX_UID)]
    pub meili_index: String,
}

impl Default for SearchEngineArgs {
    fn default() -> Self {
        Self {
            search_engine: EngineKind::Embedded,
            index_dir: PathBuf::from(DEFAULT_INDEX_DIR),
            meili_url: None,
            meili_key: None,
            meili_index: freehire_search::DEFAULT_INDEX_UID.to_owned(),
        }
    }
}

/// A checked engine choice.
#[derive(Debug, Clone)]
pub enum SearchEngineConfig {
    /// The embedded engine in this directory.
    Embedded {
        /// The index directory.
        dir: PathBuf,
    },
    /// A Meilisearch server.
    Meilisearch(MeiliConfig),
}

impl SearchEngineArgs {
    /// The engine these options name; `meilisearch` without a URL is refused.
    pub fn config(&self) -> Result<SearchEngineConfig, AppError> {
        match self.search_engine {
            EngineKind::Embedded => {
                Ok(SearchEngineConfig::Embedded { dir: self.index_dir.clone() })
            }
            EngineKind::Meilisearch => {
                let url = self.meili_url.as_deref().map(str::trim).unwrap_or_default();
                if url.is_empty() {
                    return Err(AppError::Config(
                        "FREEHIRE_SEARCH_ENGINE=meilisearch needs FREEHIRE_MEILI_URL (--meili-url)"
                            .into(),
                    ));
                }
                Ok(SearchEngineConfig::Meilisearch(
                    MeiliConfig::new(url)
                        .with_api_key(self.meili_key.clone())
                        .with_index_uid(self.meili_index.clone()),
                ))
            }
        }
    }
}

impl std::fmt::Display for SearchEngineConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Embedded { dir } => write!(f, "embedded index in {}", dir.display()),
            Self::Meilisearch(c) => write!(f, "Meilisearch index {} at {}", c.index_uid, c.url),
        }
    }
}

/// What the opener needs the index for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Searching only (the API): the embedded engine opens read-only and follows the writer's
    /// commits.
    Read,
    /// Searching and writing (the worker, `freehire reindex`): the embedded engine takes the
    /// directory's one writer.
    Write,
}

/// The file tantivy writes with an index's first commit: a directory without it holds no index.
const EMBEDDED_META: &str = "meta.json";

/// Whether the embedded index directory holds an index (a reader never creates one).
pub fn embedded_index_exists(dir: &Path) -> bool {
    dir.join(EMBEDDED_META).is_file()
}

/// Opens the configured engine. The embedded engine is opened (and created when writing) now;
/// opened for reading, a directory without an index is [`AppError::NoIndex`] and nothing is
/// created (searching it would answer an empty catalogue instead of "not built yet").
/// A Meilisearch index opened for writing is created and given its settings now when the
/// server answers, and otherwise on first use (a warning is logged), so a server that starts
/// later is picked up; one opened for reading does that on its first search, if its key may.
pub async fn open(
    config: &SearchEngineConfig,
    access: Access,
) -> Result<Arc<dyn SearchIndex>, AppError> {
    match config {
        SearchEngineConfig::Embedded { dir } => {
            if access == Access::Read && !embedded_index_exists(dir) {
                return Err(AppError::NoIndex { dir: dir.clone() });
            }
            let dir = dir.clone();
            let index = tokio::task::spawn_blocking(move || match access {
                Access::Read => EmbeddedIndex::open_read_only(&dir),
                Access::Write => EmbeddedIndex::open(&dir),
            })
            .await??;
            Ok(Arc::new(index))
        }
        SearchEngineConfig::Meilisearch(meili) => {
            let index = MeiliIndex::new(meili.clone())?;
            // A reader's key may only search: the first search applies the settings if it can.
            if access == Access::Write
                && let Err(e) = index.prepare().await
            {
                tracing::warn!(error = %e, url = %meili.url, "Meilisearch is not ready; retrying on first use");
            }
            Ok(Arc::new(index))
        }
    }
}

/// [`open`], a failure naming the engine ([`AppError::OpenIndex`]): for the processes that
/// cannot run without the index.
pub async fn open_named(
    config: &SearchEngineConfig,
    access: Access,
) -> Result<Arc<dyn SearchIndex>, AppError> {
    open(config, access).await.map_err(|source| AppError::OpenIndex {
        engine: config.to_string(),
        source: Box::new(source),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use clap::Parser;
    use secrecy::ExposeSecret;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        search: SearchEngineArgs,
    }

    // Flags are given explicitly: they win over the environment (a developer's FREEHIRE_MEILI_URL).
    // scenario: Default
    #[test]
    fn the_default_is_the_embedded_engine() {
        match SearchEngineArgs::default().config().unwrap() {
            SearchEngineConfig::Embedded { dir } => assert_eq!(dir, PathBuf::from("./data/index")),
            other => panic!("{other}"),
        }
        let cli =
            Cli::try_parse_from(["x", "--search-engine", "embedded", "--index-dir", "/i"]).unwrap();
        assert!(matches!(cli.search.config().unwrap(), SearchEngineConfig::Embedded { .. }));
    }

    // scenario: Missing URL
    #[test]
    fn meilisearch_needs_a_url() {
        let cli = Cli::try_parse_from(["x", "--search-engine", "meilisearch", "--meili-url", " "])
            .unwrap();
        assert!(cli.search.config().unwrap_err().to_string().contains("MEILI_URL"));
        let cli = Cli::try_parse_from([
            "x",
            "--search-engine",
            "meilisearch",
            "--meili-url",
            "http://127.0.0.1:7700",
            "--meili-key",
            "k",
            "--meili-index",
            "jobs",
        ])
        .unwrap();
        assert!(!format!("{:?}", cli.search).contains("\"k\""), "the key never prints");
        match cli.search.config().unwrap() {
            SearchEngineConfig::Meilisearch(c) => {
                assert_eq!(
                    (c.url.as_str(), c.index_uid.as_str()),
                    ("http://127.0.0.1:7700", "jobs")
                );
                assert_eq!(c.api_key.as_ref().map(|k| k.expose_secret()), Some("k"));
                assert!(!format!("{c:?}").contains("\"k\""), "the key never prints");
            }
            other => panic!("{other}"),
        }
    }

    #[tokio::test]
    async fn an_embedded_index_opens_for_writing_then_reading() {
        let dir = tempfile::tempdir().unwrap();
        let config = SearchEngineConfig::Embedded { dir: dir.path().join("index") };
        let writer = open(&config, Access::Write).await.unwrap();
        writer.upsert(Vec::new()).await.unwrap();
        let reader = open(&config, Access::Read).await.unwrap();
        assert_eq!(crate::testing::indexed_total(reader.as_ref()).await.unwrap(), 0);
    }

    #[tokio::test]
    async fn a_reader_never_creates_the_embedded_index() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("index");
        let config = SearchEngineConfig::Embedded { dir: missing.clone() };
        let e = open(&config, Access::Read).await.err().unwrap();
        assert!(matches!(e, AppError::NoIndex { .. }), "{e}");
        assert!(e.to_string().contains("run freehire-worker"), "{e}");
        assert!(!missing.exists(), "nothing created");
        std::fs::create_dir(&missing).unwrap();
        assert!(matches!(open(&config, Access::Read).await, Err(AppError::NoIndex { .. })));
        assert_eq!(
            std::fs::read_dir(&missing).unwrap().count(),
            0,
            "an empty directory stays empty"
        );
    }
}
