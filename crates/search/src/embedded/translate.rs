//! A [`JobQuery`] translated into tantivy queries: the text's words and the filter, apart
//! ([`Parts`]: a relevance-ordered search scores the words itself, `text`), or as one query, the
//! text match ANDed with the filter ([`Parts::into_query`]).
//!
//! **Text.** `q` is split with the index's own analyzer. Every word must match in at least one
//! searched field (`q_fields`, or all four). Per field, a word matches exactly (BM25, weighted
//! title 8 > company 4 > description 2 > location 1); the last word also matches as a prefix,
//! and a word of 5 or more characters also matches within one edit, of 9 or more within two
//! (Meilisearch's default typo thresholds; Levenshtein, a transposition counting one; for the
//! last word, edits of a prefix): the word's `derivations::Rule`. The derived words are looked up in the term dictionaries
//! first (`derivations`) and each scored as a term, below exact matches: prefix ×0.5, typo
//! ×0.3, typo of a prefix ×0.2.
//!
//! **Filter.** Scored as a constant (it selects, never ranks). The same AND of OR-groups
//! [`JobQuery::filter`] renders for Meilisearch, built from the typed selections: the
//! geography OR-group, per facet one OR-group (or one group per value under `_mode=and`), one
//! group per excluded value, then the scalar bounds (`bound`: read from the decoded values).
//! `regions=none` is "has no region" (`IS EMPTY`), its exclusion "has one". A free-text value
//! is one term of its facet's folded field (`fold`): no regex, whatever its length.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use tantivy::Searcher;
use tantivy::Term;
use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, ConstScoreQuery, ExistsQuery, FuzzyTermQuery, Occur, Query,
    TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::TextAnalyzer;

use crate::JobQuery;
use crate::embedded::bound::BoundQuery;
use crate::embedded::collect::Cancel;
use crate::embedded::columns::ColumnCache;
use crate::embedded::derivations::{self, Derivation, Rule};
use crate::embedded::fold::fold;
use crate::embedded::schema::{self, Fields};
use crate::facet::{Facet, FacetValue, Mode};
use crate::query::QField;

/// Seconds per day.
const DAY: i64 = 86_400;

type TResult<T> = Result<T, tantivy::TantivyError>;

/// Ranking weight of a searchable field.
fn weight(field: QField) -> f32 {
    match field {
        QField::Title => 8.0,
        QField::Company => 4.0,
        QField::Description => 2.0,
        QField::Location => 1.0,
    }
}

/// The words of `q`, as the index analyzed them.
pub(crate) fn words(analyzer: &mut TextAnalyzer, q: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stream = analyzer.token_stream(q);
    stream.process(&mut |t| out.push(t.text.clone()));
    out
}

/// Relative weight of a derived word against the query word itself.
fn derivation_boost(kind: Derivation) -> f32 {
    match kind {
        Derivation::Exact => 1.0,
        Derivation::Prefix => 0.5,
        Derivation::Typo => 0.3,
        Derivation::TypoPrefix => 0.2,
    }
}

/// One way a query word matches in one field.
pub(crate) enum Alternative {
    /// One dictionary word: its BM25 score times `boost`.
    Term { term: Term, boost: f32 },
    /// A kind of derivation with too many words to list: an automaton query, already boosted
    /// (each match scores its boost, a constant).
    Automaton(Box<dyn Query>),
}

impl Alternative {
    /// The alternative as one scored query.
    fn into_query(self) -> Box<dyn Query> {
        match self {
            Alternative::Term { term, boost } => {
                let scored = TermQuery::new(term, IndexRecordOption::WithFreqs);
                Box::new(BoostQuery::new(Box::new(scored), boost))
            }
            Alternative::Automaton(query) => query,
        }
    }
}

