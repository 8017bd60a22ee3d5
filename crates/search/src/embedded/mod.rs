//! The embedded engine: a [`SearchIndex`] on tantivy, with the index in a directory (under the
//! data dir in production, a temporary directory in tests).
//!
//! - `schema`: fields, and the text analyzer (words lowercased and folded to ASCII).
//! - `derivations`: the dictionary words a query word stands for (prefixes, typos), and the
//!   word's match rule the percolator shares.
//! - `translate`: a [`JobQuery`](crate::JobQuery) as one tantivy query (text rules and filter
//!   translation are documented there).
//! - `bound`: the filter's numeric bounds, read from the decoded values of `columns`.
//! - `collect`: one pass over the matches for hits, the exact total and facet counts.
//! - `columns`: each segment's facet ordinals and stat values, decoded once and kept.
//! - `global`: one numbering of a facet's values across the segments, so that distributions
//!   are counted by number and only their final page is read as text.
//! - `companies`: the companies index (reference §5.4), a second tantivy index in the
//!   `companies` directory inside this one.
//!
//! Segments are searched in parallel on a pool of one thread per core.
//!
//! Writes go through one `IndexWriter` behind a mutex and are committed before the call
//! returns; the reader is reloaded after each commit, so a write is visible to the next
//! search. Blocking engine work runs on tokio's blocking pool.
//!
//! **Cancellation.** A search's blocking work carries a cancellation flag that a guard in the
//! async call sets when the call's future is dropped (an HTTP timeout, a client gone) and
//! that the work checks per query word, per segment and per block of 64 matches
//! (`collect`): an abandoned search stops within one block instead of running to the end.
//! The cost is one relaxed atomic load per block.
//!
//! **Stale indexes.** An index whose schema is not this version's (an index built by an
//! earlier freehire lacks the folded free-text fields) is stale: opened read-only it is
//! refused with [`IndexError::Stale`], which says to run `freehire reindex`; opened for
//! writing it opens, refuses searches and writes the same way, and its first
//! [`rebuild`](SearchIndex::rebuild) (what `freehire reindex` does) replaces it with a fresh
//! index of the current schema, then fills it. Nothing else deletes an index.
//!
//! Deliberately absent: disjunctive facet counts (engine-independent, in
//! [`facet_counts`](crate::index::facet_counts)), highlighting, and any ranking by profile vectors.

mod bound;
mod collect;
mod columns;
mod companies;
pub(crate) mod derivations;
pub(crate) mod fold;
mod global;
pub(crate) mod schema;
mod text;
pub(crate) mod translate;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use async_trait::async_trait;
use tantivy::directory::MmapDirectory;
use tantivy::schema::{TantivyDocument, Value};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Term};

use crate::company::{CompanyDocument, CompanyHits, CompanySearch};
use crate::document::SearchDocument;
use crate::facet::Facet;
use crate::index::{IndexError, SearchIndex, SearchRequest, SearchResults};
use crate::query::QField;
use crate::sort::{Order, SortField};
use collect::{Cancel, Gather, HitOrder};
use columns::ColumnCache;
use schema::Fields;
use text::TextWeights;

/// Memory budget of the index writer.
const WRITER_BYTES: usize = 50_000_000;

/// The embedded search engine.
#[derive(Clone)]
pub struct EmbeddedIndex {
    inner: Arc<Shared>,
}

/// The directory and, once it holds an index of the current schema, that index.
struct Shared {
    dir: PathBuf,
    /// Empty while the directory holds a stale index (opened for writing only).
    live: OnceLock<Inner>,
    /// Serialises replacing a stale index.
    replacing: Mutex<()>,
    /// The companies index.
    companies: companies::Companies,
}

/// An open index of the current schema.
struct Inner {
    index: Index,
    fields: Fields,
    reader: IndexReader,
    /// `None` when opened read-only (another process writes).
    writer: Option<Mutex<IndexWriter>>,
    /// Decoded facet and stat columns of the live segments.
    columns: Arc<ColumnCache>,
    /// The facets' global ordinals over the live segments.
    globals: global::GlobalCache,
    /// Test-only: a pause per collected block, to make a search slow on purpose.
    #[cfg(test)]
    block_delay: std::time::Duration,
}

