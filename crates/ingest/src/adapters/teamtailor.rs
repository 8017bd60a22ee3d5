//! Teamtailor: the career site's public JSON Feed, `GET {host}/jobs.json`, following
//! `next_url` on the same host (at most 1000 pages; reaching the cap is an error). Each item
//! carries a schema.org `JobPosting` (`_jobposting`): locations, countries, `jobLocationType`
//! `TELECOMMUTE`, employment type. The board is the career host; a bare tenant means
//! `<tenant>.teamtailor.com`. Paced. Not a full-listing provider: a later page failing ends
//! the walk with what was gathered.
//!
//! Our choice: the reference crawls the HTML pages and each detail page's ld+json; the feed
//! carries the same ld+json in one document per page, so no detail request is needed.
//!
//! Board URLs: `{tenant}.teamtailor.com` or a regional `{tenant}.na.teamtailor.com`; the
//! board is the career host.

use std::num::NonZeroU32;
use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;

use super::common::{
    add_location, build_url, country, employment_type, id_text, invalid_board, is_dns_label,
    join_non_empty, no_region,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::error_chain;
use crate::http::{HostPace, ProviderPolicy, non_zero};
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, tenant_label};
use crate::sanitize::decode_maybe_encoded_html;
use crate::source::{BoardTarget, Capabilities, Source};

const MAX_PAGES: usize = 1000;

/// Teamtailor's pace (the reference paces it without naming a rate; our choice): 2/s across
/// the provider, and 2/s (burst 2) per career host instead of the client's default.
const PER_SECOND: u32 = 2;

pub(crate) const PLATFORM: Platform = Platform {
    policy: ProviderPolicy {
        pace_per_second: NonZeroU32::new(PER_SECOND),
        host_pace: Some(HostPace::per_second(non_zero(PER_SECOND), non_zero(PER_SECOND))),
        rate_limit_backoff: false,
    },
    tenant_hosts: &[".teamtailor.com"],
    ..Platform::of::<Teamtailor>("teamtailor", |base| Arc::new(Teamtailor(base)))
};

pub(crate) struct Teamtailor(Base);

#[derive(Deserialize)]
struct Feed {
    #[serde(default)]
    items: Vec<Item>,
    next_url: Option<String>,
}

#[derive(Deserialize)]
struct Item {
    id: serde_json::Value,
    title: String,
    #[serde(default)]
    url: String,
    date_published: Option<String>,
    content_html: Option<String>,
    #[serde(rename = "_jobposting")]
    job_posting: Option<JobPosting>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JobPosting {
    identifier: Option<Identifier>,
    description: Option<String>,
    date_posted: Option<String>,
    job_location_type: Option<String>,
    employment_type: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "one_or_many")]
    job_location: Vec<Place>,
}

#[derive(Deserialize)]
struct Identifier {
    value: serde_json::Value,
}

#[derive(Deserialize)]
struct Place {
    address: Option<PostalAddress>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PostalAddress {
    address_locality: Option<String>,
    address_country: Option<serde_json::Value>,
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Place>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        // `Many` first: a derived struct also accepts a sequence.
        Many(Vec<Place>),
        One(Place),
    }
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::One(p)) => vec![p],
        Some(OneOrMany::Many(v)) => v,
    })
}

/// The career host of a board: `acme` → `acme.teamtailor.com`; a host is kept as it is.
pub(crate) fn career_host(board: &str) -> Result<String, IngestError> {
    let board = board.trim().to_ascii_lowercase();
    // DNS labels of letters, digits and `-`, a top-level label that is not numeric: never an
    // IP literal, so the board names a host and never an address.
    let labels: Vec<&str> = board.split('.').collect();
    let valid = board.len() <= 253
        && labels.iter().all(|l| is_dns_label(l))
        && labels.last().is_some_and(|tld| !tld.bytes().all(|b| b.is_ascii_digit()));
    if !valid {
        return Err(invalid_board("teamtailor", &board, "must be a career host or a tenant"));
    }
    Ok(if board.contains('.') { board } else { format!("{board}.teamtailor.com") })
}

fn country_text(v: &serde_json::Value) -> Option<&str> {
    v.as_str().or_else(|| v.get("name").and_then(serde_json::Value::as_str))
}

