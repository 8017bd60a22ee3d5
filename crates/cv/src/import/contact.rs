//! The block above a CV's first heading: the name, a headline, and the contact line(s) (email,
//! phone, links, a place), whatever separates them ("|", "·", "•", two spaces, new lines).

use crate::document::{Header, Link};

/// What the block held that is not a contact: the name and headline go into the header, the
/// rest comes back as lines.
pub struct HeaderBlock {
    /// The contact block.
    pub header: Header,
    /// Lines that are neither the name, the headline nor a contact, in order.
    pub rest: Vec<String>,
}

const LABELS: &[&str] = &[
    "email",
    "e-mail",
    "mail",
    "e",
    "phone",
    "tel",
    "telephone",
    "mobile",
    "mob",
    "m",
    "t",
    "p",
    "cell",
    "linkedin",
    "github",
    "gitlab",
    "web",
    "website",
    "site",
    "portfolio",
    "blog",
    "w",
    "address",
    "location",
    "based in",
];

const TLDS: &[&str] = &[
    "com", "org", "net", "io", "dev", "me", "co", "app", "site", "tech", "xyz", "uk", "de", "fr",
    "eu", "ai", "page", "blog", "info",
];

fn fragments(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in line.split(['|', '·', '•', '◦', '⋅', '\u{2022}', ';']) {
        for piece in part.split("   ") {
            for bit in piece.split(" - ").flat_map(|b| b.split(" – ")) {
                let bit = bit.trim();
                if !bit.is_empty() {
                    out.push(bit);
                }
            }
        }
    }
    out
}

/// `fragment` without a leading "Email:", "Tel." or "LinkedIn -" label.
fn unlabel(fragment: &str) -> &str {
    if let Some((label, rest)) = fragment.split_once([':', '：'])
        && LABELS.contains(&label.trim().to_lowercase().as_str())
        && !rest.trim_start().starts_with("//")
    {
        return rest.trim();
    }
    fragment
}

fn email(fragment: &str) -> Option<&str> {
    let w = fragment.trim_start_matches("mailto:");
    let (local, domain) = w.split_once('@')?;
    (!local.is_empty()
        && !w.contains(char::is_whitespace)
        && domain.contains('.')
        && !domain.ends_with('.'))
    .then_some(w)
}

fn phone(fragment: &str) -> Option<&str> {
    let digits = fragment.chars().filter(char::is_ascii_digit).count();
    let allowed = fragment
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '(' | ')' | '.' | ' '));
    (allowed && (7..=15).contains(&digits)).then_some(fragment)
}

fn url(fragment: &str) -> Option<String> {
    if fragment.contains(char::is_whitespace) || fragment.contains('@') {
        return None;
    }
    let bare = fragment
        .strip_prefix("https://")
        .or_else(|| fragment.strip_prefix("http://"))
        .unwrap_or(fragment);
    let host = bare.split('/').next().unwrap_or(bare);
    let tld = host.rsplit('.').next().unwrap_or("");
    let looks_like_host = host.contains('.')
        && host.split('.').all(|p| !p.is_empty())
        && TLDS.contains(&tld.to_lowercase().as_str());
    let schemed = bare.len() != fragment.len();
    (looks_like_host || (schemed && host.contains('.')))
        .then(|| if schemed { fragment.to_owned() } else { format!("https://{bare}") })
}

fn link_label(url: &str) -> String {
    let lower = url.to_lowercase();
    for (needle, label) in [
        ("linkedin.", "LinkedIn"),
        ("github.", "GitHub"),
        ("gitlab.", "GitLab"),
        ("stackoverflow.", "Stack Overflow"),
        ("twitter.", "Twitter"),
        ("x.com", "X"),
        ("behance.", "Behance"),
        ("dribbble.", "Dribbble"),
    ] {
        if lower.contains(needle) {
            return label.to_owned();
        }
    }
    "Website".to_owned()
}

