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
//! A map is built on the first facet request after the segment set changes and kept until the
//! next change; builds of one field are serialised so that the concurrent searches of a
//! disjunctive request build it once. A commit only adds segments: the previous map's values
//! (one sorted list) are merged with the new segments' values alone, and the kept segments'
//! maps renumbered, instead of merging every segment's dictionary again. A merge of segments
//! (which removes some) builds the map afresh.

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
        let facets = readers
            .iter()
            .map(|reader| columns.facet(reader, field))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let lists = facets
            .iter()
            .map(|f| f.as_ref().map_or(Ok(&[][..]), |f| f.terms()))
            .collect::<tantivy::Result<Vec<&[Box<str>]>>>()?;
        let (values, maps) = merge(&lists);
        let segments = readers.iter().map(|r| r.segment_id()).collect();
        Ok(Self { segments, values, maps })
    }

    /// This numbering carried over to `readers` when they keep every segment it numbers
    /// (a commit adds segments; a merge, which removes some, needs [`GlobalOrds::build`]):
    /// its values, one sorted list already, are merged with the added segments' values only,
    /// and its segments' maps renumbered. `None` when a segment it numbers is gone.
    fn extend(
        &self,
        columns: &ColumnCache,
        readers: &[SegmentReader],
        field: &'static str,
    ) -> tantivy::Result<Option<Self>> {
        let kept = |r: &SegmentReader| self.segments.iter().position(|s| *s == r.segment_id());
        if self.segments.iter().any(|s| !readers.iter().any(|r| r.segment_id() == *s)) {
            return Ok(None);
        }
        let added = readers
            .iter()
            .filter(|r| kept(r).is_none())
            .map(|r| columns.facet(r, field))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let mut lists: Vec<&[Box<str>]> = vec![&self.values];
        for facet in &added {
            lists.push(facet.as_ref().map_or(Ok(&[][..]), |f| f.terms())?);
        }
        let (values, merged) = merge(&lists);
        let mut merged = merged.into_iter();
        let renumber = merged.next().unwrap_or_default();
        let maps = readers
            .iter()
            .map(|r| match kept(r).and_then(|i| self.maps.get(i)) {
                Some(old) => {
                    old.iter().map(|g| renumber.get(*g as usize).copied().unwrap_or(0)).collect()
                }
                None => merged.next().unwrap_or_default(),
            })
            .collect();
        let segments = readers.iter().map(|r| r.segment_id()).collect();
        Ok(Some(Self { segments, values, maps }))
    }

    /// Whether this map numbers exactly these segments, in this order.
    fn covers(&self, readers: &[SegmentReader]) -> bool {
        self.segments.len() == readers.len()
            && self.segments.iter().zip(readers).all(|(s, r)| *s == r.segment_id())
    }

    /// The local → global map of the segment at `segment` (searcher order; empty when out of
    /// range).
    pub fn map_of(&self, segment: usize) -> &[u32] {
        self.maps.get(segment).map_or(&[], Vec::as_slice)
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

/// A k-way merge of sorted lists of distinct values: every distinct value once, in order, and
/// per list the index of each of its values in the merge.
fn merge(lists: &[&[Box<str>]]) -> (Vec<Box<str>>, Vec<Vec<u32>>) {
    let mut maps: Vec<Vec<u32>> = lists.iter().map(|l| vec![0; l.len()]).collect();
    let mut values: Vec<Box<str>> = Vec::new();
    // The smallest head next; equal heads are one value.
    let mut heads: BinaryHeap<Reverse<(&str, usize, usize)>> = lists
        .iter()
        .enumerate()
        .filter_map(|(l, list)| list.first().map(|v| Reverse((&**v, l, 0))))
        .collect();
    while let Some(Reverse((value, list, local))) = heads.pop() {
        if values.last().is_none_or(|last| &**last != value) {
            values.push(value.into());
        }
        let global = u32::try_from(values.len() - 1).unwrap_or(u32::MAX);
        if let Some(slot) = maps.get_mut(list).and_then(|m| m.get_mut(local)) {
            *slot = global;
        }
        if let Some(next) = lists.get(list).and_then(|l| l.get(local + 1)) {
            heads.push(Reverse((&**next, list, local + 1)));
        }
    }
    (values, maps)
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
        let previous = self.maps.lock().ok().and_then(|m| m.get(field).cloned());
        let extended = match previous {
            Some(previous) => previous.extend(columns, readers, field)?,
            None => None,
        };
        let built = Arc::new(match extended {
            Some(extended) => extended,
            None => GlobalOrds::build(columns, readers, field)?,
        });
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
