//! The saved-search percolator: which of a batch of newly indexed jobs each subscription (a
//! saved [`JobQuery`]) matches, in memory, without the engine.
//!
//! ```
//! use chrono::{TimeZone, Utc};
//! use freehire_search::{Endpoint, JobQuery, Percolator};
//!
//! let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
//! let subs = [(7_i64, "q=rust&work_mode=remote"), (9, "skills=go")].map(|(key, qs)| {
//!     (key, JobQuery::from_query_str(qs, Endpoint::Search).unwrap())
//! });
//! let percolator = Percolator::new(subs, now);
//! assert_eq!((percolator.len(), percolator.distinct_queries()), (2, 2));
//! assert!(percolator.matches(&[]).is_empty());
//! ```
//!
//! **Semantics: the embedded engine's, exactly.** A subscription matches a job exactly when a
//! search of its query on an [`EmbeddedIndex`](crate::EmbeddedIndex) holding the job would
//! return it (the integration tests check this against a real index on random queries):
//!
//! - The filter is the engine's AND of OR-groups (`translate`): the geography OR-group, per
//!   facet one OR-group or one group per value under `_mode=and`, one group per excluded
//!   value, `regions=none` as "no region", `requires_clearance=false` as "not true", then the
//!   scalar bounds as inclusive ranges a job without the value fails. Values compare as the
//!   engine's terms do: exactly, and free-text facets (`cities`, `skills`, …) through the
//!   engine's own `fold`.
//! - The text is matched with the engine's own code, not a copy: `q` and the jobs' title,
//!   company, description and location are split by the index's analyzer, and each query word
//!   is the engine's `derivations::Rule` (exact; the last word also as a prefix; one typo from
//!   5 characters, two from 9, Levenshtein with transpositions). Every word must match a word
//!   of one searched field. The engine finds a rule's words in its term dictionaries; the
//!   percolator finds them, with the same rule and automata, in the dictionary of the batch.
//!   Which words a rule accepts does not depend on the rest of the index (the engine's cap on
//!   scored words only changes how the same words are queried), so nothing here is
//!   approximate and no candidate needs confirming on the engine. Ranking plays no part.
//!
//! **Grouping.** Subscriptions with the same canonical query share one evaluation. The
//! canonical query is the filter as a set of OR-groups of literals (each value normalised as
//! the engine compares it, scalar windows anchored at `now`) plus the set of text rules and
//! the searched fields; page, sort and ignored parameters play no part. So `skills=go,rust`
//! and `skills=RUST&skills=go&sort=created_at&limit=5` are one query.
//!
//! **Index.** Each distinct query is filed under its most selective *required* group (an
//! OR-group of plain values the job must hold one of: the geography group, a facet's values),
//! by a static estimate of its values' frequency (one over the vocabulary's size for a closed
//! facet, a fixed guess for an open one: the batch is not known when subscriptions are
//! filed). A query with no such group (only exclusions, scalars, `regions=none`, text, or
//! nothing) goes in the scan list. A batch visits only the queries filed under a value one of
//! its jobs holds, plus the scan list; any other query cannot match any job of the batch.
//!
//! **Evaluation.** Per batch (in chunks of at most 8,192 jobs, to bound memory), every value
//! any query names is a bitset of the jobs holding it (one pass over the jobs); scalar bounds
//! and each text rule's jobs are worked out once, when a query first needs them. A visited
//! query is the AND of its groups' bitsets, its filed group first, then the text; it stops at
//! the first empty result, so text is only worked out for queries whose filter kept a job.
//! The text dictionary (one fst over the words of every searched field, with each word's jobs
//! per field) is built on the first rule a chunk needs; a rule's automaton is built, run once
//! over it and dropped. A query with no filter and no text matches every job.

use std::borrow::Cow;
use std::hash::Hash;

use chrono::{DateTime, Utc};
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use tantivy::tokenizer::TextAnalyzer;
use tantivy_fst::{IntoStreamer, Map, Streamer};

use crate::document::SearchDocument;
use crate::embedded::derivations::{Rule, prefix_end};
use crate::embedded::{fold, schema, translate};
use crate::facet::{Facet, FacetValue, Mode};
use crate::query::{JobQuery, QField};

/// Seconds per day (the within-days windows).
const DAY: i64 = 86_400;
/// Most jobs evaluated together: memory is one bit per job per value named by a query.
const CHUNK: usize = 8_192;
/// Every searchable field, as a mask over [`QField::ALL`].
const ALL_FIELDS: u8 = (1 << QField::ALL.len()) - 1;

type AtomId = usize;
type RuleId = usize;
type QueryId = usize;

