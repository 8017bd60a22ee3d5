//! The mixed set of 1,000 benchmark queries, drawn from the catalogue's own vocabulary: a
//! quarter each of text only, text with three facet filters, filters only with six facet
//! distributions (and numeric stats), and disjunctive facet counts. On the real-vocabulary
//! catalogue a fifth each, the fifth kind being filters with four distributions including the
//! company's (a search's facets, as the companies index and the search page's company facet
//! need it), and a fifth of the text queries are common multi-word phrases.
//!
//! Text is one or two words of a real title (sometimes a company), a fifth of them with the
//! last word cut to a prefix and a tenth with a typo; filter values are read off a random
//! generated document, so most queries select something, as users' do.

use freehire_search::{Facet, SearchDocument};

use super::catalogue::Rng;

/// What a query exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    TextOnly,
    TextAndFilters,
    FiltersAndFacets,
    Disjunctive,
    CompanyDistribution,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::TextOnly,
        Kind::TextAndFilters,
        Kind::FiltersAndFacets,
        Kind::Disjunctive,
        Kind::CompanyDistribution,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::TextOnly => "text only",
            Kind::TextAndFilters => "text + 3 facet filters",
            Kind::FiltersAndFacets => "filters + 6 facet distributions",
            Kind::Disjunctive => "disjunctive facets",
            Kind::CompanyDistribution => "filters + 4 distributions (incl. company)",
        }
    }
}

/// The kind a query string given by hand (`BENCH_QUERIES`) is run as: a facets request when
/// it names `disjunctive=true` or `facets=`, otherwise a search.
pub fn kind_of(query_string: &str) -> Kind {
    let params: Vec<&str> = query_string.split('&').collect();
    if params.contains(&"disjunctive=true") {
        Kind::Disjunctive
    } else if params.iter().any(|p| p.starts_with("facets=")) {
        Kind::FiltersAndFacets
    } else if params.iter().any(|p| !p.starts_with("q=")) {
        Kind::TextAndFilters
    } else {
        Kind::TextOnly
    }
}

/// One benchmark query: a query string for the search or facets grammar.
pub struct BenchQuery {
    pub kind: Kind,
    pub query_string: String,
}

/// Facets a filter is drawn from.
const FILTERS: &[Facet] = &[
    Facet::Countries,
    Facet::WorkMode,
    Facet::Seniority,
    Facet::Skills,
    Facet::Regions,
    Facet::Category,
    Facet::IsTech,
    Facet::EmploymentType,
];

/// Distributions the facet queries ask for (six of these).
const DISTRIBUTIONS: &[&str] = &[
    "skills",
    "countries",
    "seniority",
    "work_mode",
    "regions",
    "cities",
    "category",
    "employment_type",
    "source",
];

/// Common multi-word phrases of job searches.
const PHRASES: &[&str] = &[
    "software engineer",
    "product manager",
    "senior software engineer",
    "account executive",
    "data scientist",
    "machine learning engineer",
    "customer success manager",
    "product designer",
    "solutions engineer",
    "engineering manager",
];

pub fn text(docs: &[SearchDocument], rng: &mut Rng, phrases: bool) -> String {
    if phrases && rng.chance(0.2) {
        return PHRASES[rng.below(PHRASES.len())].replace(' ', "+");
    }
    let doc = &docs[rng.below(docs.len())];
    let source = if rng.chance(0.1) { &doc.company } else { &doc.title };
    let words: Vec<String> = source
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1)
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        return "engineer".into();
    }
    let n = if words.len() > 1 && rng.chance(0.5) { 2 } else { 1 };
    let start = rng.below(words.len() + 1 - n);
    let mut picked: Vec<String> = words[start..start + n].to_vec();
    let last = picked.len() - 1;
    if rng.chance(0.2) && picked[last].chars().count() > 4 {
        let keep = 3 + rng.below(picked[last].chars().count() - 3);
        picked[last] = picked[last].chars().take(keep).collect();
    } else if rng.chance(0.125) && picked[last].chars().count() >= 5 {
        let mut chars: Vec<char> = picked[last].chars().collect();
        let i = 1 + rng.below(chars.len() - 2);
        chars.swap(i, i + 1);
        picked[last] = chars.into_iter().collect();
    }
    picked.join("+")
}

/// `count` distinct filters, with values taken from a random document.
pub fn filters(docs: &[SearchDocument], rng: &mut Rng, count: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < 100 {
        tries += 1;
        let doc = &docs[rng.below(docs.len())];
        if rng.chance(0.1) && !used.contains(&"salary_min") {
            used.push("salary_min");
            out.push(format!("salary_min={}", 50_000 + rng.below(10) * 10_000));
            continue;
        }
        let facet = FILTERS[rng.below(FILTERS.len())];
        let values = doc.values(facet);
        if used.contains(&facet.param()) || values.is_empty() {
            continue;
        }
        used.push(facet.param());
        let value = &values[rng.below(values.len())];
        out.push(format!("{}={}", facet.param(), value.replace(' ', "+")));
    }
    out
}

fn six(rng: &mut Rng) -> String {
    let mut names: Vec<&str> = DISTRIBUTIONS.to_vec();
    while names.len() > 6 {
        names.remove(rng.below(names.len()));
    }
    names.join(",")
}

/// The 1,000 queries, interleaved by kind; `real` adds the company distributions and the
/// phrases.
pub fn generate(docs: &[SearchDocument], seed: u64, real: bool) -> Vec<BenchQuery> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(1_000);
    let kinds = if real { &Kind::ALL[..] } else { &Kind::ALL[..4] };
    for i in 0..1_000 {
        let kind = kinds[i % kinds.len()];
        let query_string = match kind {
            Kind::TextOnly => format!("q={}", text(docs, &mut rng, real)),
            Kind::TextAndFilters => {
                let mut parts = vec![format!("q={}", text(docs, &mut rng, real))];
                parts.extend(filters(docs, &mut rng, 3));
                parts.join("&")
            }
            Kind::FiltersAndFacets => {
                let n = 1 + rng.below(3);
                let mut parts = filters(docs, &mut rng, n);
                parts.push(format!("facets={}", six(&mut rng)));
                parts.join("&")
            }
            Kind::Disjunctive => {
                let n = 2 + rng.below(2);
                let mut parts = filters(docs, &mut rng, n);
                parts.push("disjunctive=true".into());
                parts.join("&")
            }
            // Filters only; the distributions are fixed (company, skills, countries, seniority).
            Kind::CompanyDistribution => {
                let n = 1 + rng.below(2);
                filters(docs, &mut rng, n).join("&")
            }
        };
        out.push(BenchQuery { kind, query_string });
    }
    out
}
