//! The one fail-closed walk over a paged listing, shared by the adapters whose platform pages
//! by offset or page number (Dayforce, Eightfold, iCIMS search pages, Oracle, Paycom, Phenom,
//! SmartRecruiters, Taleo, UKG Pro, UKG Ready).
//!
//! An adapter fetches and decodes each page itself and hands the page's items, keyed by
//! native id, to [`Walk::take`] with what the page says of the listing's end ([`PageEnd`]).
//! The walk keeps the first of each id and decides, the same way for every platform:
//!
//! - a stated total reached ends the walk (a total stated once holds for later pages);
//! - a page that adds nothing (empty, or only repeats), or a short page, while a stated total
//!   is unmet fails it ([`IngestError::Incomplete`]): the platform stopped short of what it
//!   said it holds, so the listing proves nothing gone;
//! - without a total, a page that adds nothing, or a page shorter than a full one, ends it;
//! - more pages than the adapter's cap fail it ([`Walk::too_many_pages`]).
//!
//! A failed or truncated page never reaches [`Walk::take`]: the adapter's `?` fails the whole
//! fetch, so nothing of the board is closed.

use std::collections::HashSet;

use crate::IngestError;

/// What one page says of where the listing ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct PageEnd {
    /// The number of postings the platform says the whole listing holds, where it says (a
    /// page stating none is held to the total an earlier page stated).
    pub total: Option<usize>,
    /// The rows of a full page, where the platform pages by a fixed size: a page with fewer
    /// rows (counted before dropping repeats) is the platform's own end of the listing, where
    /// it states no total.
    pub page_size: Option<usize>,
}

impl PageEnd {
    /// A page whose platform states the listing's total (or, as `None`, does not this time).
    pub(super) fn total(total: Option<usize>) -> Self {
        Self { total, page_size: None }
    }

    /// A page out of full pages of `page_size` rows, with the stated total if any.
    pub(super) fn sized(page_size: usize, total: Option<usize>) -> Self {
        Self { total, page_size: Some(page_size) }
    }
}

/// Whether the walk goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Fetch the next page.
    More,
    /// The listing is complete: [`Walk::into_items`].
    Done,
}

/// The items gathered so far, first of each native id, in listing order.
#[derive(Debug)]
pub(super) struct Walk<T> {
    board: String,
    ids: HashSet<String>,
    items: Vec<T>,
    /// Rows the adapter could not read (no id): they count towards a stated total.
    unread: usize,
    /// The latest total a page stated: a later page stating none is held to it.
    stated: Option<usize>,
    pages: usize,
}

impl<T> Walk<T> {
    /// A walk over `board`'s listing (the board named in its errors).
    pub(super) fn new(board: &str) -> Self {
        Self {
            board: board.to_owned(),
            ids: HashSet::new(),
            items: Vec::new(),
            unread: 0,
            stated: None,
            pages: 0,
        }
    }

    /// Takes one page: each row as its native id and item, or `None` for a row the adapter
    /// could not read (it counts towards a stated total, never as progress), and what the
    /// page says of the end.
    pub(super) fn take(
        &mut self,
        page: impl IntoIterator<Item = Option<(String, T)>>,
        end: PageEnd,
    ) -> Result<Step, IngestError> {
        self.pages += 1;
        let before = self.items.len();
        let mut rows = 0;
        for row in page {
            rows += 1;
            match row {
                Some((id, item)) => {
                    if self.ids.insert(id) {
                        self.items.push(item);
                    }
                }
                None => self.unread += 1,
            }
        }
        let added = self.items.len() - before;
        let listed = self.items.len() + self.unread;
        let short = end.page_size.is_some_and(|size| rows < size);
        self.stated = end.total.or(self.stated);
        match self.stated {
            Some(total) if listed >= total => Ok(Step::Done),
            Some(total) if added == 0 || short => Err(IngestError::Incomplete {
                board: self.board.clone(),
                reason: format!(
                    "page {} {} at {listed} of the {total} postings the platform states",
                    self.pages,
                    if added == 0 { "added nothing" } else { "was short" }
                ),
            }),
            Some(_) => Ok(Step::More),
            None if added == 0 || short => Ok(Step::Done),
            None => Ok(Step::More),
        }
    }

    /// The error for a listing longer than `max_pages` pages (of what, in `pages`, such as
    /// "pages of 100").
    pub(super) fn too_many_pages(&self, max_pages: usize, pages: &str) -> IngestError {
        IngestError::Incomplete {
            board: self.board.clone(),
            reason: format!("more than {max_pages} {pages}"),
        }
    }

