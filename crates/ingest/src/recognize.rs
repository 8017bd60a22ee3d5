//! Board URL recognition: `recognize(url) -> Recognized{provider, board, region,
//! canonical_url}` for the registered platforms' public careers URLs and API URLs (reference
//! §3.5 modes `path`, `pathlocale`, `pathportal`, `subdomain`, `hostpath` and `apiBoards`).
//!
//! The URL is parsed once into a [`BoardUrl`]; each platform's own [`crate::Source::recognize`]
//! (in its adapter file) reads it, and the first that answers wins (the platforms' hosts are
//! disjoint, so the order does not matter). This module keeps only what every recogniser
//! shares: the parse and the segment/label rules below. Pure and offline: no request, no
//! client configuration.
//!
//! Anything not matched is [`IngestError::Unrecognised`]: never a guess. Platform-own labels
//! (`www.`, `app.`, `help.`, `api.` …) are never tenants.

use freehire_domain::{BoardKey, Provider};
use url::Url;

use crate::IngestError;

/// A recognised board.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Recognized {
    /// The platform.
    pub provider: Provider,
    /// The board key on that platform.
    pub board: String,
    /// The provider region (`eu` for Lever's EU host), or empty.
    pub region: String,
    /// The board's public careers URL.
    pub canonical_url: String,
}

impl Recognized {
    /// The board key, checked by the platform's board rule ([`crate::validate_board`]).
    pub fn key(&self) -> Result<BoardKey, IngestError> {
        let key = BoardKey::new(self.provider.clone(), &self.board, &self.region)?;
        crate::validate_board(&key)?;
        Ok(key)
    }
}

/// What one platform's recogniser found: the board, its region and its canonical URL (the
/// provider is the platform's own key, added by [`recognize`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardMatch {
    /// The board key on the platform.
    pub board: String,
    /// The provider region, or empty.
    pub region: String,
    /// The board's public careers URL.
    pub canonical_url: String,
}

impl BoardMatch {
    /// A board without a region.
    pub fn new(board: impl Into<String>, canonical_url: impl Into<String>) -> Self {
        Self { board: board.into(), region: String::new(), canonical_url: canonical_url.into() }
    }

    /// The same board in `region`.
    pub fn in_region(self, region: &str) -> Self {
        Self { region: region.to_owned(), ..self }
    }
}

/// A careers or API URL as every recogniser reads it: the lowercase host without a leading
/// `www.` or a trailing dot, and the non-empty path segments.
#[derive(Debug)]
pub struct BoardUrl<'a> {
    url: &'a Url,
    host: &'a str,
    segments: Vec<&'a str>,
}

impl<'a> BoardUrl<'a> {
    /// The host: lowercase, without `www.` and without a trailing dot.
    pub fn host(&self) -> &'a str {
        self.host
    }

    /// The non-empty path segments, as written.
    pub fn segments(&self) -> &[&'a str] {
        &self.segments
    }

    /// The value of the first query parameter `name`.
    pub fn query(&self, name: &str) -> Option<String> {
        self.url.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned())
    }

    /// The tenant of a `<tenant><suffix>` host (`acme` of `acme.recruitee.com`): one DNS label
    /// that is not a platform label.
    pub fn tenant(&self, suffix: &str) -> Option<String> {
        tenant_label(self.host.strip_suffix(suffix)?)
    }
}

/// Subdomain labels that belong to a platform itself, never to a tenant.
const PLATFORM_LABELS: &[&str] = &[
    "www",
    "app",
    "apps",
    "api",
    "help",
    "support",
    "status",
    "docs",
    "developers",
    "developer",
    "blog",
    "resources",
    "marketplace",
    "partners",
    "partner",
    "login",
    "admin",
    "cdn",
    "static",
    "assets",
    "mail",
    "jobs",
    "apply",
    "careers",
    "community",
    "academy",
    "info",
    "go",
    "get",
    "hire",
    "ats",
];

fn unrecognised(url: &str, reason: &str) -> IngestError {
    IngestError::Unrecognised { url: url.to_owned(), reason: reason.to_owned() }
}

/// A path-segment board: the rule board validation applies
/// ([`crate::adapters::common::is_path_segment`]).
pub(crate) fn path_board(seg: &str) -> Option<String> {
    crate::adapters::common::is_path_segment(seg).then(|| seg.to_owned())
}

/// A tenant label: one DNS label that is not a platform label.
pub(crate) fn tenant_label(label: &str) -> Option<String> {
    let ok = crate::adapters::common::is_dns_label(label) && !PLATFORM_LABELS.contains(&label);
    ok.then(|| label.to_owned())
}

/// `xx-XX` / `xx_XX` locale segments. A bare `xx` is not taken for a locale: it may be a
/// board.
pub(crate) fn is_locale(seg: &str) -> bool {
    let b = seg.as_bytes();
    b.len() == 5
        && b[..2].iter().all(u8::is_ascii_alphabetic)
        && matches!(b[2], b'-' | b'_')
        && b[3..].iter().all(u8::is_ascii_alphabetic)
}

/// Recognises a board from a careers or API URL. A scheme-less input is read as `https://`.
pub fn recognize(raw: &str) -> Result<Recognized, IngestError> {
    let trimmed = raw.trim();
    if let Some(scheme) = scheme_of(trimmed)
        && !matches!(scheme.as_str(), "http" | "https")
    {
        return Err(unrecognised(
            raw,
            &format!("scheme {scheme:?} is not a web address (only http and https)"),
        ));
    }
    let with_scheme =
        if trimmed.contains("://") { trimmed.to_owned() } else { format!("https://{trimmed}") };
    let url = Url::parse(&with_scheme).map_err(|e| unrecognised(raw, &e.to_string()))?;
    let host = url.host_str().ok_or_else(|| unrecognised(raw, "no host"))?.to_ascii_lowercase();
    let host = host.trim_end_matches('.');
    if host.split('.').any(str::is_empty) {
        return Err(unrecognised(raw, "malformed host"));
    }
    let segments: Vec<&str> =
        url.path_segments().map(|s| s.filter(|s| !s.is_empty()).collect()).unwrap_or_default();
    let board_url =
        BoardUrl { url: &url, host: host.strip_prefix("www.").unwrap_or(host), segments };
    crate::adapters::PLATFORMS
        .iter()
        .find_map(|platform| {
            let found = (platform.recognize)(&board_url)?;
            let BoardMatch { board, region, canonical_url } = found;
            Some(Recognized { provider: platform.provider(), board, region, canonical_url })
        })
        .ok_or_else(|| unrecognised(raw, "not a known board URL of a supported platform"))
        .and_then(|r| match r.key() {
            Ok(_) => Ok(r),
            Err(e) => Err(unrecognised(raw, &e.to_string())),
        })
}

/// The lowercase scheme an input names, if it names one: `javascript` of `javascript:alert(1)`,
/// `https` of `https://…`. `host:port` (`jobs.lever.co:443/acme`) is a host, not a scheme: the
/// colon is followed by a digit.
fn scheme_of(input: &str) -> Option<String> {
    let (scheme, rest) = input.split_once(':')?;
    let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        && (rest.starts_with("//") || !rest.starts_with(|c: char| c.is_ascii_digit()));
    is_scheme.then(|| scheme.to_ascii_lowercase())
}
