//! Breezy HR: the careers site's public JSON list, then each position page's schema.org
//! `JobPosting` for the description.
//!
//! - Listing: `GET https://{b}.breezy.hr/json`, one document (reference §13.2): id,
//!   friendly_id, name, url, published_date, type, department, location (name, city,
//!   state, country {id, name}, is_remote), and `locations` where a position has several.
//! - Detail: `GET https://{b}.breezy.hr/p/{friendly_id}`, its ld+json `JobPosting`: the
//!   description, and `baseSalary` / `employmentType` where the list states none (the list's
//!   `salary` is free text, left to the normaliser). Hydrating.
//!
//! A full-listing provider: the list is one document, so its failure fails the board and a
//! 404 is a gone board. Board: the subdomain (`acme.breezy.hr` ≡ `acme`). Recognition (mode
//! `subdomain`): `{b}.breezy.hr[/…]`.
//!
//! Unproven: no recorded Breezy response under a compatible licence was found; the test
//! fixtures (`tests/fixtures/breezy/`) are constructed from the reference's field list and
//! schema.org `JobPosting` (see their `ATTRIBUTION.md`).

use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use serde_json::Value;

use super::common::{
    add_location, build_url, country, employment_type, host_label, host_label_board, hydrate,
    id_text, is_path_segment, join_non_empty, mode_from_flags,
};
use super::htmlpage::from_job_posting;
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    tenant_hosts: &[".breezy.hr"],
    parsers: &[("breezy.detail", parse_detail), ("breezy.listing", parse_listing)],
    ..Platform::of::<Breezy>("breezy", |base| Arc::new(Breezy(base)))
};

pub(crate) struct Breezy(Base);

#[derive(Deserialize, Clone)]
struct Position {
    id: Value,
    friendly_id: Option<String>,
    name: Option<String>,
    url: Option<String>,
    published_date: Option<String>,
    #[serde(rename = "type")]
    kind: Option<Named>,
    department: Option<Value>,
    location: Option<Location>,
    #[serde(default)]
    locations: Vec<Location>,
}

#[derive(Deserialize, Clone)]
struct Named {
    id: Option<Value>,
    name: Option<String>,
}

#[derive(Deserialize, Clone)]
struct Location {
    name: Option<String>,
    city: Option<String>,
    state: Option<Value>,
    country: Option<Value>,
    is_remote: Option<bool>,
}

/// A value that is a string or `{name}`.
fn name_of(v: Option<&Value>) -> Option<&str> {
    let v = v?;
    v.as_str()
        .or_else(|| v.get("name").and_then(Value::as_str))
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The country of a location: its ISO `id`, else its name.
fn country_of(loc: &Location) -> Option<freehire_domain::CountryCode> {
    let c = loc.country.as_ref()?;
    c.get("id")
        .and_then(Value::as_str)
        .and_then(country)
        .or_else(|| name_of(Some(c)).and_then(country))
}

fn location_text(loc: &Location) -> String {
    match loc.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => n.to_owned(),
        None => join_non_empty(
            [loc.city.as_deref(), name_of(loc.state.as_ref()), name_of(loc.country.as_ref())]
                .into_iter()
                .flatten(),
            ", ",
        ),
    }
}

/// A position of the list as a posting (no description yet).
fn posting(board_url: &str, pos: Position) -> Option<(String, RawPosting)> {
    let id = id_text(&pos.id)?;
    let mut locations: Vec<&Location> = pos.location.iter().collect();
    locations.extend(&pos.locations);
    let mut location = String::new();
    let mut countries = Vec::new();
    for loc in &locations {
        add_location(&mut location, &location_text(loc));
        countries.extend(country_of(loc));
    }
    // Remote when every stated location is remote; on-site/hybrid is not stated by a flag.
    let remote =
        (!locations.is_empty()).then(|| locations.iter().all(|l| l.is_remote == Some(true)));
    let kind = pos.kind.as_ref();
    let employment = kind
        .and_then(|k| k.id.as_ref().and_then(Value::as_str))
        .and_then(employment_type)
        .or_else(|| kind.and_then(|k| k.name.as_deref()).and_then(employment_type));
    let url = pos
        .url
        .filter(|u| u.starts_with(&format!("{board_url}/")))
        .or_else(|| pos.friendly_id.as_ref().map(|f| format!("{board_url}/p/{f}")))
        .unwrap_or_default();
    let mut p = RawPosting {
        native_id: id.clone(),
        url,
        title: pos.name.unwrap_or_default().trim().to_owned(),
        location,
        posted_at: pos.published_date.map(RawDate::Text),
        remote: remote.filter(|r| *r),
        work_mode: mode_from_flags(remote, None),
        employment_type: employment,
        countries,
        departments: name_of(pos.department.as_ref()).map(str::to_owned).into_iter().collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some((id, p))
}

/// The position page's JobPosting folded into the listed posting: its description, and its
/// salary / employment type where the list gives none. A page without one leaves the listed
/// posting as it is (without a description).
fn with_page(mut p: RawPosting, page: &str) -> RawPosting {
    let Some(jp) = super::ldjson::job_posting(page) else { return p };
    let ld = from_job_posting(&jp);
    p.description_html = ld.description_html;
    p.salary = ld.salary;
    p.employment_type = p.employment_type.or(ld.employment_type);
    if p.posted_at.is_none() {
        p.posted_at = ld.posted_at;
    }
    p
}

/// The list decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(list) = serde_json::from_slice::<Vec<Position>>(bytes) {
        list.into_iter().filter_map(|p| posting("https://acme.breezy.hr", p)).for_each(drop);
    }
}

/// A position page mapped as `fetch` maps it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    drop(with_page(RawPosting::default(), &String::from_utf8_lossy(bytes)));
}

impl Breezy {
    async fn detail(
        &self,
        host: &str,
        friendly: Option<String>,
        listed: RawPosting,
    ) -> Result<RawPosting, IngestError> {
        let friendly =
            friendly.filter(|f| is_path_segment(f)).ok_or_else(|| IngestError::Decode {
                url: listed.url.clone(),
                format: "JSON",
                source: "the position has no usable friendly_id".into(),
            })?;
        let url = build_url(host, &["p", &friendly], &[])?;
        let fetched = self.0.http.get(&url, "text/html").await?;
        let page = String::from_utf8_lossy(&fetched.body);
        Ok(with_page(listed, &page))
    }
}

#[async_trait::async_trait]
impl Source for Breezy {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        host_label_board(key)
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = url.tenant(".breezy.hr")?;
        let canonical = format!("https://{board}.breezy.hr");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = host_label(self.0.provider.as_str(), &board.key.board)?;
        let host = format!("{}.breezy.hr", b.to_ascii_lowercase());
        let url = build_url(&host, &["json"], &[])?;
        let list: Vec<Position> = self.0.listing(&url, b).await?;
        let board_url = format!("https://{host}");
        let listed = list
            .into_iter()
            .filter_map(|pos| {
                let friendly = pos.friendly_id.clone();
                posting(&board_url, pos).map(|(id, p)| (id, (friendly, p)))
            })
            .collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |_, (friendly, p)| self.detail(&host, friendly, p))
            .await)
    }
}
