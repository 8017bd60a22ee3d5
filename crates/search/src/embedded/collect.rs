//! One pass over the matching documents: a sortable row per hit and the value counts of the
//! requested facets, read from fast fields.
//!
//! Every match is counted, so `total` and facet counts are exact; only the best
//! `offset + limit` rows are kept (a bounded heap per segment), then merged and sorted.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::{Column, StrColumn};
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

use crate::embedded::schema;
use crate::index::{Bounds, NumericStats};
use crate::sort::Order;

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

impl Row {
    /// The order of two rows under `ordering`.
    pub fn cmp(&self, other: &Row, ordering: HitOrder) -> Ordering {
        let primary = match ordering {
            HitOrder::Relevance => other.score.total_cmp(&self.score),
            HitOrder::Field(_, order) => match (self.key, other.key) {
                (Some(a), Some(b)) => match order {
                    Order::Asc => a.cmp(&b),
                    Order::Desc => b.cmp(&a),
                },
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            },
        };
        primary
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
    /// Per requested facet field, value counts.
    pub counts: Vec<BTreeMap<String, u64>>,
    /// Numeric stats (when asked for).
    pub stats: NumericStats,
}

/// Gathers the best rows, the match count and facet counts.
pub(crate) struct Gather {
    pub ordering: HitOrder,
    /// How many of the best rows to keep (`offset + limit`).
    pub keep: usize,
    /// Facet field names to count.
    pub facets: Vec<&'static str>,
    /// Whether to compute numeric stats.
    pub stats: bool,
}

pub(crate) struct SegmentGather {
    segment: SegmentOrdinal,
    key: Option<Column<i64>>,
    posted: Column<i64>,
    created: Column<i64>,
    id: Column<i64>,
    facets: Vec<(Option<StrColumn>, Vec<u64>)>,
    /// Salary min, salary max, experience columns, when stats are asked for.
    stat_columns: Option<[Column<i64>; 3]>,
    stats: NumericStats,
    ordering: HitOrder,
    keep: usize,
    heap: BinaryHeap<Ranked>,
    total: u64,
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
            .map(|name| {
                let column = fast.str(name)?;
                let slots = column.as_ref().map_or(0, |c| c.num_terms());
                Ok((column, vec![0; slots]))
            })
            .collect::<tantivy::Result<Vec<_>>>()?;
        Ok(SegmentGather {
            segment,
            key,
            posted: fast.i64(schema::POSTED_TS)?,
            created: fast.i64(schema::CREATED_TS)?,
            id: fast.i64(schema::ID)?,
            stat_columns: if !self.stats {
                None
            } else {
                Some([
                    fast.i64(schema::SALARY_MIN)?,
                    fast.i64(schema::SALARY_MAX)?,
                    fast.i64(schema::EXPERIENCE_YEARS_MIN)?,
                ])
            },
            stats: NumericStats::default(),
            facets,
            ordering: self.ordering,
            keep: self.keep,
            heap: BinaryHeap::with_capacity(self.keep.saturating_add(1).min(10_001)),
            total: 0,
        })
    }

    fn requires_scoring(&self) -> bool {
        matches!(self.ordering, HitOrder::Relevance)
    }

    fn merge_fruits(&self, fruits: Vec<Gathered>) -> tantivy::Result<Gathered> {
        let mut rows = Vec::new();
        let mut total = 0;
        let mut counts = vec![BTreeMap::new(); self.facets.len()];
        let mut stats = NumericStats::default();
        for fruit in fruits {
            rows.extend(fruit.rows);
            total += fruit.total;
            let s = fruit.stats;
            stats.salary_min = Bounds::union(stats.salary_min, s.salary_min);
            stats.salary_max = Bounds::union(stats.salary_max, s.salary_max);
            stats.experience_years_min =
                Bounds::union(stats.experience_years_min, s.experience_years_min);
            for (sum, part) in counts.iter_mut().zip(fruit.counts) {
                for (value, n) in part {
                    *sum.entry(value).or_insert(0) += n;
                }
            }
        }
        rows.sort_by(|a, b| a.cmp(b, self.ordering));
        rows.truncate(self.keep);
        Ok(Gathered { rows, total, counts, stats })
    }
}

impl SegmentCollector for SegmentGather {
    type Fruit = Gathered;

    fn collect(&mut self, doc: DocId, score: Score) {
        self.total += 1;
        for (column, counts) in &mut self.facets {
            if let Some(column) = column {
                for ord in column.term_ords(doc) {
                    if let Some(n) = usize::try_from(ord).ok().and_then(|i| counts.get_mut(i)) {
                        *n += 1;
                    }
                }
            }
        }
        if let Some([lo, hi, years]) = &self.stat_columns {
            let s = &mut self.stats;
            if let Some(v) = lo.first(doc) {
                s.salary_min = Bounds::widen(s.salary_min, v);
            }
            if let Some(v) = hi.first(doc) {
                s.salary_max = Bounds::widen(s.salary_max, v);
            }
            if let Some(v) = years.first(doc) {
                s.experience_years_min = Bounds::widen(s.experience_years_min, v);
            }
        }
        if self.keep == 0 {
            return;
        }
        let row = Row {
            score,
            key: self.key.as_ref().and_then(|c| c.first(doc)),
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

    fn harvest(self) -> Gathered {
        let counts = self
            .facets
            .into_iter()
            .map(|(column, counts)| {
                let mut out = BTreeMap::new();
                if let Some(column) = column {
                    for (ord, n) in counts.into_iter().enumerate().filter(|(_, n)| *n > 0) {
                        let mut value = String::new();
                        if column.ord_to_str(ord as u64, &mut value).unwrap_or(false) {
                            out.insert(value, n);
                        }
                    }
                }
                out
            })
            .collect();
        let rows = self.heap.into_iter().map(|r| r.0).collect();
        Gathered { rows, total: self.total, counts, stats: self.stats }
    }
}
