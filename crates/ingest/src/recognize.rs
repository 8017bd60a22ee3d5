//! Board URL recognition: `recognize(url) -> Recognized{provider, board, region,
//! canonical_url}` for the twelve platforms' public careers URLs and API URLs (reference §3.5
//! modes `path`, `pathlocale`, `pathportal`, `subdomain`, `hostpath` and `apiBoards`).
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
    /// The board key.
    pub fn key(&self) -> Result<BoardKey, IngestError> {
        Ok(BoardKey::new(self.provider.clone(), &self.board, &self.region)?)
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

/// A path-segment board: unreserved URL characters only.
fn path_board(seg: Option<&&str>) -> Option<String> {
    let seg = seg?;
    let ok = !seg.is_empty()
        && seg.len() <= BoardKey::MAX_BOARD_LEN
        && seg.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'))
        && *seg != "."
        && *seg != "..";
    ok.then(|| (*seg).to_owned())
}

/// A tenant label: one DNS label that is not a platform label.
fn tenant_label(label: &str) -> Option<String> {
    let ok = (1..=63).contains(&label.len())
        && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !label.starts_with('-')
        && !label.ends_with('-')
        && !PLATFORM_LABELS.contains(&label);
    ok.then(|| label.to_owned())
}

/// `xx-XX` / `xx_XX` locale segments. A bare `xx` is not taken for a locale: it may be a
/// board.
fn is_locale(seg: &str) -> bool {
    let b = seg.as_bytes();
    b.len() == 5
        && b[..2].iter().all(u8::is_ascii_alphabetic)
        && matches!(b[2], b'-' | b'_')
        && b[3..].iter().all(u8::is_ascii_alphabetic)
}

fn provider(name: &str) -> Provider {
    #[allow(clippy::expect_used)] // constant provider keys from this module
    Provider::parse(name).expect("constant provider key")
}

fn found(name: &str, board: String, region: &str, canonical_url: String) -> Option<Recognized> {
    Some(Recognized { provider: provider(name), board, region: region.to_owned(), canonical_url })
}

/// Recognises a board from a careers or API URL. A scheme-less input is read as `https://`.
pub fn recognize(raw: &str) -> Result<Recognized, IngestError> {
    let trimmed = raw.trim();
    let with_scheme =
        if trimmed.contains("://") { trimmed.to_owned() } else { format!("https://{trimmed}") };
    let url = Url::parse(&with_scheme).map_err(|e| unrecognised(raw, &e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(unrecognised(raw, "not an http(s) URL"));
    }
    let host = url.host_str().ok_or_else(|| unrecognised(raw, "no host"))?.to_ascii_lowercase();
    let host = host.trim_end_matches('.');
    if host.split('.').any(str::is_empty) {
        return Err(unrecognised(raw, "malformed host"));
    }
    let segs: Vec<&str> =
        url.path_segments().map(|s| s.filter(|s| !s.is_empty()).collect()).unwrap_or_default();
    match_host(host, &segs, &url)
        .ok_or_else(|| unrecognised(raw, "not a known board URL of a supported platform"))
}

fn match_host(host: &str, segs: &[&str], url: &Url) -> Option<Recognized> {
    let host = host.strip_prefix("www.").unwrap_or(host);
    match host {
        "boards-api.greenhouse.io" => match segs {
            ["v1", "boards", b, ..] => greenhouse(path_board(Some(b))?),
            _ => None,
        },
        "boards.greenhouse.io" | "job-boards.greenhouse.io" => match segs {
            ["embed", ..] => {
                let b = url.query_pairs().find(|(k, _)| k == "for").map(|(_, v)| v.into_owned())?;
                greenhouse(path_board(Some(&b.as_str()))?)
            }
            [first, ..] => greenhouse(path_board(Some(first))?),
            [] => None,
        },
        "api.lever.co" | "api.eu.lever.co" => match segs {
            ["v0", "postings", b, ..] => lever(path_board(Some(b))?, host == "api.eu.lever.co"),
            _ => None,
        },
        "jobs.lever.co" | "jobs.eu.lever.co" => {
            lever(path_board(segs.first())?, host == "jobs.eu.lever.co")
        }
        "api.ashbyhq.com" => match segs {
            ["posting-api", "job-board", b, ..] => ashby(path_board(Some(b))?),
            _ => None,
        },
        "jobs.ashbyhq.com" => match segs.first() {
            Some(&"api") | None => None,
            first => ashby(path_board(first)?),
        },
        "api.smartrecruiters.com" => match segs {
            ["v1", "companies", b, ..] => smartrecruiters(path_board(Some(b))?),
            _ => None,
        },
        "jobs.smartrecruiters.com" | "careers.smartrecruiters.com" => match segs {
            ["oneclick-ui", "company", b, ..] => smartrecruiters(path_board(Some(b))?),
            [first, ..]
                if !["oneclick-ui", "sr-jobs", "api", "static", "search"].contains(first) =>
            {
                smartrecruiters(path_board(Some(first))?)
            }
            _ => None,
        },
        "apply.workable.com" => match segs {
            ["api", "v1", "widget", "accounts", b, ..] | ["api", "v3", "accounts", b, ..] => {
                workable(path_board(Some(b))?)
            }
            [first, ..] => workable(path_board(Some(first))?),
            _ => None,
        },
        "ats.rippling.com" => {
            let rest: &[&str] = match segs {
                ["api", "v1", "board", b, ..] => return rippling(path_board(Some(b))?),
                [loc, rest @ ..] if is_locale(loc) => rest,
                rest => rest,
            };
            match rest.first() {
                Some(&"api") | None => None,
                first => rippling(path_board(first)?),
            }
        }
        _ => subdomain_host(host, segs),
    }
}

fn subdomain_host(host: &str, segs: &[&str]) -> Option<Recognized> {
    if let Some(label) = host.strip_suffix(".recruitee.com") {
        let b = tenant_label(label)?;
        return found("recruitee", b.clone(), "", format!("https://{b}.recruitee.com"));
    }
    if let Some(label) =
        host.strip_suffix(".jobs.personio.com").or_else(|| host.strip_suffix(".jobs.personio.de"))
    {
        let b = tenant_label(label)?;
        return found("personio", b.clone(), "", format!("https://{b}.jobs.personio.com"));
    }
    if let Some(label) = host.strip_suffix(".bamboohr.com") {
        let b = tenant_label(label)?;
        return found("bamboohr", b.clone(), "", format!("https://{b}.bamboohr.com/careers"));
    }
    if let Some(label) = host.strip_suffix(".pinpointhq.com") {
        let b = tenant_label(label)?;
        return found("pinpoint", b.clone(), "", format!("https://{b}.pinpointhq.com"));
    }
    if let Some(label) = host.strip_suffix(".workable.com") {
        return workable(tenant_label(label)?);
    }
    if let Some(rest) = host.strip_suffix(".teamtailor.com") {
        // `<tenant>.teamtailor.com`, or a regional `<tenant>.na.teamtailor.com`.
        let labels: Vec<&str> = rest.split('.').collect();
        if labels.len() > 2 || labels.iter().any(|l| tenant_label(l).is_none()) {
            return None;
        }
        return found("teamtailor", host.to_owned(), "", format!("https://{host}/jobs"));
    }
    workday(host, segs)
}

fn workday(host: &str, segs: &[&str]) -> Option<Recognized> {
    let valid_host =
        |h: &str| h.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    if !valid_host(host) {
        return None;
    }
    if let Some(rest) = host.strip_suffix(".myworkdayjobs.com") {
        let mut labels = rest.split('.');
        let (Some(tenant), Some(dc), None) = (labels.next(), labels.next(), labels.next()) else {
            return None;
        };
        tenant_label(tenant)?;
        if !dc.starts_with("wd") {
            return None;
        }
        let site = match segs {
            ["wday", "cxs", t, site, ..] if t.eq_ignore_ascii_case(tenant) => {
                path_board(Some(site))?
            }
            [loc, site, ..] if is_locale(loc) => path_board(Some(site))?,
            [site, ..] if !is_locale(site) => path_board(Some(site))?,
            _ => return None,
        };
        return found("workday", format!("{host}/{site}"), "", format!("https://{host}/{site}"));
    }
    if let Some(dc) = host.strip_suffix(".myworkdaysite.com") {
        if !dc.starts_with("wd") || dc.contains('.') {
            return None;
        }
        let rest = match segs {
            [loc, rest @ ..] if is_locale(loc) => rest,
            rest => rest,
        };
        let (tenant, site) = match rest {
            ["recruiting", t, s, ..] | ["wday", "cxs", t, s, ..] => (*t, *s),
            _ => return None,
        };
        let tenant = tenant_label(tenant)?;
        let site = path_board(Some(&site))?;
        return found(
            "workday",
            format!("{host}/{tenant}/{site}"),
            "",
            format!("https://{host}/recruiting/{tenant}/{site}"),
        );
    }
    None
}

fn greenhouse(b: String) -> Option<Recognized> {
    found("greenhouse", b.clone(), "", format!("https://job-boards.greenhouse.io/{b}"))
}

fn lever(b: String, eu: bool) -> Option<Recognized> {
    if eu {
        found("lever", b.clone(), "eu", format!("https://jobs.eu.lever.co/{b}"))
    } else {
        found("lever", b.clone(), "", format!("https://jobs.lever.co/{b}"))
    }
}

fn ashby(b: String) -> Option<Recognized> {
    found("ashby", b.clone(), "", format!("https://jobs.ashbyhq.com/{b}"))
}

fn smartrecruiters(b: String) -> Option<Recognized> {
    found("smartrecruiters", b.clone(), "", format!("https://jobs.smartrecruiters.com/{b}"))
}

/// First path segments of `apply.workable.com` that are the site's own, never an account:
/// no URL form may name them as a board (its canonical URL would not be a board's).
const WORKABLE_RESERVED: &[&str] = &["j", "api", "careers"];

fn workable(b: String) -> Option<Recognized> {
    if WORKABLE_RESERVED.contains(&b.as_str()) {
        return None;
    }
    found("workable", b.clone(), "", format!("https://apply.workable.com/{b}"))
}

fn rippling(b: String) -> Option<Recognized> {
    found("rippling", b.clone(), "", format!("https://ats.rippling.com/{b}/jobs"))
}
