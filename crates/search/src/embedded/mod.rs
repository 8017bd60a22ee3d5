//! The embedded engine: a [`SearchIndex`] on tantivy, with the index in a directory (under the
//! data dir in production, a temporary directory in tests).
//!
//! - `schema`: fields, and the text analyzer (words lowercased and folded to ASCII).
//! - `derivations`: the dictionary words a query word stands for (prefixes, typos).
//! - `translate`: a [`JobQuery`](crate::JobQuery) as one tantivy query (text rules and filter
//!   translation are documented there).
//! - `collect`: one pass over the matches for hits, the exact total and facet counts.
//! - `columns`: each segment's facet ordinals and stat values, decoded once and kept.
//!
//! Segments are searched in parallel on a pool of one thread per core.
//!
//! Writes go through one `IndexWriter` behind a mutex and are committed before the call
//! returns; the reader is reloaded after each commit, so a write is visible to the next
//! search. Blocking engine work runs on tokio's blocking pool.
//!
//! Deliberately absent: disjunctive facet counts (engine-independent, in
//! [`facet_counts`](crate::index::facet_counts)), highlighting, and any ranking by profile vectors.

mod collect;
mod columns;
mod derivations;
mod schema;
mod translate;

use std::path::Path;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tantivy::directory::MmapDirectory;
use tantivy::schema::{TantivyDocument, Value};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Term};

use crate::document::SearchDocument;
use crate::facet::Facet;
use crate::index::{IndexError, MAX_FACET_VALUES, SearchIndex, SearchRequest, SearchResults};
use crate::query::QField;
use crate::sort::{Order, SortField};
use collect::{Gather, HitOrder};
use columns::ColumnCache;
use schema::Fields;

/// Memory budget of the index writer.
const WRITER_BYTES: usize = 50_000_000;

/// The embedded search engine.
#[derive(Clone)]
pub struct EmbeddedIndex {
    inner: Arc<Inner>,
}

struct Inner {
    index: Index,
    fields: Fields,
    reader: IndexReader,
    /// `None` when opened read-only (another process writes).
    writer: Option<Mutex<IndexWriter>>,
    /// Decoded facet and stat columns of the live segments.
    columns: Arc<ColumnCache>,
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
        let mut index = Index::open_or_create(directory, fields.schema.clone()).map_err(engine)?;
        // A search runs its segments in parallel, one thread per core: latency, not
        // throughput, is what a user waits on.
        index.set_default_multithread_executor().map_err(engine)?;
        index.tokenizers().register(schema::TOKENIZER, schema::analyzer());
        let policy = if writable { ReloadPolicy::Manual } else { ReloadPolicy::OnCommitWithDelay };
        let reader = index.reader_builder().reload_policy(policy).try_into().map_err(engine)?;
        let writer = if writable {
            Some(Mutex::new(index.writer_with_num_threads(1, WRITER_BYTES).map_err(engine)?))
        } else {
            None
        };
        let columns = Arc::default();
        Ok(Self { inner: Arc::new(Inner { index, fields, reader, writer, columns }) })
    }

    /// Runs blocking engine work off the async threads.
    async fn blocking<T, F>(&self, work: F) -> Result<T, IndexError>
    where
        T: Send + 'static,
        F: FnOnce(&Inner) -> Result<T, IndexError> + Send + 'static,
    {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || work(&inner)).await.map_err(engine)?
    }
}

impl Inner {
    /// Applies `edit` to the writer, commits, and reloads the reader.
    fn write(
        &self,
        edit: impl FnOnce(&Fields, &mut IndexWriter) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let writer = self.writer.as_ref().ok_or_else(|| engine("the index is open read-only"))?;
        let mut writer = writer.lock().map_err(|_| engine("index writer lock poisoned"))?;
        if let Err(e) = edit(&self.fields, &mut writer) {
            writer.rollback().map_err(engine)?;
            return Err(e);
        }
        writer.commit().map_err(engine)?;
        self.reader.reload().map_err(engine)
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<SearchResults, IndexError> {
        let q = request.query;
        let mut analyzer =
            self.index.tokenizers().get(schema::TOKENIZER).unwrap_or_else(schema::analyzer);
        let searcher = self.reader.searcher();
        let query = translate::query(&self.fields, &searcher, &mut analyzer, q, request.now)
            .map_err(engine)?;
        let ordering = match (q.sort, q.q.is_some()) {
            (Some(sort), _) => HitOrder::Field(sort_field(sort.field), sort.order),
            (None, true) => HitOrder::Relevance,
            (None, false) => HitOrder::Field(schema::POSTED_TS, Order::Desc),
        };
        let offset = usize::try_from(q.page.offset).unwrap_or(usize::MAX);
        let limit = usize::try_from(q.page.limit).unwrap_or(0);
        let gather = Gather {
            ordering,
            keep: offset.saturating_add(limit),
            facets: request.facets.iter().map(|f| f.param()).collect(),
            stats: request.stats,
            columns: Arc::clone(&self.columns),
        };
        let live: Vec<_> = searcher.segment_readers().iter().map(|r| r.segment_id()).collect();
        self.columns.retain(&live);
        let gathered = searcher.search(query.as_ref(), &gather).map_err(engine)?;
        let (rows, total, counts, stats) =
            (gathered.rows, gathered.total, gathered.counts, gathered.stats);
        let mut hits = Vec::with_capacity(limit);
        for row in rows.iter().skip(offset).take(limit) {
            let stored: TantivyDocument = searcher.doc(row.address).map_err(engine)?;
            let json = stored
                .get_first(self.fields.doc)
                .and_then(|v| v.as_str())
                .ok_or_else(|| IndexError::Document("no stored document".into()))?;
            hits.push(serde_json::from_str(json).map_err(|e| IndexError::Document(e.into()))?);
        }
        let facets =
            request.facets.iter().copied().zip(counts).map(|(f, c)| (f, distribution(c))).collect();
        Ok(SearchResults { hits, total, facets, stats })
    }
}

/// Counts ordered by count (descending), then value; at most [`MAX_FACET_VALUES`].
fn distribution(counts: std::collections::BTreeMap<String, u64>) -> Vec<(String, u64)> {
    let mut list: Vec<(String, u64)> = counts.into_iter().collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    list.truncate(MAX_FACET_VALUES);
    list
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
        self.blocking(move |inner| {
            inner.write(|fields, w| {
                w.delete_all_documents().map_err(engine)?;
                add_all(fields, w, &docs)
            })
        })
        .await
    }

    async fn search(&self, request: SearchRequest<'_>) -> Result<SearchResults, IndexError> {
        let query = request.query.clone();
        let facets = request.facets.to_vec();
        let (now, stats) = (request.now, request.stats);
        self.blocking(move |inner| {
            inner.search(&SearchRequest { query: &query, facets: &facets, stats, now })
        })
        .await
    }
}
