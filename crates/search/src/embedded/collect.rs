//! One pass over the matching documents: a sortable row per hit and the value counts of the
//! requested facets, read from fast fields.
//!
//! Every match is counted, so `total` and facet counts are exact; only the best
//! `offset + limit` rows are kept (a bounded heap per segment), then merged and sorted.
//! Facet ordinals and stat values come from the segment's decoded columns
//! ([`ColumnCache`]); facet values are counted by ordinal, the segments' counts are summed by
//! global ordinal ([`GlobalOrds`]), and only the final page of each distribution is read as
//! text; unscored searches arrive in blocks of documents, whose sort keys are
//! read a column at a time for the whole block. A match whose sort key or score cannot
//! enter the full heap is dropped before its tie-break columns are read.
//!
//! The collector drives each segment's scorer itself (as tantivy's default does: blocks of
//! 64 documents unscored, one document at a time scored) so that it can stop: the [`Cancel`]
//! flag is read before each segment and each block (every 64 documents when scored), and a
//! set flag ends the search with an error. That is one relaxed atomic load per 64 matches.
//! A relevance-ordered text search is not driven through a scorer: `text::scan` hands each
//! window's matches over with their scores ([`Gather::search_text`]), checked the same way per
//! 64 matches.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::query::Weight;
use tantivy::{
    COLLECT_BLOCK_BUFFER_LEN, DocAddress, DocId, DocSet, Score, Searcher, SegmentOrdinal,
    SegmentReader, TERMINATED, TantivyError,
};

use crate::embedded::columns::{ColumnCache, FacetOrds, Values};
use crate::embedded::global::GlobalOrds;
use crate::embedded::schema;
use crate::embedded::text::{self, TextWeights};
use crate::index::{Bounds, Distribution, MAX_FACET_VALUES, NumericStats};
use crate::sort::Order;

/// Matches per cancellation check: tantivy's block of documents.
const BLOCK: usize = COLLECT_BLOCK_BUFFER_LEN;

/// A search's cancellation flag, shared by the async call and its blocking work.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cancel(Arc<AtomicBool>);

/// Sets its [`Cancel`] flag when dropped (with the future of the search that holds it).
pub(crate) struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, AtomicOrdering::Relaxed);
    }
}

impl Cancel {
    /// A guard that cancels the search when it is dropped.
    pub(crate) fn guard(&self) -> CancelOnDrop {
        CancelOnDrop(Arc::clone(&self.0))
    }

    /// An error once the search is cancelled.
    #[inline]
    pub(crate) fn check(&self) -> tantivy::Result<()> {
        if self.0.load(AtomicOrdering::Relaxed) {
            return Err(TantivyError::InternalError("search cancelled".into()));
        }
        Ok(())
    }
}

/// How hits are ordered; every order ends with the freshness tie-break (effective posted date,
/// then first seen, then id, all descending).
#[derive(Debug, Clone, Copy)]
pub(crate) enum HitOrder {
    /// By text relevance.
    Relevance,
    /// By a numeric field; documents without a value come last either way.
    Field(&'static str, Order),
}

/// One matching document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Row {
    pub score: Score,
    pub key: Option<i64>,
    pub posted: i64,
    pub created: i64,
    pub id: i64,
    pub address: DocAddress,
}

/// The order of two matches by their score and sort key alone, under `ordering` (`Less`: the
/// first ranks before the second); the freshness tie-break decides what this leaves equal.
fn primary(ordering: HitOrder, a: (Score, Option<i64>), b: (Score, Option<i64>)) -> Ordering {
    match ordering {
        HitOrder::Relevance => b.0.total_cmp(&a.0),
        HitOrder::Field(_, order) => match (a.1, b.1) {
            (Some(a), Some(b)) => match order {
                Order::Asc => a.cmp(&b),
                Order::Desc => b.cmp(&a),
            },
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        },
    }
}

impl Row {
    /// The order of two rows under `ordering`.
    pub fn cmp(&self, other: &Row, ordering: HitOrder) -> Ordering {
        primary(ordering, (self.score, self.key), (other.score, other.key))
            .then(other.posted.cmp(&self.posted))
            .then(other.created.cmp(&self.created))
            .then(other.id.cmp(&self.id))
    }
}

/// A row in a segment's heap: the greatest is the one ranking last.
struct Ranked(Row, HitOrder);

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0, self.1)
    }
}

