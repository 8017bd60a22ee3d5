//! Relevance-ordered text matches, scored a window of documents at a time.
//!
//! A text query is an AND of words, each an OR of scored alternatives (every searched field's
//! derived words, `translate`), ANDed with the filter (an AND of OR-groups of selectors).
//! tantivy evaluates that as an intersection of buffered unions, which moves document by
//! document: each step of the intersection seeks the other unions, and a union's seek walks
//! its buffer one document at a time (a profile of common two-word phrases put about 30 % of
//! the search in those seeks).
//!
//! Here a segment is read in windows of [`WINDOW`] documents instead:
//! 1. all of its documents are in play;
//! 2. each filter group and each word in turn, the smallest first, reads its postings in the
//!    window (a term's a decoded block of 128 at a time): a group marks the documents it
//!    selects, a word scores the documents in play it matches. The window then keeps only the
//!    documents the group selected or the word matched. When few documents are in play, a
//!    term or query seeks each of them instead of reading every posting;
//! 3. the window's survivors that are not deleted are handed over with their scores.
//!
//! When nothing is left in play, the window ends there, and the later postings skip it through
//! their skip lists, undecoded. Every match is still counted, so totals and facet counts stay
//! exact.
//!
//! **Scores are the boolean query's.** Each alternative is scored by the same weight (BM25 with
//! the searcher's statistics, times its boost); a common word's scores for small term
//! frequencies are read from a table of those same numbers ([`Scores`]). A word's score is the
//! sum of its alternatives' scores in their order, as tantivy's summing union adds them. A
//! document's score is the sum of its words' scores in query order; the filter adds nothing.
//! For one or two words that is the boolean query's score to the bit. For three or more,
//! tantivy added the words in its own cost order, which depends on the segment, so the last
//! bit could differ; here a document's score never depends on its segment or on the filter.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::BlockSegmentPostings;
use tantivy::query::{Bm25StatisticsProvider, Bm25Weight, EnableScoring, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, TERMINATED, Term};

use crate::embedded::collect::Cancel;
use crate::embedded::translate::{Alternative, Selector};

type TResult<T> = Result<T, tantivy::TantivyError>;

/// Documents per window: its bits fit in 64 words, a word's scores in 16 KiB.
const WINDOW: u32 = 4096;
const WORDS: usize = (WINDOW / 64) as usize;
/// An alternative seeks each document in play instead of walking its postings when it has
/// about this many times more postings in the window than there are documents in play.
const SEEK_RATIO: u64 = 16;
/// Term frequencies below this are scored from a [`Scores`] table.
const TABLE_TF: u32 = 4;
/// Terms in at least this many documents get a [`Scores`] table: its 1,024 scores cost less
/// than a 50th of scoring their postings.
const TABLE_MIN_DOCS: u64 = 50_000;

/// A term's scores for the small term frequencies, by field-norm id: the same numbers its
/// BM25 weight computes (a division each), read instead of computed for common words.
struct Scores(Box<[Score]>);

impl Scores {
    fn new(bm25: &Bm25Weight) -> Self {
        let mut table = Vec::with_capacity(256 * TABLE_TF as usize);
        for norm in 0..=u8::MAX {
            for tf in 0..TABLE_TF {
                table.push(bm25.score(norm, tf));
            }
        }
        Scores(table.into_boxed_slice())
    }

    #[inline]
    fn score(&self, bm25: &Bm25Weight, norm: u8, tf: u32) -> Score {
        if tf < TABLE_TF {
            self.0[usize::from(norm) * TABLE_TF as usize + tf as usize]
        } else {
            bm25.score(norm, tf)
        }
    }
}

/// A term's BM25 weight, boosted (the searcher's statistics, as a term query's), with a table
/// of its common scores when it is a common word.
struct TermWeight {
    term: Term,
    bm25: Bm25Weight,
    table: Option<Scores>,
}

/// One alternative's or selector's weight over the searcher.
enum PartWeight {
    /// An alternative's term, scored by its weight.
    Term(Arc<TermWeight>),
    /// A selector's term, which only selects.
    Selector(Term),
    /// Any other query: an automaton's constant score, a range, a negation.
    Other(Box<dyn Weight>),
}

