//! A generated catalogue of realistic jobs, built from the vocabulary of the shared fixtures.
//!
//! Two seed sets ([`Vocabulary`]):
//! - `fixtures`: the 93 real postings of the normalisation evaluation set, 20,000 companies;
//! - `real`: the 1,094 real Ashby postings of `shared/fixtures/ats/ashby-eval/` and
//!   `ashby-boards/` (issue 19's harder catalogue), one company per 24 jobs (about 41,600 at
//!   1 M), and the seeds' most common country placed on 56 % of the jobs, so one filter value
//!   matches about half the catalogue.
//!
//! Seeds are normalised exactly as ingest does (`freehire_normalize::posting`) and turned into
//! search documents. Each generated job takes its title (and with it
//! seniority, category and tech flag) from one seed, its place (location, countries, regions,
//! cities, work mode) from another, its skills from a third, and its description from the
//! halves of two more. Seeds are drawn with a Zipf-like skew, so facet values have a long
//! tail like a real catalogue; companies are a skewed pick among 20,000 names (the seeds' real
//! companies at the head).

use chrono::{DateTime, TimeZone, Utc};
use freehire_domain::{Job, JobId, Provider};
use freehire_normalize::Draft;
use freehire_search::{Facet, SearchDocument};

const POSTINGS: &str = include_str!("../../../normalize/tests/data/postings.json");

/// Distinct generated company names.
const COMPANIES: usize = 20_000;

/// One evaluation posting (the fields the bench reads).
#[derive(serde::Deserialize)]
struct Posting {
    id: String,
    title: String,
    company: String,
    location: String,
    description: String,
}

/// A tiny deterministic generator (xorshift64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Skewed in `0..n`: low indices far more often (roughly Zipf, exponent ~1).
    pub fn skewed(&mut self, n: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        (((n as f64 + 1.0).powf(u) - 1.0) as usize).min(n.saturating_sub(1))
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next() % 1_000_000) as f64 / 1_000_000.0) < p
    }
}

/// Which seeds a catalogue grows from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vocabulary {
    /// The 93 evaluation postings.
    Fixtures,
    /// The recorded Ashby boards' 1,094 postings.
    Real,
}

impl Vocabulary {
    pub fn name(self) -> &'static str {
        match self {
            Vocabulary::Fixtures => "fixture-vocabulary",
            Vocabulary::Real => "real-vocabulary",
        }
    }
}

/// One job of a recorded Ashby board (the fields the bench reads).
#[derive(serde::Deserialize)]
struct AshbyJob {
    id: String,
    title: String,
    #[serde(default)]
    location: String,
    #[serde(default, rename = "descriptionHtml")]
    description: String,
}

#[derive(serde::Deserialize)]
struct AshbyBoard {
    jobs: Vec<AshbyJob>,
}

