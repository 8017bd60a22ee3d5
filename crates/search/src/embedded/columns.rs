//! Facet ordinals and stat values of each segment, laid out for counting and kept in memory.
//!
//! Counting a facet over half a million matches reads one ordinal per match: through
//! tantivy's columnar format that is a rank lookup in an optional or multi-value index per
//! document, which dominated the facet requests. Segments never change once written, so
//! each segment's columns are decoded once, on first use, into flat arrays (one ordinal per
//! document for single-valued facets, offsets plus ordinals for multi-valued ones, one value
//! per document for the numeric fields the stats and the filter's bounds read, `bound`) and
//! shared by every later search. Entries of segments that left the index (merged or deleted)
//! are dropped whenever a search sees a new segment set. Memory is about four bytes per facet
//! value and eight per numeric field read (salary, experience, and the posting and first-seen
//! dates once a date window is filtered on) of every document.
//!
//! A facet of at most [`MAX_BITSET_TERMS`] values in a segment also gets, on first use, one
//! bitset of documents per value ([`ValueBits`]): when a search matches many documents, a
//! value's count is the population count of its bitset ANDed with the matches, which costs
//! the segment's size in words per value instead of one step per match and value. Memory is
//! one bit per document per such value (at most 64 bits per document per facet).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tantivy::columnar::{Column, StrColumn};
use tantivy::index::SegmentId;
use tantivy::{DocId, SegmentReader};

/// No value (an ordinal or a stat).
const NONE_ORD: u32 = u32::MAX;
const NONE_VALUE: i64 = i64::MIN;

/// Facets with at most this many values in a segment are also kept as a bitset per value.
pub(crate) const MAX_BITSET_TERMS: usize = 64;

/// One facet's ordinals in one segment, with its dictionary.
pub(crate) struct FacetOrds {
    /// `None`: at most one value per document, `ords[doc]`. `Some(starts)`: the values of
    /// `doc` are `ords[starts[doc]..starts[doc + 1]]` (distinct).
    starts: Option<Vec<u32>>,
    ords: Vec<u32>,
    /// Resolves ordinals back to values.
    pub dictionary: StrColumn,
    /// The documents of each value, built on first use (few-valued facets only).
    bits: OnceLock<Option<ValueBits>>,
    /// Values per document, on average (how many steps counting a match takes).
    per_doc: f64,
    /// The values in ordinal order, read from the dictionary on first use (global ordinals
    /// merge them on every change of the segment set; the segment's never change).
    terms: OnceLock<Vec<Box<str>>>,
}

/// Per value of a facet, the bitset of the segment's documents holding it.
pub(crate) struct ValueBits {
    /// Words per value (`max_doc` bits, rounded up).
    words: usize,
    /// Value-major: the bitset of ordinal `o` is `bits[o * words..(o + 1) * words]`.
    bits: Vec<u64>,
}

impl ValueBits {
    /// Adds to `counts[o]` the number of documents of `matched` that hold ordinal `o`.
    pub fn count(&self, matched: &[u64], counts: &mut [u32]) {
        if self.words == 0 {
            return;
        }
        for (slot, value) in counts.iter_mut().zip(self.bits.chunks_exact(self.words)) {
            let n: u32 = value.iter().zip(matched).map(|(a, b)| (a & b).count_ones()).sum();
            *slot += n;
        }
    }
}

impl FacetOrds {
    fn build(column: StrColumn, max_doc: DocId) -> Self {
        let multi = column.ords().get_cardinality().is_multivalue();
        if !multi {
            let mut ords = vec![NONE_ORD; max_doc as usize];
            for (doc, slot) in ords.iter_mut().enumerate() {
                if let Some(ord) = column.ords().first(doc as DocId) {
                    *slot = u32::try_from(ord).unwrap_or(NONE_ORD);
                }
            }
            let per_doc = per_doc(&ords, max_doc);
            return Self {
                starts: None,
                ords,
                dictionary: column,
                bits: OnceLock::new(),
                per_doc,
                terms: OnceLock::new(),
            };
        }
        let mut starts = Vec::with_capacity(max_doc as usize + 1);
        let mut ords = Vec::with_capacity(max_doc as usize);
        let mut mine: Vec<u32> = Vec::new();
        for doc in 0..max_doc {
            starts.push(u32::try_from(ords.len()).unwrap_or(u32::MAX));
            mine.clear();
            mine.extend(column.term_ords(doc).filter_map(|o| u32::try_from(o).ok()));
            // A document counts once per value, however often it repeats the value.
            mine.sort_unstable();
            mine.dedup();
            ords.extend_from_slice(&mine);
        }
        starts.push(u32::try_from(ords.len()).unwrap_or(u32::MAX));
        let per_doc = per_doc(&ords, max_doc);
        Self {
            starts: Some(starts),
            ords,
            dictionary: column,
            bits: OnceLock::new(),
            per_doc,
            terms: OnceLock::new(),
        }
    }