/// A text query's weights: per word, its alternatives' (scoring); per filter group, its
/// selectors' (not scoring).
pub(crate) struct TextWeights {
    words: Vec<Vec<PartWeight>>,
    filter: Vec<Vec<PartWeight>>,
}

impl TextWeights {
    /// The weights of `words` (per query word, its alternatives) and of the `filter`'s groups
    /// over `searcher`.
    pub(crate) fn new(
        searcher: &Searcher,
        words: &[Vec<Alternative>],
        filter: &[Vec<Selector>],
    ) -> TResult<Self> {
        let scoring = EnableScoring::enabled_from_searcher(searcher);
        // What `Bm25Weight::for_terms` reads for one term, each statistic read once: the
        // documents, each field's average length (per field, not per alternative), and the
        // term's document frequency (which also decides its table).
        let total_docs = searcher.total_num_docs()?;
        let mut average_lengths: HashMap<Field, Score> = HashMap::new();
        let mut alternative = |alt: &Alternative| -> TResult<PartWeight> {
            Ok(match alt {
                Alternative::Term { term, boost } => {
                    let field = term.field();
                    let average = match average_lengths.entry(field) {
                        Entry::Occupied(known) => *known.get(),
                        Entry::Vacant(slot) => {
                            let tokens = searcher.total_num_tokens(field)?;
                            *slot.insert(tokens as Score / total_docs as Score)
                        }
                    };
                    let doc_freq = searcher.doc_freq(term)?;
                    let bm25 =
                        Bm25Weight::for_one_term(doc_freq, total_docs, average).boost_by(*boost);
                    let common = doc_freq >= TABLE_MIN_DOCS;
                    let table = common.then(|| Scores::new(&bm25));
                    PartWeight::Term(Arc::new(TermWeight { term: term.clone(), bm25, table }))
                }
                Alternative::Automaton(query) => PartWeight::Other(query.weight(scoring)?),
            })
        };
        let unscored = EnableScoring::disabled_from_searcher(searcher);
        let selector = |sel: &Selector| -> TResult<PartWeight> {
            Ok(match sel {
                Selector::Term(term) => PartWeight::Selector(term.clone()),
                Selector::Query(query) => PartWeight::Other(query.weight(unscored)?),
            })
        };
        let words = words
            .iter()
            .map(|alts| alts.iter().map(&mut alternative).collect::<TResult<Vec<_>>>())
            .collect::<TResult<Vec<_>>>()?;
        let filter = filter
            .iter()
            .map(|group| group.iter().map(selector).collect::<TResult<Vec<_>>>())
            .collect::<TResult<Vec<_>>>()?;
        Ok(TextWeights { words, filter })
    }
}

/// A window's documents, one bit each.
type Bits = [u64; WORDS];

#[inline]
fn is_set(bits: &Bits, delta: u32) -> bool {
    bits[(delta / 64) as usize] & (1 << (delta % 64)) != 0
}

#[inline]
fn set(bits: &mut Bits, delta: u32) {
    bits[(delta / 64) as usize] |= 1 << (delta % 64);
}

fn count(bits: &Bits) -> u64 {
    bits.iter().map(|w| u64::from(w.count_ones())).sum()
}

/// The deltas of the set bits, ascending.
fn deltas(bits: &Bits, out: &mut Vec<u32>) {
    out.clear();
    for (i, &word) in bits.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            out.push(i as u32 * 64 + rest.trailing_zeros());
            rest &= rest - 1;
        }
    }
}

/// One word's scores in the window: `hit` marks the documents it matched, whose `scores`
/// hold the sum so far of its alternatives' scores (stale elsewhere, never read).
struct WordWindow {
    hit: Bits,
    scores: Vec<Score>,
}

impl WordWindow {
    #[inline]
    fn add(&mut self, delta: u32, score: Score) {
        if is_set(&self.hit, delta) {
            self.scores[delta as usize] += score;
        } else {
            // 0.0 + score, exactly: what a summing union starts from.
            self.scores[delta as usize] = score;
            set(&mut self.hit, delta);
        }
    }
}

