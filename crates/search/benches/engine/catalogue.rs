//! A generated catalogue of realistic jobs, built from the vocabulary of the shared fixtures.
//!
//! The seeds are the 93 real postings of the normalisation evaluation set (taken from the
//! recorded ATS responses), normalised exactly as ingest does (`freehire_normalize::posting`)
//! and turned into search documents. Each generated job takes its title (and with it
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

/// The seeds: the evaluation postings as search documents.
pub struct Seeds {
    pub docs: Vec<SearchDocument>,
    companies: Vec<String>,
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

impl Seeds {
    pub fn load() -> Self {
        let postings: Vec<Posting> = serde_json::from_str(POSTINGS).unwrap();
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
        while companies.len() < COMPANIES {
            let a = &words[n % words.len()];
            let b = &words[(n / words.len() + 7 * n) % words.len()];
            companies.push(format!("{a}{} {}", b.to_lowercase(), n % 97));
            n += 1;
        }
        Self { docs, companies }
    }

    fn pick(&self, rng: &mut Rng) -> &SearchDocument {
        &self.docs[rng.skewed(self.docs.len())]
    }

    /// Generated job number `id`.
    pub fn generate(&self, id: i64, rng: &mut Rng) -> SearchDocument {
        let mut doc = self.pick(rng).clone();
        let place = self.pick(rng);
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
    let cut = |s: &str, mid: usize| s[..s.len().min(mid)].rfind(' ').unwrap_or(0);
    let ia = cut(a, a.len() / 2);
    let ib = cut(b, b.len() / 2);
    format!("{} {}", &a[..ia], &b[ib..]).trim().to_owned()
}