/// A numeric attribute a scalar bound reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Number {
    SalaryMin,
    SalaryMax,
    ExperienceYearsMin,
    PostedTs,
    CreatedTs,
}

impl Number {
    fn of(self, doc: &SearchDocument) -> Option<i64> {
        match self {
            Number::SalaryMin => doc.salary_min,
            Number::SalaryMax => doc.salary_max,
            Number::ExperienceYearsMin => doc.experience_years_min,
            Number::PostedTs => Some(doc.posted_ts),
            Number::CreatedTs => Some(doc.created_ts),
        }
    }
}

/// One condition on a job, as the engine evaluates it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Atom {
    /// The job holds this value of the facet (folded for a free-text facet).
    Value(Facet, String),
    /// The job holds some value of the facet.
    Present(Facet),
    /// `visa_sponsorship` is known and equal.
    Visa(bool),
    /// The value is present and at least this.
    AtLeast(Number, i64),
    /// The value is present and at most this.
    AtMost(Number, i64),
}

/// An atom or its negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Literal {
    atom: AtomId,
    negated: bool,
}

/// The canonical form of a query: what decides its matches, and nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Canonical {
    /// OR-groups to AND, each sorted, the list sorted; no duplicates.
    groups: Vec<Vec<Literal>>,
    /// Text rules (every one must match), sorted; empty: no text.
    rules: Vec<RuleId>,
    /// Searched fields (a mask over [`QField::ALL`]); 0 without text.
    fields: u8,
}

/// A distinct query, ready to evaluate.
#[derive(Debug)]
struct Compiled {
    /// The groups in evaluation order: the filed group first, then by estimated pass rate.
    groups: Vec<Vec<Literal>>,
    rules: Vec<RuleId>,
    fields: u8,
}

/// Subscriptions grouped into distinct queries and filed by a required value; see the module
/// documentation.
pub struct Percolator<K> {
    subscriptions: usize,
    atoms: Vec<Atom>,
    atom_ids: FxHashMap<Atom, AtomId>,
    /// Value atoms by facet parameter and value (folded for a free-text facet), for looking a
    /// job's values up; and whether the facet is free-text.
    values: FxHashMap<&'static str, (bool, FxHashMap<String, AtomId>)>,
    /// Text rules: the word and whether it is last (the rule's automata are built per batch
    /// and dropped with it: kept, thousands of them would hold hundreds of megabytes).
    rules: Vec<(String, bool)>,
    rule_ids: FxHashMap<(String, bool), RuleId>,
    queries: Vec<Compiled>,
    /// Per query, its subscriptions' keys.
    keys: Vec<Vec<K>>,
    /// Per atom, the queries filed under it.
    filed: Vec<Vec<QueryId>>,
    /// Queries without a required value: visited by every batch.
    scan: Vec<QueryId>,
}

impl<K> std::fmt::Debug for Percolator<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Percolator")
            .field("subscriptions", &self.subscriptions)
            .field("distinct_queries", &self.queries.len())
            .field("scan", &self.scan.len())
            .finish_non_exhaustive()
    }
}

impl<K: Copy + Eq + Hash + Ord> Percolator<K> {
    /// Groups and files `subscriptions`; `now` anchors their within-days windows, as
    /// [`JobQuery::filter`]'s `now` does for a search.
    pub fn new(subscriptions: impl IntoIterator<Item = (K, JobQuery)>, now: DateTime<Utc>) -> Self {
        let mut p = Percolator {
            subscriptions: 0,
            atoms: Vec::new(),
            atom_ids: FxHashMap::default(),
            values: FxHashMap::default(),
            rules: Vec::new(),
            rule_ids: FxHashMap::default(),
            queries: Vec::new(),
            keys: Vec::new(),
            filed: Vec::new(),
            scan: Vec::new(),
        };
        let mut analyzer = schema::analyzer();
        let mut distinct: FxHashMap<Canonical, QueryId> = FxHashMap::default();
        for (key, query) in subscriptions {
            p.subscriptions += 1;
            let canonical = p.canonical(&query, now, &mut analyzer);
            let id = match distinct.get(&canonical) {
                Some(&id) => id,
                None => {
                    let id = p.file(canonical.clone());
                    distinct.insert(canonical, id);
                    id
                }
            };
            p.keys[id].push(key);
        }
        p
    }

    /// How many subscriptions were given.
    pub fn len(&self) -> usize {
        self.subscriptions
    }

    /// Whether no subscription was given.
    pub fn is_empty(&self) -> bool {
        self.subscriptions == 0
    }

    /// How many distinct queries the subscriptions hold (one evaluation each per batch).
    pub fn distinct_queries(&self) -> usize {
        self.queries.len()
    }