/// The window being read: its first document, its end (exclusive), the documents in play.
#[derive(Clone, Copy)]
struct Span<'a> {
    base: DocId,
    end: DocId,
    live: &'a Bits,
}

/// Term frequencies of a block read without them (a field indexed without frequencies).
static ONES: [u32; 128] = [1; 128];

/// A term's postings in one segment, read a decoded block at a time.
struct Cursor {
    block: BlockSegmentPostings,
    /// The next posting's index in the current block.
    pos: usize,
}

impl Cursor {
    /// The postings of `term` in `reader`; `None` when it has none there.
    fn open(
        reader: &SegmentReader,
        term: &Term,
        option: IndexRecordOption,
    ) -> TResult<Option<Self>> {
        let block = reader.inverted_index(term.field())?.read_block_postings(term, option)?;
        Ok(block.filter(|b| !b.docs().is_empty()).map(|block| Cursor { block, pos: 0 }))
    }

    fn size(&self) -> u64 {
        u64::from(self.block.doc_freq())
    }

    /// Moves to the first posting at or after `target`; false when there is none.
    fn skip_to(&mut self, target: DocId) -> bool {
        loop {
            let docs = self.block.docs();
            if docs.is_empty() {
                return false;
            }
            if self.pos >= docs.len() {
                self.block.advance();
                self.pos = 0;
                continue;
            }
            if docs[self.pos] >= target {
                return true;
            }
            if docs[docs.len() - 1] >= target {
                self.pos += docs[self.pos..].partition_point(|&d| d < target);
                return true;
            }
            // The block that may hold `target`, the ones between skipped undecoded; when all
            // its documents come before `target`, the next turn moves past it.
            self.pos = self.block.seek(target);
        }
    }

    /// Calls `each` with every posting of `span` (document, term frequency), in order.
    #[inline]
    fn walk(&mut self, span: Span<'_>, mut each: impl FnMut(DocId, u32)) {
        if !self.skip_to(span.base) {
            return;
        }
        loop {
            let docs = self.block.docs();
            let freqs = match self.block.freqs() {
                f if f.len() >= docs.len() => f,
                _ => &ONES[..],
            };
            for i in self.pos..docs.len() {
                let doc = docs[i];
                if doc >= span.end {
                    self.pos = i;
                    return;
                }
                each(doc, freqs[i]);
            }
            self.block.advance();
            self.pos = 0;
            if self.block.docs().is_empty() {
                return;
            }
        }
    }

    /// The term frequency at `target` when the term is there, seeking it.
    #[inline]
    fn probe(&mut self, target: DocId) -> Option<u32> {
        if !self.skip_to(target) || self.block.docs()[self.pos] != target {
            return None;
        }
        Some(self.block.freqs().get(self.pos).copied().unwrap_or(1))
    }
}

/// One alternative or selector in one segment.
enum Part {
    /// An alternative's term: its postings, its field's norms and its weight.
    Term(Cursor, FieldNormReader, Arc<TermWeight>),
    /// A selector's term: its postings.
    Selector(Cursor),
    /// Any other query's scorer.
    Other(Box<dyn Scorer>),
}

impl Part {
    /// The part in `reader`; `None` when it matches nothing there.
    fn open(weight: &PartWeight, reader: &SegmentReader) -> TResult<Option<Self>> {
        Ok(match weight {
            PartWeight::Term(w) => {
                let with_freqs = IndexRecordOption::WithFreqs;
                let Some(cursor) = Cursor::open(reader, &w.term, with_freqs)? else {
                    return Ok(None);
                };
                let norms = match reader.fieldnorms_readers().get_field(w.term.field())? {
                    Some(norms) => norms,
                    None => FieldNormReader::constant(reader.max_doc(), 1),
                };
                Some(Part::Term(cursor, norms, Arc::clone(w)))
            }
            PartWeight::Selector(term) => {
                Cursor::open(reader, term, IndexRecordOption::Basic)?.map(Part::Selector)
            }
            PartWeight::Other(weight) => {
                let scorer = weight.scorer(reader, 1.0)?;
                (scorer.doc() != TERMINATED).then_some(Part::Other(scorer))
            }
        })
    }