    /// The segment's values in ordinal (byte) order.
    pub fn terms(&self) -> tantivy::Result<&[Box<str>]> {
        if let Some(terms) = self.terms.get() {
            return Ok(terms);
        }
        let mut list = Vec::with_capacity(self.num_terms());
        let mut stream = self.dictionary.dictionary().stream()?;
        while stream.advance() {
            list.push(String::from_utf8_lossy(stream.key()).into());
        }
        // Another search may have read them meanwhile: either copy is the same.
        Ok(self.terms.get_or_init(|| list))
    }

    /// The (first) value of `doc`, as an ordinal.
    pub fn first(&self, doc: DocId) -> Option<u32> {
        let d = doc as usize;
        let ord = match &self.starts {
            None => self.ords.get(d).copied(),
            Some(starts) => match (starts.get(d), starts.get(d + 1)) {
                (Some(&a), Some(&b)) if a < b => self.ords.get(a as usize).copied(),
                _ => None,
            },
        };
        ord.filter(|o| *o != NONE_ORD)
    }

    /// The segment's documents (`max_doc`).
    fn max_doc(&self) -> usize {
        match &self.starts {
            None => self.ords.len(),
            Some(starts) => starts.len().saturating_sub(1),
        }
    }

    /// Values per document, on average.
    pub fn values_per_doc(&self) -> f64 {
        self.per_doc
    }

    /// The bitset of each value, when the facet has at most [`MAX_BITSET_TERMS`] values here.
    pub fn value_bits(&self) -> Option<&ValueBits> {
        self.bits
            .get_or_init(|| {
                let terms = self.num_terms();
                if terms > MAX_BITSET_TERMS {
                    return None;
                }
                let words = self.max_doc().div_ceil(64);
                let mut bits = vec![0u64; words * terms];
                for doc in 0..self.max_doc() {
                    for ord in self.doc_ords(doc) {
                        if let Some(w) = bits.get_mut(*ord as usize * words + doc / 64) {
                            *w |= 1 << (doc % 64);
                        }
                    }
                }
                Some(ValueBits { words, bits })
            })
            .as_ref()
    }

    /// The ordinals of `doc`.
    fn doc_ords(&self, doc: usize) -> &[u32] {
        match &self.starts {
            None => self
                .ords
                .get(doc..=doc)
                .filter(|o| o.first() != Some(&NONE_ORD))
                .unwrap_or_default(),
            Some(starts) => match (starts.get(doc), starts.get(doc + 1)) {
                (Some(&a), Some(&b)) => self.ords.get(a as usize..b as usize).unwrap_or_default(),
                _ => &[],
            },
        }
    }

    /// Number of distinct values in the segment (the size of a count table).
    pub fn num_terms(&self) -> usize {
        self.dictionary.num_terms()
    }

    /// Adds one to `counts[ord]` for every value of every document in `docs`.
    #[inline]
    pub fn count(&self, docs: &[DocId], counts: &mut [u32]) {
        match &self.starts {
            None => {
                for &doc in docs {
                    let ord = self.ords.get(doc as usize).copied().unwrap_or(NONE_ORD);
                    if let Some(n) = counts.get_mut(ord as usize) {
                        *n += 1;
                    }
                }
            }
            Some(starts) => {
                for &doc in docs {
                    let d = doc as usize;
                    let (Some(&a), Some(&b)) = (starts.get(d), starts.get(d + 1)) else {
                        continue;
                    };
                    for &ord in self.ords.get(a as usize..b as usize).unwrap_or_default() {
                        if let Some(n) = counts.get_mut(ord as usize) {
                            *n += 1;
                        }
                    }
                }
            }
        }
    }
}

/// The average number of values of a segment's documents, from its ordinals.
fn per_doc(ords: &[u32], max_doc: DocId) -> f64 {
    ords.iter().filter(|o| **o != NONE_ORD).count() as f64 / f64::from(max_doc.max(1))
}