    /// Every (subscription key, index in `docs`) pair that matches, sorted by key, then
    /// index; each pair once.
    pub fn matches(&self, docs: &[SearchDocument]) -> Vec<(K, usize)> {
        // Per query, its jobs chunk by chunk, in order.
        let mut found: Vec<Vec<Hits>> = (0..self.queries.len()).map(|_| Vec::new()).collect();
        for (i, chunk) in docs.chunks(CHUNK).enumerate() {
            self.chunk(chunk, i * CHUNK, &mut found);
        }
        let mut subs: Vec<(K, QueryId)> = self
            .keys
            .iter()
            .enumerate()
            .filter(|(q, _)| !found[*q].is_empty())
            .flat_map(|(q, keys)| keys.iter().map(move |k| (*k, q)))
            .collect();
        subs.sort_unstable();
        let total = subs.iter().map(|(_, q)| found[*q].iter().map(Hits::len).sum::<usize>()).sum();
        let mut out = Vec::with_capacity(total);
        for run in subs.chunk_by(|a, b| a.0 == b.0) {
            match run {
                [(key, q)] => {
                    for hits in &found[*q] {
                        match hits {
                            Hits::Sparse(list) => out.extend(list.iter().map(|d| (*key, *d))),
                            Hits::Dense(base, set, _) => {
                                out.extend(set.ones().map(|d| (*key, base + d)));
                            }
                        }
                    }
                }
                // A key given with several queries (or twice): the union of their jobs.
                [(key, _), ..] => {
                    let mut docs = Vec::new();
                    for (_, q) in run {
                        for hits in &found[*q] {
                            hits.each(|d| docs.push(d));
                        }
                    }
                    docs.sort_unstable();
                    docs.dedup();
                    out.extend(docs.into_iter().map(|d| (*key, d)));
                }
                [] => {}
            }
        }
        out
    }

    fn atom(&mut self, atom: Atom) -> AtomId {
        if let Some(&id) = self.atom_ids.get(&atom) {
            return id;
        }
        let id = self.atoms.len();
        if let Atom::Value(facet, value) = &atom {
            let free = schema::FREE_TEXT.contains(facet);
            let (_, ids) =
                self.values.entry(facet.param()).or_insert_with(|| (free, FxHashMap::default()));
            ids.insert(value.clone(), id);
        }
        self.atoms.push(atom.clone());
        self.atom_ids.insert(atom, id);
        self.filed.push(Vec::new());
        id
    }

    fn rule(&mut self, word: &str, last: bool) -> RuleId {
        let key = (word.to_owned(), last);
        if let Some(&id) = self.rule_ids.get(&key) {
            return id;
        }
        let id = self.rules.len();
        self.rules.push((word.to_owned(), last));
        self.rule_ids.insert(key, id);
        id
    }

    /// The literal of one facet value (`negated`: the `_exclude` form), as the engine's
    /// `value_query` reads it.
    fn literal(&mut self, facet: Facet, value: &FacetValue, negated: bool) -> Literal {
        match value {
            FacetValue::Text(v) => {
                let v = if schema::FREE_TEXT.contains(&facet) { fold::fold(v) } else { v.clone() };
                Literal { atom: self.atom(Atom::Value(facet, v)), negated }
            }
            // "IS EMPTY" is "holds no value".
            FacetValue::Empty => {
                Literal { atom: self.atom(Atom::Present(facet)), negated: !negated }
            }
            // The flag is true or absent: `false` is "not true".
            FacetValue::Flag(b) => Literal {
                atom: self.atom(Atom::Value(facet, "true".into())),
                negated: negated == *b,
            },
        }
    }