fn engine(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> IndexError {
    IndexError::Engine(e.into())
}

impl EmbeddedIndex {
    /// Opens the index in `dir`, creating the directory and an empty index when needed.
    /// Blocking (call it at startup). The directory holds tantivy's writer lock while the
    /// index is open, so a second open of the same directory fails until the first is dropped.
    pub fn open(dir: &Path) -> Result<Self, IndexError> {
        Self::open_with(dir, true)
    }

    /// Opens the index in `dir` for searching only, while another process (the worker) holds
    /// the writer: the reader follows that process's commits. Writes return an error.
    /// Creates an empty index when there is none yet. Blocking.
    pub fn open_read_only(dir: &Path) -> Result<Self, IndexError> {
        Self::open_with(dir, false)
    }

    fn open_with(dir: &Path, writable: bool) -> Result<Self, IndexError> {
        std::fs::create_dir_all(dir).map_err(engine)?;
        let fields = Fields::new();
        let directory = MmapDirectory::open(dir).map_err(engine)?;
        let live = OnceLock::new();
        if !Index::exists(&directory).map_err(engine)? {
            let index = Index::create(directory, fields.schema.clone(), schema::settings())
                .map_err(engine)?;
            let _ = live.set(Inner::new(index, fields, writable)?);
        } else {
            let index = Index::open(directory).map_err(engine)?;
            if index.schema() == fields.schema {
                let _ = live.set(Inner::new(index, fields, writable)?);
            } else if !writable {
                return Err(IndexError::Stale { dir: dir.to_owned() });
            }
        }
        let companies = companies::Companies::open(dir, writable)?;
        let shared = Shared { dir: dir.to_owned(), live, replacing: Mutex::new(()), companies };
        Ok(Self { inner: Arc::new(shared) })
    }

    /// Runs blocking engine work off the async threads, on the live index.
    async fn blocking<T, F>(&self, work: F) -> Result<T, IndexError>
    where
        T: Send + 'static,
        F: FnOnce(&Inner) -> Result<T, IndexError> + Send + 'static,
    {
        let shared = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || work(shared.live()?)).await.map_err(engine)?
    }

    /// Runs blocking work on the companies index off the async threads.
    async fn on_companies<T, F>(&self, work: F) -> Result<T, IndexError>
    where
        T: Send + 'static,
        F: FnOnce(&companies::Companies) -> Result<T, IndexError> + Send + 'static,
    {
        let shared = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || work(&shared.companies)).await.map_err(engine)?
    }
}

impl Shared {
    /// The live index, or [`IndexError::Stale`].
    fn live(&self) -> Result<&Inner, IndexError> {
        self.live.get().ok_or_else(|| IndexError::Stale { dir: self.dir.clone() })
    }

    /// The live index, replacing a stale one (opened for writing) by an empty index of the
    /// current schema first. Tantivy's own files only: the old `meta.json` goes, and the
    /// first commit's garbage collection removes the old segment files.
    fn live_or_replace(&self) -> Result<&Inner, IndexError> {
        if let Some(live) = self.live.get() {
            return Ok(live);
        }
        let _one = self.replacing.lock().map_err(|_| engine("index replacement lock poisoned"))?;
        if let Some(live) = self.live.get() {
            return Ok(live);
        }
        std::fs::remove_file(self.dir.join("meta.json")).map_err(engine)?;
        let fields = Fields::new();
        let directory = MmapDirectory::open(&self.dir).map_err(engine)?;
        let index =
            Index::create(directory, fields.schema.clone(), schema::settings()).map_err(engine)?;
        let _ = self.live.set(Inner::new(index, fields, true)?);
        self.live()
    }
}

impl Inner {
    fn new(mut index: Index, fields: Fields, writable: bool) -> Result<Self, IndexError> {
        // A search runs its segments in parallel, one thread per core: latency, not
        // throughput, is what a user waits on.
        index.set_default_multithread_executor().map_err(engine)?;
        let (reader, writer) = reader_and_writer(&index, writable, WRITER_BYTES)?;
        Ok(Self {
            index,
            fields,
            reader,
            writer,
            columns: Arc::default(),
            globals: global::GlobalCache::default(),
            #[cfg(test)]
            block_delay: std::time::Duration::ZERO,
        })
    }

    /// Applies `edit` to the writer, commits, and reloads the reader.
    fn write(
        &self,
        edit: impl FnOnce(&Fields, &mut IndexWriter) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        commit(self.writer.as_ref(), &self.reader, &self.fields, edit)
    }