/// Whether a stored value (maybe [`NONE_VALUE`]) is a value within `low..=high`.
#[inline]
fn within(v: i64, low: i64, high: i64) -> bool {
    v != NONE_VALUE && (low..=high).contains(&v)
}

/// One numeric field's first value per document in one segment.
pub(crate) struct Values(Vec<i64>);

impl Values {
    fn build(column: &Column<i64>, max_doc: DocId) -> Self {
        Self((0..max_doc).map(|doc| column.first(doc).unwrap_or(NONE_VALUE)).collect())
    }

    /// The value of `doc`, if it has one.
    #[inline]
    pub fn get(&self, doc: DocId) -> Option<i64> {
        self.0.get(doc as usize).copied().filter(|v| *v != NONE_VALUE)
    }

    /// The first document at or after `from` with a value within `low..=high`.
    pub fn first_within(&self, from: DocId, low: i64, high: i64) -> Option<DocId> {
        let rest = self.0.get(from as usize..)?;
        let at = rest.iter().position(|&v| within(v, low, high))?;
        DocId::try_from(from as usize + at).ok()
    }

    /// Whether `doc` has a value within `low..=high`.
    pub fn is_within(&self, doc: DocId, low: i64, high: i64) -> bool {
        self.0.get(doc as usize).is_some_and(|&v| within(v, low, high))
    }

    /// The segment's documents.
    pub fn len(&self) -> u32 {
        u32::try_from(self.0.len()).unwrap_or(u32::MAX)
    }

    /// Values of consecutive documents (tests).
    #[cfg(test)]
    pub fn from_options(values: &[Option<i64>]) -> Self {
        Self(values.iter().map(|v| v.unwrap_or(NONE_VALUE)).collect())
    }
}

#[derive(Clone)]
enum Entry {
    /// A facet without any value in the segment.
    Absent,
    Facet(Arc<FacetOrds>),
    Values(Arc<Values>),
}

/// The decoded columns of every live segment, by segment and field name.
#[derive(Default)]
pub(crate) struct ColumnCache {
    entries: Mutex<HashMap<(SegmentId, &'static str), Entry>>,
}

impl ColumnCache {
    /// Forgets the segments not in `live`.
    pub fn retain(&self, live: &[SegmentId]) {
        if let Ok(mut entries) = self.entries.lock()
            && entries.keys().any(|(s, _)| !live.contains(s))
        {
            entries.retain(|(s, _), _| live.contains(s));
        }
    }

    fn get_or_build(
        &self,
        reader: &SegmentReader,
        field: &'static str,
        build: impl FnOnce() -> tantivy::Result<Entry>,
    ) -> tantivy::Result<Entry> {
        let key = (reader.segment_id(), field);
        if let Some(entry) = self.entries.lock().ok().and_then(|e| e.get(&key).cloned()) {
            return Ok(entry);
        }
        // Built outside the lock: another segment's search may build its own meanwhile.
        let entry = build()?;
        if let Ok(mut entries) = self.entries.lock() {
            entries.insert(key, entry.clone());
        }
        Ok(entry)
    }

    /// The ordinals of a string facet in this segment (`None`: no document has a value).
    pub fn facet(
        &self,
        reader: &SegmentReader,
        field: &'static str,
    ) -> tantivy::Result<Option<Arc<FacetOrds>>> {
        let entry = self.get_or_build(reader, field, || {
            Ok(match reader.fast_fields().str(field)? {
                Some(column) => Entry::Facet(Arc::new(FacetOrds::build(column, reader.max_doc()))),
                None => Entry::Absent,
            })
        })?;
        Ok(match entry {
            Entry::Facet(f) => Some(f),
            _ => None,
        })
    }

    /// The values of a numeric field in this segment.
    pub fn values(
        &self,
        reader: &SegmentReader,
        field: &'static str,
    ) -> tantivy::Result<Arc<Values>> {
        let entry = self.get_or_build(reader, field, || {
            let column = reader.fast_fields().i64(field)?;
            Ok(Entry::Values(Arc::new(Values::build(&column, reader.max_doc()))))
        })?;
        match entry {
            Entry::Values(v) => Ok(v),
            _ => Err(tantivy::TantivyError::InternalError(format!("{field} is not numeric"))),
        }
    }
}
