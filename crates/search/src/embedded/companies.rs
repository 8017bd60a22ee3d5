//! The embedded engine's companies index (reference §5.4): a second tantivy index, in the
//! `companies` directory inside the job index's directory, holding [`CompanyDocument`]s.
//!
//! - **Fields.** `name` and `slug_words` (the slug's words) analysed as job text is;
//!   `slug` (the key, a keyword with a column for ordering); one keyword field per
//!   [`CompanyFacet`]; `job_count` (a column); the stored JSON document.
//! - **Text.** Each word of `q` is looked up through the job engine's `derivations` (exact,
//!   prefix of the last word, typos) in both text fields and keeps its best alternative
//!   (a disjunction max). The alternative scores rank as [`crate::company`] orders matches:
//!   no typo before a typo, then the name before the slug, then an exact word before a prefix.
//!   A company's score is the sum over the words.
//! - **Order.** Every match is collected with its sort key (score, then `job_count`, then the
//!   slug's global ordinal, which is the slugs' byte order across segments: `global`), so
//!   the order is total and a page never depends on segment layout; only the page's
//!   documents are read from the store. A company index holds tens of thousands of documents,
//!   so collecting every match costs well under a millisecond a thousand.
//!
//! Its schema is versioned like the job index's: a companies index of another schema is
//! replaced by an empty one when opened for writing (the pipeline refills it from the
//! companies table: `freehire reindex`, or the company outbox), and refused as
//! [`IndexError::Stale`] when opened read-only.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::directory::MmapDirectory;
use tantivy::query::{
    AllQuery, BooleanQuery, ConstScoreQuery, DisjunctionMaxQuery, FuzzyTermQuery, Occur, Query,
    TermQuery,
};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TantivyDocument,
    TextFieldIndexing, TextOptions,
};
use tantivy::{
    DocAddress, DocId, Index, IndexReader, IndexWriter, Score, SegmentOrdinal, SegmentReader, Term,
};

use super::columns::{ColumnCache, FacetOrds, Values};
use super::derivations::{self, Derivation, Rule};
use super::global::{GlobalCache, GlobalOrds};
use super::{commit, engine, reader_and_writer, schema, stored, translate};
use crate::company::{CompanyDocument, CompanyFacet, CompanyHits, CompanySearch};
use crate::index::IndexError;

/// The companies index's directory inside the job index's.
pub(crate) const SUBDIR: &str = "companies";

/// Memory budget of the companies writer (tantivy's minimum per thread).
const WRITER_BYTES: usize = 15_000_000;

const NAME: &str = "name";
const SLUG: &str = "slug";
const SLUG_WORDS: &str = "slug_words";
const JOB_COUNT: &str = "job_count";
const DOC: &str = "doc";

/// The companies schema, with handles on its fields.
#[derive(Clone)]
struct Fields {
    schema: Schema,
    name: Field,
    slug: Field,
    slug_words: Field,
    job_count: Field,
    doc: Field,
    facets: [Field; 5],
}

impl Fields {
    fn new() -> Self {
        let mut b = Schema::builder();
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(schema::TOKENIZER)
                .set_index_option(IndexRecordOption::Basic),
        );
        let name = b.add_text_field(NAME, text.clone());
        let slug = b.add_text_field(SLUG, STRING | FAST);
        let slug_words = b.add_text_field(SLUG_WORDS, text);
        let facets = CompanyFacet::ALL.map(|f| b.add_text_field(f.attribute(), STRING));
        let job_count = b.add_i64_field(JOB_COUNT, INDEXED | FAST);
        let doc = b.add_text_field(DOC, STORED);
        Self { schema: b.build(), name, slug, slug_words, job_count, doc, facets }
    }

    fn facet(&self, facet: CompanyFacet) -> Field {
        let i = CompanyFacet::ALL.iter().position(|f| *f == facet).unwrap_or(0);
        self.facets[i]
    }
}

/// The companies index of one job index directory.
pub(crate) struct Companies {
    dir: PathBuf,
    /// `None`: a stale index opened read-only.
    live: Option<Live>,
}

struct Live {
    fields: Fields,
    index: Index,
    reader: IndexReader,
    /// `None` when opened read-only.
    writer: Option<Mutex<IndexWriter>>,
    columns: ColumnCache,
    globals: GlobalCache,
}

impl Companies {
    /// Opens (creating when missing) the companies index of the job index in `jobs_dir`.
    pub fn open(jobs_dir: &Path, writable: bool) -> Result<Self, IndexError> {
        let dir = jobs_dir.join(SUBDIR);
        std::fs::create_dir_all(&dir).map_err(engine)?;
        let fields = Fields::new();
        let directory = MmapDirectory::open(&dir).map_err(engine)?;
        let index = if !Index::exists(&directory).map_err(engine)? {
            Index::create(directory, fields.schema.clone(), schema::settings()).map_err(engine)?
        } else {
            let index = Index::open(directory).map_err(engine)?;
            if index.schema() == fields.schema {
                index
            } else if writable {
                // Derived data: replaced by an empty index, which the pipeline refills.
                std::fs::remove_file(dir.join("meta.json")).map_err(engine)?;
                let directory = MmapDirectory::open(&dir).map_err(engine)?;
                Index::create(directory, fields.schema.clone(), schema::settings())
                    .map_err(engine)?
            } else {
                return Ok(Self { dir, live: None });
            }
        };
        let (reader, writer) = reader_and_writer(&index, writable, WRITER_BYTES)?;
        let live = Live {
            fields,
            index,
            reader,
            writer,
            columns: ColumnCache::default(),
            globals: GlobalCache::default(),
        };
        Ok(Self { dir, live: Some(live) })
    }