/// One query word in one field: a scored term per derived word, and for a kind with too many
/// words to list, one constant-score automaton query.
fn word_alternatives(
    searcher: &Searcher,
    field: Field,
    rule: &Rule,
    weight: f32,
    out: &mut Vec<Alternative>,
) -> TResult<()> {
    let (typos, last) = (rule.typos(), rule.last());
    let derived = derivations::derive(searcher, field, rule)?;
    for (term, kind) in derived.terms {
        out.push(Alternative::Term { term, boost: weight * derivation_boost(kind) });
    }
    let term = Term::from_field_text(field, rule.word());
    for kind in derived.overflow {
        let automaton = match kind {
            Derivation::Prefix => FuzzyTermQuery::new_prefix(term.clone(), 0, true),
            Derivation::Typo => FuzzyTermQuery::new(term.clone(), typos, true),
            Derivation::TypoPrefix if last => FuzzyTermQuery::new_prefix(term.clone(), typos, true),
            Derivation::TypoPrefix | Derivation::Exact => continue,
        };
        let boosted = BoostQuery::new(Box::new(automaton), weight * derivation_boost(kind));
        out.push(Alternative::Automaton(Box::new(boosted)));
    }
    Ok(())
}

/// A query's text and filter, apart.
pub(crate) struct Parts {
    /// Per query word, in query order, its alternatives: each searched field's derived words,
    /// scored. Empty when there is no text (or no word in it).
    pub words: Vec<Vec<Alternative>>,
    /// The filter: an AND of OR-groups of selectors (empty: no filter).
    pub filter: Vec<Vec<Selector>>,
}

/// One way a document passes a filter group.
pub(crate) enum Selector {
    /// It holds this term: a facet value, a flag.
    Term(Term),
    /// It matches this query: a range, "has no value", a negation.
    Query(Box<dyn Query>),
}

impl Selector {
    /// The selector as one query.
    pub(crate) fn into_query(self) -> Box<dyn Query> {
        match self {
            Selector::Term(term) => Box::new(TermQuery::new(term, IndexRecordOption::Basic)),
            Selector::Query(query) => query,
        }
    }
}

/// The AND of `groups`, each an OR of its selectors.
pub(crate) fn and_of_ors(groups: Vec<Vec<Selector>>) -> Box<dyn Query> {
    let all = groups
        .into_iter()
        .map(|group| {
            let any = group.into_iter().map(|s| (Occur::Should, s.into_query())).collect();
            (Occur::Must, Box::new(BooleanQuery::new(any)) as Box<dyn Query>)
        })
        .collect();
    Box::new(BooleanQuery::new(all))
}

impl Parts {
    /// The whole query: every word (an OR of its alternatives) AND the filter, scored as a
    /// constant; everything when both are empty.
    pub(crate) fn into_query(self) -> Box<dyn Query> {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = self
            .words
            .into_iter()
            .map(|alternatives| {
                let any =
                    alternatives.into_iter().map(|a| (Occur::Should, a.into_query())).collect();
                (Occur::Must, Box::new(BooleanQuery::new(any)) as Box<dyn Query>)
            })
            .collect();
        if !self.filter.is_empty() {
            // The filter selects; it must not score (a rarer value would otherwise rank higher).
            let filter = ConstScoreQuery::new(and_of_ors(self.filter), 0.0);
            clauses.push((Occur::Must, Box::new(filter)));
        }
        if clauses.is_empty() {
            return Box::new(AllQuery);
        }
        Box::new(BooleanQuery::new(clauses))
    }
}

/// The query's words and filter.
pub(crate) fn parts(
    fields: &Fields,
    columns: &Arc<ColumnCache>,
    searcher: &Searcher,
    analyzer: &mut TextAnalyzer,
    q: &JobQuery,
    now: DateTime<Utc>,
    cancel: &Cancel,
) -> TResult<Parts> {
    let mut words_out: Vec<Vec<Alternative>> = Vec::new();
    if let Some(text) = q.q.as_deref() {
        let searched: &[QField] = if q.q_fields.is_empty() { QField::ALL } else { &q.q_fields };
        let words = words(analyzer, text);
        let last = words.len().saturating_sub(1);
        for (i, word) in words.iter().enumerate() {
            cancel.check()?;
            let rule = Rule::new(word, i == last);
            let mut alternatives = Vec::new();
            for f in searched {
                let field = fields.get(f.as_str())?;
                word_alternatives(searcher, field, &rule, weight(*f), &mut alternatives)?;
            }
            words_out.push(alternatives);
        }
    }
    let filter = filter_groups(fields, columns, q, now)?;
    Ok(Parts { words: words_out, filter })
}

