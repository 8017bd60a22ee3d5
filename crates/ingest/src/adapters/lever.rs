//! Lever: one request, `GET api.lever.co/v0/postings/{b}?mode=json` (region `eu`:
//! `api.eu.lever.co`). The description is `description` + each `lists[]` section +
//! `additional`; salary from `salaryRange`, work mode from `workplaceType`, country from the
//! alpha-2 `country`.
//!
//! Board URLs: `jobs.lever.co/{b}` / `jobs.eu.lever.co/{b}` and the API URLs; the only
//! provider with a region (`eu`).

use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;

use super::common::{
    build_url, country, employment_type, invalid_board, path_segment, salary, workplace_mode,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, path_board};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform::of::<Lever>("lever", |base| Arc::new(Lever(base)));

pub(crate) struct Lever(Base);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Posting {
    id: String,
    text: String,
    #[serde(default)]
    hosted_url: String,
    created_at: Option<i64>,
    description: Option<String>,
    #[serde(default)]
    lists: Vec<Section>,
    additional: Option<String>,
    workplace_type: Option<String>,
    country: Option<String>,
    #[serde(default)]
    categories: Categories,
    salary_range: Option<SalaryRange>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Categories {
    location: Option<String>,
    commitment: Option<String>,
    team: Option<String>,
    department: Option<String>,
    #[serde(default)]
    all_locations: Vec<String>,
}

#[derive(Deserialize)]
struct Section {
    text: Option<String>,
    content: Option<String>,
}

#[derive(Deserialize)]
struct SalaryRange {
    min: Option<f64>,
    max: Option<f64>,
    currency: Option<String>,
    interval: Option<String>,
}

/// The API host for a region.
fn api_host(provider: &str, board: &str, region: &str) -> Result<&'static str, IngestError> {
    match region {
        "" => Ok("api.lever.co"),
        "eu" => Ok("api.eu.lever.co"),
        _ => Err(invalid_board(provider, board, "region must be empty or \"eu\"")),
    }
}

fn posting(p: Posting) -> RawPosting {
    let mut html = p.description.unwrap_or_default();
    for s in &p.lists {
        let title = html_escape::encode_text(s.text.as_deref().unwrap_or_default());
        html.push_str(&format!("<h3>{title}</h3><ul>{}</ul>", s.content.as_deref().unwrap_or("")));
    }
    html.push_str(p.additional.as_deref().unwrap_or_default());
    let c = p.categories;
    let location = if c.all_locations.is_empty() {
        c.location.unwrap_or_default()
    } else {
        c.all_locations.join("; ")
    };
    let mut out = RawPosting {
        native_id: p.id,
        url: p.hosted_url,
        title: p.text.trim().to_owned(),
        location,
        description_html: html,
        posted_at: p.created_at.map(RawDate::UnixMillis),
        work_mode: p.workplace_type.as_deref().and_then(workplace_mode),
        employment_type: c.commitment.as_deref().and_then(employment_type),
        countries: p.country.as_deref().and_then(country).into_iter().collect(),
        salary: p
            .salary_range
            .and_then(|s| salary(s.min, s.max, s.currency.as_deref(), s.interval.as_deref())),
        departments: c.department.into_iter().chain(c.team).collect(),
        ..RawPosting::default()
    };
    out.remote = out.work_mode.map(|m| m == freehire_domain::WorkMode::Remote);
    out.canonicalize();
    out
}

#[async_trait::async_trait]
impl Source for Lever {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: false }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        if key.region.is_empty() || key.region == "eu" {
            path_segment(key.provider.as_str(), &key.board).map(|_| ())
        } else {
            Err(invalid_board(
                key.provider.as_str(),
                &key.board,
                "this provider has no such region",
            ))
        }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let (board, region) = match (url.host(), url.segments()) {
            ("api.lever.co", ["v0", "postings", b, ..]) | ("jobs.lever.co", [b, ..]) => {
                (path_board(b)?, "")
            }
            ("api.eu.lever.co", ["v0", "postings", b, ..]) | ("jobs.eu.lever.co", [b, ..]) => {
                (path_board(b)?, "eu")
            }
            _ => return None,
        };
        let host = if region.is_empty() { "jobs.lever.co" } else { "jobs.eu.lever.co" };
        let canonical = format!("https://{host}/{board}");
        Some(BoardMatch::new(board, canonical).in_region(region))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let host = api_host(self.0.provider.as_str(), b, &board.key.region)?;
        let url = build_url(host, &["v0", "postings", b], &[("mode", "json")])?;
        let list: Vec<Posting> = self.0.listing(&url, b).await?;
        Ok(BoardListing {
            postings: list.into_iter().map(posting).collect(),
            ..BoardListing::default()
        })
    }
}
