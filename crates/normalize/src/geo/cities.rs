//! City completion for `GET /geo/cities?q=&country=` (reference search-ingest §5.9): the
//! gazetteer's canonical city names (the values of the `city` facet and filter) whose lookup
//! key starts with the typed text's, or has a word that does ("york" finds New York City), most
//! populous first, optionally within one country.

use std::sync::LazyLock;

use freehire_domain::CountryCode;

use super::GAZETTEER;
use crate::text::key;

/// The most cities one completion returns.
pub const MAX_CITIES: usize = 50;

/// One completion: the canonical city name and its country.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CityMatch {
    /// The canonical name, as the `city` filter takes it ("São Paulo").
    pub name: &'static str,
    /// Its country.
    pub country: CountryCode,
}

/// Every city's lookup key beside its gazetteer index, most populous first.
static BY_POPULATION: LazyLock<Vec<(String, usize)>> = LazyLock::new(|| {
    let cities = &GAZETTEER.cities;
    let mut keyed: Vec<(String, usize)> =
        cities.iter().enumerate().map(|(i, c)| (key(c.name), i)).collect();
    keyed.sort_by(|a, b| cities[b.1].population.cmp(&cities[a.1].population).then(a.0.cmp(&b.0)));
    keyed
});

/// Cities whose name starts with `query` (or has a word that does), within `country` when
/// given, most populous first, at most `limit` (clamped to 1..=[`MAX_CITIES`]). Accents, case
/// and punctuation are ignored ("sao p" finds São Paulo); an empty query finds nothing.
pub fn complete_city(query: &str, country: Option<&CountryCode>, limit: usize) -> Vec<CityMatch> {
    let wanted = key(query);
    if wanted.is_empty() {
        return Vec::new();
    }
    let limit = limit.clamp(1, MAX_CITIES);
    let country = country.and_then(|c| GAZETTEER.country(c.as_str()));
    let inner = format!(" {wanted}");
    let g = &*GAZETTEER;
    let mut found = Vec::with_capacity(limit);
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (name_key, index) in BY_POPULATION.iter() {
        let city = &g.cities[*index];
        if country.is_some_and(|c| c != city.country) {
            continue;
        }
        if !(name_key.starts_with(&wanted) || name_key.contains(&inner)) {
            continue;
        }
        // One answer per name and country (the gazetteer lists a few twice by subdivision).
        if seen.contains(&(city.name, city.country)) {
            continue;
        }
        seen.push((city.name, city.country));
        let Ok(code) = CountryCode::parse(&g.countries[city.country].code) else { continue };
        found.push(CityMatch { name: city.name, country: code });
        if found.len() == limit {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn names(found: &[CityMatch]) -> Vec<&str> {
        found.iter().map(|c| c.name).collect()
    }

    #[test]
    fn a_prefix_finds_the_most_populous_first() {
        let found = complete_city("lon", None, 5);
        assert_eq!(found[0].name, "London");
        assert_eq!(found[0].country.as_str(), "gb");
        assert!(found.len() <= 5);
    }

    #[test]
    fn accents_case_and_inner_words_are_ignored() {
        assert!(names(&complete_city("SAO PAU", None, 5)).contains(&"São Paulo"));
        assert!(names(&complete_city("york", None, 10)).contains(&"New York City"));
    }

    #[test]
    fn a_country_narrows_and_nothing_matches_nothing() {
        let de = CountryCode::parse("de").unwrap();
        let found = complete_city("b", Some(&de), 10);
        assert_eq!(found[0].name, "Berlin");
        assert!(found.iter().all(|c| c.country == de));
        assert!(complete_city("", None, 10).is_empty());
        assert!(complete_city("  ,", None, 10).is_empty());
        assert!(complete_city("qqqqzzzz", None, 10).is_empty());
        assert_eq!(complete_city("a", None, 500).len(), MAX_CITIES);
    }
}
