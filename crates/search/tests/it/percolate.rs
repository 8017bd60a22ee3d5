//! The percolator against the embedded engine: random saved searches over the vocabulary and
//! values of the documents (facets in every form, scalars, text with prefixes, typos, case and
//! accents), percolated over a batch of jobs, must match exactly the jobs a search of each
//! query finds in an [`EmbeddedIndex`] holding that batch.
//!
//! The jobs are the conformance catalogue plus jobs from the engine benchmark's generator
//! (real fixture postings recombined), written in several segments.

use std::collections::{BTreeMap, BTreeSet};

use freehire_search::{
    EmbeddedIndex, Endpoint, Facet, JobQuery, Percolator, QField, SearchDocument, SearchIndex,
    SearchRequest,
};

use crate::engine::catalogue;
use crate::now;

#[allow(dead_code)]
#[path = "../../benches/engine/catalogue.rs"]
mod generated;

use generated::{Rng, Seeds, Vocabulary};

/// The jobs: the six of the conformance catalogue and `n` generated ones (ids from 100).
fn jobs(n: usize, seed: u64) -> Vec<SearchDocument> {
    let seeds = Seeds::load(Vocabulary::Fixtures, n);
    let mut rng = Rng(seed);
    let mut docs = catalogue::documents();
    docs.extend((0..n as i64).map(|i| seeds.generate(100 + i, &mut rng)));
    docs
}

/// Every hit id of `q` on `index` (page by page).
async fn engine_ids(index: &dyn SearchIndex, q: &JobQuery) -> BTreeSet<i64> {
    let mut q = q.clone();
    q.page.limit = 100;
    let mut ids = BTreeSet::new();
    for offset in (0..10_000).step_by(100) {
        q.page.offset = offset;
        let found = index.search(SearchRequest::new(&q, now())).await.unwrap();
        ids.extend(found.hits.iter().map(|h| h.id));
        if found.hits.len() < 100 {
            assert_eq!(ids.len() as u64, found.total, "{q:?}");
            break;
        }
    }
    ids
}

/// Facets drawn for filters (every one the documents carry, and some they do not).
const FACETS: &[Facet] = &[
    Facet::Source,
    Facet::CompanySlug,
    Facet::Regions,
    Facet::WorkMode,
    Facet::EmploymentType,
    Facet::Seniority,
    Facet::Category,
    Facet::Domains,
    Facet::Countries,
    Facet::Cities,
    Facet::SalaryCurrency,
    Facet::SalaryPeriod,
    Facet::Skills,
    Facet::IsTech,
    Facet::RequiresClearance,
    Facet::EnglishLevel,
    Facet::PostingLanguage,
];

/// A query-string writer.
struct Qs(url::form_urlencoded::Serializer<'static, String>);

impl Qs {
    fn push(&mut self, name: &str, value: &str) {
        self.0.append_pair(name, value);
    }
}

/// Random saved searches over the documents' own values and words.
struct Draw<'a> {
    rng: Rng,
    docs: &'a [SearchDocument],
}

impl<'a> Draw<'a> {
    fn doc(&mut self) -> &'a SearchDocument {
        &self.docs[self.rng.below(self.docs.len())]
    }

    /// A value of `facet`: mostly one a document holds, sometimes any of its vocabulary.
    fn value(&mut self, facet: Facet) -> Option<String> {
        if let Some(closed) = facet.closed_values()
            && self.rng.chance(0.3)
        {
            return Some(closed[self.rng.below(closed.len())].to_owned());
        }
        let held: Vec<String> = (0..8).flat_map(|_| self.doc().values(facet).to_vec()).collect();
        if held.is_empty() {
            return facet.closed_values().map(|c| c[self.rng.below(c.len())].to_owned());
        }
        let v = held[self.rng.below(held.len())].clone();
        Some(match self.rng.below(6) {
            // Free-text values ignore case; others are canonical or refused (then redrawn).
            0 => v.to_uppercase(),
            1 => v.to_lowercase(),
            _ => v,
        })
    }

    /// A word of a document's text, maybe cut to a prefix, given a typo, recased or accented.
    fn word(&mut self) -> String {
        let field = QField::ALL[self.rng.below(4)];
        let doc = self.doc();
        let text = match field {
            QField::Title => &doc.title,
            QField::Company => &doc.company,
            QField::Description => &doc.description,
            QField::Location => &doc.location,
        };
        let words: Vec<&str> =
            text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
        if words.is_empty() {
            return "engineer".into();
        }
        let mut chars: Vec<char> = words[self.rng.below(words.len())].chars().collect();
        let n = chars.len();
        match self.rng.below(10) {
            0 if n > 2 => chars.truncate(1 + self.rng.below(n - 1)),
            1 if n > 2 => {
                let i = self.rng.below(n - 1);
                chars.swap(i, i + 1);
            }
            2 if n > 1 => chars[self.rng.below(n)] = (b'a' + self.rng.below(26) as u8) as char,
            3 if n > 1 => {
                chars.remove(self.rng.below(n));
            }
            4 => chars.insert(self.rng.below(n + 1), (b'a' + self.rng.below(26) as u8) as char),
            5 => chars = chars.iter().flat_map(|c| c.to_uppercase()).collect(),
            6 => {
                for c in chars.iter_mut() {
                    *c = match *c {
                        'e' => 'é',
                        'a' => 'Ä',
                        other => other,
                    };
                }
            }
            7 if n > 5 => {
                // Two typos.
                chars.swap(0, 1);
                chars[n - 1] = 'q';
            }
            _ => {}
        }
        chars.into_iter().collect()
    }

    fn query(&mut self) -> String {
        let mut qs = Qs(url::form_urlencoded::Serializer::new(String::new()));
        for _ in 0..self.rng.below(4) {
            let facet = FACETS[self.rng.below(FACETS.len())];
            let name = facet.param();
            let count = 1 + self.rng.skewed(4);
            let values: Vec<String> = (0..count).filter_map(|_| self.value(facet)).collect();
            if values.is_empty() {
                continue;
            }
            match self.rng.below(5) {
                0 => qs.push(&format!("{name}_exclude"), &values.join(",")),
                1 if !facet.is_geography() => {
                    qs.push(name, &values.join(","));
                    qs.push(&format!("{name}_mode"), "and");
                }
                _ => {
                    for v in values {
                        qs.push(name, &v);
                    }
                }
            }
        }
        if self.rng.chance(0.1) {
            qs.push(if self.rng.chance(0.5) { "regions" } else { "regions_exclude" }, "none");
        }
        if self.rng.chance(0.1) {
            qs.push("requires_clearance", if self.rng.chance(0.5) { "true" } else { "false" });
        }
        if self.rng.chance(0.05) {
            qs.push("visa_sponsorship", "true");
        }
        let salary = 40_000 + self.rng.below(200) as i64 * 1_000;
        for (name, value) in [
            ("salary_min", salary.to_string()),
            ("salary_max", (salary + 30_000).to_string()),
            ("experience_years_min", self.rng.below(8).to_string()),
            ("experience_years_max", self.rng.below(8).to_string()),
            ("posted_within_days", (1 + self.rng.skewed(200)).to_string()),
            ("open_within_days", (1 + self.rng.skewed(200)).to_string()),
        ] {
            if self.rng.chance(0.08) {
                qs.push(name, &value);
            }
        }
        if self.rng.chance(0.6) {
            let words: Vec<String> = (0..1 + self.rng.skewed(3)).map(|_| self.word()).collect();
            qs.push("q", &words.join(" "));
            if self.rng.chance(0.3) {
                let fields: Vec<&str> = QField::ALL
                    .iter()
                    .filter(|_| self.rng.chance(0.5))
                    .map(|f| f.as_str())
                    .collect();
                qs.push("q_fields", &fields.join(","));
            }
        }
        if self.rng.chance(0.2) {
            qs.push("sort", "salary_min");
        }
        qs.0.finish()
    }
}