    /// How many documents it matches in the segment (an estimate for queries).
    fn size(&self) -> u64 {
        match self {
            Part::Term(c, _, _) | Part::Selector(c) => c.size(),
            Part::Other(s) => u64::from(s.size_hint()),
        }
    }

    /// Marks the documents of `span` it matches in `bits`.
    fn mark_walking(&mut self, span: Span<'_>, bits: &mut Bits) {
        match self {
            Part::Term(cursor, _, _) | Part::Selector(cursor) => {
                cursor.walk(span, |doc, _| set(bits, doc - span.base))
            }
            Part::Other(s) => walk_scorer(s, span, |doc, _| set(bits, doc - span.base)),
        }
    }

    /// Marks in `bits` the documents in play (`in_play`, ascending deltas of `span`) that it
    /// matches, seeking each.
    fn mark_seeking(&mut self, span: Span<'_>, in_play: &[u32], bits: &mut Bits) {
        for &delta in in_play {
            let target = span.base + delta;
            let here = match self {
                Part::Term(cursor, _, _) | Part::Selector(cursor) => cursor.probe(target).is_some(),
                Part::Other(s) => {
                    let doc = if s.doc() < target { s.seek(target) } else { s.doc() };
                    doc == target
                }
            };
            if here {
                set(bits, delta);
            }
        }
    }

    /// Whether, with `left` documents in play in a window of `len` of the segment's
    /// `max_doc`, seeking each costs less than reading every match in the window.
    ///
    /// A query other than a term (a range reads column values, a bitset its words) seeks
    /// whenever fewer than half the window's documents are in play: its reads cost about the
    /// same either way, and seeking reads only what is in play.
    fn seeks(&self, left: u64, len: u32, max_doc: DocId) -> bool {
        match self {
            Part::Term(cursor, _, _) | Part::Selector(cursor) => {
                let expected = cursor.size() * u64::from(len) / u64::from(max_doc.max(1));
                left * SEEK_RATIO < expected
            }
            Part::Other(_) => left * 2 < u64::from(len),
        }
    }

    /// Scores the documents of `span` in play that it matches.
    fn score_walking(&mut self, span: Span<'_>, word: &mut WordWindow) {
        match self {
            Part::Term(cursor, norms, w) => cursor.walk(span, |doc, tf| {
                let delta = doc - span.base;
                if is_set(span.live, delta) {
                    word.add(delta, term_score(w, norms, doc, tf));
                }
            }),
            Part::Other(s) => walk_scorer(s, span, |doc, s| {
                let delta = doc - span.base;
                if is_set(span.live, delta) {
                    word.add(delta, s.score());
                }
            }),
            // A selector scores nothing (and no word holds one).
            Part::Selector(_) => {}
        }
    }

    /// Scores the documents in play (`in_play`, ascending deltas of `span`) that it matches,
    /// seeking each.
    fn score_seeking(&mut self, span: Span<'_>, in_play: &[u32], word: &mut WordWindow) {
        for &delta in in_play {
            let target = span.base + delta;
            match self {
                Part::Term(cursor, norms, w) => {
                    if let Some(tf) = cursor.probe(target) {
                        word.add(delta, term_score(w, norms, target, tf));
                    }
                }
                Part::Other(s) => {
                    let doc = if s.doc() < target { s.seek(target) } else { s.doc() };
                    if doc == target {
                        word.add(delta, s.score());
                    }
                }
                Part::Selector(_) => {}
            }
        }
    }
}

/// Calls `each` with every match of `span` of a query's scorer (positioned on it).
fn walk_scorer(
    s: &mut Box<dyn Scorer>,
    span: Span<'_>,
    mut each: impl FnMut(DocId, &mut Box<dyn Scorer>),
) {
    let mut doc = if s.doc() < span.base { s.seek(span.base) } else { s.doc() };
    while doc < span.end {
        each(doc, s);
        doc = s.advance();
    }
}

/// A term alternative's score at `doc`: its weight's, read from its table when it has one.
#[inline]
fn term_score(w: &TermWeight, norms: &FieldNormReader, doc: DocId, tf: u32) -> Score {
    let norm = norms.fieldnorm_id(doc);
    match &w.table {
        Some(table) => table.score(&w.bm25, norm, tf),
        None => w.bm25.score(norm, tf),
    }
}