    /// The canonical form of `q` (the engine's `filter_groups` and text words).
    fn canonical(
        &mut self,
        q: &JobQuery,
        now: DateTime<Utc>,
        analyzer: &mut TextAnalyzer,
    ) -> Canonical {
        let mut groups: Vec<Vec<Literal>> = Vec::new();
        let mut geography = Vec::new();
        for (facet, sel) in q.facets.iter().filter(|(f, _)| f.is_geography()) {
            for v in &sel.include {
                geography.push(self.literal(*facet, v, false));
            }
        }
        if !geography.is_empty() {
            groups.push(geography);
        }
        for (facet, sel) in &q.facets {
            if !facet.is_geography() && !sel.include.is_empty() {
                let terms: Vec<Literal> =
                    sel.include.iter().map(|v| self.literal(*facet, v, false)).collect();
                match sel.mode {
                    Mode::Or => groups.push(terms),
                    Mode::And => groups.extend(terms.into_iter().map(|t| vec![t])),
                }
            }
            for v in &sel.exclude {
                let literal = self.literal(*facet, v, true);
                groups.push(vec![literal]);
            }
        }
        let s = &q.scalars;
        let mut scalar = |p: &mut Self, atom: Atom| {
            groups.push(vec![Literal { atom: p.atom(atom), negated: false }]);
        };
        if let Some(b) = s.visa_sponsorship {
            scalar(self, Atom::Visa(b));
        }
        let bounds = [
            (Number::SalaryMin, s.salary_min, true),
            (Number::SalaryMax, s.salary_max, false),
            (Number::ExperienceYearsMin, s.experience_years_min, true),
            (Number::ExperienceYearsMin, s.experience_years_max, false),
        ];
        let now = now.timestamp();
        let since = |d: Option<u32>| d.map(|d| now - i64::from(d) * DAY);
        let windows = [
            (Number::PostedTs, since(s.posted_within_days), true),
            (Number::CreatedTs, since(s.open_within_days), true),
        ];
        for (number, n, lower) in bounds.into_iter().chain(windows) {
            if let Some(n) = n {
                scalar(
                    self,
                    if lower { Atom::AtLeast(number, n) } else { Atom::AtMost(number, n) },
                );
            }
        }
        for group in &mut groups {
            group.sort_unstable();
            group.dedup();
        }
        groups.sort_unstable();
        groups.dedup();

        let words = q.q.as_deref().map(|text| translate::words(analyzer, text)).unwrap_or_default();
        let last = words.len().saturating_sub(1);
        let mut rules: Vec<RuleId> =
            words.iter().enumerate().map(|(i, w)| self.rule(w, i == last)).collect();
        rules.sort_unstable();
        rules.dedup();
        let fields = if rules.is_empty() {
            0
        } else if q.q_fields.is_empty() {
            ALL_FIELDS
        } else {
            q.q_fields.iter().fold(0, |mask, f| mask | field_bit(*f))
        };
        Canonical { groups, rules, fields }
    }

    /// Adds a distinct query: files it under its most selective required group (or in the
    /// scan list) and orders its groups for evaluation.
    fn file(&mut self, canonical: Canonical) -> QueryId {
        let id = self.queries.len();
        let Canonical { mut groups, rules, fields } = canonical;
        let filed = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.iter().all(|l| !l.negated && self.is_value(l.atom)))
            .map(|(i, g)| (i, self.pass_rate(g)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i);
        match filed {
            Some(i) => {
                let group = groups.remove(i);
                for l in &group {
                    self.filed[l.atom].push(id);
                }
                groups.sort_by(|a, b| self.pass_rate(a).total_cmp(&self.pass_rate(b)));
                groups.insert(0, group);
            }
            None => {
                groups.sort_by(|a, b| self.pass_rate(a).total_cmp(&self.pass_rate(b)));
                self.scan.push(id);
            }
        }
        self.queries.push(Compiled { groups, rules, fields });
        self.keys.push(Vec::new());
        id
    }

    fn is_value(&self, atom: AtomId) -> bool {
        matches!(self.atoms.get(atom), Some(Atom::Value(..)))
    }

    /// The estimated share of jobs passing an OR-group (only ever used to order work).
    fn pass_rate(&self, group: &[Literal]) -> f64 {
        let rate = |l: &Literal| {
            let p = match self.atoms.get(l.atom) {
                Some(Atom::Value(facet, _)) => value_share(*facet),
                Some(Atom::Present(_)) => 0.8,
                Some(Atom::Visa(_)) => 0.2,
                Some(Atom::AtLeast(..) | Atom::AtMost(..)) | None => 0.5,
            };
            if l.negated { 1.0 - p } else { p }
        };
        group.iter().map(rate).sum::<f64>().min(1.0)
    }

    /// Adds the matches of `docs` (the jobs `base..base + docs.len()` of the batch) to each
    /// query's list in `found`.
    fn chunk(&self, docs: &[SearchDocument], base: usize, found: &mut [Vec<Hits>]) {
        let mut batch = Batch::new(self, docs);
        let mut visit = FixedBitSet::with_capacity(self.queries.len());
        for &atom in &batch.present {
            for &q in &self.filed[atom] {
                visit.insert(q);
            }
        }
        for &q in &self.scan {
            visit.insert(q);
        }
        batch.text_fields = visit.ones().fold(0, |mask, q| mask | self.queries[q].fields);
        let mut acc = FixedBitSet::with_capacity(docs.len());
        let mut scratch = FixedBitSet::with_capacity(docs.len());
        for q in visit.ones() {
            if batch.eval(self, &self.queries[q], &mut acc, &mut scratch)
                && let Some(list) = found.get_mut(q)
            {
                list.push(Hits::of(&acc, base));
            }
        }
    }
}

