//! One pass over the matching documents: a sortable row per hit and the value counts of the
//! requested facets, read from fast fields.
//!
//! Every match is kept as a small row and sorted afterwards, so `total` and facet counts are
//! exact; paging takes the requested window of the sorted rows.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::{Column, StrColumn};
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader};

use crate::embedded::schema;
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

/// What a search pass yields: the rows and, per requested facet field, value counts.
pub(crate) type Gathered = (Vec<Row>, Vec<BTreeMap<String, u64>>);

/// Gathers rows and facet counts.
pub(crate) struct Gather {
    pub ordering: HitOrder,
    /// Facet field names to count.
    pub facets: Vec<&'static str>,
}

pub(crate) struct SegmentGather {
    segment: SegmentOrdinal,
    key: Option<Column<i64>>,
    posted: Column<i64>,
    created: Column<i64>,
    id: Column<i64>,
    facets: Vec<(Option<StrColumn>, HashMap<u64, u64>)>,
    rows: Vec<Row>,
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
            .map(|name| Ok((fast.str(name)?, HashMap::new())))
            .collect::<tantivy::Result<Vec<_>>>()?;
        Ok(SegmentGather {
            segment,
            key,
            posted: fast.i64(schema::POSTED_TS)?,
            created: fast.i64(schema::CREATED_TS)?,
            id: fast.i64(schema::ID)?,
            facets,
            rows: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        matches!(self.ordering, HitOrder::Relevance)
    }

    fn merge_fruits(&self, fruits: Vec<Gathered>) -> tantivy::Result<Gathered> {
        let mut rows = Vec::new();
        let mut counts = vec![BTreeMap::new(); self.facets.len()];
        for (r, c) in fruits {
            rows.extend(r);
            for (total, part) in counts.iter_mut().zip(c) {
                for (value, n) in part {
                    *total.entry(value).or_insert(0) += n;
                }
            }
        }
        Ok((rows, counts))
    }
}

impl SegmentCollector for SegmentGather {
    type Fruit = Gathered;

    fn collect(&mut self, doc: DocId, score: Score) {
        self.rows.push(Row {
            score,
            key: self.key.as_ref().and_then(|c| c.first(doc)),
            posted: self.posted.first(doc).unwrap_or(0),
            created: self.created.first(doc).unwrap_or(0),
            id: self.id.first(doc).unwrap_or(0),
            address: DocAddress::new(self.segment, doc),
        });
        for (column, counts) in &mut self.facets {
            if let Some(column) = column {
                for ord in column.term_ords(doc) {
                    *counts.entry(ord).or_insert(0) += 1;
                }
            }
        }
    }

    fn harvest(self) -> Gathered {
        let counts = self
            .facets
            .into_iter()
            .map(|(column, counts)| {
                let mut out = BTreeMap::new();
                if let Some(column) = column {
                    for (ord, n) in counts {
                        let mut value = String::new();
                        if column.ord_to_str(ord, &mut value).unwrap_or(false) {
                            out.insert(value, n);
                        }
                    }
                }
                out
            })
            .collect();
        (self.rows, counts)
    }
}