    fn search(
        &self,
        request: &SearchRequest<'_>,
        cancel: &Cancel,
    ) -> Result<SearchResults, IndexError> {
        let q = request.query;
        let mut analyzer =
            self.index.tokenizers().get(schema::TOKENIZER).unwrap_or_else(schema::analyzer);
        let searcher = self.reader.searcher();
        let parts = translate::parts(
            &self.fields,
            &self.columns,
            &searcher,
            &mut analyzer,
            q,
            request.now,
            cancel,
        )
        .map_err(engine)?;
        let ordering = match (q.sort, q.q.is_some()) {
            (Some(sort), _) => HitOrder::Field(sort_field(sort.field), sort.order),
            (None, true) => HitOrder::Relevance,
            (None, false) => HitOrder::Field(schema::POSTED_TS, Order::Desc),
        };
        let offset = usize::try_from(q.page.offset).unwrap_or(usize::MAX);
        let limit = usize::try_from(q.page.limit).unwrap_or(0);
        let live: Vec<_> = searcher.segment_readers().iter().map(|r| r.segment_id()).collect();
        self.columns.retain(&live);
        let facets = request
            .facets
            .iter()
            .map(|f| {
                let global = self.globals.get(&self.columns, searcher.segment_readers(), f.param());
                Ok((f.param(), global?))
            })
            .collect::<tantivy::Result<Vec<_>>>()
            .map_err(engine)?;
        let gather = Gather {
            ordering,
            keep: offset.saturating_add(limit),
            facets,
            stats: request.stats,
            columns: Arc::clone(&self.columns),
            cancel: cancel.clone(),
            #[cfg(test)]
            block_delay: self.block_delay,
        };
        let gathered = match ordering {
            // Relevance with words to score: a window at a time (`text`).
            HitOrder::Relevance if !parts.words.is_empty() => {
                let weights =
                    TextWeights::new(&searcher, &parts.words, &parts.filter).map_err(engine)?;
                gather.search_text(&searcher, &weights)
            }
            _ => searcher.search(parts.into_query().as_ref(), &gather),
        }
        .map_err(engine)?;
        let (rows, total, counts, stats) =
            (gathered.rows, gathered.total, gathered.counts, gathered.stats);
        let mut hits = Vec::with_capacity(limit);
        for row in rows.iter().skip(offset).take(limit) {
            hits.push(stored(&searcher, row.address, self.fields.doc)?);
        }
        let facets = request.facets.iter().copied().zip(counts).collect();
        Ok(SearchResults { hits, total, facets, stats })
    }
}

/// Registers the analyzer on `index` and opens its reader and, when `writable`, its one
/// writer (`bytes` of memory): a writer's reader reloads after each of its commits, a
/// read-only one follows another process's commits.
fn reader_and_writer(
    index: &Index,
    writable: bool,
    bytes: usize,
) -> Result<(IndexReader, Option<Mutex<IndexWriter>>), IndexError> {
    index.tokenizers().register(schema::TOKENIZER, schema::analyzer());
    let policy = if writable { ReloadPolicy::Manual } else { ReloadPolicy::OnCommitWithDelay };
    let reader = index.reader_builder().reload_policy(policy).try_into().map_err(engine)?;
    let writer = if writable {
        Some(Mutex::new(index.writer_with_num_threads(1, bytes).map_err(engine)?))
    } else {
        None
    };
    Ok((reader, writer))
}

/// Applies `edit` to `writer` (`None`: the index is open read-only), commits and reloads
/// `reader`; an edit that fails is rolled back.
fn commit<F>(
    writer: Option<&Mutex<IndexWriter>>,
    reader: &IndexReader,
    fields: &F,
    edit: impl FnOnce(&F, &mut IndexWriter) -> Result<(), IndexError>,
) -> Result<(), IndexError> {
    let writer = writer.ok_or_else(|| engine("the index is open read-only"))?;
    let mut writer = writer.lock().map_err(|_| engine("index writer lock poisoned"))?;
    if let Err(e) = edit(fields, &mut writer) {
        writer.rollback().map_err(engine)?;
        return Err(e);
    }
    writer.commit().map_err(engine)?;
    reader.reload().map_err(engine)
}

