//! A posting's address as a job seeker pastes it (`GET /jobs/find?url=`): parsed at the edge
//! and canonicalised, then spelt in the few forms the catalogue may hold it in.
//!
//! Canonical: `https`, the host lowercased without a trailing dot or the default port, no
//! fragment, no tracking parameters (`utm_*`, `gh_src`, `source`, `ref`, `lever-source`,
//! `lever-origin`, `src`, `trk`, `fbclid`, `gclid`, `mc_cid`, `mc_eid`, `_hsenc`, `_hsmi`), and
//! no trailing `/` on the path. The other parameters stay, in their order: some boards name the
//! posting in the query (`?gh_jid=…`, `?id=…`). The catalogue stores the address its ATS gives,
//! so [`PostingUrl::forms`] spells the canonical one with and without `www.`, with and without
//! a trailing slash, and over `http`.

use freehire_domain::DomainError;
use url::Url;

/// The longest address accepted (characters).
pub const MAX_URL_LEN: usize = 2048;

/// Query parameters that only say where a click came from.
const TRACKING: &[&str] = &[
    "gh_src",
    "source",
    "ref",
    "lever-source",
    "lever-origin",
    "src",
    "trk",
    "fbclid",
    "gclid",
    "mc_cid",
    "mc_eid",
    "_hsenc",
    "_hsmi",
];

/// A canonicalised posting address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostingUrl {
    /// The host, lowercased, without `www.`.
    host: String,
    /// The path without a trailing slash (`""` for the root).
    path: String,
    /// The kept query (without `?`), if any.
    query: Option<String>,
}

impl PostingUrl {
    /// Parses and canonicalises `raw`: an absolute `http` or `https` address with a host.
    pub fn parse(raw: &str) -> Result<Self, DomainError> {
        let raw = raw.trim();
        let invalid = |reason| DomainError::Invalid { field: "url", value: raw.to_owned(), reason };
        if raw.is_empty() {
            return Err(invalid("is empty: give the posting's address"));
        }
        if raw.len() > MAX_URL_LEN {
            return Err(invalid("is longer than 2048 characters"));
        }
        let url = Url::parse(raw).map_err(|_| invalid("is not an absolute http(s) address"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(invalid("is not an absolute http(s) address"));
        }
        let host = url.host_str().ok_or_else(|| invalid("has no host"))?;
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let host = host.strip_prefix("www.").map_or(host.clone(), str::to_owned);
        let path = url.path().trim_end_matches('/').to_owned();
        let kept: Vec<(String, String)> = url
            .query_pairs()
            .filter(|(name, _)| {
                let name = name.to_ascii_lowercase();
                !name.starts_with("utm_") && !TRACKING.contains(&name.as_str())
            })
            .map(|(n, v)| (n.into_owned(), v.into_owned()))
            .collect();
        let query = (!kept.is_empty()).then(|| {
            url::form_urlencoded::Serializer::new(String::new()).extend_pairs(kept).finish()
        });
        Ok(Self { host, path, query })
    }

    /// The canonical address.
    pub fn canonical(&self) -> String {
        self.spelt("https", &self.host, false)
    }

    /// Every form the catalogue may store this address in, the canonical one first.
    pub fn forms(&self) -> Vec<String> {
        let www = format!("www.{}", self.host);
        let mut forms = Vec::with_capacity(8);
        for scheme in ["https", "http"] {
            for host in [self.host.as_str(), www.as_str()] {
                for slash in [false, true] {
                    let form = self.spelt(scheme, host, slash);
                    if !forms.contains(&form) {
                        forms.push(form);
                    }
                }
            }
        }
        forms
    }

    fn spelt(&self, scheme: &str, host: &str, slash: bool) -> String {
        let mut out = format!("{scheme}://{host}{}", self.path);
        if slash || self.path.is_empty() {
            out.push('/');
        }
        if let Some(query) = &self.query {
            out.push('?');
            out.push_str(query);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn tracking_fragments_case_and_slashes_fold_away() {
        let url = PostingUrl::parse(
            " HTTP://WWW.Jobs.Lever.co/acme/4f1c/?utm_source=x&lever-source=li#apply ",
        )
        .unwrap();
        assert_eq!(url.canonical(), "https://jobs.lever.co/acme/4f1c");
        let forms = url.forms();
        assert_eq!(forms.len(), 8);
        assert!(forms.contains(&"https://jobs.lever.co/acme/4f1c/".to_owned()));
        assert!(forms.contains(&"http://www.jobs.lever.co/acme/4f1c".to_owned()));
    }

    #[test]
    fn query_parameters_that_name_the_posting_stay() {
        let url = PostingUrl::parse("https://acme.com/careers?gh_jid=123&gh_src=abc&utm_medium=x")
            .unwrap();
        assert_eq!(url.canonical(), "https://acme.com/careers?gh_jid=123");
        let root = PostingUrl::parse("https://acme.com").unwrap();
        assert_eq!(root.canonical(), "https://acme.com/");
    }

    #[test]
    fn what_is_not_an_address_names_the_field() {
        for bad in ["", "   ", "acme.com/jobs/1", "ftp://acme.com/x", "mailto:a@b.c"] {
            let e = PostingUrl::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("invalid url"), "{bad}: {e}");
        }
        let long = format!("https://acme.com/{}", "a".repeat(MAX_URL_LEN));
        assert!(PostingUrl::parse(&long).is_err());
    }
}
