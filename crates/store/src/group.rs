//! A group of board writes ([`crate::IngestRepo::write_boards`]) as one set of statements: the
//! boards' postings upserted together, their touched keys bumped together, and their health
//! rows, activations and closes one statement each for the whole group, with what comes back
//! split per board. This module is the backend-neutral part: which groups qualify, what each
//! statement is given, and how its answer is split; each backend sends the statements.
//!
//! A group qualifies when every write is stamped with the same instant (the app's writer
//! stamps a group so) and names a different board (a board's health is one row). Otherwise the
//! backend writes the boards one after another, as [`crate::IngestRepo::write_board`] would.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use freehire_domain::{BoardHealth, BoardKey, JobId, Provider};

use crate::{
    BoardWrite, BoardWritten, JobKey, Refreshed, Result, StoreError, UnseenScope, Upserted,
    health::health_key,
    plan::{prefix_upper_bound, source_hash_pairs},
    rows::Part,
};

/// Writes that one set of statements can write (see the module docs).
pub(crate) struct Group<'w, 'a> {
    writes: &'w [BoardWrite<'a>],
    at: DateTime<Utc>,
}

/// One board's close of its open jobs not seen since `before`: the `(source, external_id)`
/// range `lo ..< hi` of its prefix.
pub(crate) struct Close<'a> {
    pub board: usize,
    pub source: &'a Provider,
    pub lo: String,
    pub hi: String,
    pub before: DateTime<Utc>,
}

impl<'a> Close<'a> {
    /// The close of the jobs under `prefix`; an empty prefix (every job) is refused.
    fn new(
        board: usize,
        source: &'a Provider,
        prefix: String,
        before: DateTime<Utc>,
    ) -> Result<Self> {
        let hi = prefix_upper_bound(&prefix).ok_or_else(|| {
            StoreError::corrupt("board_prefix", "an empty board prefix names every job")
        })?;
        Ok(Self { board, source, lo: prefix, hi, before })
    }

    /// An [`UnseenScope`]'s closes, one per prefix (its place in `board_prefixes`).
    pub fn of_scope(scope: &'a UnseenScope) -> Result<Vec<Self>> {
        let prefixes = scope.board_prefixes.iter().enumerate();
        prefixes
            .map(|(i, p)| Self::new(i, &scope.source, p.clone(), scope.last_seen_before))
            .collect()
    }
}

/// Every job of `closed` (per range) once, in id order: what [`UnseenScope`] closes report.
pub(crate) fn all_closed(closed: Vec<Vec<JobId>>) -> Vec<JobId> {
    let mut all: Vec<JobId> = closed.into_iter().flatten().collect();
    all.sort();
    all.dedup();
    all
}

impl<'w, 'a> Group<'w, 'a> {
    /// The group, when it qualifies (see the module docs).
    pub fn new(writes: &'w [BoardWrite<'a>]) -> Option<Self> {
        let at = writes.first()?.at;
        let mut boards = HashSet::with_capacity(writes.len());
        let qualifies = writes.iter().all(|w| w.at == at && boards.insert(health_key(w.board)));
        qualifies.then_some(Self { writes, at })
    }

    /// One board's write: a group of one always qualifies.
    pub fn one(write: &'w BoardWrite<'a>) -> Self {
        Self { writes: std::slice::from_ref(write), at: write.at }
    }

    /// The number of boards.
    pub fn len(&self) -> usize {
        self.writes.len()
    }

    /// The instant every write of the group is stamped with.
    pub fn at(&self) -> DateTime<Utc> {
        self.at
    }

    /// The boards' postings, board after board.
    pub fn parts(&self) -> Vec<Part<'a>> {
        self.writes.iter().map(BoardWrite::part).collect()
    }

    /// Every board's touched keys, board after board.
    pub fn touch_keys(&self) -> Vec<JobKey> {
        self.writes.iter().flat_map(|w| w.touch.iter().cloned()).collect()
    }

    /// Each board's key and the postings its listing named, for its health.
    pub fn successes(&self) -> Vec<(&'a BoardKey, u64)> {
        self.writes.iter().map(|w| (w.board, w.named)).collect()
    }

    /// The boards to flip from pending to active.
    pub fn to_activate(&self) -> Vec<&'a BoardKey> {
        self.writes.iter().filter(|w| w.activate).map(|w| w.board).collect()
    }

    /// The boards' closes of what they no longer list.
    pub fn closes(&self) -> Result<Vec<Close<'a>>> {
        let mut closes = Vec::new();
        for (board, w) in self.writes.iter().enumerate() {
            let Some(before) = w.close_unseen_before else { continue };
            closes.push(Close::new(
                board,
                &w.board.provider,
                w.board.external_id_prefix(),
                before,
            )?);
        }
        Ok(closes)
    }

    /// The upsert's results (board after board) split per board.
    pub fn split_upserted(&self, all: Vec<Upserted>) -> Result<Vec<Vec<Upserted>>> {
        split(all, self.writes.iter().map(|w| w.postings.len()), "upserted")
    }

    /// The touch's results (board after board) split per board.
    pub fn split_touched(&self, all: Vec<Refreshed>) -> Result<Vec<Vec<Refreshed>>> {
        split(all, self.writes.iter().map(|w| w.touch.len()), "touched")
    }

    /// The `(id, source hash)` pairs to store for the boards that passed their own source
    /// hashes, by id.
    pub fn source_hash_pairs(&self, upserted: &[Vec<Upserted>]) -> Result<Vec<(i64, &'a str)>> {
        let mut pairs = Vec::new();
        for (w, done) in self.writes.iter().zip(upserted) {
            let (ids, hashes) = source_hash_pairs(done, w.source_hashes)?;
            pairs.extend(ids.into_iter().zip(hashes));
        }
        pairs.sort_unstable();
        pairs.dedup_by_key(|p| p.0);
        Ok(pairs)
    }

    /// Each board's [`BoardWritten`] from the split results.
    pub fn assemble(
        &self,
        upserted: Vec<Vec<Upserted>>,
        touched: Vec<Vec<Refreshed>>,
        closed: Vec<Vec<JobId>>,
        health: Vec<BoardHealth>,
    ) -> Vec<BoardWritten> {
        upserted
            .into_iter()
            .zip(touched)
            .zip(closed)
            .zip(health)
            .map(|(((upserted, touched), closed), health)| BoardWritten {
                upserted,
                touched,
                closed,
                health,
            })
            .collect()
    }
}

