//! The parts of a contact or heading line, and what a part is: the separators CVs put between
//! the things on one line ("|", "·", "•", ";", a run of spaces, a spaced dash), whether a part
//! names a place (the gazetteer of `freehire-normalize`), and whether a word is a link.

use freehire_normalize::Geo;

/// `line` split at its separators, each part trimmed, empty ones dropped.
pub fn split(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for strong in line.split(['|', '·', '•', '◦', '⋅', ';', '\t']) {
        for piece in strong.split("   ") {
            for bit in piece.split(" — ").flat_map(|b| b.split(" – ")).flat_map(|b| b.split(" - "))
            {
                let bit = bit.trim();
                if !bit.is_empty() {
                    out.push(bit);
                }
            }
        }
    }
    out
}

/// What the gazetteer finds in `part`, when it is short and holds no digit (an address with a
/// street number or a date is not a place).
pub fn place(part: &str) -> Option<Geo> {
    (part.chars().count() <= 60 && !part.chars().any(|c| c.is_ascii_digit()))
        .then(|| freehire_normalize::parse_location(part))
}

/// Whether `part` names a city or a country.
pub fn is_city_or_country(part: &str) -> bool {
    place(part).is_some_and(|g| !g.cities.is_empty() || !g.countries.is_empty())
}

/// Whether `part` is one link ("https://…", "www.…", "github.com/…", "name.dev/path").
pub fn is_link(part: &str) -> bool {
    let p = part.to_lowercase();
    !p.contains(' ')
        && (p.starts_with("http://")
            || p.starts_with("https://")
            || p.starts_with("www.")
            || [".com/", ".org/", ".io/", ".dev/", ".net/", ".app/"].iter().any(|t| p.contains(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_places_and_links() {
        assert_eq!(
            split("Acme — Engineer | London, UK   2020 - 2022; remote"),
            ["Acme", "Engineer", "London, UK", "2020", "2022", "remote"]
        );
        assert!(is_city_or_country("Leeds, United Kingdom"));
        assert!(!is_city_or_country("12 High Street, Leeds"));
        assert!(place("Remote").is_some_and(|g| g.work_mode.is_some()));
        assert!(is_link("github.com/ada/queue") && is_link("https://x.org") && !is_link("Node.js"));
    }
}