/// The jobs one query matched in one chunk: a list when they are few, the chunk's bitset
/// otherwise (the smaller of the two).
enum Hits {
    /// Their indices in the batch.
    Sparse(Vec<usize>),
    /// The chunk's first index, which of its jobs, and how many.
    Dense(usize, FixedBitSet, usize),
}

impl Hits {
    fn of(set: &FixedBitSet, base: usize) -> Self {
        let count = set.count_ones(..);
        if count.saturating_mul(usize::BITS as usize) < set.len() {
            Hits::Sparse(set.ones().map(|d| base + d).collect())
        } else {
            Hits::Dense(base, set.clone(), count)
        }
    }

    fn len(&self) -> usize {
        match self {
            Hits::Sparse(list) => list.len(),
            Hits::Dense(_, _, count) => *count,
        }
    }

    /// Calls `f` with each index, in order.
    fn each(&self, mut f: impl FnMut(usize)) {
        match self {
            Hits::Sparse(list) => list.iter().for_each(|d| f(*d)),
            Hits::Dense(base, set, _) => set.ones().for_each(|d| f(base + d)),
        }
    }
}

/// The estimated share of jobs holding one given value of `facet`: one over the size of a
/// closed vocabulary, a guess for an open facet.
fn value_share(facet: Facet) -> f64 {
    match facet {
        Facet::RequiresClearance => 0.05,
        Facet::Source => 0.1,
        Facet::CompanySlug => 0.000_1,
        Facet::Countries => 0.03,
        Facet::Cities => 0.003,
        Facet::SalaryCurrency => 0.1,
        Facet::Skills => 0.01,
        Facet::Collections => 0.02,
        Facet::PostingLanguage => 0.3,
        closed => closed.closed_values().map_or(0.1, |v| 1.0 / v.len().max(1) as f64),
    }
}

/// The bit of `field` in a field mask.
fn field_bit(field: QField) -> u8 {
    QField::ALL.iter().position(|f| *f == field).map_or(0, |i| 1 << i)
}

/// The text of `field` in `doc`.
fn field_text(doc: &SearchDocument, field: QField) -> &str {
    match field {
        QField::Title => &doc.title,
        QField::Company => &doc.company,
        QField::Description => &doc.description,
        QField::Location => &doc.location,
    }
}

/// A free-text facet value as the engine's folded field holds it.
fn folded(value: &str) -> Cow<'_, str> {
    if value.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        Cow::Borrowed(value)
    } else {
        Cow::Owned(fold::fold(value))
    }
}

/// The number of searchable fields.
const FIELDS: usize = QField::ALL.len();

/// The dictionary of a chunk's searched fields: every word (as the analyzer splits them) and,
/// per field, the jobs holding it there. One dictionary for all fields, so a rule is looked up
/// once, not once per field.
struct Dictionary {
    /// Every word with the position of its jobs in `jobs`, sorted by word.
    words: Vec<(String, u32)>,
    /// Per word, its jobs per field (by position in [`QField::ALL`]), in order of first sight.
    jobs: Vec<[Vec<u32>; FIELDS]>,
    /// Word → position in `jobs` (`None` only if the automaton could not be built, which
    /// sorted, distinct words rule out; every word is then checked one by one).
    fst: Option<Map<Vec<u8>>>,
}

impl Dictionary {
    /// The dictionary of the fields in `mask` (over [`QField::ALL`]).
    fn build(docs: &[SearchDocument], mask: u8, analyzer: &mut TextAnalyzer) -> Self {
        let mut ids: FxHashMap<String, u32> = FxHashMap::default();
        let mut jobs: Vec<[Vec<u32>; FIELDS]> = Vec::new();
        for (f, field) in QField::ALL.iter().enumerate().filter(|(f, _)| mask & (1 << f) != 0) {
            for (d, doc) in docs.iter().enumerate() {
                let d = u32::try_from(d).unwrap_or(u32::MAX);
                let mut stream = analyzer.token_stream(field_text(doc, *field));
                stream.process(&mut |t| {
                    let id = match ids.get(t.text.as_str()) {
                        Some(&id) => id,
                        None => {
                            let id = u32::try_from(jobs.len()).unwrap_or(u32::MAX);
                            ids.insert(t.text.clone(), id);
                            jobs.push(Default::default());
                            id
                        }
                    };
                    if let Some(lists) = jobs.get_mut(id as usize)
                        && lists[f].last() != Some(&d)
                    {
                        lists[f].push(d);
                    }
                });
            }
        }
        let mut words: Vec<(String, u32)> = ids.into_iter().collect();
        words.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let fst = Map::from_iter(words.iter().map(|(w, id)| (w.as_bytes(), u64::from(*id)))).ok();
        Self { words, jobs, fst }
    }