/// `shared/fixtures/ats`, found as every bench and test finds it.
fn ats_fixtures() -> std::path::PathBuf {
    freehire_ingest::replay::recorded_fixtures(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("shared/fixtures/ats not found; set FREEHIRE_ATS_FIXTURES")
}

/// The recorded Ashby postings as (company, id, title, location, description).
fn ashby_postings() -> Vec<Posting> {
    let root = ats_fixtures();
    let mut files: Vec<std::path::PathBuf> = ["ashby-eval", "ashby-boards"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let company = path.file_stem().unwrap().to_string_lossy().into_owned();
        let board: AshbyBoard = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        out.extend(board.jobs.into_iter().map(|j| Posting {
            id: j.id,
            title: j.title,
            company: company.clone(),
            location: j.location,
            description: j.description,
        }));
    }
    out
}

/// The seeds: real postings as search documents.
pub struct Seeds {
    pub docs: Vec<SearchDocument>,
    companies: Vec<String>,
    /// The dominant country's seeds and the others (`real`).
    dominant: Option<Dominant>,
}

/// Where the generated jobs are placed: `share` of them on a seed of the most common country
/// (`placed`), the rest on a seed elsewhere (`others`, drawn with the same skew).
struct Dominant {
    placed: Vec<usize>,
    others: Vec<usize>,
    share: f64,
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

impl Seeds {
    /// The seeds of `vocabulary` for a catalogue of `jobs` jobs.
    pub fn load(vocabulary: Vocabulary, jobs: usize) -> Self {
        let (postings, companies_wanted): (Vec<Posting>, usize) = match vocabulary {
            Vocabulary::Fixtures => (serde_json::from_str(POSTINGS).unwrap(), COMPANIES),
            Vocabulary::Real => (ashby_postings(), (jobs / 24).max(1_000)),
        };
        let source = Provider::parse("ashby").unwrap();
        let mut docs = Vec::new();
        for (i, p) in postings.iter().enumerate() {
            let draft = Draft {
                title: p.title.clone(),
                company: p.company.clone(),
                location: p.location.clone(),
                description: p.description.clone(),
                ..Draft::default()
            };
            let url = format!("https://jobs.example.com/{}", i + 1);
            let posting = freehire_normalize::posting(&draft, source.clone(), &p.id, &url);
            let created = now() - chrono::Duration::days(30);
            let job = Job {
                id: JobId::new(i as i64 + 1).unwrap(),
                public_slug: posting.public_slug(),
                company_slug: posting.company_slug(),
                content_hash: posting.content_hash(),
                posting,
                created_at: created,
                updated_at: created,
                last_seen_at: created,
                closed_at: None,
                closed_reason: None,
                duplicate_of: None,
            };
            docs.push(SearchDocument::from_job(&job, now()));
        }
        // Real companies first (the head of the skew), then made-up names from title words.
        let mut companies: Vec<String> = Vec::new();
        for d in &docs {
            if !companies.contains(&d.company) {
                companies.push(d.company.clone());
            }
        }
        let words: Vec<String> = docs
            .iter()
            .flat_map(|d| d.title.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
            .filter(|w| w.len() > 3 && w.chars().all(char::is_alphabetic))
            .collect();
        let mut n = 0usize;
        while companies.len() < companies_wanted {
            let a = &words[n % words.len()];
            let b = &words[(n / words.len() + 7 * n) % words.len()];
            companies.push(format!("{a}{} {}", b.to_lowercase(), n % 97));
            n += 1;
        }
        let dominant = (vocabulary == Vocabulary::Real).then(|| {
            let mut counts: std::collections::HashMap<&str, usize> = Default::default();
            for d in &docs {
                for c in d.values(Facet::Countries) {
                    *counts.entry(c.as_str()).or_default() += 1;
                }
            }
            let top =
                counts.into_iter().max_by_key(|(c, n)| (*n, std::cmp::Reverse(*c))).unwrap().0;
            let top = top.to_owned();
            let (placed, others): (Vec<usize>, Vec<usize>) =
                (0..docs.len()).partition(|&i| docs[i].values(Facet::Countries).contains(&top));
            Dominant { placed, others, share: 0.56 }
        });
        Self { docs, companies, dominant }
    }

    fn pick(&self, rng: &mut Rng) -> &SearchDocument {
        &self.docs[rng.skewed(self.docs.len())]
    }

    /// Generated job number `id`.
    pub fn generate(&self, id: i64, rng: &mut Rng) -> SearchDocument {
        let mut doc = self.pick(rng).clone();
        let place = match &self.dominant {
            Some(d) if rng.chance(d.share) => &self.docs[d.placed[rng.below(d.placed.len())]],
            Some(d) if !d.others.is_empty() => &self.docs[d.others[rng.skewed(d.others.len())]],
            _ => self.pick(rng),
        };
        let skills = self.pick(rng);
        let (a, b) = (self.pick(rng), &self.docs[rng.below(self.docs.len())]);
        let company = &self.companies[rng.skewed(self.companies.len())];
        doc.id = id;
        doc.public_slug = format!("{}-{id}", doc.public_slug);
        doc.external_id = format!("board:{id}");
        doc.company = company.clone();
        doc.company_slug = freehire_domain::company_slug(company);
        doc.url = format!("https://jobs.example.com/{id}");
        doc.location = place.location.clone();
        doc.description = halves(&a.description, &b.description);
        for facet in [Facet::Countries, Facet::Regions, Facet::Cities, Facet::WorkMode] {
            copy(&mut doc, place, facet);
        }
        copy(&mut doc, skills, Facet::Skills);
        doc.facets.insert(Facet::CompanySlug.param().to_owned(), vec![doc.company_slug.clone()]);
        let sources = ["greenhouse", "lever", "ashby", "workday", "smartrecruiters", "workable"];
        doc.facets.insert(
            Facet::Source.param().to_owned(),
            vec![sources[rng.skewed(sources.len())].to_owned()],
        );
        let day = 86_400;
        doc.created_ts =
            now().timestamp() - rng.skewed(180) as i64 * day - rng.below(day as usize) as i64;
        doc.posted_ts =
            doc.created_ts - if rng.chance(0.3) { rng.below(20) as i64 * day } else { 0 };
        doc.updated_ts = doc.created_ts;
        doc.salary_min = None;
        doc.salary_max = None;
        doc.facets.remove(Facet::SalaryCurrency.param());
        doc.facets.remove(Facet::SalaryPeriod.param());
        if rng.chance(0.35) {
            let currency = match doc.values(Facet::Countries).first().map(String::as_str) {
                Some("gb") => "GBP",
                Some("de" | "fr" | "nl" | "es" | "it" | "ie" | "pt") => "EUR",
                Some("ca") => "CAD",
                _ => "USD",
            };
            let min = 40_000 + rng.below(160) as i64 * 1_000;
            doc.salary_min = Some(min);
            doc.salary_max = Some(min + 10_000 + rng.below(60) as i64 * 1_000);
            doc.facets.insert(Facet::SalaryCurrency.param().to_owned(), vec![currency.into()]);
            doc.facets.insert(Facet::SalaryPeriod.param().to_owned(), vec!["year".into()]);
        }
        if doc.experience_years_min.is_none() && rng.chance(0.4) {
            doc.experience_years_min = Some(1 + rng.skewed(10) as i64);
        }
        doc
    }
}

/// `facet` of `from` copied onto `doc` (removed when `from` has none).
fn copy(doc: &mut SearchDocument, from: &SearchDocument, facet: Facet) {
    match from.facets.get(facet.param()) {
        Some(v) => doc.facets.insert(facet.param().to_owned(), v.clone()),
        None => doc.facets.remove(facet.param()),
    };
}

/// The first half of `a` and the second half of `b`, each cut at a space.
fn halves(a: &str, b: &str) -> String {
    let cut = |s: &str, mid: usize| {
        let mut mid = s.len().min(mid);
        while !s.is_char_boundary(mid) {
            mid -= 1;
        }
        s[..mid].rfind(' ').unwrap_or(0)
    };
    let ia = cut(a, a.len() / 2);
    let ib = cut(b, b.len() / 2);
    format!("{} {}", &a[..ia], &b[ib..]).trim().to_owned()
}