/// The parts of `groups` in `reader`, each group's matching ones; `None` when a group has none
/// there (nothing can match: every group must).
fn open_groups(
    groups: &[Vec<PartWeight>],
    reader: &SegmentReader,
) -> TResult<Option<Vec<Vec<Part>>>> {
    let mut out = Vec::with_capacity(groups.len());
    for group in groups {
        let mut parts = Vec::with_capacity(group.len());
        for weight in group {
            parts.extend(Part::open(weight, reader)?);
        }
        if parts.is_empty() {
            return Ok(None);
        }
        out.push(parts);
    }
    Ok(Some(out))
}

/// One step of a window: a filter group or a word.
#[derive(Clone, Copy)]
enum Step {
    Filter(usize),
    Word(usize),
}

/// The order of a window's steps: the smallest first, as it leaves the fewest documents in play
/// for the others (a rare word before a filter that selects half the catalogue); filter groups
/// with other queries than terms (a range, a negation) last, as their sizes are estimates and
/// their matches cost more to read one by one.
fn steps(words: &[Vec<Part>], filter: &[Vec<Part>]) -> Vec<Step> {
    let size = |g: &Vec<Part>| g.iter().map(Part::size).sum::<u64>();
    let other = |g: &Vec<Part>| g.iter().any(|p| matches!(p, Part::Other(_)));
    let mut keyed: Vec<((bool, u64), Step)> = Vec::with_capacity(words.len() + filter.len());
    keyed.extend(words.iter().enumerate().map(|(w, g)| ((false, size(g)), Step::Word(w))));
    keyed.extend(filter.iter().enumerate().map(|(f, g)| ((other(g), size(g)), Step::Filter(f))));
    keyed.sort_by_key(|(key, _)| *key);
    keyed.into_iter().map(|(_, step)| step).collect()
}

