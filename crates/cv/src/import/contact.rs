//! The block above a CV's first heading: the name, a headline, and the contact line(s) (email,
//! phone, links, a place), whatever separates them ("|", "·", "•", two spaces, new lines).

use super::parts;
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

/// What a phone number is written with besides digits.
fn phone_char(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '+' | '-' | '(' | ')' | '.' | ' ')
}

fn phone(fragment: &str) -> Option<&str> {
    let digits = fragment.chars().filter(char::is_ascii_digit).count();
    let allowed = fragment.chars().all(phone_char);
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

fn name_like(text: &str) -> bool {
    let words = text.split_whitespace().count();
    (1..=6).contains(&words)
        && text.chars().count() <= 60
        && !text.chars().any(|c| c.is_ascii_digit() || matches!(c, '@' | '/' | ':'))
}

fn add_link(header: &mut Header, u: String) {
    if header.links.len() < 10 && !header.links.iter().any(|l| l.url == u) {
        header.links.push(Link { label: link_label(&u), url: u });
    }
}

/// Takes the contacts out of `fragment` into `header` and returns what is left. A fragment
/// may be one contact ("Tel: +44 20 7946 0321") or several run together with single spaces,
/// as a PDF viewer copies a contact line ("ada@example.com +44 20 7946 0321 London").
fn take_contacts(fragment: &str, header: &mut Header) -> Option<String> {
    let f = unlabel(fragment);
    if let Some(e) = email(f) {
        if header.email.is_empty() {
            header.email = e.to_owned();
        }
        return None;
    }
    if let Some(u) = url(f) {
        add_link(header, u);
        return None;
    }
    if let Some(p) = phone(f) {
        if header.phone.is_empty() {
            header.phone = p.to_owned();
        }
        return None;
    }
    let words: Vec<&str> = f.split_whitespace().collect();
    let mut left: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if let Some(e) = email(w.trim_end_matches([',', ';'])) {
            if header.email.is_empty() {
                header.email = e.to_owned();
            }
        } else if let Some(u) = url(w.trim_end_matches([',', ';'])) {
            // "GitHub: https://…": the label goes with its link.
            if left.last().is_some_and(|l| {
                l.ends_with(':')
                    && LABELS.contains(&l.trim_end_matches(':').to_lowercase().as_str())
            }) {
                left.pop();
            }
            add_link(header, u);
        } else {
            // The longest run of phone-like words from here.
            let mut end = i;
            while end < words.len() && words[end].chars().all(phone_char) {
                end += 1;
            }
            if end > i
                && let Some(p) = phone(&words[i..end].join(" "))
            {
                if header.phone.is_empty() {
                    header.phone = p.to_owned();
                }
                i = end;
                continue;
            }
            left.push(w);
        }
        i += 1;
    }
    if left.len() == words.len() {
        return Some(fragment.to_owned());
    }
    let rest = left.join(" ");
    let rest = rest.trim_matches(|c: char| c == ',' || c.is_whitespace());
    (!rest.is_empty()).then(|| rest.to_owned())
}

/// Reads the block above the first heading.
pub fn read(lines: &[&str]) -> HeaderBlock {
    let mut header = Header::default();
    let mut rest = Vec::new();
    for line in lines {
        let all = parts::split(line);
        let mut leftover: Vec<String> = Vec::new();
        let mut took = false;
        for fragment in &all {
            match take_contacts(fragment, &mut header) {
                Some(left) => {
                    took |= left != *fragment;
                    leftover.push(left);
                }
                None => took = true,
            }
        }
        let contact_line = took;
        if leftover.is_empty() {
            continue;
        }
        if header.full_name.is_empty() && !contact_line && name_like(line) {
            header.full_name = (*line).to_owned();
            continue;
        }
        if contact_line || (leftover.len() == 1 && parts::is_city_or_country(&leftover[0])) {
            // What sits between contacts is a place, or the headline on a shared line.
            for f in leftover {
                if header.location.is_empty() && parts::is_city_or_country(&f) {
                    header.location = f;
                } else if header.headline.is_empty() && !header.full_name.is_empty() {
                    header.headline = f;
                } else {
                    rest.push(f);
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
    fn contacts_run_together_with_single_spaces() {
        let block = read(&[
            "Dana Okafor",
            "dana@example.org +44 20 7946 0321 Leeds, United Kingdom GitHub: https://github.com/dokafor",
        ]);
        let h = block.header;
        assert_eq!((h.email.as_str(), h.phone.as_str()), ("dana@example.org", "+44 20 7946 0321"));
        assert_eq!(h.location, "Leeds, United Kingdom");
        assert_eq!(h.links[0].url, "https://github.com/dokafor");
        assert!(block.rest.is_empty(), "{:?}", block.rest);
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
