//! Geography (reference §3.11): location strings → countries (lowercase ISO alpha-2),
//! hiring regions, canonical city names and a work-mode hint; plus the evidence that pins an
//! unpinned posting (eligibility phrases, title restriction suffixes).
//!
//! Never guesses: an ambiguous name ("Georgia", "Cambridge") is withheld unless the rest of
//! the string settles it ("Atlanta, Georgia", "Cambridge, MA"). A bare "Remote" is not
//! `global`; `global` comes only from worldwide/anywhere/international words.

mod cities;
mod gazetteer;

use std::collections::BTreeSet;

use freehire_domain::{CountryCode, Region, WorkMode};

use crate::text::key;
pub use cities::{CityMatch, MAX_CITIES, complete_city};
pub use gazetteer::{GAZETTEER, Gazetteer, Place};

/// What a location string says about where a job is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Geo {
    /// Lowercase alpha-2 codes, sorted.
    pub countries: Vec<CountryCode>,
    /// Regions, sorted (the countries' regions included).
    pub regions: Vec<Region>,
    /// Canonical city names, sorted.
    pub cities: Vec<String>,
    /// The work mode the string states ("Remote", "Hybrid", "On-site").
    pub work_mode: Option<WorkMode>,
}

impl Geo {
    /// No country, and no region other than `global`.
    pub fn is_unpinned(&self) -> bool {
        self.countries.is_empty() && self.regions.iter().all(|r| *r == Region::Global)
    }
}

/// Words that carry no place: stripped from both ends of a part before a second lookup.
const NOISE: &[&str] = &[
    "remote",
    "remotely",
    "hybrid",
    "onsite",
    "on",
    "site",
    "office",
    "offices",
    "hq",
    "headquarters",
    "based",
    "only",
    "greater",
    "area",
    "metro",
    "metropolitan",
    "region",
    "in",
    "the",
    "of",
    "from",
    "home",
    "work",
    "wfh",
    "anywhere",
    "fully",
    "within",
    "any",
    "location",
    "locations",
    "flexible",
    "team",
    "hub",
    "campus",
    "downtown",
    "city",
    "candidates",
    "must",
    "be",
    "eligible",
    "preferred",
    "residents",
    "first",
    "friendly",
    "opportunity",
    "or",
    "and",
    "udalenno",
    "udalennaia",
    "rabota",
    "zone",
    "time",
    "timezone",
    "timezones",
    "tz",
    "hours",
    "full",
    "part",
    "contract",
    "global",
];

/// Words that make a part worldwide, when nothing else in it names a place.
const GLOBAL: &[&str] = &["worldwide", "anywhere", "global", "globally", "international", "world"];

/// Parses a free-text location string (one or many places).
pub fn parse_location(location: &str) -> Geo {
    let g = &*GAZETTEER;
    let mut acc = Acc::default();
    let cleaned = clean_location(location);
    for segment in segments(&cleaned) {
        resolve_segment(g, segment, &mut acc);
    }
    acc.work_mode = location_work_mode(&cleaned);
    acc.finish(g)
}

/// Strips coordinate tails ("Berlin (52.52, 13.40)") and stray asterisks.
pub fn clean_location(location: &str) -> String {
    let mut s = location.replace('*', " ");
    if let Some(open) = s.rfind('(') {
        let inner = &s[open + 1..];
        let numeric = inner
            .trim_end_matches(')')
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | ' ' | '+' | '°'));
        if numeric && inner.chars().any(|c| c.is_ascii_digit()) {
            s.truncate(open);
        }
    }
    s
}

/// The work mode a location string states.
pub fn location_work_mode(location: &str) -> Option<WorkMode> {
    let k = key(location);
    let has = |w: &str| k.split(' ').any(|t| t == w);
    let lower = location.to_lowercase();
    let home =
        k.contains("work from home") || k.contains("home based") || k.contains("home office");
    if has("remote") || has("wfh") || home || lower.contains("удал") {
        Some(WorkMode::Remote)
    } else if has("hybrid") || lower.contains("гибрид") {
        Some(WorkMode::Hybrid)
    } else if has("onsite")
        || k.contains("on site")
        || k.contains("in office")
        || k.contains("in person")
    {
        Some(WorkMode::Onsite)
    } else {
        None
    }
}

