//! Workday: the CXS JSON API.
//!
//! - Listing: `POST https://{host}/wday/cxs/{tenant}/{site}/jobs` with
//!   `{appliedFacets, limit: 20, offset, searchText: ""}`, paging until the first non-zero
//!   `total` (latched) or a page that adds nothing.
//! - Cap: Workday never reports more than 2,000. A total of 2,000 is split by facet: the
//!   dimension whose values cover the total and whose largest value is smallest, recursively
//!   to depth 3; still capped at depth 3 (or no covering dimension) fails the board.
//! - Detail: `GET https://{host}/wday/cxs/{tenant}/{site}{externalPath}` (`jobPostingInfo`).
//!   Hydrating; 403/429 are retried with the exponential backoff.
//!
//! Board: `host/site` (tenant = the host's first label, `<tenant>.wdN.myworkdayjobs.com`) or
//! `host/tenant/site` (`wdN.myworkdaysite.com`); recognised from careers and CXS URLs of both
//! hosts (`site.rs`).

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;
use serde_json::json;

mod facets;
mod site;

use self::facets::{Facet, choose_dimension, flatten_facets};
use self::site::Site;
use super::common::{add_location, country, employment_type, hydrate, no_region, workplace_mode};
use super::{Base, Platform};
use crate::IngestError;
use crate::http::ProviderPolicy;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    policy: ProviderPolicy { pace_per_second: None, host_pace: None, rate_limit_backoff: true },
    ..Platform::of::<Workday>("workday", |base| Arc::new(Workday(base)))
};

const PAGE_SIZE: usize = 20;
/// The total Workday reports when it caps a listing.
pub(crate) const CAPPED_TOTAL: usize = 2000;
/// Deepest facet split.
pub(crate) const MAX_SPLIT_DEPTH: usize = 3;
/// Safety cap on pages of one walk (the platform never serves past 2,000).
const MAX_PAGES: usize = CAPPED_TOTAL / PAGE_SIZE + 5;

