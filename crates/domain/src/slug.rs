//! Slugs and company keys (reference §3.12), and the newtypes that carry them.
//!
//! - [`slugify`]: transliterate to ASCII, lowercase, runs of non-alphanumerics → `-`, trim.
//! - [`company_slug`]: drop apostrophes, split on word breaks (anything but letters, digits,
//!   `.` and `/`), drop trailing legal-form words repeatedly (never reducing a one-word name),
//!   then [`slugify`].
//! - [`company_key`]: the company slug without hyphens (`company_slug_folded`).
//! - [`job_slug`]: `slug(title)-slug(company)-<shortcode>`, the shortcode being the first 8
//!   characters of lowercase unpadded RFC 4648 base32 of SHA-256(source ‖ 0x00 ‖ external_id).

use sha2::{Digest, Sha256};

use crate::DomainError;

/// Legal-form words dropped from the end of a company name, compared by ASCII letters only.
const LEGAL_FORMS: &[&str] = &[
    "corporation",
    "limited",
    "gmbh",
    "corp",
    "llc",
    "ltd",
    "inc",
    "incorporated",
    "plc",
    "llp",
    "lp",
    "cic",
    "cio",
    "srl",
    "pty",
    "pte",
    "bv",
    "nv",
    "aps",
    "ab",
    "ag",
    "kg",
    "oy",
    "sa",
    "as",
    "se",
    "co",
];

/// Length of the public-slug shortcode.
pub const SHORTCODE_LEN: usize = 8;

/// `Slug(name)`: ASCII transliteration, lowercase, non-alphanumeric runs become one `-`,
/// hyphens trimmed. `slugify("Яндекс") == "iandeks"`.
pub fn slugify(name: &str) -> String {
    let ascii = deunicode::deunicode(name);
    let mut out = String::with_capacity(ascii.len());
    let mut pending_dash = false;
    for c in ascii.chars() {
        if c.is_ascii_alphanumeric() {
            if pending_dash && !out.is_empty() {
                out.push('-');
            }
            pending_dash = false;
            out.push(c.to_ascii_lowercase());
        } else {
            pending_dash = true;
        }
    }
    out
}

/// `CompanySlug(name)`: the company's URL key, legal forms stripped.
pub fn company_slug(name: &str) -> String {
    let without_apostrophes: String =
        name.chars().filter(|c| !matches!(c, '\'' | '’' | '`' | 'ʼ')).collect();
    let mut words: Vec<&str> = without_apostrophes
        .split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '/'))
        .filter(|w| !w.is_empty())
        .collect();
    while words.len() > 1 {
        let Some(last) = words.last() else { break };
        let letters: String = last
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if LEGAL_FORMS.contains(&letters.as_str()) {
            words.pop();
        } else {
            break;
        }
    }
    slugify(&words.join(" "))
}

/// `CompanyKey(name)`: the company slug with hyphens removed, for folding spelling variants.
pub fn company_key(name: &str) -> String {
    company_slug(name).replace('-', "")
}

/// The 8-character public-slug shortcode of a job's identity.
pub fn shortcode(source: &str, external_id: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(source.as_bytes());
    hasher.update([0u8]);
    hasher.update(external_id.as_bytes());
    let digest = hasher.finalize();
    let mut code = data_encoding::BASE32_NOPAD.encode(&digest).to_ascii_lowercase();
    code.truncate(SHORTCODE_LEN);
    code
}

/// `JobSlug(title, company, source, external_id)`: the job's public address.
pub fn job_slug(title: &str, company: &str, source: &str, external_id: &str) -> PublicSlug {
    let mut slug = String::new();
    for part in [slugify(title), slugify(company)] {
        if !part.is_empty() {
            slug.push_str(&part);
            slug.push('-');
        }
    }
    slug.push_str(&shortcode(source, external_id));
    PublicSlug(slug)
}