/// Splits a location into independent segments: `;`, `|`, `/`, line breaks, bullets and
/// the words "or", "and", "&" (unless the whole text names a place, as in "Trinidad and
/// Tobago").
fn segments(location: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for hard in location.split(['\n', ';', '|', '/', '•', '·']) {
        if GAZETTEER.names.contains_key(&key(hard)) {
            out.push(hard);
            continue;
        }
        let mut rest = hard;
        loop {
            let lower = rest.to_ascii_lowercase();
            let cut = [" or ", " and ", " & "]
                .iter()
                .filter_map(|sep| lower.find(sep).map(|i| (i, sep.len())))
                .min();
            match cut {
                Some((i, len)) => {
                    out.push(&rest[..i]);
                    rest = &rest[i + len..];
                }
                None => {
                    out.push(rest);
                    break;
                }
            }
        }
    }
    out.retain(|s| !s.trim().is_empty());
    out
}

/// Splits a segment into its parts: commas, brackets, colons and spaced dashes; an ATS-style
/// "US-NY-New York" becomes its three parts, and a trailing upper-case code after a name
/// ("Sydney NSW") its own part.
fn parts(segment: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for piece in segment.split([',', '(', ')', '[', ']', ':']) {
        if let Some(split) = ats_code_triple(piece.trim()) {
            out.extend(split);
            continue;
        }
        if let Some((head, code)) = piece.trim().rsplit_once(' ')
            && (2..=3).contains(&code.len())
            && code.bytes().all(|b| b.is_ascii_uppercase())
            && GAZETTEER.codes.contains_key(code)
            && !GAZETTEER.names.contains_key(&key(piece))
        {
            out.push(head);
            out.push(code);
            continue;
        }
        let mut rest = piece;
        while let Some((i, len)) =
            [" - ", " – ", " — "].iter().filter_map(|d| rest.find(d).map(|i| (i, d.len()))).min()
        {
            out.push(&rest[..i]);
            rest = &rest[i + len..];
        }
        out.push(rest);
    }
    out.retain(|p| !p.trim().is_empty());
    out
}

/// "US-NY-New York" → ["New York", "NY", "US"] (country code, region code, name).
fn ats_code_triple(piece: &str) -> Option<[&str; 3]> {
    let mut it = piece.splitn(3, '-');
    let (cc, ss, name) = (it.next()?, it.next()?, it.next()?);
    let code = |s: &str| (2..=3).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_uppercase());
    (cc.len() == 2 && code(cc) && code(ss) && !name.trim().is_empty()).then_some([name, ss, cc])
}

/// Every place a part can denote: the whole key, an upper-case code, or the key with noise
/// words stripped from both ends.
/// The flag says the places came from an upper-case code.
/// A name that is an area ("APAC", "EMEA") is the area, not a town of the same name ("Apac",
/// Uganda).
fn without_homonym_towns(found: &[Place]) -> Vec<Place> {
    if found.iter().any(|p| matches!(p, Place::Area(_))) {
        found.iter().filter(|p| !matches!(p, Place::City(_))).copied().collect()
    } else {
        found.to_vec()
    }
}

fn part_places(g: &Gazetteer, raw: &str) -> (Vec<Place>, bool) {
    let k = key(raw);
    if k.is_empty() {
        return (Vec::new(), false);
    }
    // Two capitals are a code when they are one ("WA" is Washington, never Wa in Ghana): read
    // before the names ("UK", "SF" are names).
    let trimmed = raw.trim();
    let capitals = trimmed.len() == 2 && trimmed.bytes().all(|b| b.is_ascii_uppercase());
    if capitals && let Some(found) = g.codes.get(trimmed) {
        return (found.clone(), true);
    }
    if let Some(found) = g.names.get(&k) {
        return (without_homonym_towns(found), false);
    }
    if capitals {
        return (Vec::new(), true);
    }
    let words: Vec<&str> = k.split(' ').collect();
    let mut lo = 0;
    let mut hi = words.len();
    while lo < hi && NOISE.contains(&words[lo]) {
        lo += 1;
    }
    while hi > lo && NOISE.contains(&words[hi - 1]) {
        hi -= 1;
    }
    if (lo, hi) != (0, words.len()) && lo < hi {
        let inner = words[lo..hi].join(" ");
        if let Some(found) = g.names.get(&inner) {
            return (without_homonym_towns(found), false);
        }
        // An upper-case code left after the noise ("Remote US", "US-based").
        if hi - lo == 1 {
            let code = inner.to_ascii_uppercase();
            if raw.contains(&code)
                && let Some(found) = g.codes.get(&code)
            {
                return (found.clone(), true);
            }
        }
    }
    (Vec::new(), false)
}

#[derive(Default)]
struct Acc {
    countries: BTreeSet<usize>,
    regions: BTreeSet<Region>,
    cities: BTreeSet<&'static str>,
    work_mode: Option<WorkMode>,
}