/// What a search pass yields.
pub(crate) struct Gathered {
    /// The best `keep` rows, in order.
    pub rows: Vec<Row>,
    /// How many documents matched.
    pub total: u64,
    /// Per requested facet field, its distribution (count descending, then value; at most
    /// [`MAX_FACET_VALUES`]).
    pub counts: Vec<Distribution>,
    /// Numeric stats (when asked for).
    pub stats: NumericStats,
}

/// What one segment yields: its best rows, and facet counts by its own ordinals.
pub(crate) struct SegmentGathered {
    segment: SegmentOrdinal,
    rows: Vec<Row>,
    total: u64,
    /// Per requested facet field, a count per local ordinal.
    counts: Vec<Vec<u32>>,
    stats: NumericStats,
}

/// Gathers the best rows, the match count and facet counts.
pub(crate) struct Gather {
    pub ordering: HitOrder,
    /// How many of the best rows to keep (`offset + limit`).
    pub keep: usize,
    /// Facet fields to count, with their global ordinals over the searcher's segments.
    pub facets: Vec<(&'static str, Arc<GlobalOrds>)>,
    /// Whether to compute numeric stats.
    pub stats: bool,
    /// The decoded facet and stat columns of the segments.
    pub columns: Arc<ColumnCache>,
    /// Stops the search once set.
    pub cancel: Cancel,
    /// Test-only: a pause per block.
    #[cfg(test)]
    pub block_delay: std::time::Duration,
}

impl Gather {
    /// A relevance-ordered text search: each segment's matches and scores from
    /// [`text::scan`], the segments run as tantivy runs them (on the index's executor), then
    /// merged as any search's.
    pub(crate) fn search_text(
        &self,
        searcher: &Searcher,
        weights: &TextWeights,
    ) -> tantivy::Result<Gathered> {
        let fruits = searcher.index().search_executor().map(
            |(segment, reader)| {
                self.cancel.check()?;
                let mut child = self.for_segment(segment as SegmentOrdinal, reader)?;
                text::scan(weights, reader, &self.cancel, |docs, scores| {
                    for (docs, scores) in docs.chunks(BLOCK).zip(scores.chunks(BLOCK)) {
                        self.next_block()?;
                        child.collect_scored(docs, scores);
                    }
                    Ok(())
                })?;
                Ok(child.harvest())
            },
            searcher.segment_readers().iter().enumerate(),
        )?;
        self.merge_fruits(fruits)
    }

    /// Per block: stops a cancelled search (and, in tests, pauses).
    #[inline]
    fn next_block(&self) -> tantivy::Result<()> {
        #[cfg(test)]
        if !self.block_delay.is_zero() {
            std::thread::sleep(self.block_delay);
        }
        self.cancel.check()
    }
}

/// One facet being counted in one segment.
struct FacetTally {
    /// `None`: no document of the segment has a value.
    column: Option<Arc<FacetOrds>>,
    /// A count per local ordinal.
    counts: Vec<u32>,
    /// Counted once the matches are known (a few-valued facet, kept as value bitsets), by
    /// whichever of the two ways costs less; otherwise counted per block as matches arrive.
    at_end: bool,
}

impl FacetTally {
    /// Counts the matches of `matched` (a bitset of `total` documents) into `counts`: by the
    /// value bitsets when their words cost less than a step per match and value (a word, an
    /// AND and a population count, costs about a quarter of a step: a load and an increment).
    fn count_at_end(&mut self, matched: &[u64], total: u64) {
        let Some(column) = &self.column else { return };
        let per_value_words = (column.num_terms() * matched.len()) as f64;
        let per_match_steps = total as f64 * (1.0 + column.values_per_doc());
        match column.value_bits() {
            Some(bits) if per_value_words < 4.0 * per_match_steps => {
                bits.count(matched, &mut self.counts)
            }
            _ => {
                let mut docs: Vec<DocId> = Vec::with_capacity(64);
                for (i, &word) in matched.iter().enumerate() {
                    let mut rest = word;
                    docs.clear();
                    while rest != 0 {
                        let bit = rest.trailing_zeros();
                        docs.push(i as DocId * 64 + bit);
                        rest &= rest - 1;
                    }
                    column.count(&docs, &mut self.counts);
                }
            }
        }
    }
}

pub(crate) struct SegmentGather {
    segment: SegmentOrdinal,
    key: Option<Column<i64>>,
    posted: Column<i64>,
    created: Column<i64>,
    id: Column<i64>,
    facets: Vec<FacetTally>,
    /// The matching documents, one bit each, when a facet is counted at the end.
    matched: Vec<u64>,
    /// Salary min, salary max, experience values, when stats are asked for.
    stat_columns: Option<[Arc<Values>; 3]>,
    stats: NumericStats,
    ordering: HitOrder,
    keep: usize,
    heap: BinaryHeap<Ranked>,
    total: u64,
    /// Scratch buffer of the block reads of sort keys.
    key_buf: Vec<Option<i64>>,
}

impl Collector for Gather {
    type Fruit = Gathered;
    type Child = SegmentGather;

