//! The evaluation sets: hand-labelled real postings from the recorded ATS responses, scored per
//! facet. The first set (`postings.json`, `labels.tsv`, 93 postings) is what the dictionaries
//! were tuned on; the second (`postings_new.json`, `labels_new.tsv`, 350 postings of 90 Ashby
//! boards the dictionaries never saw) measures them honestly. Shared by the integration test
//! (which enforces the thresholds), the bench (which prints the tables) and freehire-app's
//! evaluation through the real Ashby adapter (which includes this file by path).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use freehire_normalize::{Draft, derive, parse_location};

const POSTINGS: &str = include_str!("../data/postings.json");
const LABELS: &str = include_str!("../data/labels.tsv");
const POSTINGS_NEW: &str = include_str!("../data/postings_new.json");
const LABELS_NEW: &str = include_str!("../data/labels_new.tsv");
const LOCATIONS: &str = include_str!("../data/locations.json");
const LOCATION_LABELS: &str = include_str!("../data/location_labels.tsv");

/// One evaluation input.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Posting {
    /// Fixture-derived id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Company.
    pub company: String,
    /// Location string.
    pub location: String,
    /// Description excerpt (HTML-escaped text).
    pub description: String,
}

impl Posting {
    /// The draft an adapter would hand over (text only: no structured values).
    pub fn draft(&self) -> Draft {
        Draft {
            title: self.title.clone(),
            company: self.company.clone(),
            location: self.location.clone(),
            description: self.description.clone(),
            ..Draft::default()
        }
    }
}

/// Hand labels of one posting.
#[derive(Debug, Clone, Default)]
pub struct Label {
    pub countries: BTreeSet<String>,
    pub cities: BTreeSet<String>,
    pub work_mode: Option<String>,
    pub seniority: Option<String>,
    pub category: Option<String>,
    pub is_tech: Option<String>,
    pub employment_type: Option<String>,
    pub skills: BTreeSet<String>,
}

fn opt(field: &str) -> Option<String> {
    (field != "-" && !field.is_empty()).then(|| field.to_owned())
}

fn set(field: &str) -> BTreeSet<String> {
    field
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "-")
        .map(str::to_owned)
        .collect()
}

/// All postings of the first set, each with its label.
pub fn load() -> Vec<(Posting, Label)> {
    load_set(POSTINGS, LABELS)
}

/// All postings of the second set (never seen by the dictionaries), each with its label.
pub fn load_new() -> Vec<(Posting, Label)> {
    load_set(POSTINGS_NEW, LABELS_NEW)
}

/// The postings of one set with their labels (every posting has exactly one).
fn load_set(postings: &str, labels: &str) -> Vec<(Posting, Label)> {
    let postings: Vec<Posting> = serde_json::from_str(postings).expect("the postings parse");
    let labels: Vec<(String, Label)> = labels
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 9, "label row has 9 columns: {l}");
            let label = Label {
                countries: set(f[1]),
                cities: set(f[2]),
                work_mode: opt(f[3]),
                seniority: opt(f[4]),
                category: opt(f[5]),
                is_tech: opt(f[6]),
                employment_type: opt(f[7]),
                skills: set(f[8]),
            };
            (f[0].to_owned(), label)
        })
        .collect();
    postings
        .into_iter()
        .map(|p| {
            let matching: Vec<&Label> = labels
                .iter()
                .filter(|(id, _)| p.id.starts_with(id.as_str()))
                .map(|(_, l)| l)
                .collect();
            assert_eq!(matching.len(), 1, "exactly one label for {}", p.id);
            (p, matching[0].clone())
        })
        .collect()
}