impl Acc {
    fn finish(self, g: &Gazetteer) -> Geo {
        let mut regions = self.regions;
        let mut countries = Vec::new();
        for &c in &self.countries {
            if let Some(country) = g.countries.get(c) {
                if let Some(r) = country.region {
                    regions.insert(r);
                }
                if let Ok(code) = CountryCode::parse(&country.code) {
                    countries.push(code);
                }
            }
        }
        countries.sort();
        // A place anywhere makes a "worldwide" elsewhere in the string a list, not global.
        if !countries.is_empty() || regions.len() > 1 {
            regions.remove(&Region::Global);
        }
        Geo {
            countries,
            regions: regions.into_iter().collect(),
            cities: self.cities.into_iter().map(str::to_owned).collect(),
            work_mode: self.work_mode,
        }
    }
}

/// Minimum population ratio for a bare city name to pick its largest namesake.
const DOMINANCE: u64 = 5;

fn resolve_segment(g: &Gazetteer, segment: &str, acc: &mut Acc) {
    let mut candidates: Vec<Vec<Place>> = Vec::new();
    let mut any_global = false;
    let mut codes_only = true;
    // A segment that is one known name ("Washington, D.C.") is not split at its commas.
    let pieces = if g.names.contains_key(&key(segment)) { vec![segment] } else { parts(segment) };
    for part in pieces {
        let (places, from_code) = part_places(g, part);
        codes_only &= from_code || places.is_empty();
        if places.is_empty() {
            if key(part).split(' ').any(|w| GLOBAL.contains(&w)) {
                any_global = true;
            }
            continue;
        }
        // Areas contribute regions and countries of their own.
        let (areas, places): (Vec<Place>, Vec<Place>) =
            places.into_iter().partition(|p| matches!(p, Place::Area(_)));
        for area in areas {
            if let Place::Area(i) = area {
                let (regions, codes) = g.area(i);
                acc.regions.extend(regions.iter().copied());
                acc.countries.extend(codes.iter().filter_map(|c| g.country(c)));
            }
        }
        if !places.is_empty() {
            candidates.push(places);
        }
    }
    if candidates.is_empty() {
        if any_global {
            acc.regions.insert(Region::Global);
        }
        return;
    }
    // A lone upper-case code reads as a US state or Canadian province first ("LA").
    if let [only] = &mut candidates[..]
        && codes_only
        && only.iter().any(|p| matches!(p, Place::Subdivision(_)))
    {
        only.retain(|p| matches!(p, Place::Subdivision(_)));
    }
    if !resolve_together(g, &candidates, acc) {
        // The parts are not one place. When some parts are countries or subdivisions, a city
        // that lies in none of them is an unlisted namesake ("Panama City, FL"): drop it and
        // keep the qualifiers. Otherwise the parts are a list ("London, Berlin").
        let strong = |p: &Place| !matches!(p, Place::City(_));
        let qualifiers: BTreeSet<usize> = candidates
            .iter()
            .filter(|part| part.iter().all(strong))
            .flatten()
            .filter_map(|p| g.country_of(*p))
            .collect();
        for part in &candidates {
            let city_only = !part.iter().any(strong);
            let in_qualifier =
                part.iter().any(|p| g.country_of(*p).is_some_and(|c| qualifiers.contains(&c)));
            if qualifiers.is_empty() || !city_only || in_qualifier {
                resolve_together(g, std::slice::from_ref(part), acc);
            }
        }
    }
}

/// Resolves parts that describe one place ("Portland, OR, USA"). Returns false when the parts
/// cannot be one place (no common country), so the caller treats them as a list.
fn resolve_together(g: &Gazetteer, parts: &[Vec<Place>], acc: &mut Acc) -> bool {
    let mut common: Option<BTreeSet<usize>> = None;
    for part in parts {
        let set: BTreeSet<usize> = part.iter().filter_map(|p| g.country_of(*p)).collect();
        common = Some(match common {
            None => set,
            Some(c) => c.intersection(&set).copied().collect(),
        });
    }
    let common = common.unwrap_or_default();
    if common.is_empty() {
        return false;
    }
    let country =
        if common.len() == 1 { common.first().copied() } else { pick_country(g, parts, &common) };
    let Some(country) = country else {
        return true; // ambiguous: withheld
    };
    acc.countries.insert(country);
    // Subdivisions named in the segment qualify its cities.
    let admin1: Vec<&str> = parts
        .iter()
        .filter(|part| part.iter().all(|p| matches!(p, Place::Subdivision(_))))
        .flatten()
        .filter_map(|p| match p {
            Place::Subdivision(s) => g.subdivisions.get(*s).filter(|s| s.country == country),
            _ => None,
        })
        .map(|s| s.admin1)
        .collect();
    for part in parts {
        let mut cities: Vec<&gazetteer::City> = part
            .iter()
            .filter_map(|p| match p {
                Place::City(c) => g.cities.get(*c),
                _ => None,
            })
            .filter(|c| c.country == country)
            .filter(|c| admin1.is_empty() || admin1.contains(&c.admin1))
            .collect();
        // A name that is also a subdivision ("New York") names the city only when the city
        // lies in it.
        let subdivision = part.iter().find_map(|p| match p {
            Place::Subdivision(s) => g.subdivisions.get(*s),
            _ => None,
        });
        if let Some(s) = subdivision {
            cities.retain(|c| c.admin1 == s.admin1);
        }
        cities.sort_by_key(|c| std::cmp::Reverse(c.population));
        match cities[..] {
            [only] => {
                acc.cities.insert(only.name);
            }
            [top, next, ..] if top.population >= next.population.saturating_mul(DOMINANCE) => {
                acc.cities.insert(top.name);
            }
            _ => {}
        }
    }
    true
}