/// `n` parseable random queries.
fn queries(docs: &[SearchDocument], n: usize, seed: u64) -> Vec<(String, JobQuery)> {
    let mut draw = Draw { rng: Rng(seed), docs };
    let mut out = Vec::new();
    while out.len() < n {
        let qs = draw.query();
        if let Ok(q) = JobQuery::from_query_str(&qs, Endpoint::Search) {
            out.push((qs, q));
        }
    }
    out
}

/// Percolates `queries` (each subscribed twice: keys `i` and `n + i`) over `docs` and checks
/// every query's matches against the engine's hits; returns how many queries matched a job.
async fn agrees_with_the_engine(docs: &[SearchDocument], queries: &[(String, JobQuery)]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    for part in docs.chunks(docs.len().div_ceil(3)) {
        index.upsert(part.to_vec()).await.unwrap();
    }
    let n = queries.len();
    let subs =
        queries.iter().enumerate().flat_map(|(i, (_, q))| [(i, q.clone()), (n + i, q.clone())]);
    let percolator = Percolator::new(subs, now());
    assert_eq!(percolator.len(), 2 * n);
    assert!(percolator.distinct_queries() <= n);
    let mut found: BTreeMap<usize, BTreeSet<i64>> = BTreeMap::new();
    let pairs = percolator.matches(docs);
    assert!(pairs.windows(2).all(|w| w[0] < w[1]), "sorted by (key, index), each once");
    for (key, doc) in pairs {
        found.entry(key).or_default().insert(docs[doc].id);
    }
    let mut matching = 0;
    for (i, (qs, q)) in queries.iter().enumerate() {
        let expected = engine_ids(&index, q).await;
        let got = found.get(&i).cloned().unwrap_or_default();
        assert_eq!(got, expected, "query {qs}");
        assert_eq!(found.get(&(n + i)).cloned().unwrap_or_default(), expected, "twin of {qs}");
        matching += usize::from(!expected.is_empty());
    }
    matching
}

// scenario: Percolation finds what a search finds
#[tokio::test]
async fn random_saved_searches_match_what_the_engine_finds() {
    let docs = jobs(400, 0x9E37_79B9_7F4A_7C15);
    let queries = queries(&docs, 600, 0x2545_F491_4F6C_DD1D);
    let with_text = queries.iter().filter(|(_, q)| q.q.is_some()).count();
    assert!(with_text > 250, "{with_text} queries with text");
    let matching = agrees_with_the_engine(&docs, &queries).await;
    // The draw is not degenerate: many queries match something, and many match nothing.
    assert!((150..550).contains(&matching), "{matching} of 600 queries match");
}

/// A small batch of new jobs among subscriptions drawn from a larger catalogue: most
/// subscriptions name values the batch does not hold (they are never visited).
#[tokio::test]
async fn a_small_batch_matches_what_the_engine_finds() {
    let catalogue = jobs(300, 0x1234_5678_9ABC_DEF1);
    let queries = queries(&catalogue, 300, 0x0F0F_1234_4321_F0F0);
    let batch: Vec<SearchDocument> = catalogue.iter().skip(40).step_by(37).cloned().collect();
    agrees_with_the_engine(&batch, &queries).await;
}