    fn for_segment(
        &self,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<SegmentGather> {
        let fast = reader.fast_fields();
        let key = match self.ordering {
            HitOrder::Relevance => None,
            HitOrder::Field(name, _) => Some(fast.i64(name)?),
        };
        let facets = self
            .facets
            .iter()
            .map(|(name, _)| {
                let column = self.columns.facet(reader, name)?;
                let slots = column.as_ref().map_or(0, |c| c.num_terms());
                let at_end = column.as_ref().is_some_and(|c| c.value_bits().is_some());
                Ok(FacetTally { column, counts: vec![0; slots], at_end })
            })
            .collect::<tantivy::Result<Vec<_>>>()?;
        let any_at_end = facets.iter().any(|f| f.at_end);
        let words = if any_at_end { (reader.max_doc() as usize).div_ceil(64) } else { 0 };
        Ok(SegmentGather {
            matched: vec![0; words],
            segment,
            key,
            posted: fast.i64(schema::POSTED_TS)?,
            created: fast.i64(schema::CREATED_TS)?,
            id: fast.i64(schema::ID)?,
            stat_columns: if !self.stats {
                None
            } else {
                Some([
                    self.columns.values(reader, schema::SALARY_MIN)?,
                    self.columns.values(reader, schema::SALARY_MAX)?,
                    self.columns.values(reader, schema::EXPERIENCE_YEARS_MIN)?,
                ])
            },
            stats: NumericStats::default(),
            facets,
            ordering: self.ordering,
            keep: self.keep,
            heap: BinaryHeap::with_capacity(self.keep.saturating_add(1).min(10_001)),
            total: 0,
            key_buf: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        matches!(self.ordering, HitOrder::Relevance)
    }

    /// tantivy's default segment loop, checking the cancellation flag per block.
    fn collect_segment(
        &self,
        weight: &dyn Weight,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<SegmentGathered> {
        self.cancel.check()?;
        let mut child = self.for_segment(segment, reader)?;
        let alive = reader.alive_bitset();
        let mut scorer = weight.scorer(reader, 1.0)?;
        if self.requires_scoring() {
            let mut doc = scorer.doc();
            let mut seen: usize = 0;
            while doc != TERMINATED {
                if alive.is_none_or(|a| a.is_alive(doc)) {
                    child.collect(doc, scorer.score());
                }
                seen += 1;
                if seen.is_multiple_of(BLOCK) {
                    self.next_block()?;
                }
                doc = scorer.advance();
            }
        } else {
            let mut block = [0; BLOCK];
            loop {
                self.next_block()?;
                let n = scorer.fill_buffer(&mut block);
                let docs = &block[..n];
                match alive {
                    None => child.collect_block(docs),
                    Some(alive) => {
                        // The block's live documents, collected as a block (a segment with
                        // deletions, as most are once jobs are re-crawled, costs no more per
                        // match than one without).
                        let mut live = [0; BLOCK];
                        let mut k = 0;
                        for &doc in docs {
                            live[k] = doc;
                            k += usize::from(alive.is_alive(doc));
                        }
                        child.collect_block(&live[..k]);
                    }
                }
                if n < block.len() {
                    break;
                }
            }
        }
        Ok(child.harvest())
    }

    fn merge_fruits(&self, fruits: Vec<SegmentGathered>) -> tantivy::Result<Gathered> {
        let mut rows = Vec::new();
        let mut total = 0;
        let mut counts: Vec<Vec<u64>> = self.facets.iter().map(|(_, g)| g.zeroed()).collect();
        let mut stats = NumericStats::default();
        for fruit in fruits {
            rows.extend(fruit.rows);
            total += fruit.total;
            let s = fruit.stats;
            stats.salary_min = Bounds::union(stats.salary_min, s.salary_min);
            stats.salary_max = Bounds::union(stats.salary_max, s.salary_max);
            stats.experience_years_min =
                Bounds::union(stats.experience_years_min, s.experience_years_min);
            for ((sum, part), (_, global)) in counts.iter_mut().zip(&fruit.counts).zip(&self.facets)
            {
                global.add(fruit.segment as usize, part, sum);
            }
        }
        rows.sort_by(|a, b| a.cmp(b, self.ordering));
        rows.truncate(self.keep);
        let counts = counts
            .iter()
            .zip(&self.facets)
            .map(|(sum, (_, global))| global.top(sum, MAX_FACET_VALUES))
            .collect();
        Ok(Gathered { rows, total, counts, stats })
    }
}

impl SegmentGather {
    /// Collects matching documents with their scores (a relevance order).
    fn collect_scored(&mut self, docs: &[DocId], scores: &[Score]) {
        self.total += docs.len() as u64;
        self.tally(docs);
        if self.keep == 0 {
            return;
        }
        for (&doc, &score) in docs.iter().zip(scores) {
            self.offer(doc, score, None);
        }
    }

    /// Counts the facet values and widens the stats of a block of matching documents.
    fn tally(&mut self, docs: &[DocId]) {
        for facet in self.facets.iter_mut().filter(|f| !f.at_end) {
            if let Some(column) = &facet.column {
                column.count(docs, &mut facet.counts);
            }
        }
        if !self.matched.is_empty() {
            for &doc in docs {
                if let Some(word) = self.matched.get_mut(doc as usize / 64) {
                    *word |= 1 << (doc % 64);
                }
            }
        }
        if let Some(columns) = &self.stat_columns {
            let s = &mut self.stats;
            let targets = [&mut s.salary_min, &mut s.salary_max, &mut s.experience_years_min];
            for (values, bounds) in columns.iter().zip(targets) {
                for &doc in docs {
                    if let Some(v) = values.get(doc) {
                        *bounds = Bounds::widen(*bounds, v);
                    }
                }
            }
        }
    }

    /// Whether a row with this primary key could still enter the full heap (ties must be
    /// read in full: the tie-break decides).
    fn may_enter(&self, score: Score, key: Option<i64>) -> bool {
        let Some(worst) = self.heap.peek() else { return true };
        if self.heap.len() < self.keep {
            return true;
        }
        primary(self.ordering, (score, key), (worst.0.score, worst.0.key)) != Ordering::Greater
    }

    /// Offers one matching document to the heap of the best rows.
    fn offer(&mut self, doc: DocId, score: Score, key: Option<i64>) {
        if self.keep == 0 || !self.may_enter(score, key) {
            return;
        }
        let row = Row {
            score,
            key,
            posted: self.posted.first(doc).unwrap_or(0),
            created: self.created.first(doc).unwrap_or(0),
            id: self.id.first(doc).unwrap_or(0),
            address: DocAddress::new(self.segment, doc),
        };
        if self.heap.len() < self.keep {
            self.heap.push(Ranked(row, self.ordering));
        } else if let Some(mut worst) = self.heap.peek_mut()
            && row.cmp(&worst.0, self.ordering) == Ordering::Less
        {
            *worst = Ranked(row, self.ordering);
        }
    }
}

impl SegmentCollector for SegmentGather {
    type Fruit = SegmentGathered;

    fn collect(&mut self, doc: DocId, score: Score) {
        self.total += 1;
        self.tally(std::slice::from_ref(&doc));
        let key = self.key.as_ref().and_then(|c| c.first(doc));
        self.offer(doc, score, key);
    }

    fn collect_block(&mut self, docs: &[DocId]) {
        self.total += docs.len() as u64;
        self.tally(docs);
        if self.keep == 0 {
            return;
        }
        let mut keys = std::mem::take(&mut self.key_buf);
        keys.clear();
        keys.resize(docs.len(), None);
        if let Some(column) = &self.key {
            column.first_vals(docs, &mut keys);
        }
        for (&doc, &key) in docs.iter().zip(&keys) {
            self.offer(doc, 0.0, key);
        }
        self.key_buf = keys;
    }

    fn harvest(mut self) -> SegmentGathered {
        for facet in self.facets.iter_mut().filter(|f| f.at_end) {
            facet.count_at_end(&self.matched, self.total);
        }
        let counts = self.facets.into_iter().map(|f| f.counts).collect();
        let rows = self.heap.into_iter().map(|r| r.0).collect();
        SegmentGathered {
            segment: self.segment,
            rows,
            total: self.total,
            counts,
            stats: self.stats,
        }
    }
}
