//! NEOGOV (GovernmentJobs.com): the agency's public RSS feed,
//! `GET https://www.governmentjobs.com/SearchEngine/JobsFeed?agency={agency}`: one document,
//! the agency's open postings, each `<item>` carrying the standard RSS fields (guid, link,
//! title, description, pubDate) and NEOGOV's `joblisting:` fields (jobId, location,
//! department, minimumSalary/maximumSalary/salaryCurrency/salaryInterval, examplesofduties,
//! qualifications, supplementalinformation). An empty channel is an empty board; a 404 is
//! [`IngestError::BoardGone`]; an undecodable or cut document fails the board. Neither a
//! full-listing provider (the reference lists NEOGOV without detail) nor hydrating: the feed
//! carries the descriptions.
//!
//! Board: the agency slug. Recognised (mode `path`, after `careers`) from
//! `www.governmentjobs.com/careers/{agency}` (and its `/jobs/{id}/…` pages) and from the feed
//! URL's `agency` query. Not recognised: the aggregator pages (`/jobs/…`) and NEOGOV's other
//! sites (schooljobs.com).
//!
//! Proven on a recorded response: an agency feed (careerkit `neogov.xml`, agency name
//! sanitised by the recording).

use std::sync::Arc;

use serde::Deserialize;

use super::common::{build_url, number, path_segment, salary};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, path_board};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("neogov.listing", parse_listing)],
    ..Platform::of::<Neogov>("neogov", |base| Arc::new(Neogov(base)))
};

const HOST: &str = "www.governmentjobs.com";

pub(crate) struct Neogov(Base);

#[derive(Deserialize)]
struct Rss {
    channel: Option<Channel>,
}

#[derive(Deserialize)]
struct Channel {
    #[serde(rename = "item", default)]
    items: Vec<Item>,
}

#[derive(Deserialize)]
struct Text {
    #[serde(rename = "$text")]
    value: Option<String>,
}

/// An `<item>`. The XML decoder matches local names: `jobId` is `<joblisting:jobId>`.
#[derive(Deserialize)]
struct Item {
    guid: Option<Text>,
    link: Option<String>,
    title: Option<String>,
    description: Option<String>,
    #[serde(rename = "pubDate")]
    pub_date: Option<String>,
    #[serde(rename = "jobId")]
    job_id: Option<String>,
    #[serde(rename = "minimumSalary")]
    minimum_salary: Option<String>,
    #[serde(rename = "maximumSalary")]
    maximum_salary: Option<String>,
    #[serde(rename = "salaryCurrency")]
    salary_currency: Option<String>,
    #[serde(rename = "salaryInterval")]
    salary_interval: Option<String>,
    #[serde(rename = "department")]
    department: Option<String>,
    #[serde(rename = "location")]
    location: Option<String>,
    #[serde(rename = "examplesofduties")]
    duties: Option<String>,
    #[serde(rename = "qualifications")]
    qualifications: Option<String>,
    #[serde(rename = "supplementalinformation")]
    supplemental: Option<String>,
}

/// Trimmed non-empty text.
fn text(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

/// The description, then each titled section the feed carries (the XML decoder has already
/// turned their entity-encoded markup into HTML).
fn description_html(item: &Item) -> String {
    let mut html = text(item.description.as_deref()).unwrap_or_default().to_owned();
    for (title, body) in [
        ("Examples of Duties", &item.duties),
        ("Qualifications", &item.qualifications),
        ("Supplemental Information", &item.supplemental),
    ] {
        if let Some(body) = text(body.as_deref()) {
            html.push_str(&format!("<h3>{title}</h3>{body}"));
        }
    }
    html
}

fn posting(item: Item) -> Option<RawPosting> {
    let guid = item.guid.as_ref().and_then(|g| text(g.value.as_deref()));
    let native_id = text(item.job_id.as_deref())
        .or_else(|| guid.and_then(|g| g.trim_end_matches('/').rsplit('/').next()))
        .filter(|id| !id.is_empty())?
        .to_owned();
    let num = |s: &Option<String>| {
        text(s.as_deref()).and_then(|v| number(&serde_json::Value::String(v.to_owned())))
    };
    let pay = salary(
        num(&item.minimum_salary),
        num(&item.maximum_salary),
        text(item.salary_currency.as_deref()),
        text(item.salary_interval.as_deref()),
    );
    let url = text(item.link.as_deref())
        .or(guid.filter(|g| g.starts_with("https://")))
        .unwrap_or_default()
        .to_owned();
    let mut p = RawPosting {
        native_id,
        url,
        title: text(item.title.as_deref()).unwrap_or_default().to_owned(),
        location: text(item.location.as_deref()).unwrap_or_default().to_owned(),
        description_html: description_html(&item),
        posted_at: text(item.pub_date.as_deref()).map(|d| RawDate::Text(d.to_owned())),
        salary: pay,
        departments: text(item.department.as_deref()).map(str::to_owned).into_iter().collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

/// The feed's postings.
fn postings(rss: Rss) -> Vec<RawPosting> {
    rss.channel.map(|c| c.items).unwrap_or_default().into_iter().filter_map(posting).collect()
}

/// The feed decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(rss) = std::str::from_utf8(bytes).map(quick_xml::de::from_str::<Rss>) {
        rss.map(postings).into_iter().for_each(drop);
    }
}

#[async_trait::async_trait]
impl Source for Neogov {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: false }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        if url.host() != "governmentjobs.com" {
            return None;
        }
        let agency = match url.segments() {
            ["careers", agency, ..] => path_board(agency)?,
            [s, f]
                if s.eq_ignore_ascii_case("searchengine") && f.eq_ignore_ascii_case("jobsfeed") =>
            {
                path_board(&url.query("agency")?)?
            }
            _ => return None,
        };
        let canonical = format!("https://{HOST}/careers/{agency}");
        Some(BoardMatch::new(agency, canonical))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let agency = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let url = build_url(HOST, &["SearchEngine", "JobsFeed"], &[("agency", agency)])?;
        let rss: Rss = self.0.http.get_xml(&url).await.map_err(|e| e.board_gone_on_404(agency))?;
        let postings = postings(rss);
        Ok(BoardListing { postings, ..BoardListing::default() })
    }
}