fn posting(item: Item) -> Option<RawPosting> {
    let jp = item.job_posting;
    let native_id = jp
        .as_ref()
        .and_then(|j| j.identifier.as_ref())
        .and_then(|i| id_text(&i.value))
        .or_else(|| id_text(&item.id))?;
    let mut location = String::new();
    let mut countries = Vec::new();
    for place in jp.iter().flat_map(|j| &j.job_location) {
        let Some(a) = &place.address else { continue };
        let cc = a.address_country.as_ref().and_then(country_text);
        add_location(
            &mut location,
            &join_non_empty(
                [a.address_locality.as_deref().unwrap_or_default(), cc.unwrap_or_default()],
                ", ",
            ),
        );
        countries.extend(cc.and_then(country));
    }
    let remote = jp
        .as_ref()
        .and_then(|j| j.job_location_type.as_deref())
        .map(|t| t.eq_ignore_ascii_case("TELECOMMUTE"));
    let employment = jp
        .as_ref()
        .and_then(|j| j.employment_type.as_ref())
        .and_then(|e| e.as_str().or_else(|| e.get(0).and_then(serde_json::Value::as_str)))
        .and_then(employment_type);
    // The feed's `content_html` is HTML; an ld+json description may be entity-encoded.
    let html = match item.content_html.filter(|h| !h.trim().is_empty()) {
        Some(h) => h,
        None => jp
            .as_ref()
            .and_then(|j| j.description.as_deref())
            .map(decode_maybe_encoded_html)
            .unwrap_or_default(),
    };
    let posted = item.date_published.or_else(|| jp.as_ref().and_then(|j| j.date_posted.clone()));
    let mut p = RawPosting {
        native_id,
        url: item.url,
        title: item.title.trim().to_owned(),
        location,
        description_html: html,
        posted_at: posted.map(RawDate::Text),
        remote: remote.filter(|r| *r),
        work_mode: (remote == Some(true)).then_some(freehire_domain::WorkMode::Remote),
        employment_type: employment,
        countries,
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

#[async_trait::async_trait]
impl Source for Teamtailor {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: false }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        career_host(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        // `<tenant>.teamtailor.com`, or a regional `<tenant>.na.teamtailor.com`.
        let host = url.host();
        let labels: Vec<&str> = host.strip_suffix(".teamtailor.com")?.split('.').collect();
        if labels.len() > 2 || labels.iter().any(|l| tenant_label(l).is_none()) {
            return None;
        }
        Some(BoardMatch::new(host, format!("https://{host}/jobs")))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let host = career_host(&board.key.board)?;
        let mut url = build_url(&host, &["jobs.json"], &[])?;
        let mut listing = BoardListing::default();
        for page_no in 0..MAX_PAGES {
            let feed = match self.0.http.get_json::<Feed>(&url).await {
                Ok(feed) => feed,
                Err(e) if page_no == 0 => return Err(e.board_gone_on_404(&host)),
                // Not a full-listing provider: a later page failing ends the walk with what
                // was gathered (reference §3.4).
                Err(e) => {
                    tracing::debug!(
                        board = %host,
                        page_no,
                        error = %error_chain(&e),
                        "teamtailor page failed",
                    );
                    return Ok(listing);
                }
            };
            let before = listing.postings.len();
            for p in feed.items.into_iter().filter_map(posting) {
                if !listing.postings.iter().any(|q| q.native_id == p.native_id) {
                    listing.postings.push(p);
                }
            }
            let next = feed.next_url.as_deref().and_then(|n| url.join(n).ok());
            match next {
                Some(n)
                    if n.host_str() == Some(host.as_str()) && listing.postings.len() > before =>
                {
                    url = n;
                }
                _ => return Ok(listing),
            }
        }
        Err(IngestError::Incomplete {
            board: host,
            reason: format!("more than {MAX_PAGES} feed pages"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn career_hosts() {
        assert_eq!(career_host("acme").unwrap(), "acme.teamtailor.com");
        assert_eq!(career_host("Careers.Acme.com").unwrap(), "careers.acme.com");
        assert!(career_host("evil.com/x").is_err());
        assert!(career_host("a@b").is_err());
        for bad in ["127.0.0.1", "169.254.169.254", "a..b", ".a", "a.", "-a.com", "0x7f.1"] {
            assert!(career_host(bad).is_err(), "{bad}");
        }
    }
}