/// Chooses among several countries a part could be in: a country or subdivision name beats
/// foreign cities of the same name ("Mexico"); two strong readings ("Georgia") withhold; a
/// city name picks its far larger namesake ("London").
fn pick_country(g: &Gazetteer, parts: &[Vec<Place>], common: &BTreeSet<usize>) -> Option<usize> {
    let places: Vec<Place> = parts
        .iter()
        .flatten()
        .copied()
        .filter(|p| g.country_of(*p).is_some_and(|c| common.contains(&c)))
        .collect();
    let strong: BTreeSet<usize> = places
        .iter()
        .filter(|p| !matches!(p, Place::City(_)))
        .filter_map(|p| g.country_of(*p))
        .collect();
    match strong.len() {
        1 => return strong.first().copied(),
        0 => {}
        _ => return None,
    }
    let mut cities: Vec<&gazetteer::City> = places
        .iter()
        .filter_map(|p| match p {
            Place::City(c) => g.cities.get(*c),
            _ => None,
        })
        .collect();
    cities.sort_by_key(|c| std::cmp::Reverse(c.population));
    match cities[..] {
        [top, next, ..] if top.population >= next.population.saturating_mul(DOMINANCE) => {
            Some(top.country)
        }
        [top] => Some(top.country),
        _ => None,
    }
}

/// Countries and regions named by a short phrase (a title suffix, the object of "eligible to
/// work in"): country names, subdivisions and areas only, never cities, so a stray word
/// cannot become a place.
pub fn place_phrase(phrase: &str) -> Option<(Vec<usize>, Vec<Region>)> {
    let g = &*GAZETTEER;
    let (places, _) = part_places(g, phrase);
    if places.is_empty() || places.iter().any(|p| matches!(p, Place::City(_) | Place::Elsewhere(_)))
    {
        return None;
    }
    let mut countries = BTreeSet::new();
    let mut regions = Vec::new();
    for p in &places {
        match *p {
            Place::Area(i) => {
                let (rs, codes) = g.area(i);
                regions.extend_from_slice(rs);
                countries.extend(codes.iter().filter_map(|c| g.country(c)));
            }
            other => {
                countries.extend(g.country_of(other));
            }
        }
    }
    // One phrase, one place: a name that could be two countries settles nothing.
    let direct: BTreeSet<usize> = places
        .iter()
        .filter(|p| !matches!(p, Place::Area(_)))
        .filter_map(|p| g.country_of(*p))
        .collect();
    if direct.len() > 1 {
        return None;
    }
    Some((countries.into_iter().collect(), regions))
}

/// Merges a pinned place into a `Geo`, pulling the countries' regions along.
pub fn pin(geo: &mut Geo, countries: &[usize], regions: &[Region]) {
    let g = &*GAZETTEER;
    let mut set: BTreeSet<Region> =
        geo.regions.iter().copied().filter(|r| *r != Region::Global).collect();
    set.extend(regions.iter().copied());
    for &c in countries {
        if let Some(country) = g.countries.get(c) {
            if let Ok(code) = CountryCode::parse(&country.code)
                && !geo.countries.contains(&code)
            {
                geo.countries.push(code);
            }
            set.extend(country.region);
        }
    }
    geo.countries.sort();
    geo.regions = set.into_iter().collect();
}

/// The regions of the given countries (structured countries pull their regions along).
pub fn regions_of(countries: &[CountryCode]) -> Vec<Region> {
    let g = &*GAZETTEER;
    let set: BTreeSet<Region> = countries
        .iter()
        .filter_map(|c| g.country(c.as_str()))
        .filter_map(|i| g.countries.get(i).and_then(|c| c.region))
        .collect();
    set.into_iter().collect()
}

#[cfg(test)]
mod tests;