/// Single place strings with their labelled countries and cities.
pub fn load_locations() -> Vec<(String, BTreeSet<String>, BTreeSet<String>)> {
    let strings: Vec<String> = serde_json::from_str(LOCATIONS).expect("locations.json parses");
    let labels: Vec<(String, BTreeSet<String>, BTreeSet<String>)> = LOCATION_LABELS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "location label row has 3 columns: {l}");
            (f[0].to_owned(), set(f[1]), set(f[2]))
        })
        .collect();
    assert_eq!(strings.len(), labels.len(), "every location string is labelled");
    for s in &strings {
        assert!(labels.iter().any(|(l, _, _)| l == s), "label for location {s:?}");
    }
    labels
}

/// Precision/recall counts of one facet.
#[derive(Debug, Default, Clone, Copy)]
pub struct Score {
    /// Predicted values that are right.
    pub correct: usize,
    /// Predicted values.
    pub predicted: usize,
    /// Labelled values.
    pub expected: usize,
}

impl Score {
    fn set(&mut self, got: &BTreeSet<String>, want: &BTreeSet<String>) {
        self.correct += got.intersection(want).count();
        self.predicted += got.len();
        self.expected += want.len();
    }

    fn one(&mut self, got: Option<&str>, want: Option<&str>) {
        let got: BTreeSet<String> = got.into_iter().map(str::to_owned).collect();
        let want: BTreeSet<String> = want.into_iter().map(str::to_owned).collect();
        self.set(&got, &want);
    }

    /// Share of predictions that are right (1.0 when nothing was predicted).
    pub fn precision(&self) -> f64 {
        if self.predicted == 0 { 1.0 } else { self.correct as f64 / self.predicted as f64 }
    }

    /// Share of labelled values found (1.0 when nothing was labelled).
    pub fn recall(&self) -> f64 {
        if self.expected == 0 { 1.0 } else { self.correct as f64 / self.expected as f64 }
    }
}

/// Scores of every facet, and the misses for inspection.
#[derive(Debug, Default)]
pub struct Report {
    pub postings: usize,
    pub locations: usize,
    pub facets: Vec<(&'static str, Score)>,
    pub misses: Vec<String>,
}

impl Report {
    /// A facet's score.
    pub fn score(&self, facet: &str) -> Score {
        self.facets.iter().find(|(f, _)| *f == facet).map(|(_, s)| *s).unwrap_or_default()
    }