/// `base AND NOT inner`.
fn not(inner: Box<dyn Query>) -> Box<dyn Query> {
    Box::new(BooleanQuery::new(vec![(Occur::Must, Box::new(AllQuery)), (Occur::MustNot, inner)]))
}

/// The documents where `facet` holds `value` (or, `negated`, does not). Free-text values
/// match regardless of case, as Meilisearch (which lowercases facet values for filtering)
/// does: the folded value is looked up in the facet's folded field. Every other facet's values
/// are checked and canonical on both sides, so an exact term is the same thing.
fn value_query(
    fields: &Fields,
    facet: Facet,
    value: &FacetValue,
    negated: bool,
) -> TResult<Selector> {
    let attr = facet.param();
    let field = fields.get(attr)?;
    let positive = match value {
        FacetValue::Text(v) if schema::FREE_TEXT.contains(&facet) => {
            let folded = fields.get(&schema::folded(facet))?;
            Selector::Term(Term::from_field_text(folded, &fold(v)))
        }
        FacetValue::Text(v) => Selector::Term(Term::from_field_text(field, v)),
        // "IS EMPTY" is "has no value".
        FacetValue::Empty => {
            Selector::Query(not(Box::new(ExistsQuery::new(attr.to_owned(), false))))
        }
        // The flag is true or absent: `false` is "not true".
        FacetValue::Flag(b) => {
            let holds = Selector::Term(Term::from_field_text(field, "true"));
            if *b { holds } else { Selector::Query(not(holds.into_query())) }
        }
    };
    Ok(if negated { Selector::Query(not(positive.into_query())) } else { positive })
}

/// The filter as OR-groups to AND, in [`JobQuery::filter`]'s order.
fn filter_groups(
    fields: &Fields,
    columns: &Arc<ColumnCache>,
    q: &JobQuery,
    now: DateTime<Utc>,
) -> TResult<Vec<Vec<Selector>>> {
    let mut groups: Vec<Vec<Selector>> = Vec::new();
    let mut geography = Vec::new();
    for (facet, sel) in q.facets.iter().filter(|(f, _)| f.is_geography()) {
        for v in &sel.include {
            geography.push(value_query(fields, *facet, v, false)?);
        }
    }
    if !geography.is_empty() {
        groups.push(geography);
    }
    for (facet, sel) in &q.facets {
        if !facet.is_geography() && !sel.include.is_empty() {
            let terms = sel
                .include
                .iter()
                .map(|v| value_query(fields, *facet, v, false))
                .collect::<TResult<Vec<_>>>()?;
            match sel.mode {
                Mode::Or => groups.push(terms),
                Mode::And => groups.extend(terms.into_iter().map(|t| vec![t])),
            }
        }
        for v in &sel.exclude {
            groups.push(vec![value_query(fields, *facet, v, true)?]);
        }
    }
    let s = &q.scalars;
    if let Some(b) = s.visa_sponsorship {
        let field = fields.get(schema::VISA_SPONSORSHIP)?;
        let t = Term::from_field_text(field, if b { "true" } else { "false" });
        groups.push(vec![Selector::Term(t)]);
    }
    // `field >= n` (lower) or `field <= n`, read from the decoded values (`bound`).
    let mut push = |name: &'static str, n: Option<i64>, lower: bool| {
        if let Some(n) = n {
            let bound = BoundQuery::new(columns, name, n, lower);
            groups.push(vec![Selector::Query(Box::new(bound))]);
        }
    };
    push(schema::SALARY_MIN, s.salary_min, true);
    push(schema::SALARY_MAX, s.salary_max, false);
    push(schema::EXPERIENCE_YEARS_MIN, s.experience_years_min, true);
    push(schema::EXPERIENCE_YEARS_MIN, s.experience_years_max, false);
    let now = now.timestamp();
    let since = |d: Option<u32>| d.map(|d| now - i64::from(d) * DAY);
    push(schema::POSTED_TS, since(s.posted_within_days), true);
    push(schema::CREATED_TS, since(s.open_within_days), true);
    Ok(groups)
}