/// `all` cut into consecutive runs of `lens`; a count that does not add up is an error
/// naming `what`.
fn split<T>(all: Vec<T>, lens: impl Iterator<Item = usize>, what: &str) -> Result<Vec<Vec<T>>> {
    let total = all.len();
    let mut rest = all.into_iter();
    let mut out = Vec::new();
    let mut wanted = 0;
    for len in lens {
        wanted += len;
        out.push(rest.by_ref().take(len).collect::<Vec<_>>());
    }
    if wanted != total {
        return Err(StoreError::corrupt(
            "group",
            format!("{total} {what} results for {wanted} inputs"),
        ));
    }
    Ok(out)
}

/// The closed rows (`id, source, external_id`) of one statement over `closes`, per board of a
/// group of `boards`: each row to the first close whose range holds it, each board's ids
/// sorted.
pub(crate) fn closed_per_board(
    closes: &[Close<'_>],
    rows: Vec<(i64, String, String)>,
    boards: usize,
) -> Result<Vec<Vec<JobId>>> {
    let mut out = vec![Vec::new(); boards];
    for (id, source, external_id) in rows {
        let close = closes
            .iter()
            .find(|c| {
                c.source.as_str() == source
                    && c.lo.as_str() <= external_id.as_str()
                    && external_id.as_str() < c.hi.as_str()
            })
            .ok_or_else(|| {
                StoreError::corrupt("group", format!("closed {source}/{external_id} unasked"))
            })?;
        out[close.board].push(crate::rows::job_id(id)?);
    }
    for ids in &mut out {
        ids.sort();
        ids.dedup();
    }
    Ok(out)
}

/// The healths a statement returned (in no stated order) in the order of the rows it was
/// given (`wanted`, by key); a key it did not return is an error.
pub(crate) fn in_order_of(
    wanted: &[BoardHealth],
    got: Vec<BoardHealth>,
) -> Result<Vec<BoardHealth>> {
    let mut by_key: std::collections::HashMap<BoardKey, BoardHealth> =
        got.into_iter().map(|h| (h.key.clone(), h)).collect();
    wanted
        .iter()
        .map(|w| {
            by_key.remove(&w.key).ok_or_else(|| {
                StoreError::corrupt(
                    "board_health",
                    format!("no health row came back for {}", w.key),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn results_split_back_by_board() {
        let parts = split(vec![1, 2, 3, 4, 5], [2, 0, 3].into_iter(), "x").unwrap();
        assert_eq!(parts, vec![vec![1, 2], vec![], vec![3, 4, 5]]);
        let short = split(vec![1, 2], [2, 1].into_iter(), "upserted").unwrap_err();
        let why = std::error::Error::source(&short).map(ToString::to_string);
        assert_eq!(why.as_deref(), Some("2 upserted results for 3 inputs"));
    }
}