    /// The table, one facet per line.
    pub fn table(&self) -> String {
        let mut out = format!(
            "evaluation: {} labelled postings + {} labelled location strings\n{:<18} {:>9} {:>7} {:>9} {:>9} {:>9}\n",
            self.postings,
            self.locations,
            "facet",
            "precision",
            "recall",
            "correct",
            "predicted",
            "labelled"
        );
        for (name, s) in &self.facets {
            let _ = writeln!(
                out,
                "{name:<18} {:>9.3} {:>7.3} {:>9} {:>9} {:>9}",
                s.precision(),
                s.recall(),
                s.correct,
                s.predicted,
                s.expected
            );
        }
        out
    }
}

fn diff(
    id: &str,
    facet: &str,
    got: &BTreeSet<String>,
    want: &BTreeSet<String>,
    misses: &mut Vec<String>,
) {
    let extra: Vec<&String> = got.difference(want).collect();
    let missing: Vec<&String> = want.difference(got).collect();
    if !extra.is_empty() || !missing.is_empty() {
        misses.push(format!("{id} {facet}: wrong {extra:?} missed {missing:?}"));
    }
}

/// Derives every posting of the first set (text only, as drafts) and scores it against the
/// labels, with the labelled place strings.
pub fn evaluate() -> Report {
    let data = load();
    let derived: Vec<(String, freehire_domain::Facets, Label)> =
        data.iter().map(|(p, l)| (p.id.clone(), derive(&p.draft()), l.clone())).collect();
    score(&derived, &load_locations())
}

/// Derives every posting of the second set (text only, as drafts) and scores it: the
/// dictionaries alone, without what an adapter states (freehire-app scores the same postings
/// through the real Ashby adapter).
pub fn evaluate_new() -> Report {
    let derived: Vec<(String, freehire_domain::Facets, Label)> =
        load_new().iter().map(|(p, l)| (p.id.clone(), derive(&p.draft()), l.clone())).collect();
    score(&derived, &[])
}

/// Scores derived facets (`(id, facets, label)`) and place strings against their labels.
pub fn score(
    data: &[(String, freehire_domain::Facets, Label)],
    locations: &[(String, BTreeSet<String>, BTreeSet<String>)],
) -> Report {
    let mut countries = Score::default();
    let mut countries_loc = Score::default();
    let mut cities = Score::default();
    let mut work_mode = Score::default();
    let mut seniority = Score::default();
    let mut category = Score::default();
    let mut is_tech = Score::default();
    let mut employment = Score::default();
    let mut skills = Score::default();
    let mut misses = Vec::new();
    for (id, f, l) in data {
        let got_countries: BTreeSet<String> =
            f.countries.iter().map(|c| c.as_str().to_owned()).collect();
        let got_cities: BTreeSet<String> = f.cities.iter().cloned().collect();
        let got_skills: BTreeSet<String> = f.skills.iter().cloned().collect();
        countries.set(&got_countries, &l.countries);
        cities.set(&got_cities, &l.cities);
        skills.set(&got_skills, &l.skills);
        work_mode.one(f.work_mode.map(|m| m.as_str()), l.work_mode.as_deref());
        seniority.one(f.seniority.map(|s| s.as_str()), l.seniority.as_deref());
        category.one(f.category.map(|c| c.as_str()), l.category.as_deref());
        let tech = f.is_tech.map(|t| if t { "true" } else { "false" });
        is_tech.one(tech, l.is_tech.as_deref());
        employment.one(f.employment_type.map(|e| e.as_str()), l.employment_type.as_deref());
        let one = |v: Option<&str>| v.into_iter().map(str::to_owned).collect::<BTreeSet<String>>();
        diff(id, "countries", &got_countries, &l.countries, &mut misses);
        diff(id, "cities", &got_cities, &l.cities, &mut misses);
        diff(id, "skills", &got_skills, &l.skills, &mut misses);
        diff(
            id,
            "work_mode",
            &one(f.work_mode.map(|m| m.as_str())),
            &one(l.work_mode.as_deref()),
            &mut misses,
        );
        diff(
            id,
            "seniority",
            &one(f.seniority.map(|s| s.as_str())),
            &one(l.seniority.as_deref()),
            &mut misses,
        );
        diff(
            id,
            "category",
            &one(f.category.map(|c| c.as_str())),
            &one(l.category.as_deref()),
            &mut misses,
        );
        diff(id, "is_tech", &one(tech), &one(l.is_tech.as_deref()), &mut misses);
    }
    for (s, want_countries, want_cities) in locations {
        let g = parse_location(s);
        let got: BTreeSet<String> = g.countries.iter().map(|c| c.as_str().to_owned()).collect();
        let got_cities: BTreeSet<String> = g.cities.iter().cloned().collect();
        countries_loc.set(&got, want_countries);
        cities.set(&got_cities, want_cities);
        diff(s, "countries", &got, want_countries, &mut misses);
        diff(s, "cities", &got_cities, want_cities, &mut misses);
    }
    let mut all_countries = countries;
    all_countries.correct += countries_loc.correct;
    all_countries.predicted += countries_loc.predicted;
    all_countries.expected += countries_loc.expected;
    Report {
        postings: data.len(),
        locations: locations.len(),
        facets: vec![
            ("countries", all_countries),
            ("countries/posting", countries),
            ("countries/place", countries_loc),
            ("cities", cities),
            ("work_mode", work_mode),
            ("seniority", seniority),
            ("category", category),
            ("is_tech", is_tech),
            ("employment_type", employment),
            ("skills", skills),
        ],
        misses,
    }
}
