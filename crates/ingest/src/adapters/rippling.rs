//! Rippling: `GET ats.rippling.com/api/v1/board/{b}/jobs` (one row per job and location,
//! merged by `uuid`), then `GET …/jobs/{uuid}` per posting for `description.role` and
//! `createdOn`. Hydrating.

use serde::Deserialize;

use super::Base;
use super::common::{Detail, add_location, build_url, collect_details, fan_out};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) struct Rippling(pub(crate) Base);

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
    async fn detail(&self, board: &str, mut p: RawPosting) -> Detail {
        let id = p.native_id.clone();
        let result = async {
            let url =
                build_url("ats.rippling.com", &["api", "v1", "board", board, "jobs", &id], &[])?;
            let doc: DetailDoc = self.0.http.get_json(&url).await?;
            p.description_html = doc.description.and_then(|d| d.role).unwrap_or_default();
            p.posted_at = doc.created_on.map(RawDate::Text);
            Ok(p)
        }
        .await;
        Detail::from_result(&id, result)
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

    async fn fetch(&self, board: &BoardTarget) -> Result<BoardListing, IngestError> {
        self.fetch_new(board, &SeenSet::new()).await
    }

    async fn fetch_new(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = board.key.board.as_str();
        let url = build_url("ats.rippling.com", &["api", "v1", "board", b, "jobs"], &[])?;
        let items: Vec<Item> =
            self.0.http.get_json(&url).await.map_err(|e| e.board_gone_on_404(b))?;
        let mut listing = BoardListing::default();
        let (old, new): (Vec<_>, Vec<_>) =
            merge_listing(items).into_iter().partition(|p| seen.contains(&p.native_id));
        listing.seen_refresh = old.into_iter().map(|p| p.native_id).collect();
        let details = fan_out(new, self.0.config.detail_concurrency, |p| self.detail(b, p)).await;
        collect_details(details, &mut listing);
        Ok(listing)
    }
}