fn is_place(fragment: &str) -> bool {
    fragment.chars().count() <= 60 && !fragment.chars().any(|c| c.is_ascii_digit()) && {
        let geo = freehire_normalize::parse_location(fragment);
        !geo.cities.is_empty() || !geo.countries.is_empty()
    }
}

fn name_like(text: &str) -> bool {
    let words = text.split_whitespace().count();
    (1..=6).contains(&words)
        && text.chars().count() <= 60
        && !text.chars().any(|c| c.is_ascii_digit() || matches!(c, '@' | '/' | ':'))
}

/// Reads the block above the first heading.
pub fn read(lines: &[&str]) -> HeaderBlock {
    let mut header = Header::default();
    let mut rest = Vec::new();
    for line in lines {
        let mut leftover: Vec<&str> = Vec::new();
        for fragment in fragments(line) {
            let f = unlabel(fragment);
            if let Some(e) = email(f) {
                if header.email.is_empty() {
                    header.email = e.to_owned();
                }
            } else if let Some(u) = url(f) {
                if header.links.len() < 10 && !header.links.iter().any(|l| l.url == u) {
                    header.links.push(Link { label: link_label(&u), url: u });
                }
            } else if let Some(p) = phone(f) {
                if header.phone.is_empty() {
                    header.phone = p.to_owned();
                }
            } else {
                leftover.push(fragment);
            }
        }
        let contact_line = leftover.len() < fragments(line).len();
        if leftover.is_empty() {
            continue;
        }
        if header.full_name.is_empty() && !contact_line && name_like(line) {
            header.full_name = (*line).to_owned();
            continue;
        }
        if contact_line || (leftover.len() == 1 && is_place(leftover[0])) {
            // What sits between contacts is a place, or the headline on a shared line.
            for f in leftover {
                if header.location.is_empty() && is_place(f) {
                    header.location = f.to_owned();
                } else if header.headline.is_empty() && !header.full_name.is_empty() {
                    header.headline = f.to_owned();
                } else {
                    rest.push(f.to_owned());
                }
            }
            continue;
        }
        if header.headline.is_empty()
            && !header.full_name.is_empty()
            && line.chars().count() <= 120
            && !line.ends_with('.')
        {
            header.headline = (*line).to_owned();
        } else {
            rest.push((*line).to_owned());
        }
    }
    HeaderBlock { header, rest }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_headline_and_contacts_on_one_line() {
        let block = read(&[
            "Jane Doe",
            "Senior Backend Engineer",
            "London, UK | jane@example.com | +44 7700 900123 | github.com/janedoe | https://www.linkedin.com/in/jane-doe",
        ]);
        let h = block.header;
        assert_eq!(h.full_name, "Jane Doe");
        assert_eq!(h.headline, "Senior Backend Engineer");
        assert_eq!(h.email, "jane@example.com");
        assert_eq!(h.phone, "+44 7700 900123");
        assert_eq!(h.location, "London, UK");
        assert_eq!(
            h.links,
            [
                Link { label: "GitHub".into(), url: "https://github.com/janedoe".into() },
                Link {
                    label: "LinkedIn".into(),
                    url: "https://www.linkedin.com/in/jane-doe".into()
                },
            ]
        );
        assert!(block.rest.is_empty());
    }

    #[test]
    fn labelled_contacts_on_lines_of_their_own_and_prose_left_over() {
        let block = read(&[
            "Ravi Kumar",
            "Email: ravi@example.org",
            "Phone: (555) 010-9999",
            "Berlin, Germany",
            "Backend engineer who likes boring technology and fast queries, ten years in fintech.",
        ]);
        let h = block.header;
        assert_eq!((h.full_name.as_str(), h.email.as_str()), ("Ravi Kumar", "ravi@example.org"));
        assert_eq!((h.phone.as_str(), h.location.as_str()), ("(555) 010-9999", "Berlin, Germany"));
        assert_eq!(h.headline, "");
        assert_eq!(block.rest.len(), 1);
    }
}
