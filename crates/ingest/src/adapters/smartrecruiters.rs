//! SmartRecruiters: paged listing `GET api.smartrecruiters.com/v1/companies/{b}/postings
//! ?limit=100&offset=N` until `totalFound`, an empty page or a page adding nothing new, then
//! one detail request per posting (`…/postings/{id}`) for the URL and the job ad sections.
//! A full-listing provider: any page failure or the page cap fails the board. Hydrating.
//!
//! Board URLs: `jobs.smartrecruiters.com/{b}` (or `careers.`), the one-click form
//! `…/oneclick-ui/company/{b}` and the API URL.

use std::sync::Arc;

use serde::Deserialize;

use super::common::{
    build_url, country, employment_type, hydrate, join_non_empty, mode_from_flags, path_segment,
    seniority,
};
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, path_board};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform =
    Platform::of::<SmartRecruiters>("smartrecruiters", |base| Arc::new(SmartRecruiters(base)));

/// First path segments of the jobs site that are its own, never a company.
const RESERVED: &[&str] = &["oneclick-ui", "sr-jobs", "api", "static", "search"];

const PAGE_SIZE: usize = 100;
/// Safety cap on pages; reaching it fails the board.
const MAX_PAGES: usize = 1000;

pub(crate) struct SmartRecruiters(Base);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    total_found: Option<usize>,
    #[serde(default)]
    content: Vec<Item>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Item {
    id: String,
    name: String,
    released_date: Option<String>,
    location: Option<Location>,
    type_of_employment: Option<Labelled>,
    experience_level: Option<Labelled>,
    department: Option<Labelled>,
    company: Option<Company>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Location {
    city: Option<String>,
    region: Option<String>,
    country: Option<String>,
    remote: Option<bool>,
    hybrid: Option<bool>,
    full_location: Option<String>,
}

#[derive(Deserialize, Clone)]
struct Labelled {
    id: Option<String>,
    label: Option<String>,
}

#[derive(Deserialize, Clone)]
struct Company {
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DetailDoc {
    posting_url: Option<String>,
    job_ad: Option<JobAd>,
}

#[derive(Deserialize)]
struct JobAd {
    sections: Option<Sections>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sections {
    company_description: Option<Section>,
    job_description: Option<Section>,
    qualifications: Option<Section>,
    additional_information: Option<Section>,
}

#[derive(Deserialize)]
struct Section {
    title: Option<String>,
    text: Option<String>,
}

fn section_html(s: Option<&Section>) -> String {
    let Some(s) = s else { return String::new() };
    let text = s.text.as_deref().unwrap_or_default();
    if text.trim().is_empty() {
        return String::new();
    }
    match s.title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!("<h3>{}</h3>{text}", html_escape::encode_text(t)),
        None => text.to_owned(),
    }
}

fn description(d: &DetailDoc) -> String {
    let Some(s) = d.job_ad.as_ref().and_then(|a| a.sections.as_ref()) else {
        return String::new();
    };
    let main = [&s.job_description, &s.qualifications, &s.additional_information]
        .into_iter()
        .map(|x| section_html(x.as_ref()))
        .collect::<String>();
    if main.trim().is_empty() { section_html(s.company_description.as_ref()) } else { main }
}

fn from_listing(board: &str, item: Item) -> RawPosting {
    let loc = item.location;
    let location = loc.as_ref().map_or_else(String::new, |l| {
        l.full_location.clone().filter(|f| !f.trim().is_empty()).unwrap_or_else(|| {
            join_non_empty(
                [&l.city, &l.region, &l.country].into_iter().flatten().map(String::as_str),
                ", ",
            )
        })
    });
    let mut p = RawPosting {
        url: format!("https://jobs.smartrecruiters.com/{board}/{}", item.id),
        native_id: item.id,
        title: item.name.trim().to_owned(),
        company: item.company.and_then(|c| c.name).filter(|c| !c.trim().is_empty()),
        location,
        posted_at: item.released_date.map(RawDate::Text),
        remote: loc.as_ref().and_then(|l| l.remote),
        work_mode: loc.as_ref().and_then(|l| mode_from_flags(l.remote, l.hybrid)),
        employment_type: item
            .type_of_employment
            .and_then(|t| t.id)
            .as_deref()
            .and_then(employment_type),
        countries: loc
            .as_ref()
            .and_then(|l| l.country.as_deref())
            .and_then(country)
            .into_iter()
            .collect(),
        seniority: item.experience_level.and_then(|e| e.id).as_deref().and_then(seniority),
        departments: item.department.and_then(|d| d.label).into_iter().collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

impl SmartRecruiters {
    async fn list(&self, b: &str) -> Result<Vec<Item>, IngestError> {
        let mut walk = Walk::new(b);
        for page_no in 0..MAX_PAGES {
            let offset = (page_no * PAGE_SIZE).to_string();
            let url = build_url(
                "api.smartrecruiters.com",
                &["v1", "companies", b, "postings"],
                &[("limit", "100"), ("offset", offset.as_str())],
            )?;
            let page: Page = if page_no == 0 {
                self.0.listing(&url, b).await?
            } else {
                self.0.http.get_json(&url).await?
            };
            let items = page.content.into_iter().map(|item| Some((item.id.clone(), item)));
            if walk.take(items, PageEnd::sized(PAGE_SIZE, page.total_found))? == Step::Done {
                return Ok(walk.into_items());
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, &format!("pages of {PAGE_SIZE}")))
    }

    async fn detail(&self, b: &str, item: Item) -> Result<RawPosting, IngestError> {
        let url = build_url(
            "api.smartrecruiters.com",
            &["v1", "companies", b, "postings", &item.id],
            &[],
        )?;
        let doc: DetailDoc = self.0.http.get_json(&url).await?;
        let mut p = from_listing(b, item);
        if let Some(u) = doc.posting_url.clone().filter(|u| !u.trim().is_empty()) {
            p.url = u;
        }
        p.description_html = description(&doc);
        Ok(p)
    }
}

#[async_trait::async_trait]
impl Source for SmartRecruiters {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = match (url.host(), url.segments()) {
            ("api.smartrecruiters.com", ["v1", "companies", b, ..]) => path_board(b)?,
            ("jobs.smartrecruiters.com" | "careers.smartrecruiters.com", segments) => {
                match segments {
                    ["oneclick-ui", "company", b, ..] => path_board(b)?,
                    [first, ..] if !RESERVED.contains(first) => path_board(first)?,
                    _ => return None,
                }
            }
            _ => return None,
        };
        let canonical = format!("https://jobs.smartrecruiters.com/{board}");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let listed = self.list(b).await?.into_iter().map(|item| (item.id.clone(), item)).collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |_, item| self.detail(b, item)).await)
    }
}
