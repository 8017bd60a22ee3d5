//! A numeric bound of the filter (`salary_min=`, `salary_max=`, the experience bounds,
//! `posted_within_days=`, `open_within_days=`) read from the segment's decoded values.
//!
//! tantivy's range query reads a fast field through its columnar format: the matching rows of
//! a block of values, then a select in the optional index per row to turn rows back into
//! documents. A profile of filtered searches put a fifth of their time there. The same values
//! are already decoded into one flat array per segment for the stats ([`ColumnCache`]), so a
//! bound here is a scan of that array, and a seek to a document that matches (as an
//! intersection led by a rarer part asks) is one comparison.
//!
//! A document without a value matches no bound, as in the range query.

use std::fmt;
use std::sync::Arc;

use tantivy::query::{ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, TantivyError};

use crate::embedded::columns::{ColumnCache, Values};

/// `field` between `low` and `high`, both included.
#[derive(Clone)]
pub(crate) struct BoundQuery {
    field: &'static str,
    low: i64,
    high: i64,
    columns: Arc<ColumnCache>,
}

impl BoundQuery {
    /// `field >= n` (`lower`) or `field <= n`.
    pub(crate) fn new(
        columns: &Arc<ColumnCache>,
        field: &'static str,
        n: i64,
        lower: bool,
    ) -> Self {
        let (low, high) = if lower { (n, i64::MAX) } else { (i64::MIN, n) };
        Self { field, low, high, columns: Arc::clone(columns) }
    }
}

impl fmt::Debug for BoundQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BoundQuery({} in {}..={})", self.field, self.low, self.high)
    }
}

impl Query for BoundQuery {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for BoundQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let values = self.columns.values(reader, self.field)?;
        let docs = BoundDocs::new(values, self.low, self.high);
        Ok(Box::new(ConstScorer::new(docs, boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let values = self.columns.values(reader, self.field)?;
        if values.is_within(doc, self.low, self.high) {
            Ok(Explanation::new("BoundQuery", 1.0))
        } else {
            Err(TantivyError::InvalidArgument(format!("document {doc} is not within {self:?}")))
        }
    }
}

/// The documents of one segment whose value is within the bound.
struct BoundDocs {
    values: Arc<Values>,
    low: i64,
    high: i64,
    /// The current match, or [`TERMINATED`].
    doc: DocId,
}

impl BoundDocs {
    fn new(values: Arc<Values>, low: i64, high: i64) -> Self {
        let mut docs = Self { values, low, high, doc: 0 };
        docs.doc = docs.first_from(0);
        docs
    }

    /// The first match at or after `from`, or [`TERMINATED`].
    fn first_from(&self, from: DocId) -> DocId {
        self.values.first_within(from, self.low, self.high).unwrap_or(TERMINATED)
    }
}

impl DocSet for BoundDocs {
    fn advance(&mut self) -> DocId {
        self.doc = match self.doc {
            TERMINATED => TERMINATED,
            doc => self.first_from(doc + 1),
        };
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc < target {
            self.doc = self.first_from(target);
        }
        self.doc
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.values.len()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use tantivy::SeekDangerResult;

    use super::*;

    fn docs(values: &[Option<i64>], low: i64, high: i64) -> BoundDocs {
        BoundDocs::new(Arc::new(Values::from_options(values)), low, high)
    }

    // scenario: A bound skips jobs without the value
    #[test]
    fn advancing_seeking_and_danger_seeking_agree_with_the_values() {
        let values = [Some(5), None, Some(70), Some(60), None, Some(90), Some(60)];
        let mut all = docs(&values, 60, i64::MAX);
        let mut walked = vec![all.doc()];
        while all.advance() != TERMINATED {
            walked.push(all.doc());
        }
        assert_eq!(walked, [2, 3, 5, 6]);
        // An upper bound never matches a document without a value.
        let mut upper = docs(&values, i64::MIN, 60);
        assert_eq!((upper.doc(), upper.seek(1), upper.advance()), (0, 3, 6));
        assert_eq!(upper.advance(), TERMINATED);
        let mut danger = docs(&values, 60, i64::MAX);
        assert!(matches!(danger.seek_danger(1), SeekDangerResult::SeekLowerBound(2)));
        assert!(matches!(danger.seek_danger(3), SeekDangerResult::Found));
        assert_eq!(danger.doc(), 3);
        assert_eq!(danger.advance(), 5);
        assert_eq!(danger.seek(7), TERMINATED);
        assert!(matches!(danger.seek_danger(TERMINATED), SeekDangerResult::SeekLowerBound(_)));
        assert_eq!(docs(&[None, Some(1)], 2, 3).doc(), TERMINATED);
    }
}