    /// The jobs with a word `rule` accepts, added to `sets` (per field).
    fn matching(&self, rule: &Rule, sets: &mut [FixedBitSet]) {
        let mut add = |i: u64| {
            if let Some(lists) = usize::try_from(i).ok().and_then(|i| self.jobs.get(i)) {
                for (list, set) in lists.iter().zip(sets.iter_mut()) {
                    for &d in list {
                        set.insert(d as usize);
                    }
                }
            }
        };
        let Some(fst) = &self.fst else {
            for (w, id) in &self.words {
                if rule.matches(w.as_bytes()) {
                    add(u64::from(*id));
                }
            }
            return;
        };
        let word = rule.word().as_bytes();
        if let Some(i) = fst.get(word) {
            add(i);
        }
        if rule.last() {
            let mut range = fst.range().ge(word);
            if let Some(end) = prefix_end(word) {
                range = range.lt(end);
            }
            let mut stream = range.into_stream();
            while let Some((_, i)) = stream.next() {
                add(i);
            }
        }
        // The rule's own automaton: every word it yields matches.
        if let Some(automaton) = rule.typo_automaton() {
            let mut stream = fst.search(automaton).into_stream();
            while let Some((_, i)) = stream.next() {
                add(i);
            }
        }
    }
}

/// The sets of one chunk's jobs, worked out as queries need them.
struct Batch<'a> {
    docs: &'a [SearchDocument],
    /// Per atom: its jobs (`None`: none, or not worked out yet; see `known`).
    bits: Vec<Option<FixedBitSet>>,
    /// The atoms whose `bits` are worked out.
    known: FixedBitSet,
    /// Value atoms some job holds.
    present: Vec<AtomId>,
    /// Fields some visited query searches (a mask over [`QField::ALL`]).
    text_fields: u8,
    /// Per rule, the jobs it matches in each field of `text_fields` (by position in
    /// [`QField::ALL`]; empty for the others).
    text: FxHashMap<RuleId, Vec<FixedBitSet>>,
    /// The dictionary of `text_fields`, once a rule needed it.
    dictionary: Option<Dictionary>,
    analyzer: TextAnalyzer,
    empty: FixedBitSet,
}

impl<'a> Batch<'a> {
    /// The chunk's value sets (one pass over its jobs).
    fn new<K>(p: &Percolator<K>, docs: &'a [SearchDocument]) -> Self {
        let n = docs.len();
        let mut bits: Vec<Option<FixedBitSet>> = vec![None; p.atoms.len()];
        let mut known = FixedBitSet::with_capacity(p.atoms.len());
        let mut present = Vec::new();
        for (d, doc) in docs.iter().enumerate() {
            for (param, values) in &doc.facets {
                let Some((free, ids)) = p.values.get(param.as_str()) else { continue };
                for v in values {
                    let key = if *free { folded(v) } else { Cow::Borrowed(v.as_str()) };
                    if let Some(&id) = ids.get(key.as_ref()) {
                        let set = bits[id].get_or_insert_with(|| {
                            present.push(id);
                            FixedBitSet::with_capacity(n)
                        });
                        set.insert(d);
                    }
                }
            }
        }
        for (_, ids) in p.values.values() {
            for &id in ids.values() {
                known.insert(id);
            }
        }
        Self {
            docs,
            bits,
            known,
            present,
            text_fields: 0,
            text: FxHashMap::default(),
            dictionary: None,
            analyzer: schema::analyzer(),
            empty: FixedBitSet::with_capacity(n),
        }
    }

    /// The jobs of `atom`.
    fn atom<K>(&mut self, p: &Percolator<K>, atom: AtomId) -> &FixedBitSet {
        if !self.known.put(atom) {
            let holds = |doc: &SearchDocument| match p.atoms.get(atom) {
                Some(Atom::Present(facet)) => !doc.values(*facet).is_empty(),
                Some(Atom::Visa(b)) => doc.visa_sponsorship == Some(*b),
                Some(Atom::AtLeast(n, bound)) => n.of(doc).is_some_and(|v| v >= *bound),
                Some(Atom::AtMost(n, bound)) => n.of(doc).is_some_and(|v| v <= *bound),
                // Worked out with the chunk.
                Some(Atom::Value(..)) | None => false,
            };
            let mut set = FixedBitSet::with_capacity(self.docs.len());
            for (d, doc) in self.docs.iter().enumerate() {
                if holds(doc) {
                    set.insert(d);
                }
            }
            if let Some(slot) = self.bits.get_mut(atom) {
                *slot = (!set.is_clear()).then_some(set);
            }
        }
        self.bits.get(atom).and_then(Option::as_ref).unwrap_or(&self.empty)
    }