    fn live(&self) -> Result<&Live, IndexError> {
        self.live.as_ref().ok_or_else(|| IndexError::Stale { dir: self.dir.clone() })
    }

    /// Adds `docs`, replacing the companies of the same slugs.
    pub fn upsert(&self, docs: &[CompanyDocument]) -> Result<(), IndexError> {
        self.live()?.write(|fields, w| add_all(fields, w, docs))
    }

    /// Removes the companies of `slugs`.
    pub fn delete(&self, slugs: &[String]) -> Result<(), IndexError> {
        self.live()?.write(|fields, w| {
            for slug in slugs {
                w.delete_term(Term::from_field_text(fields.slug, slug));
            }
            Ok(())
        })
    }

    /// Replaces every company with `docs` in one commit.
    pub fn rebuild(&self, docs: &[CompanyDocument]) -> Result<(), IndexError> {
        self.live()?.write(|fields, w| {
            w.delete_all_documents().map_err(engine)?;
            add_all(fields, w, docs)
        })
    }

    /// Runs a search.
    pub fn search(&self, search: &CompanySearch) -> Result<CompanyHits, IndexError> {
        self.live()?.search(search)
    }
}

impl Live {
    fn write(
        &self,
        edit: impl FnOnce(&Fields, &mut IndexWriter) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        commit(self.writer.as_ref(), &self.reader, &self.fields, edit)
    }

    fn search(&self, search: &CompanySearch) -> Result<CompanyHits, IndexError> {
        let searcher = self.reader.searcher();
        let mut analyzer =
            self.index.tokenizers().get(schema::TOKENIZER).unwrap_or_else(schema::analyzer);
        let query = self.query(&searcher, &mut analyzer, search).map_err(engine)?;
        let readers = searcher.segment_readers();
        let live: Vec<_> = readers.iter().map(|r| r.segment_id()).collect();
        self.columns.retain(&live);
        let slugs = self.globals.get(&self.columns, readers, SLUG).map_err(engine)?;
        let collector = Ranked { columns: &self.columns, slugs: &slugs };
        let mut ranked = searcher.search(query.as_ref(), &collector).map_err(engine)?;
        let total = ranked.len() as u64;
        let offset = usize::try_from(search.offset).unwrap_or(usize::MAX);
        let end = offset.saturating_add(search.limit as usize).min(ranked.len());
        if offset >= end {
            return Ok(CompanyHits { hits: Vec::new(), total });
        }
        if end < ranked.len() {
            ranked.select_nth_unstable_by(end - 1, Key::cmp);
            ranked.truncate(end);
        }
        ranked.sort_unstable_by(Key::cmp);
        let mut hits = Vec::with_capacity(end - offset);
        for key in &ranked[offset..end] {
            hits.push(stored(&searcher, key.address, self.fields.doc)?);
        }
        Ok(CompanyHits { hits, total })
    }

    /// The text (scored) AND the facets (unscored); every company when both are empty.
    fn query(
        &self,
        searcher: &tantivy::Searcher,
        analyzer: &mut tantivy::tokenizer::TextAnalyzer,
        search: &CompanySearch,
    ) -> tantivy::Result<Box<dyn Query>> {
        let f = &self.fields;
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        if let Some(text) = search.text() {
            let words = translate::words(analyzer, text);
            let last = words.len().saturating_sub(1);
            for (i, word) in words.iter().enumerate() {
                let rule = Rule::new(word, i == last);
                let mut best: Vec<Box<dyn Query>> = Vec::new();
                alternatives(searcher, f.name, &rule, true, &mut best)?;
                alternatives(searcher, f.slug_words, &rule, false, &mut best)?;
                clauses.push((Occur::Must, Box::new(DisjunctionMaxQuery::new(best))));
            }
        }
        for facet in CompanyFacet::ALL {
            let values = search.selected(facet);
            if values.is_empty() {
                continue;
            }
            let any: Vec<(Occur, Box<dyn Query>)> = values
                .iter()
                .map(|v| {
                    let term = Term::from_field_text(f.facet(facet), v);
                    let q: Box<dyn Query> =
                        Box::new(TermQuery::new(term, IndexRecordOption::Basic));
                    (Occur::Should, q)
                })
                .collect();
            let group = ConstScoreQuery::new(Box::new(BooleanQuery::new(any)), 0.0);
            clauses.push((Occur::Must, Box::new(group)));
        }
        Ok(if clauses.is_empty() {
            Box::new(AllQuery)
        } else {
            Box::new(BooleanQuery::new(clauses))
        })
    }
}

