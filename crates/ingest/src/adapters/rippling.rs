//! Rippling: `GET ats.rippling.com/api/v1/board/{b}/jobs` (one row per job and location,
//! merged by `uuid`), then `GET …/jobs/{uuid}` per posting for `description.role` and
//! `createdOn`. Hydrating.
//!
//! Board URLs: `ats.rippling.com/{b}` (optionally after a locale segment) and the API URL.

use std::sync::Arc;

use serde::Deserialize;

use super::common::{add_location, build_url, hydrate, path_segment};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, is_locale, path_board};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform =
    Platform::of::<Rippling>("rippling", |base| Arc::new(Rippling(base)));

pub(crate) struct Rippling(Base);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    uuid: String,
    name: String,
    #[serde(default)]
    url: String,
    department: Option<Labelled>,
    work_location: Option<Labelled>,
}

#[derive(Deserialize)]
struct Labelled {
    label: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DetailDoc {
    description: Option<Description>,
    created_on: Option<String>,
}

#[derive(Deserialize)]
struct Description {
    role: Option<String>,
}

fn merge_listing(items: Vec<Item>) -> Vec<RawPosting> {
    let mut out: Vec<RawPosting> = Vec::new();
    for item in items {
        let loc = item.work_location.and_then(|l| l.label).unwrap_or_default();
        if let Some(p) = out.iter_mut().find(|p| p.native_id == item.uuid) {
            add_location(&mut p.location, &loc);
            continue;
        }
        let mut p = RawPosting {
            native_id: item.uuid,
            url: item.url,
            title: item.name.trim().to_owned(),
            departments: item.department.and_then(|d| d.label).into_iter().collect(),
            ..RawPosting::default()
        };
        add_location(&mut p.location, &loc);
        p.canonicalize();
        out.push(p);
    }
    out
}

impl Rippling {
    async fn detail(&self, board: &str, mut p: RawPosting) -> Result<RawPosting, IngestError> {
        let id = p.native_id.as_str();
        let url = build_url("ats.rippling.com", &["api", "v1", "board", board, "jobs", id], &[])?;
        let doc: DetailDoc = self.0.http.get_json(&url).await?;
        p.description_html = doc.description.and_then(|d| d.role).unwrap_or_default();
        p.posted_at = doc.created_on.map(RawDate::Text);
        Ok(p)
    }
}

#[async_trait::async_trait]
impl Source for Rippling {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: true }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        if url.host() != "ats.rippling.com" {
            return None;
        }
        let rest = match url.segments() {
            ["api", "v1", "board", b, ..] => return Some(board_match(path_board(b)?)),
            [loc, rest @ ..] if is_locale(loc) => rest,
            rest => rest,
        };
        match rest.first() {
            Some(&"api") | None => None,
            Some(first) => Some(board_match(path_board(first)?)),
        }
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let url = build_url("ats.rippling.com", &["api", "v1", "board", b, "jobs"], &[])?;
        let items: Vec<Item> = self.0.listing(&url, b).await?;
        let listed = merge_listing(items).into_iter().map(|p| (p.native_id.clone(), p)).collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |_, p| self.detail(b, p)).await)
    }
}

fn board_match(board: String) -> BoardMatch {
    let canonical = format!("https://ats.rippling.com/{board}/jobs");
    BoardMatch::new(board, canonical)
}