/// Every matching live document of `reader` with its score, a window at a time (ascending),
/// handed to `emit`. Stops with an error once `cancel` is set (checked per window) or `emit`
/// fails.
pub(crate) fn scan(
    weights: &TextWeights,
    reader: &SegmentReader,
    cancel: &Cancel,
    mut emit: impl FnMut(&[DocId], &[Score]) -> TResult<()>,
) -> TResult<()> {
    if weights.words.is_empty() {
        return Ok(());
    }
    let Some(mut words) = open_groups(&weights.words, reader)? else {
        return Ok(());
    };
    let Some(mut filter) = open_groups(&weights.filter, reader)? else {
        return Ok(());
    };
    let steps = steps(&words, &filter);
    let max_doc = reader.max_doc();
    let alive = reader.alive_bitset();
    let mut windows: Vec<WordWindow> = (0..words.len())
        .map(|_| WordWindow { hit: [0; WORDS], scores: vec![0.0; WINDOW as usize] })
        .collect();
    let mut in_play: Vec<u32> = Vec::with_capacity(WINDOW as usize);
    let (mut docs, mut scores) = (Vec::new(), Vec::new());
    let mut base: DocId = 0;
    while base < max_doc {
        cancel.check()?;
        let end = base.saturating_add(WINDOW).min(max_doc);
        let len = end - base;
        let mut live: Bits = [0; WORDS];
        let full = (len / 64) as usize;
        live[..full].fill(u64::MAX);
        if !len.is_multiple_of(64) {
            live[full] = (1 << (len % 64)) - 1;
        }
        let mut left = u64::from(len);
        for &step in &steps {
            if left == 0 {
                break;
            }
            // The documents in play as a list, listed once a part seeks them.
            let mut listed = false;
            let mut list = |in_play: &mut Vec<u32>| {
                if !listed {
                    deltas(&live, in_play);
                    listed = true;
                }
            };
            let span = Span { base, end, live: &live };
            let kept = match step {
                Step::Filter(g) => {
                    let mut selected: Bits = [0; WORDS];
                    for part in filter[g].iter_mut() {
                        if part.seeks(left, len, max_doc) {
                            list(&mut in_play);
                            part.mark_seeking(span, &in_play, &mut selected);
                        } else {
                            part.mark_walking(span, &mut selected);
                        }
                    }
                    selected
                }
                Step::Word(w) => {
                    let window = &mut windows[w];
                    window.hit = [0; WORDS];
                    for alt in words[w].iter_mut() {
                        if alt.seeks(left, len, max_doc) {
                            list(&mut in_play);
                            alt.score_seeking(span, &in_play, window);
                        } else {
                            alt.score_walking(span, window);
                        }
                    }
                    window.hit
                }
            };
            for (l, k) in live.iter_mut().zip(&kept) {
                *l &= k;
            }
            left = count(&live);
        }
        if left > 0 {
            deltas(&live, &mut in_play);
            docs.clear();
            scores.clear();
            for &delta in &in_play {
                let doc = base + delta;
                if alive.is_some_and(|a| !a.is_alive(doc)) {
                    continue;
                }
                // In query order, whatever the segment: the same words score a document the same.
                let score = windows.iter().fold(0.0, |sum, w| sum + w.scores[delta as usize]);
                docs.push(doc);
                scores.push(score);
            }
            emit(&docs, &scores)?;
        }
        base = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::*;
    use crate::embedded::collect::{Gather, Gathered, HitOrder};
    use crate::embedded::{EmbeddedIndex, schema, translate};
    use crate::index::SearchIndex;
    use crate::{Endpoint, JobQuery, SearchDocument};

    /// Words the texts are drawn from: query words, their longer forms and near spellings.
    const POOL: &[&str] = &[
        "senior",
        "team",
        "software",
        "softwares",
        "engineer",
        "enginer",
        "engineers",
        "engineering",
        "remote",
        "manager",
        "management",
        "managers",
        "design",
        "product",
        "products",
        "rust",
    ];

    /// `n` jobs: titles, companies, descriptions and locations drawn from [`POOL`] (every
    /// description also says "team", and one of a hundred "dataNN" words, more than a prefix
    /// lists as terms); a skill on one job in fifty, a country on two in three, a salary on
    /// every other.
    fn documents(n: i64) -> Vec<SearchDocument> {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut draw = |k: i64| -> String {
            let mut words = Vec::new();
            for _ in 0..k {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                words.push(POOL[(state >> 33) as usize % POOL.len()]);
            }
            words.join(" ")
        };
        (1..=n)
            .map(|id| {
                let skill = if id % 50 == 0 { "python" } else { "rust" };
                let mut facets = BTreeMap::from([("skills".to_owned(), vec![skill.to_owned()])]);
                if id % 3 != 2 {
                    let country = if id % 3 == 0 { "us" } else { "de" };
                    facets.insert("countries".to_owned(), vec![country.to_owned()]);
                }
                SearchDocument {
                    id,
                    public_slug: format!("job-{id}"),
                    external_id: id.to_string(),
                    title: draw(1 + id % 3),
                    company: draw(1),
                    company_slug: format!("c{}", id % 97),
                    location: draw(1),
                    description: format!("{} team data{}", draw(3 + id % 9), id % 100),
                    url: String::new(),
                    facets,
                    posted_ts: id % 1_000,
                    created_ts: id,
                    updated_ts: id,
                    salary_min: (id % 2 == 0).then_some(50_000 + (id % 10) * 10_000),
                    salary_max: None,
                    experience_years_min: None,
                    visa_sponsorship: None,
                    view_count: 0,
                }
            })
            .collect()
    }

    /// Every match of `qs` with its score and facet counts: by the windows when `windows`, by
    /// tantivy's boolean query otherwise.
    fn gather(index: &EmbeddedIndex, qs: &str, windows: bool) -> Gathered {
        let inner = index.inner.live().unwrap();
        let searcher = inner.reader.searcher();
        let mut analyzer = schema::analyzer();
        let q = JobQuery::from_query_str(qs, Endpoint::Search).unwrap();
        let cancel = Cancel::default();
        let now = chrono::Utc::now();
        let parts = translate::parts(
            &inner.fields,
            &inner.columns,
            &searcher,
            &mut analyzer,
            &q,
            now,
            &cancel,
        );
        let parts = parts.unwrap();
        let readers = searcher.segment_readers();
        let skills = inner.globals.get(&inner.columns, readers, "skills").unwrap();
        let gather = Gather {
            ordering: HitOrder::Relevance,
            keep: usize::MAX,
            facets: vec![("skills", skills)],
            stats: false,
            columns: Arc::clone(&inner.columns),
            cancel,
            block_delay: std::time::Duration::ZERO,
        };
        if windows {
            let weights = TextWeights::new(&searcher, &parts.words, &parts.filter);
            gather.search_text(&searcher, &weights.unwrap()).unwrap()
        } else {
            searcher.search(parts.into_query().as_ref(), &gather).unwrap()
        }
    }

    // scenario: Text scored a window at a time ranks as the boolean query
    #[tokio::test]
    async fn windows_score_and_count_as_the_boolean_query() {
        let dir = tempfile::tempdir().unwrap();
        let index = EmbeddedIndex::open(dir.path()).unwrap();
        let docs = documents(13_000);
        // A segment past two windows, one under one, and deleted jobs in both.
        index.upsert(docs[..9_000].to_vec()).await.unwrap();
        index.upsert(docs[9_000..].to_vec()).await.unwrap();
        let gone: Vec<i64> = (1..=13_000).filter(|id| id % 7 == 0).collect();
        index.delete(&gone).await.unwrap();
        let queries = [
            "q=engineer",
            "q=software+engineer",
            "q=eng",
            "q=enginer",
            "q=team",
            "q=manager+team",
            "q=data",
            "q=rust+data",
            "q=engineer&skills=python",
            "q=team&skills=python",
            "q=software+manag&skills=python",
            "q=product&skills=rust",
            "q=design&q_fields=title",
            "q=engineer&countries=us",
            "q=software+engineer&countries=de&skills=python",
            "q=team&skills_exclude=rust",
            "q=software&salary_min=100000",
            "q=manager&regions=none&countries=de",
            "q=team+data&skills=python&skills=rust&skills_mode=and",
            "q=nothingmatches",
            "q=team+nothingmatches",
        ];
        let mut per_query: BTreeMap<&str, u64> = BTreeMap::new();
        for qs in queries {
            let (windows, boolean) = (gather(&index, qs, true), gather(&index, qs, false));
            assert_eq!(windows.total, boolean.total, "{qs}: total");
            assert_eq!(windows.counts, boolean.counts, "{qs}: skills");
            let rows = |g: &Gathered| -> Vec<(u32, u32, u32)> {
                let row = |r: &crate::embedded::collect::Row| {
                    (r.address.segment_ord, r.address.doc_id, r.score.to_bits())
                };
                g.rows.iter().map(row).collect()
            };
            assert_eq!(rows(&windows), rows(&boolean), "{qs}: rows");
            per_query.insert(qs, windows.total);
        }
        // Three words or more: the words are summed in query order (tantivy: in its cost order
        // per segment), so scores agree to a millionth and the matches are the same.
        for qs in ["q=senior+software+engineer", "q=senior+remote+team+eng&skills=python"] {
            let (windows, boolean) = (gather(&index, qs, true), gather(&index, qs, false));
            assert_eq!(windows.total, boolean.total, "{qs}: total");
            assert_eq!(windows.counts, boolean.counts, "{qs}: skills");
            let scores = |g: &Gathered| -> BTreeMap<(u32, u32), f32> {
                g.rows
                    .iter()
                    .map(|r| ((r.address.segment_ord, r.address.doc_id), r.score))
                    .collect()
            };
            let (ours, theirs) = (scores(&windows), scores(&boolean));
            assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>(), "{qs}");
            for (at, score) in &ours {
                let diff = (score - theirs[at]).abs();
                assert!(diff <= theirs[at] * 1e-6, "{qs}: {at:?} {score} vs {}", theirs[at]);
            }
            per_query.insert(qs, windows.total);
        }
        assert!(per_query["q=senior+remote+team+eng&skills=python"] > 0, "{per_query:?}");
        // The cases exercised what they are for.
        assert!(per_query["q=team"] > 10_000, "{per_query:?}");
        assert!(per_query["q=team&skills=python"] > 100, "{per_query:?}");
        assert!(per_query["q=data"] > 10_000, "{per_query:?}");
        assert_eq!(per_query["q=nothingmatches"], 0);
    }
}