/// The score of a word matched through `kind`, in the name or only in the slug: no typo
/// before a typo, then the name before the slug, then exact before a prefix.
fn score(kind: Derivation, in_name: bool) -> Score {
    let typo = matches!(kind, Derivation::Typo | Derivation::TypoPrefix);
    let exact = matches!(kind, Derivation::Exact | Derivation::Typo);
    1.0 + if typo { 0.0 } else { 4.0 } + if in_name { 2.0 } else { 0.0 } + f32::from(exact)
}

/// One query word in one field: a constant-score query per derived word, and for a kind with
/// too many words to list, one automaton query.
fn alternatives(
    searcher: &tantivy::Searcher,
    field: Field,
    rule: &Rule,
    in_name: bool,
    out: &mut Vec<Box<dyn Query>>,
) -> tantivy::Result<()> {
    let derived = derivations::derive(searcher, field, rule)?;
    for (term, kind) in derived.terms {
        let q = TermQuery::new(term, IndexRecordOption::Basic);
        out.push(Box::new(ConstScoreQuery::new(Box::new(q), score(kind, in_name))));
    }
    let term = Term::from_field_text(field, rule.word());
    let typos = rule.typos();
    for kind in derived.overflow {
        let automaton = match kind {
            Derivation::Prefix => FuzzyTermQuery::new_prefix(term.clone(), 0, true),
            Derivation::Typo => FuzzyTermQuery::new(term.clone(), typos, true),
            Derivation::TypoPrefix if rule.last() => {
                FuzzyTermQuery::new_prefix(term.clone(), typos, true)
            }
            Derivation::TypoPrefix | Derivation::Exact => continue,
        };
        out.push(Box::new(ConstScoreQuery::new(Box::new(automaton), score(kind, in_name))));
    }
    Ok(())
}

fn add_all(
    fields: &Fields,
    writer: &mut IndexWriter,
    docs: &[CompanyDocument],
) -> Result<(), IndexError> {
    for doc in docs {
        writer.delete_term(Term::from_field_text(fields.slug, &doc.slug));
        let mut out = TantivyDocument::default();
        out.add_text(fields.name, &doc.name);
        out.add_text(fields.slug, &doc.slug);
        out.add_text(fields.slug_words, &doc.slug);
        for facet in CompanyFacet::ALL {
            for value in facet.values(doc) {
                out.add_text(fields.facet(facet), value);
            }
        }
        out.add_i64(fields.job_count, i64::try_from(doc.job_count).unwrap_or(i64::MAX));
        let json = serde_json::to_string(doc).map_err(|e| IndexError::Document(e.into()))?;
        out.add_text(fields.doc, json);
        writer.add_document(out).map_err(engine)?;
    }
    Ok(())
}

/// A match with its sort key.
#[derive(Clone, Copy)]
struct Key {
    score: Score,
    job_count: i64,
    /// The slug's global ordinal (byte order across segments).
    slug: u32,
    address: DocAddress,
}

impl Key {
    /// Best first: score, then job count, descending; then slug ascending.
    fn cmp(a: &Key, b: &Key) -> Ordering {
        b.score
            .total_cmp(&a.score)
            .then(b.job_count.cmp(&a.job_count))
            .then(a.slug.cmp(&b.slug))
            .then(a.address.cmp(&b.address))
    }
}

/// Collects every match with its [`Key`].
struct Ranked<'a> {
    columns: &'a ColumnCache,
    slugs: &'a GlobalOrds,
}

struct SegmentRanked {
    segment: SegmentOrdinal,
    job_counts: Arc<Values>,
    slugs: Option<Arc<FacetOrds>>,
    /// Local slug ordinal → global.
    global: Vec<u32>,
    keys: Vec<Key>,
}

impl Collector for Ranked<'_> {
    type Fruit = Vec<Key>;
    type Child = SegmentRanked;

    fn for_segment(
        &self,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<SegmentRanked> {
        let slugs = self.columns.facet(reader, SLUG)?;
        let global = self.slugs.map_of(segment as usize).to_vec();
        Ok(SegmentRanked {
            segment,
            job_counts: self.columns.values(reader, JOB_COUNT)?,
            slugs,
            global,
            keys: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Vec<Key>>) -> tantivy::Result<Vec<Key>> {
        Ok(fruits.into_iter().flatten().collect())
    }
}

impl SegmentCollector for SegmentRanked {
    type Fruit = Vec<Key>;

    fn collect(&mut self, doc: DocId, score: Score) {
        let local = self.slugs.as_ref().and_then(|s| s.first(doc));
        let slug = local.and_then(|l| self.global.get(l as usize).copied()).unwrap_or(u32::MAX);
        self.keys.push(Key {
            score,
            job_count: self.job_counts.get(doc).unwrap_or(0),
            slug,
            address: DocAddress::new(self.segment, doc),
        });
    }

    fn harvest(self) -> Vec<Key> {
        self.keys
    }
}