pub(crate) struct Workday(Base);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    #[serde(default)]
    total: usize,
    #[serde(default)]
    job_postings: Vec<Item>,
    #[serde(default)]
    facets: Vec<Facet>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Item {
    title: Option<String>,
    external_path: Option<String>,
    locations_text: Option<String>,
    posted_on: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DetailDoc {
    job_posting_info: Info,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Info {
    title: Option<String>,
    job_description: Option<String>,
    location: Option<String>,
    #[serde(default)]
    additional_locations: Vec<String>,
    start_date: Option<String>,
    external_url: Option<String>,
    remote_type: Option<String>,
    time_type: Option<String>,
    job_requisition_location: Option<ReqLocation>,
    country: Option<Country>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReqLocation {
    country: Option<Country>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Country {
    alpha2_code: Option<String>,
}

/// The posting's native id: the requisition suffix of the external path
/// (`…/Title_JR354232` → `JR354232`), else the whole path.
fn native_id(path: &str) -> String {
    let last = path.rsplit('/').next().unwrap_or(path);
    match last.rsplit_once('_') {
        Some((_, req))
            if !req.is_empty() && req.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') =>
        {
            req.to_owned()
        }
        _ => path.to_owned(),
    }
}

impl Workday {
    async fn page(
        &self,
        site: &Site,
        applied: &BTreeMap<String, Vec<String>>,
        offset: usize,
    ) -> Result<Page, IngestError> {
        let url = site.cxs(&["jobs"])?;
        let body = json!({"appliedFacets": applied, "limit": PAGE_SIZE, "offset": offset, "searchText": ""});
        self.0.http.post_for_json(&url, &body).await
    }

    /// Walks one (possibly facet-filtered) listing, splitting when capped.
    async fn crawl(
        &self,
        site: &Site,
        board: &str,
        applied: BTreeMap<String, Vec<String>>,
        depth: usize,
        out: &mut Vec<Item>,
        ids: &mut HashSet<String>,
    ) -> Result<(), IngestError> {
        let first = self.page(site, &applied, 0).await;
        let first = if depth == 0 && applied.is_empty() {
            first.map_err(|e| e.board_gone_on_404(board))?
        } else {
            first?
        };
        if first.total >= CAPPED_TOTAL {
            if depth >= MAX_SPLIT_DEPTH {
                return Err(IngestError::Incomplete {
                    board: board.to_owned(),
                    reason: format!(
                        "still capped at {CAPPED_TOTAL} after splitting to depth {MAX_SPLIT_DEPTH}"
                    ),
                });
            }
            let Some((param, values)) =
                choose_dimension(flatten_facets(&first.facets), &applied, first.total)
            else {
                return Err(IngestError::Incomplete {
                    board: board.to_owned(),
                    reason: format!("capped at {CAPPED_TOTAL} and no facet partitions the listing"),
                });
            };
            tracing::debug!(board, depth, facet = %param, values = values.len(), "workday listing capped, splitting");
            for (id, _) in values {
                let mut sub = applied.clone();
                sub.insert(param.clone(), vec![id]);
                Box::pin(self.crawl(site, board, sub, depth + 1, out, ids)).await?;
            }
            return Ok(());
        }
        let mut total = first.total;
        let mut page = first;
        let mut offset = 0;
        for _ in 0..MAX_PAGES {
            let mut added = 0;
            for item in page.job_postings {
                let Some(path) = item.external_path.clone() else { continue };
                if ids.insert(path) {
                    out.push(item);
                    added += 1;
                }
            }
            offset += PAGE_SIZE;
            if added == 0 || (total > 0 && offset >= total) {
                return Ok(());
            }
            page = self.page(site, &applied, offset).await?;
            if total == 0 {
                total = page.total;
            }
        }
        Err(IngestError::Incomplete {
            board: board.to_owned(),
            reason: format!("more than {MAX_PAGES} pages"),
        })
    }

    async fn detail(&self, site: &Site, id: String, item: Item) -> Result<RawPosting, IngestError> {
        let path = item.external_path.clone().unwrap_or_default();
        let url = site.detail_url(&path)?;
        let doc: DetailDoc = self.0.http.get_json(&url).await?;
        let info = doc.job_posting_info;
        let mut location = String::new();
        add_location(&mut location, info.location.as_deref().unwrap_or_default());
        for l in &info.additional_locations {
            add_location(&mut location, l);
        }
        if location.is_empty() {
            add_location(&mut location, item.locations_text.as_deref().unwrap_or_default());
        }
        let cc = info
            .job_requisition_location
            .and_then(|l| l.country)
            .or(info.country)
            .and_then(|c| c.alpha2_code)
            .as_deref()
            .and_then(country);
        let work_mode = info.remote_type.as_deref().and_then(workplace_mode);
        let mut p = RawPosting {
            native_id: id,
            url: info
                .external_url
                .filter(|u| !u.trim().is_empty())
                .unwrap_or_else(|| format!("https://{}/{}{path}", site.host, site.site)),
            title: info.title.or(item.title).unwrap_or_default().trim().to_owned(),
            location,
            description_html: info.job_description.unwrap_or_default(),
            posted_at: info.start_date.or(item.posted_on).map(RawDate::Text),
            remote: work_mode.map(|m| m == freehire_domain::WorkMode::Remote),
            work_mode,
            employment_type: info.time_type.as_deref().and_then(employment_type),
            countries: cc.into_iter().collect(),
            ..RawPosting::default()
        };
        p.canonicalize();
        Ok(p)
    }
}

#[async_trait::async_trait]
impl Source for Workday {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        Site::parse(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        Site::recognize(url)
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let site = Site::parse(&board.key.board)?;
        let mut items = Vec::new();
        let mut paths = HashSet::new();
        self.crawl(&site, &board.key.board, BTreeMap::new(), 0, &mut items, &mut paths).await?;
        let mut ids = HashSet::new();
        let listed = items
            .into_iter()
            .map(|item| (native_id(item.external_path.as_deref().unwrap_or_default()), item))
            .filter(|(id, _)| ids.insert(id.clone()))
            .collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |id, item| self.detail(&site, id, item)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_ids() {
        assert_eq!(native_id("/job/Illinois---Chicago/Customer-Success_JR332446"), "JR332446");
        assert_eq!(native_id("/job/x/no-req-suffix"), "/job/x/no-req-suffix");
    }
}
