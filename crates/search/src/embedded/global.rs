//! Global ordinals: one numbering of a facet's values across all the segments a searcher sees,
//! so that a distribution is counted by number and only its final page is turned into text.
//!
//! Each segment numbers its values in its own sorted dictionary. Resolving every counted
//! value of every segment to its string (a dictionary block decode per value) and merging the
//! strings dominated a distribution over a high-cardinality facet: tens of thousands of
//! companies, in every segment, on every request. Instead, the segments' dictionaries are
//! merged once per segment set into one sorted list of values, with a map per segment from
//! its local ordinal to the global one. A search adds each segment's counts into one array
//! indexed by global ordinal, picks the top values by count (ties by global ordinal, which is
//! the values' byte order, the port's tie-break), and reads only those values' text.
//!
//! A map is built on the first facet request after the segment set changes (a commit, a
//! merge) and kept until the next change; builds of one field are serialised so that the
//! concurrent searches of a disjunctive request build it once.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::{Arc, Mutex};

use tantivy::SegmentReader;
use tantivy::index::SegmentId;

use crate::embedded::columns::ColumnCache;

/// One facet's values across a segment set.
pub(crate) struct GlobalOrds {
    /// The segments, in the searcher's order.
    segments: Vec<SegmentId>,
    /// Every distinct value, in byte order; a value's global ordinal is its index.
    values: Vec<Box<str>>,
    /// Per segment (searcher order): local ordinal → global ordinal.
    maps: Vec<Vec<u32>>,
}

impl GlobalOrds {
    /// Merges the sorted dictionaries of `readers`' `field` columns.
    fn build(
        columns: &ColumnCache,
        readers: &[SegmentReader],
        field: &'static str,
    ) -> tantivy::Result<Self> {
        let mut lists: Vec<Vec<Box<str>>> = Vec::with_capacity(readers.len());
        for reader in readers {
            let mut list = Vec::new();
            if let Some(facet) = columns.facet(reader, field)? {
                list.reserve(facet.num_terms());
                let mut stream = facet.dictionary.dictionary().stream()?;
                while stream.advance() {
                    list.push(String::from_utf8_lossy(stream.key()).into());
                }
            }
            lists.push(list);
        }
        let mut maps: Vec<Vec<u32>> = lists.iter().map(|l| vec![0; l.len()]).collect();
        let mut values: Vec<Box<str>> = Vec::new();
        // A k-way merge of the sorted lists: the smallest head next, equal heads one value.
        let mut heads: BinaryHeap<Reverse<(&str, usize, usize)>> = lists
            .iter()
            .enumerate()
            .filter_map(|(s, l)| l.first().map(|v| Reverse((&**v, s, 0))))
            .collect();
        while let Some(Reverse((value, segment, local))) = heads.pop() {
            if values.last().is_none_or(|last| &**last != value) {
                values.push(value.into());
            }
            let global = u32::try_from(values.len() - 1).unwrap_or(u32::MAX);
            if let Some(slot) = maps.get_mut(segment).and_then(|m| m.get_mut(local)) {
                *slot = global;
            }
            if let Some(next) = lists.get(segment).and_then(|l| l.get(local + 1)) {
                heads.push(Reverse((&**next, segment, local + 1)));
            }
        }
        let segments = readers.iter().map(|r| r.segment_id()).collect();
        Ok(Self { segments, values, maps })
    }

    /// Whether this map numbers exactly these segments, in this order.
    fn covers(&self, readers: &[SegmentReader]) -> bool {
        self.segments.len() == readers.len()
            && self.segments.iter().zip(readers).all(|(s, r)| *s == r.segment_id())
    }

    /// A zeroed count per global ordinal.
    pub fn zeroed(&self) -> Vec<u64> {
        vec![0; self.values.len()]
    }

    /// Adds one segment's counts (indexed by its local ordinals) into `global`.
    pub fn add(&self, segment: usize, local: &[u32], global: &mut [u64]) {
        let Some(map) = self.maps.get(segment) else { return };
        for (&n, &g) in local.iter().zip(map) {
            if n > 0
                && let Some(slot) = global.get_mut(g as usize)
            {
                *slot += u64::from(n);
            }
        }
    }

    /// The `k` most frequent values of `counts` (count descending, then value), with text.
    pub fn top(&self, counts: &[u64], k: usize) -> Vec<(String, u64)> {
        let mut counted: Vec<(u64, usize)> =
            counts.iter().enumerate().filter(|(_, n)| **n > 0).map(|(ord, n)| (*n, ord)).collect();
        let order = |a: &(u64, usize), b: &(u64, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        if counted.len() > k && k > 0 {
            counted.select_nth_unstable_by(k - 1, order);
        }
        counted.truncate(k);
        counted.sort_unstable_by(order);
        counted
            .into_iter()
            .filter_map(|(n, ord)| self.values.get(ord).map(|v| (v.to_string(), n)))
            .collect()
    }
}

/// The global ordinals of the current segment set, per facet field.
#[derive(Default)]
pub(crate) struct GlobalCache {
    maps: Mutex<HashMap<&'static str, Arc<GlobalOrds>>>,
    /// Serialises builds, so that concurrent searches build a field's map once.
    building: Mutex<()>,
}

impl GlobalCache {
    /// The global ordinals of `field` over `readers` (the searcher's segments, in order).
    pub fn get(
        &self,
        columns: &ColumnCache,
        readers: &[SegmentReader],
        field: &'static str,
    ) -> tantivy::Result<Arc<GlobalOrds>> {
        let cached = || {
            self.maps.lock().ok().and_then(|m| m.get(field).filter(|g| g.covers(readers)).cloned())
        };
        if let Some(found) = cached() {
            return Ok(found);
        }
        let _one = self.building.lock();
        if let Some(found) = cached() {
            return Ok(found);
        }
        let built = Arc::new(GlobalOrds::build(columns, readers, field)?);
        if let Ok(mut maps) = self.maps.lock() {
            maps.insert(field, Arc::clone(&built));
        }
        Ok(built)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn ords(values: &[&str], maps: Vec<Vec<u32>>) -> GlobalOrds {
        GlobalOrds {
            segments: Vec::new(),
            values: values.iter().map(|v| (*v).into()).collect(),
            maps,
        }
    }

    #[test]
    fn segment_counts_add_up_by_global_ordinal_and_the_top_breaks_ties_by_value() {
        // Segment 0 holds acme, zeta; segment 1 holds acme, beta, zeta.
        let g = ords(&["acme", "beta", "zeta"], vec![vec![0, 2], vec![0, 1, 2]]);
        let mut counts = g.zeroed();
        g.add(0, &[3, 2], &mut counts);
        g.add(1, &[1, 4, 0], &mut counts);
        assert_eq!(counts, vec![4, 4, 2]);
        let top = g.top(&counts, 10);
        assert_eq!(top, vec![("acme".into(), 4), ("beta".into(), 4), ("zeta".into(), 2)]);
        assert_eq!(g.top(&counts, 1), vec![("acme".to_string(), 4)]);
        assert!(g.top(&g.zeroed(), 5).is_empty());
    }
}
