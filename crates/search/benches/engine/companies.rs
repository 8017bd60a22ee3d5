//! The companies index on the bench's catalogue: the companies aggregated from the generated
//! jobs (as the companies table aggregates open jobs: job count, newest posting, countries,
//! regions, work modes and sources by frequency, the ten most frequent skills), written in one
//! rebuild, then 400 searches: the default list at random offsets, one word of a name, the
//! same word with a typo, and a word with a country filter.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use freehire_search::{CompanyDocument, CompanySearch, Facet, SearchDocument, SearchIndex};

use crate::catalogue::Rng;

/// The companies index figures of one engine.
pub struct CompanyFigures {
    /// Companies indexed.
    pub companies: usize,
    /// Seconds the rebuild took.
    pub build_secs: f64,
    /// Per kind of search: name, p50 and p99 in ms.
    pub latency: Vec<(&'static str, f64, f64)>,
}

/// Values by how many of the company's jobs hold them, most first (ties by value).
fn ranked(counts: HashMap<String, usize>, keep: usize) -> Vec<String> {
    let mut list: Vec<(String, usize)> = counts.into_iter().collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    list.into_iter().take(keep).map(|(v, _)| v).collect()
}

/// The companies of `docs`.
pub fn aggregate(docs: &[SearchDocument]) -> Vec<CompanyDocument> {
    type Counts = HashMap<String, usize>;
    #[derive(Default)]
    struct Acc {
        name: String,
        jobs: u64,
        latest: i64,
        facets: [Counts; 5],
    }
    const FACETS: [Facet; 5] =
        [Facet::Regions, Facet::Countries, Facet::WorkMode, Facet::Source, Facet::Skills];
    let mut by_slug: HashMap<&str, Acc> = HashMap::new();
    for d in docs.iter().filter(|d| !d.company_slug.is_empty()) {
        let acc = by_slug.entry(d.company_slug.as_str()).or_default();
        if acc.name.is_empty() {
            acc.name.clone_from(&d.company);
        }
        acc.jobs += 1;
        acc.latest = acc.latest.max(d.posted_ts);
        for (counts, facet) in acc.facets.iter_mut().zip(FACETS) {
            for v in d.values(facet) {
                *counts.entry(v.clone()).or_default() += 1;
            }
        }
    }
    let mut out: Vec<CompanyDocument> = by_slug
        .into_iter()
        .map(|(slug, acc)| {
            let [regions, countries, modes, sources, skills] = acc.facets;
            CompanyDocument {
                slug: slug.to_owned(),
                name: acc.name,
                job_count: acc.jobs,
                latest_posted_ts: acc.latest,
                regions: ranked(regions, usize::MAX),
                countries: ranked(countries, usize::MAX),
                work_modes: ranked(modes, usize::MAX),
                sources: ranked(sources, usize::MAX),
                top_skills: ranked(skills, 10),
            }
        })
        .collect();
    out.sort_by(|a, b| a.slug.cmp(&b.slug));
    out
}

/// The kinds of search, in the order printed.
pub const KINDS: [&str; 4] =
    ["list, a page", "one word of a name", "a word with a typo", "a word and a country"];

/// The searches: (kind, search), 100 of each kind.
fn searches(companies: &[CompanyDocument], rng: &mut Rng) -> Vec<(&'static str, CompanySearch)> {
    let page = |offset: u64| CompanySearch { offset, limit: 20, ..CompanySearch::default() };
    let mut out = Vec::new();
    let word = |rng: &mut Rng| -> String {
        let c = &companies[rng.below(companies.len())];
        let words: Vec<&str> = c.name.split_whitespace().filter(|w| w.len() >= 5).collect();
        words.first().map_or_else(|| c.name.clone(), |w| (*w).to_owned())
    };
    for _ in 0..100 {
        let offset = rng.below(companies.len().min(2_000)) as u64;
        out.push((KINDS[0], page(offset)));
        let w = word(rng);
        out.push((KINDS[1], CompanySearch { q: Some(w), ..page(0) }));
        // A typo: the word's second and third letters swapped (one edit, a transposition).
        let mut typo: Vec<char> = word(rng).chars().collect();
        if typo.len() >= 3 {
            typo.swap(1, 2);
        }
        let typo: String = typo.into_iter().collect();
        out.push((KINDS[2], CompanySearch { q: Some(typo), ..page(0) }));
        let c = &companies[rng.below(companies.len())];
        let country = c.countries.first().cloned().unwrap_or_else(|| "us".into());
        let w = word(rng);
        out.push((KINDS[3], CompanySearch { q: Some(w), countries: vec![country], ..page(0) }));
    }
    out
}

fn percentile(v: &mut [Duration], p: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3
}

/// Rebuilds `index`'s companies from `docs` and times the searches (a warm-up pass, then the
/// measured one).
pub async fn measure(index: &dyn SearchIndex, docs: &[SearchDocument]) -> CompanyFigures {
    let companies = aggregate(docs);
    let start = Instant::now();
    index.rebuild_companies(companies.clone()).await.unwrap();
    let build_secs = start.elapsed().as_secs_f64();
    let searches = searches(&companies, &mut Rng(0x5DEE_CE66_D1CE_4E5B));
    for (_, s) in &searches {
        index.search_companies(s).await.unwrap();
    }
    let mut times: Vec<(&'static str, Duration)> = Vec::with_capacity(searches.len());
    for (kind, s) in &searches {
        let start = Instant::now();
        index.search_companies(s).await.unwrap();
        times.push((kind, start.elapsed()));
    }
    let latency = KINDS
        .into_iter()
        .map(|kind| {
            let mut v: Vec<Duration> =
                times.iter().filter(|(k, _)| *k == kind).map(|(_, d)| *d).collect();
            (kind, percentile(&mut v, 0.5), percentile(&mut v, 0.99))
        })
        .collect();
    CompanyFigures { companies: companies.len(), build_secs, latency }
}