/// The JSON document stored in `field` of the document at `address`, decoded.
fn stored<T: serde::de::DeserializeOwned>(
    searcher: &tantivy::Searcher,
    address: tantivy::DocAddress,
    field: tantivy::schema::Field,
) -> Result<T, IndexError> {
    let doc: TantivyDocument = searcher.doc(address).map_err(engine)?;
    let json = doc
        .get_first(field)
        .and_then(|v| v.as_str())
        .ok_or_else(|| IndexError::Document("no stored document".into()))?;
    serde_json::from_str(json).map_err(|e| IndexError::Document(e.into()))
}

/// The fast field a sort reads.
fn sort_field(field: SortField) -> &'static str {
    match field {
        SortField::CreatedAt => schema::CREATED_TS,
        SortField::PostedAt => schema::POSTED_TS,
        SortField::ViewCount => schema::VIEW_COUNT,
        SortField::SalaryMin => schema::SALARY_MIN,
        SortField::SalaryMax => schema::SALARY_MAX,
    }
}

/// The tantivy document of a search document.
fn to_tantivy(fields: &Fields, doc: &SearchDocument) -> Result<TantivyDocument, IndexError> {
    let mut out = TantivyDocument::default();
    let field = |name: &str| fields.get(name).map_err(engine);
    let texts: [(QField, &str); 4] = [
        (QField::Title, &doc.title),
        (QField::Company, &doc.company),
        (QField::Description, &doc.description),
        (QField::Location, &doc.location),
    ];
    for (f, text) in texts {
        out.add_text(field(f.as_str())?, text);
    }
    for facet in Facet::ALL {
        let f = field(facet.param())?;
        for value in doc.values(*facet) {
            out.add_text(f, value);
        }
    }
    for facet in schema::FREE_TEXT {
        let f = field(&schema::folded(*facet))?;
        for value in doc.values(*facet) {
            out.add_text(f, fold::fold(value));
        }
    }
    if let Some(b) = doc.visa_sponsorship {
        out.add_text(field(schema::VISA_SPONSORSHIP)?, if b { "true" } else { "false" });
    }
    let numbers = [
        (schema::ID, Some(doc.id)),
        (schema::POSTED_TS, Some(doc.posted_ts)),
        (schema::CREATED_TS, Some(doc.created_ts)),
        (schema::VIEW_COUNT, Some(doc.view_count)),
        (schema::SALARY_MIN, doc.salary_min),
        (schema::SALARY_MAX, doc.salary_max),
        (schema::EXPERIENCE_YEARS_MIN, doc.experience_years_min),
    ];
    for (name, value) in numbers {
        if let Some(v) = value {
            out.add_i64(field(name)?, v);
        }
    }
    let json = serde_json::to_string(doc).map_err(|e| IndexError::Document(e.into()))?;
    out.add_text(fields.doc, json);
    Ok(out)
}

fn add_all(
    fields: &Fields,
    writer: &mut IndexWriter,
    docs: &[SearchDocument],
) -> Result<(), IndexError> {
    let id = fields.get(schema::ID).map_err(engine)?;
    for doc in docs {
        writer.delete_term(Term::from_field_i64(id, doc.id));
        writer.add_document(to_tantivy(fields, doc)?).map_err(engine)?;
    }
    Ok(())
}

