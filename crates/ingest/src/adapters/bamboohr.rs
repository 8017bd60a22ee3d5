//! BambooHR: `GET {b}.bamboohr.com/careers/list`, then `GET …/careers/{id}/detail` per posting
//! for the share URL, description, date and address. A redirect away from
//! `<b>.bamboohr.com/careers` means the board is gone. Work mode from `locationType`
//! (0 onsite, 1 remote, 2 hybrid) or `isRemote`. Hydrating.
//!
//! Board URLs: `{b}.bamboohr.com`; the board is one DNS label.

use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use serde_json::Value;

use super::common::{
    add_location, build_url, country, employment_type, host_label, host_label_board, hydrate,
    id_text, join_non_empty,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    tenant_hosts: &[".bamboohr.com"],
    ..Platform::of::<BambooHr>("bamboohr", |base| Arc::new(BambooHr(base)))
};

pub(crate) struct BambooHr(Base);

#[derive(Deserialize)]
struct List {
    #[serde(default)]
    result: Vec<Item>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Item {
    id: Value,
    job_opening_name: String,
    department_label: Option<String>,
    employment_status_label: Option<String>,
    location: Option<Location>,
    ats_location: Option<Location>,
    is_remote: Option<bool>,
    location_type: Option<Value>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(rename_all = "camelCase")]
struct Location {
    city: Option<String>,
    state: Option<String>,
    country: Option<String>,
    address_country: Option<String>,
}

#[derive(Deserialize)]
struct DetailDoc {
    result: DetailResult,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DetailResult {
    job_opening: Opening,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Opening {
    job_opening_share_url: Option<String>,
    description: Option<String>,
    date_posted: Option<String>,
    location: Option<Location>,
    ats_location: Option<Location>,
}

fn loc_text(l: Option<&Location>) -> String {
    let Some(l) = l else { return String::new() };
    let country = l.address_country.as_deref().or(l.country.as_deref()).unwrap_or_default();
    join_non_empty(
        [l.city.as_deref().unwrap_or_default(), l.state.as_deref().unwrap_or_default(), country],
        ", ",
    )
}

fn loc_country(l: Option<&Location>) -> Option<freehire_domain::CountryCode> {
    let l = l?;
    l.address_country.as_deref().or(l.country.as_deref()).and_then(country)
}

fn mode(item: &Item) -> Option<freehire_domain::WorkMode> {
    use freehire_domain::WorkMode as W;
    let code = item.location_type.as_ref().and_then(|v| match v {
        Value::String(s) => s.trim().parse::<u8>().ok(),
        Value::Number(n) => n.as_u64().and_then(|n| u8::try_from(n).ok()),
        _ => None,
    });
    match code {
        Some(1) => Some(W::Remote),
        Some(2) => Some(W::Hybrid),
        Some(0) if item.is_remote != Some(true) => Some(W::Onsite),
        _ => (item.is_remote == Some(true)).then_some(W::Remote),
    }
}

fn from_listing(board: &str, id: &str, item: &Item) -> RawPosting {
    let work_mode = mode(item);
    let mut location = String::new();
    add_location(&mut location, &loc_text(item.location.as_ref()));
    RawPosting {
        native_id: id.to_owned(),
        url: format!("https://{board}.bamboohr.com/careers/{id}"),
        title: item.job_opening_name.trim().to_owned(),
        location,
        remote: work_mode.map(|m| m == freehire_domain::WorkMode::Remote),
        work_mode,
        employment_type: item.employment_status_label.as_deref().and_then(employment_type),
        countries: loc_country(item.ats_location.as_ref()).into_iter().collect(),
        departments: item.department_label.iter().map(|d| d.trim().to_owned()).collect(),
        ..RawPosting::default()
    }
}

impl BambooHr {
    async fn detail(&self, board: &str, id: String, item: Item) -> Result<RawPosting, IngestError> {
        let url = build_url(&format!("{board}.bamboohr.com"), &["careers", &id, "detail"], &[])?;
        let doc: DetailDoc = self.0.http.get_json(&url).await?;
        let o = doc.result.job_opening;
        let mut p = from_listing(board, &id, &item);
        if let Some(u) = o.job_opening_share_url.filter(|u| !u.trim().is_empty()) {
            p.url = u;
        }
        p.description_html = o.description.unwrap_or_default();
        p.posted_at = o.date_posted.map(RawDate::Text);
        let detail_loc = loc_text(o.location.as_ref());
        if !detail_loc.is_empty() {
            p.location = detail_loc;
        }
        p.countries.extend(loc_country(o.location.as_ref()));
        p.countries.extend(loc_country(o.ats_location.as_ref()));
        p.canonicalize();
        Ok(p)
    }
}

#[async_trait::async_trait]
impl Source for BambooHr {
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
        let board = url.tenant(".bamboohr.com")?;
        let canonical = format!("https://{board}.bamboohr.com/careers");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = host_label(self.0.provider.as_str(), &board.key.board)?;
        let host = format!("{b}.bamboohr.com");
        let url = build_url(&host, &["careers", "list"], &[])?;
        let fetched =
            self.0.http.get(&url, "application/json").await.map_err(|e| e.board_gone_on_404(b))?;
        let on_board = fetched.url.host_str().is_some_and(|h| h.eq_ignore_ascii_case(&host))
            && fetched.url.path().starts_with("/careers");
        if !on_board {
            return Err(IngestError::BoardGone {
                board: b.to_owned(),
                reason: format!("redirected to {}", fetched.url),
            });
        }
        let list: List = crate::http::decode_json(&fetched)?;
        let listed =
            list.result.into_iter().filter_map(|item| Some((id_text(&item.id)?, item))).collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |id, item| self.detail(b, id, item)).await)
    }
}