fn is_slug_shaped(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A job's public address: lowercase ASCII letters, digits and single hyphens, ending in an
/// 8-character shortcode.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct PublicSlug(String);

impl PublicSlug {
    /// Longest slug accepted from a request.
    pub const MAX_LEN: usize = 512;

    /// Parses a slug from a request path or a stored row.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        if raw.len() > Self::MAX_LEN {
            return Err(DomainError::invalid("slug", raw, "is longer than 512 characters"));
        }
        let shortcode_ok = raw.rsplit('-').next().is_some_and(|s| s.len() == SHORTCODE_LEN);
        if !is_slug_shaped(raw) || !shortcode_ok {
            return Err(DomainError::invalid(
                "slug",
                raw,
                "must be lowercase letters, digits and single hyphens, ending in an 8-character code",
            ));
        }
        Ok(Self(raw.to_owned()))
    }

    /// The slug text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for PublicSlug {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A company's URL key as made by [`company_slug`]. May be empty for a job with no company.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(transparent)]
pub struct CompanySlug(String);

impl CompanySlug {
    /// The slug of a company name.
    pub fn of(company: &str) -> Self {
        Self(company_slug(company))
    }

    /// Parses an already-made slug (from a path or a stored row).
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        if raw.is_empty() || is_slug_shaped(raw) {
            Ok(Self(raw.to_owned()))
        } else {
            Err(DomainError::invalid(
                "company_slug",
                raw,
                "must be lowercase letters, digits and single hyphens",
            ))
        }
    }

    /// The slug text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The folded key (`company_slug_folded`): the slug without hyphens.
    pub fn folded(&self) -> String {
        self.0.replace('-', "")
    }
}

impl std::fmt::Display for CompanySlug {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_vectors() {
        assert_eq!(
            job_slug("Senior Go Developer", "Acme", "manual", "42").as_str(),
            "senior-go-developer-acme-t35nijto"
        );
        assert_eq!(slugify("Яндекс"), "iandeks");
        assert_eq!(company_slug("Acme Labs, Inc."), "acme-labs");
        assert_eq!(company_key("Acme Labs, Inc."), "acmelabs");
        assert_eq!(company_slug("Acme GmbH & Co. KG"), "acme");
        assert_eq!(company_slug("Volvo AB"), "volvo");
        assert_eq!(company_slug("AB InBev"), "ab-inbev");
        assert_eq!(company_slug("Inc"), "inc");
        assert_eq!(company_slug("O'Reilly Media"), "oreilly-media");
        assert_eq!(company_slug("Booking.com"), "booking-com");
    }

    #[test]
    fn shortcode_worked_vectors() {
        // SHA-256("manual\0" "42") base32 → first 8 chars, lowercase.
        assert_eq!(shortcode("manual", "42"), "t35nijto");
        // The NUL separator matters: ("ab", "c") and ("a", "bc") differ.
        assert_ne!(shortcode("ab", "c"), shortcode("a", "bc"));
        let code = shortcode("greenhouse", "acme:4012345");
        assert_eq!(code.len(), 8);
        assert!(code.bytes().all(|b| b.is_ascii_lowercase() || (b'2'..=b'7').contains(&b)));
    }

    #[test]
    fn empty_company_has_no_segment() {
        let slug = job_slug("Data Engineer", "", "manual", "42");
        assert_eq!(slug.as_str(), "data-engineer-t35nijto");
        let slug = job_slug("", "", "manual", "42");
        assert_eq!(slug.as_str(), "t35nijto");
    }

    #[test]
    fn slugify_collapses_and_trims() {
        assert_eq!(slugify("  C++ / Rust -- Engineer!! "), "c-rust-engineer");
        assert_eq!(slugify("München"), "munchen");
        assert_eq!(slugify("---"), "");
    }

    #[test]
    fn public_slug_parsing() {
        assert!(PublicSlug::parse("senior-go-developer-acme-t35nijto").is_ok());
        assert!(PublicSlug::parse("t35nijto").is_ok());
        for bad in
            ["", "Senior-dev-t35nijto", "a--b-t35nijto", "dev-t35", "dev-t35nijto-", "x y-t35nijto"]
        {
            assert!(PublicSlug::parse(bad).is_err(), "{bad:?} should be rejected");
        }
        let err = PublicSlug::parse("../etc").unwrap_err().to_string();
        assert!(err.contains("slug"), "{err}");
    }
}