    /// The jobs with a word `rule` accepts, per field (by position in [`QField::ALL`]; empty
    /// for a field outside `text_fields`). The rule's automaton is built for this and dropped.
    fn rule<K>(&mut self, p: &Percolator<K>, rule: RuleId) -> &[FixedBitSet] {
        if !self.text.contains_key(&rule)
            && let Some((word, last)) = p.rules.get(rule)
        {
            let (docs, mask, analyzer) = (self.docs, self.text_fields, &mut self.analyzer);
            let dictionary =
                self.dictionary.get_or_insert_with(|| Dictionary::build(docs, mask, analyzer));
            let mut sets = vec![FixedBitSet::with_capacity(docs.len()); FIELDS];
            dictionary.matching(&Rule::new(word, *last), &mut sets);
            self.text.insert(rule, sets);
        }
        self.text.get(&rule).map_or(&[], Vec::as_slice)
    }

    /// Leaves in `acc` the jobs `q` matches; `false` when there are none.
    fn eval<K>(
        &mut self,
        p: &Percolator<K>,
        q: &Compiled,
        acc: &mut FixedBitSet,
        scratch: &mut FixedBitSet,
    ) -> bool {
        acc.insert_range(..);
        for group in &q.groups {
            if let [only] = group.as_slice() {
                let set = self.atom(p, only.atom);
                if only.negated {
                    acc.difference_with(set);
                } else {
                    acc.intersect_with(set);
                }
            } else {
                scratch.clear();
                for l in group {
                    let set = self.atom(p, l.atom);
                    if l.negated {
                        let mut not = set.clone();
                        not.toggle_range(..);
                        scratch.union_with(&not);
                    } else {
                        scratch.union_with(set);
                    }
                }
                acc.intersect_with(scratch);
            }
            if acc.is_clear() {
                return false;
            }
        }
        for &rule in &q.rules {
            scratch.clear();
            let sets = self.rule(p, rule);
            for (_, set) in sets.iter().enumerate().filter(|(i, _)| q.fields & (1 << i) != 0) {
                scratch.union_with(set);
            }
            acc.intersect_with(scratch);
            if acc.is_clear() {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use chrono::TimeZone;

    use super::*;
    use crate::Endpoint;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
    }

    fn parse(qs: &str) -> JobQuery {
        JobQuery::from_query_str(qs, Endpoint::Search).unwrap()
    }

    fn percolator(queries: &[&str]) -> Percolator<usize> {
        Percolator::new(queries.iter().enumerate().map(|(i, qs)| (i, parse(qs))), now())
    }

    fn doc(id: i64, title: &str, skills: &[&str]) -> SearchDocument {
        let mut facets = std::collections::BTreeMap::new();
        if !skills.is_empty() {
            facets.insert("skills".to_owned(), skills.iter().map(|s| (*s).to_owned()).collect());
        }
        facets.insert("is_tech".to_owned(), vec!["tech".to_owned()]);
        SearchDocument {
            id,
            public_slug: format!("job-{id}"),
            external_id: id.to_string(),
            title: title.into(),
            company: "Acme".into(),
            company_slug: "acme".into(),
            location: "Berlin".into(),
            description: "plain text".into(),
            url: String::new(),
            facets,
            posted_ts: now().timestamp() - 86_400,
            created_ts: now().timestamp() - 86_400,
            updated_ts: now().timestamp(),
            salary_min: None,
            salary_max: None,
            experience_years_min: None,
            visa_sponsorship: None,
            view_count: 0,
        }
    }

    /// The atom of one plain value.
    fn value(p: &Percolator<usize>, facet: Facet, v: &str) -> AtomId {
        p.atom_ids[&Atom::Value(facet, v.to_owned())]
    }

    // scenario: Equal saved searches are evaluated once
    #[test]
    fn equal_canonical_queries_share_one_evaluation() {
        let p = percolator(&[
            "skills=go,rust",
            // Value order and case (a free-text facet), sort, page, `q_fields` without `q`,
            // `_mode` over one value, ignored parameters: none of these change the matches.
            "skills=RUST&skills=go&sort=created_at&limit=5&offset=20&q_fields=title&bogus=1",
            "skills=rust,go,rust",
            "q=Rust++Engineer",
            "q=rust+engineer&q_fields=location,title,company,description",
            "q=rust+engineer&sort=posted_at",
            "seniority=senior&seniority_mode=and",
            "seniority=senior",
        ]);
        assert_eq!((p.len(), p.distinct_queries()), (8, 3));
        let p = percolator(&[
            "skills=go,rust&skills_mode=and",
            "skills=go,rust",
            // The last word may be a prefix: the word order counts.
            "q=engineer+rust",
            "q=rust+engineer",
            "q=rust+engineer&q_fields=title",
            // The grammar spells a currency one way.
            "salary_currency=eur",
            "salary_currency=EUR",
            "posted_within_days=3",
            "posted_within_days=4",
        ]);
        assert_eq!((p.len(), p.distinct_queries()), (9, 8));
    }

    #[test]
    fn queries_are_filed_under_their_most_selective_required_group() {
        let p = percolator(&[
            "is_tech=tech&skills=rust",
            "is_tech=tech&work_mode=remote",
            "countries=de&regions=eu&company_slug=acme",
            // No required value: exclusions, scalars, `regions=none`, text, nothing.
            "skills_exclude=go&salary_min=10",
            "regions=none",
            "regions=none,eu",
            "requires_clearance=false",
            "q=rust",
            "",
        ]);
        assert_eq!(p.filed[value(&p, Facet::Skills, "rust")], vec![0]);
        assert!(p.filed[value(&p, Facet::IsTech, "tech")].is_empty());
        assert_eq!(p.filed[value(&p, Facet::WorkMode, "remote")], vec![1]);
        assert_eq!(p.filed[value(&p, Facet::CompanySlug, "acme")], vec![2]);
        assert!(p.filed[value(&p, Facet::Countries, "de")].is_empty());
        assert_eq!(p.scan, vec![3, 4, 5, 6, 7, 8]);
        // The filed group is evaluated first.
        let first = &p.queries[0].groups[0];
        assert_eq!(first, &[Literal { atom: value(&p, Facet::Skills, "rust"), negated: false }]);
    }

    // scenario: An unfiltered subscription
    #[test]
    fn an_unfiltered_query_matches_every_job() {
        let docs = [doc(1, "Rust Engineer", &["rust"]), doc(2, "Designer", &[])];
        let p = percolator(&["", "q=%21%21", "skills=rust", "q=enginer", "skills_exclude=rust"]);
        assert_eq!(p.matches(&docs), vec![(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (3, 0), (4, 1)]);
        assert!(p.matches(&[]).is_empty());
        let none: Percolator<usize> = Percolator::new(Vec::new(), now());
        assert!(none.is_empty());
        assert!(none.matches(&docs).is_empty());
    }

    #[test]
    fn a_batch_visits_only_the_queries_filed_under_its_values() {
        let p = percolator(&["skills=rust&q=zzzz", "skills=go", "salary_min=5"]);
        let docs = [doc(1, "Rust", &["rust"])];
        let batch = Batch::new(&p, &docs);
        let visited: Vec<QueryId> =
            batch.present.iter().flat_map(|a| p.filed[*a].clone()).collect();
        assert_eq!((visited, p.scan.clone()), (vec![0], vec![2]));
        assert!(p.matches(&docs).is_empty());
    }

    #[test]
    fn large_batches_are_evaluated_in_chunks_with_their_own_indices() {
        let mut docs: Vec<SearchDocument> =
            (0..(CHUNK as i64 + 10)).map(|i| doc(i, "Designer", &[])).collect();
        docs[3] = doc(3, "Rust Engineer", &["rust"]);
        docs[CHUNK + 5] = doc(CHUNK as i64 + 5, "Rust Engineer", &["rust"]);
        let p = percolator(&["skills=rust", "q=rust"]);
        assert_eq!(p.matches(&docs), vec![(0, 3), (0, CHUNK + 5), (1, 3), (1, CHUNK + 5)]);
        let all = percolator(&[""]).matches(&docs);
        assert_eq!(all.len(), docs.len());
        assert_eq!(all.last(), Some(&(0, docs.len() - 1)));
    }

    /// The notify engine percolates on a worker task.
    #[test]
    fn a_percolator_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>(_: &T) {}
        shared(&percolator(&["q=rust"]));
    }

    #[test]
    fn keys_of_one_query_each_get_its_matches_once() {
        let docs = [doc(1, "Rust Engineer", &["rust", "go"])];
        let subs = [(9, "skills=rust,go"), (4, "skills=go,rust"), (9, "skills=go")];
        let p = Percolator::new(subs.map(|(k, qs)| (k, parse(qs))), now());
        assert_eq!(p.distinct_queries(), 2);
        assert_eq!(p.matches(&docs), vec![(4, 0), (9, 0)]);
    }
}
