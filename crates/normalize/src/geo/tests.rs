//! Unit tests of location parsing: the location table (countries, regions, cities per
//! string), aliases, remote qualifiers, subdivisions and the withheld ambiguous names.

#![allow(clippy::type_complexity)]

use super::*;

fn geo(s: &str) -> (Vec<String>, Vec<&'static str>, Vec<String>) {
    let g = parse_location(s);
    let mut regions: Vec<&'static str> = g.regions.iter().map(|r| r.as_str()).collect();
    regions.sort_unstable();
    (g.countries.iter().map(|c| c.as_str().to_owned()).collect(), regions, g.cities)
}

// scenario: Single and multiple places
// scenario: City aliases
// scenario: Remote qualifiers
// scenario: Coordinates are not places
// scenario: Bare remote
// scenario: Worldwide
// scenario: Anywhere in a country
// scenario: EMEA
// scenario: DACH
// scenario: State code
// scenario: Province
// scenario: Unlisted namesake
#[test]
fn location_table() {
    #[rustfmt::skip]
    let cases: &[(&str, &[&str], &[&str], &[&str])] = &[
        // (location, countries, regions, cities)
        ("Remote - US", &["us"], &["north_america"], &[]),
        ("Remote United States", &["us"], &["north_america"], &[]),
        ("Berlin, Germany", &["de"], &["eu"], &["Berlin"]),
        ("NYC / SF", &["us"], &["north_america"], &["New York City", "San Francisco"]),
        ("EMEA", &[], &["africa", "eu", "mena", "uk"], &[]),
        ("Worldwide", &[], &["global"], &[]),
        ("Remote - Anywhere", &[], &["global"], &[]),
        ("San Francisco, CA; New York, NY", &["us"], &["north_america"], &["New York City", "San Francisco"]),
        ("*HQ - San Francisco, CA", &["us"], &["north_america"], &["San Francisco"]),
        ("London, UK", &["gb"], &["uk"], &["London"]),
        ("Seattle, WA", &["us"], &["north_america"], &["Seattle"]),
        ("APAC", &[], &["apac"], &[]),
        ("London", &["gb"], &["uk"], &["London"]),
        ("London, Ontario", &["ca"], &["north_america"], &["London"]),
        ("Bangalore", &["in"], &["apac"], &["Bengaluru"]),
        ("Bengaluru, India", &["in"], &["apac"], &["Bengaluru"]),
        ("München", &["de"], &["eu"], &["Munich"]),
        ("Munich", &["de"], &["eu"], &["Munich"]),
        ("Portland, OR", &["us"], &["north_america"], &["Portland"]),
        ("Toronto, ON, Canada", &["ca"], &["north_america"], &["Toronto"]),
        ("Texas", &["us"], &["north_america"], &[]),
        ("LA", &["us"], &["north_america"], &[]),
        ("Atlanta, Georgia", &["us"], &["north_america"], &["Atlanta"]),
        ("Tbilisi, Georgia", &["ge"], &["cis"], &["Tbilisi"]),
        ("Remote - Europe", &[], &["eu", "uk"], &[]),
        ("Remote (±3 hours from UTC+8)", &[], &[], &[]),
        ("Mountain View (HQ)", &["us"], &["north_america"], &["Mountain View"]),
        ("Berlin, Munich, Hamburg", &["de"], &["eu"], &["Berlin", "Hamburg", "Munich"]),
        ("London or Berlin", &["de", "gb"], &["eu", "uk"], &["Berlin", "London"]),
        ("Trinidad and Tobago", &["tt"], &["latam"], &[]),
        ("Washington, DC", &["us"], &["north_america"], &["Washington"]),
        ("Remote in Canada", &["ca"], &["north_america"], &[]),
        ("IN", &["us"], &["north_america"], &[]),
        ("Berlin, DE", &["de"], &["eu"], &["Berlin"]),
        ("USA", &["us"], &["north_america"], &[]),
        ("São Paulo, Brazil", &["br"], &["latam"], &["São Paulo"]),
        ("Zurich", &["ch"], &["eu"], &["Zürich"]),
        ("DACH", &["at", "ch", "de"], &["eu"], &[]),
        ("Berlin (52.52, 13.40)", &["de"], &["eu"], &["Berlin"]),
        ("Dubai, UAE", &["ae"], &["mena"], &["Dubai"]),
        ("Americas", &[], &["latam", "north_america"], &[]),
        ("Worldwide; United States", &["us"], &["north_america"], &[]),
        ("Panama City, FL", &["us"], &["north_america"], &[]),
        ("Mexico, Canada", &["ca", "mx"], &["latam", "north_america"], &[]),
        ("US-NY-New York", &["us"], &["north_america"], &["New York City"]),
        ("IN-KA-Bangalore", &["in"], &["apac"], &["Bengaluru"]),
        ("Sydney NSW", &["au"], &["apac"], &["Sydney"]),
        ("Melbourne, Victoria", &["au"], &["apac"], &["Melbourne"]),
        ("Victoria", &["au"], &["apac"], &[]),
        ("San Francisco Bay Area", &["us"], &["north_america"], &[]),
    ];
    let mut failures = Vec::new();
    for (input, countries, regions, cities) in cases {
        let got = geo(input);
        if got.0 != *countries || got.1 != *regions || got.2 != *cities {
            failures.push(format!("{input:?}: got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// scenario: Georgia
// scenario: Cambridge and London
#[test]
fn withheld_and_negative() {
    #[rustfmt::skip]
    let cases: &[&str] = &[
        "Remote",            // a bare Remote is not global
        "Georgia",           // country or US state
        "Palestine",         // country or Palestine, Texas
        "Cambridge",         // UK, Canada or Massachusetts
        "Hybrid",
        "",
        "Flexible",
        "Office",
    ];
    for input in cases {
        let (c, r, ci) = geo(input);
        assert!(c.is_empty() && r.is_empty() && ci.is_empty(), "{input:?} gave {c:?} {r:?} {ci:?}");
    }
}

#[test]
fn work_mode_markers() {
    let cases = [
        ("Remote - US", Some(WorkMode::Remote)),
        ("Hybrid - Berlin", Some(WorkMode::Hybrid)),
        ("Berlin (On-site)", Some(WorkMode::Onsite)),
        ("Москва, удалённо", Some(WorkMode::Remote)),
        ("Remote or Hybrid", Some(WorkMode::Remote)),
        ("Berlin", None),
        ("Remoteville", None),
        ("Work from home", Some(WorkMode::Remote)),
    ];
    for (input, want) in cases {
        assert_eq!(parse_location(input).work_mode, want, "{input:?}");
    }
}

#[test]
fn place_phrases() {
    let g = &*GAZETTEER;
    let code = |i: &usize| g.countries[*i].code.clone();
    let cases: &[(&str, Option<(&[&str], &[Region])>)] = &[
        ("US", Some((&["us"], &[]))),
        ("United Kingdom", Some((&["gb"], &[]))),
        ("Europe", Some((&[], &[Region::Eu, Region::Uk]))),
        ("Remote Americas", Some((&[], &[Region::NorthAmerica, Region::Latam]))),
        ("Mobile", None),
        ("Georgia", None),
        ("Developer Tools", None),
    ];
    for (input, want) in cases {
        let got = place_phrase(input).map(|(c, r)| (c.iter().map(code).collect::<Vec<_>>(), r));
        let want =
            want.map(|(c, r)| (c.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(), r.to_vec()));
        assert_eq!(got, want, "{input:?}");
    }
}