    /// How many items are gathered.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    /// The items gathered, first of each id, in listing order.
    pub(super) fn into_items(self) -> Vec<T> {
        self.items
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn page(ids: &[u32]) -> Vec<Option<(String, u32)>> {
        ids.iter().map(|i| Some((i.to_string(), *i))).collect()
    }

    #[test]
    fn a_stated_total_reached_ends_the_walk() {
        let mut walk = Walk::new("acme");
        assert_eq!(walk.take(page(&[1, 2]), PageEnd::total(Some(3))).unwrap(), Step::More);
        assert_eq!(walk.take(page(&[3]), PageEnd::total(Some(3))).unwrap(), Step::Done);
        assert_eq!(walk.into_items(), [1, 2, 3]);
    }

    #[test]
    fn a_repeated_page_short_of_the_total_fails_closed() {
        let mut walk = Walk::new("acme");
        walk.take(page(&[1, 2]), PageEnd::total(Some(4))).unwrap();
        let err = walk.take(page(&[1, 2]), PageEnd::total(Some(4))).unwrap_err();
        assert!(
            matches!(&err, IngestError::Incomplete { board, reason }
                if board == "acme" && reason.contains("page 2 added nothing at 2 of the 4")),
            "{err}"
        );
        // An empty page short of the total too.
        let mut walk = Walk::new("acme");
        walk.take(page(&[1]), PageEnd::total(Some(2))).unwrap();
        assert!(walk.take(page(&[]), PageEnd::total(Some(2))).is_err());
    }

    #[test]
    fn without_a_total_a_short_or_empty_page_ends_it() {
        let mut walk = Walk::new("acme");
        assert_eq!(walk.take(page(&[1, 2]), PageEnd::sized(2, None)).unwrap(), Step::More);
        assert_eq!(walk.take(page(&[3]), PageEnd::sized(2, None)).unwrap(), Step::Done);
        let mut walk = Walk::new("acme");
        walk.take(page(&[1]), PageEnd::total(None)).unwrap();
        assert_eq!(walk.take(page(&[1]), PageEnd::total(None)).unwrap(), Step::Done);
        assert_eq!(walk.len(), 1);
    }

    #[test]
    fn unreadable_rows_count_towards_the_total_but_not_as_progress() {
        let mut walk = Walk::new("acme");
        let mut rows = page(&[1, 2]);
        rows.push(None);
        assert_eq!(walk.take(rows, PageEnd::total(Some(3))).unwrap(), Step::Done);
        assert_eq!(walk.into_items(), [1, 2]);
        let mut walk = Walk::<u32>::new("acme");
        walk.take(page(&[1]), PageEnd::total(Some(5))).unwrap();
        assert_eq!(
            walk.take(vec![None], PageEnd::total(Some(5))).unwrap_err().class(),
            freehire_domain::FailureClass::Incomplete
        );
    }

    #[test]
    fn a_total_stated_once_holds_for_later_pages() {
        let mut walk = Walk::new("acme");
        walk.take(page(&[1, 2]), PageEnd::sized(2, Some(5))).unwrap();
        assert_eq!(walk.take(page(&[3, 4]), PageEnd::sized(2, None)).unwrap(), Step::More);
        let err = walk.take(page(&[]), PageEnd::sized(2, None)).unwrap_err();
        assert!(err.to_string().contains("page 3 added nothing at 4 of the 5"), "{err}");
    }

    #[test]
    fn a_short_page_short_of_the_total_fails_closed() {
        let mut walk = Walk::new("acme");
        walk.take(page(&[1, 2]), PageEnd::sized(2, Some(5))).unwrap();
        let err = walk.take(page(&[3]), PageEnd::sized(2, Some(5))).unwrap_err();
        assert!(err.to_string().contains("page 2 was short at 3 of the 5"), "{err}");
    }

    #[test]
    fn too_many_pages_names_the_cap() {
        let walk = Walk::<u32>::new("acme");
        let err = walk.too_many_pages(50, "pages of 100");
        assert_eq!(err.to_string(), "board acme: listing is incomplete: more than 50 pages of 100");
    }

    proptest! {
        /// Whatever the pages, a walk that ends with a stated total holds at least that total,
        /// each id once; a walk that adds nothing short of it fails.
        #[test]
        fn a_done_walk_holds_its_total(
            pages in proptest::collection::vec(proptest::collection::vec(0u32..40, 0..8), 1..8),
            total in 0usize..40,
        ) {
            let mut walk = Walk::new("acme");
            for p in &pages {
                match walk.take(page(p), PageEnd::total(Some(total))) {
                    Ok(Step::Done) => {
                        let items = walk.into_items();
                        prop_assert!(items.len() >= total);
                        let distinct: HashSet<_> = items.iter().collect();
                        prop_assert_eq!(distinct.len(), items.len());
                        return Ok(());
                    }
                    Ok(Step::More) => {}
                    Err(_) => {
                        prop_assert!(walk.len() < total);
                        return Ok(());
                    }
                }
            }
            prop_assert!(walk.len() < total);
        }
    }
}