#[async_trait]
impl SearchIndex for EmbeddedIndex {
    fn engine(&self) -> &'static str {
        "embedded"
    }

    async fn upsert(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        self.blocking(move |inner| inner.write(|fields, w| add_all(fields, w, &docs))).await
    }

    async fn delete(&self, ids: &[i64]) -> Result<(), IndexError> {
        let ids = ids.to_vec();
        self.blocking(move |inner| {
            inner.write(|fields, w| {
                let id = fields.get(schema::ID).map_err(engine)?;
                for i in ids {
                    w.delete_term(Term::from_field_i64(id, i));
                }
                Ok(())
            })
        })
        .await
    }

    async fn rebuild(&self, docs: Vec<SearchDocument>) -> Result<(), IndexError> {
        let shared = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || {
            let inner = shared.live_or_replace()?;
            inner.write(|fields, w| {
                w.delete_all_documents().map_err(engine)?;
                add_all(fields, w, &docs)
            })
        })
        .await
        .map_err(engine)?
    }

    async fn upsert_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError> {
        self.on_companies(move |c| c.upsert(&docs)).await
    }

    async fn delete_companies(&self, slugs: &[String]) -> Result<(), IndexError> {
        let slugs = slugs.to_vec();
        self.on_companies(move |c| c.delete(&slugs)).await
    }

    async fn rebuild_companies(&self, docs: Vec<CompanyDocument>) -> Result<(), IndexError> {
        self.on_companies(move |c| c.rebuild(&docs)).await
    }

    async fn search_companies(&self, search: &CompanySearch) -> Result<CompanyHits, IndexError> {
        let search = search.clone();
        self.on_companies(move |c| c.search(&search)).await
    }

    async fn search(&self, request: SearchRequest<'_>) -> Result<SearchResults, IndexError> {
        let query = request.query.clone();
        let facets = request.facets.to_vec();
        let (now, stats) = (request.now, request.stats);
        // Dropping this future (a timeout, a client gone) cancels the blocking work.
        let cancel = Cancel::default();
        let _on_drop = cancel.guard();
        self.blocking(move |inner| {
            inner.search(&SearchRequest { query: &query, facets: &facets, stats, now }, &cancel)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use std::time::{Duration, Instant};

    use super::*;
    use crate::{Endpoint, JobQuery};

    fn doc(id: i64) -> SearchDocument {
        SearchDocument {
            id,
            public_slug: format!("job-{id}"),
            external_id: id.to_string(),
            title: "Rust Engineer".into(),
            company: "Acme".into(),
            company_slug: "acme".into(),
            location: "Berlin".into(),
            description: "plain text".into(),
            url: String::new(),
            facets: [("skills".to_owned(), vec!["rust".to_owned()])].into(),
            posted_ts: id,
            created_ts: id,
            updated_ts: id,
            salary_min: None,
            salary_max: None,
            experience_years_min: None,
            visa_sponsorship: None,
            view_count: 0,
        }
    }

    /// An index of `n` documents whose searches pause `delay` per block of 64 matches.
    async fn slow_index(dir: &Path, n: i64, delay: Duration) -> EmbeddedIndex {
        let index = EmbeddedIndex::open(dir).unwrap();
        index.upsert((0..n).map(doc).collect()).await.unwrap();
        let mut shared = Arc::try_unwrap(index.inner).ok().expect("one handle");
        shared.live.get_mut().expect("live").block_delay = delay;
        EmbeddedIndex { inner: Arc::new(shared) }
    }

    /// Runs `qs` on `index` with a deadline; returns when the blocking work really ended.
    async fn abandoned_search_ends_within(index: &EmbeddedIndex, qs: &str) -> Duration {
        let query = JobQuery::from_query_str(qs, Endpoint::Search).unwrap();
        let now = chrono::Utc::now();
        let request = SearchRequest::new(&query, now).with_facets(&[Facet::Skills]);
        let timed = tokio::time::timeout(Duration::from_millis(300), index.search(request)).await;
        assert!(timed.is_err(), "the slow search must outlive its deadline");
        let dropped = Instant::now();
        // The blocking pool's search holds the only other reference to the shared state.
        while Arc::strong_count(&index.inner) > 1 {
            assert!(dropped.elapsed() < Duration::from_secs(10), "the search never stopped");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        dropped.elapsed()
    }

    // scenario: An abandoned search stops
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_abandoned_search_frees_its_thread_within_a_second() {
        let dir = tempfile::tempdir().unwrap();
        // 6,400 matches = 100 blocks of 50 ms: 5 s of work per segment when not cancelled.
        let index = slow_index(dir.path(), 6_400, Duration::from_millis(50)).await;
        for qs in ["", "q=rust", "skills=RUST&sort=created_at"] {
            let stopped = abandoned_search_ends_within(&index, qs).await;
            assert!(stopped < Duration::from_secs(1), "{qs:?}: stopped after {stopped:?}");
        }
        // A search that is not abandoned runs to the end with every match.
        let fast = slow_index(tempfile::tempdir().unwrap().path(), 200, Duration::ZERO).await;
        let query = JobQuery::from_query_str("q=rust", Endpoint::Search).unwrap();
        let found = fast.search(SearchRequest::new(&query, chrono::Utc::now())).await.unwrap();
        assert_eq!(found.total, 200);
    }
}
