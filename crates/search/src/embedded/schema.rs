//! The tantivy schema of the embedded engine: one field per searchable text, per facet, per
//! numeric bound or sort key, plus the stored document; each free-text facet (`cities`,
//! `skills`, `collections`, `posting_language`) also has a `<facet>_folded` keyword field
//! holding its values folded (`fold`), which filters look up as terms.
//!
//! An index whose schema differs from this one (built by another version) is stale: the
//! engine refuses to search it and `freehire reindex` rebuilds it (see the engine's docs).

use tantivy::IndexSettings;
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::store::{Compressor, ZstdCompressor};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};

use crate::facet::Facet;
use crate::query::QField;

/// The tokenizer of the searchable text fields.
pub(crate) const TOKENIZER: &str = "freehire";

/// Name of the stored JSON document.
const DOC: &str = "doc";

/// The numeric fields (i64, indexed for ranges, fast for sorts).
pub(crate) const POSTED_TS: &str = "posted_ts";
pub(crate) const CREATED_TS: &str = "created_ts";
pub(crate) const ID: &str = "id";
pub(crate) const SALARY_MIN: &str = "salary_min";
pub(crate) const SALARY_MAX: &str = "salary_max";
pub(crate) const EXPERIENCE_YEARS_MIN: &str = "experience_years_min";
pub(crate) const VIEW_COUNT: &str = "view_count";
/// `"true"` / `"false"`, absent when unknown.
pub(crate) const VISA_SPONSORSHIP: &str = "visa_sponsorship";

const NUMBERS: &[&str] =
    &[POSTED_TS, CREATED_TS, ID, SALARY_MIN, SALARY_MAX, EXPERIENCE_YEARS_MIN, VIEW_COUNT];

/// The analyzer of the searchable text: words of letters and digits, lowercased, folded to
/// ASCII, words over 40 bytes dropped.
pub(crate) fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// The free-text facets: their values filter regardless of case, through a folded field.
pub(crate) const FREE_TEXT: &[Facet] =
    &[Facet::Cities, Facet::Skills, Facet::Collections, Facet::PostingLanguage];

/// The name of `facet`'s folded field.
pub(crate) fn folded(facet: Facet) -> String {
    format!("{}_folded", facet.param())
}

/// The settings of a new index: the stored documents compressed with zstd (level 3), which
/// keeps the store, four fifths of the index, at about half its LZ4 size; a hit's block
/// decompresses in microseconds.
pub(crate) fn settings() -> IndexSettings {
    IndexSettings {
        docstore_compression: Compressor::Zstd(ZstdCompressor::default()),
        ..IndexSettings::default()
    }
}

/// The schema, with handles on its fields.
#[derive(Clone)]
pub(crate) struct Fields {
    pub schema: Schema,
    pub doc: Field,
}

impl Fields {
    pub fn new() -> Self {
        let mut b = Schema::builder();
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqs),
        );
        for f in QField::ALL {
            b.add_text_field(f.as_str(), text.clone());
        }
        for f in Facet::ALL {
            b.add_text_field(f.param(), STRING | FAST);
        }
        for f in FREE_TEXT {
            b.add_text_field(&folded(*f), STRING);
        }
        b.add_text_field(VISA_SPONSORSHIP, STRING | FAST);
        for n in NUMBERS {
            b.add_i64_field(n, INDEXED | FAST);
        }
        let doc = b.add_text_field(DOC, STORED);
        Self { schema: b.build(), doc }
    }

    /// The field named `name` (every name used here is declared in [`Fields::new`]).
    pub fn get(&self, name: &str) -> Result<Field, tantivy::TantivyError> {
        self.schema.get_field(name)
    }
}
