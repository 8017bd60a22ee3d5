//! Oracle Recruiting Cloud (Oracle Fusion HCM): the public candidate-experience REST API. The
//! reference leaves the endpoints unspecified (§13.2); our choice is the API the careers site
//! itself calls:
//!
//! - Listing: `GET https://{host}/hcmRestApi/resources/latest/recruitingCEJobRequisitions
//!   ?onlyData=true&expand=requisitionList.secondaryLocations
//!   &finder=findReqs;siteNumber={site},limit=25,offset={n},sortBy=POSTING_DATES_DESC`,
//!   reading `items[0].requisitionList` (Id, Title, PostedDate, PrimaryLocation,
//!   PrimaryLocationCountry, secondaryLocations Name/CountryCode, WorkplaceType) and
//!   `items[0].TotalJobsCount`. Pages until the total, a page adding nothing new or a short
//!   page. Fails closed: a failed later page, an answer without `requisitionList` (not
//!   expanded: it is not an empty board) or the page cap fails the board.
//! - Detail: `GET …/recruitingCEJobRequisitionDetails?expand=all&onlyData=true
//!   &finder=ById;Id="{id}",siteNumber={site}` (`items[0]`, or the bare object):
//!   ExternalDescriptionStr + ExternalResponsibilitiesStr + ExternalQualificationsStr
//!   (fallback ShortDescriptionStr), PrimaryLocationCountry, WorkplaceType, JobSchedule,
//!   ExternalPostedStartDate. Hydrating.
//!
//! Not a full-listing provider (the reference's `fullBoardListing` list leaves it out).
//!
//! Board: `{host}/{site}`: an Oracle Cloud host such as `ejov.fa.ca2.oraclecloud.com`, or a
//! company's custom careers domain (`careers.acme.com`), which fronts its Oracle pod and
//! serves the same candidate-experience pages and REST API under the same paths (reference
//! §13.2: "host + site (custom domains)"). The host must be a DNS name (never an IP literal);
//! the HTTP client's guard refuses any name that resolves to a private address, as for every
//! provider. Recognised (mode `hostpath`) on any host from careers URLs
//! `{host}/hcmUI/CandidateExperience/{lang}/sites/{site}/…` (a path only Oracle's careers
//! sites use) and from the REST URLs' `siteNumber`. Proven on recorded responses (careerkit `oracle_orc.json`,
//! `oracle_orc_detail.json`).

use std::sync::Arc;

use freehire_domain::{BoardKey, WorkMode};
use serde::Deserialize;
use serde_json::Value;
use url::Url;

use super::common::{
    add_location, country, employment_type, hydrate, id_text, invalid_board, is_host_name,
    is_path_segment, no_region, workplace_mode,
};
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("oracle.listing", parse_listing), ("oracle.detail", parse_detail)],
    ..Platform::of::<Oracle>("oracle", |base| Arc::new(Oracle(base)))
};

const PAGE_SIZE: usize = 25;
/// Safety cap on pages; reaching it fails the board.
const MAX_PAGES: usize = 800;
const API: &str = "hcmRestApi/resources/latest";

pub(crate) struct Oracle(Base);

/// A board: the careers host and the site number.
struct Site<'a> {
    host: &'a str,
    site: &'a str,
}

impl<'a> Site<'a> {
    fn parse(board: &'a str) -> Result<Self, IngestError> {
        let bad = |reason| invalid_board("oracle", board, reason);
        let (host, site) = board
            .split_once('/')
            .ok_or_else(|| bad("must be host/site (host, then site number)"))?;
        if !is_host_name(host) {
            return Err(bad(
                "the host must be a DNS name (an Oracle Cloud host or the careers domain)",
            ));
        }
        if !is_path_segment(site) {
            return Err(bad("the site must be one path segment (letters, digits, '-', '_')"));
        }
        Ok(Self { host, site })
    }

    fn api(&self, resource: &str, query: &str) -> Result<Url, IngestError> {
        let raw = format!("https://{}/{API}/{resource}", self.host);
        let mut url =
            Url::parse(&raw).map_err(|e| IngestError::config(format!("bad url {raw:?}"), e))?;
        url.set_query(Some(query));
        Ok(url)
    }

    fn listing_url(&self, offset: usize) -> Result<Url, IngestError> {
        let query = format!(
            "onlyData=true&expand=requisitionList.secondaryLocations&finder=findReqs;siteNumber={},limit={PAGE_SIZE},offset={offset},sortBy=POSTING_DATES_DESC",
            self.site
        );
        self.api("recruitingCEJobRequisitions", &query)
    }

    fn detail_url(&self, id: &str) -> Result<Url, IngestError> {
        if !id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')) {
            return Err(invalid_board("oracle", id, "a requisition id must be letters and digits"));
        }
        let query =
            format!("expand=all&onlyData=true&finder=ById;Id=%22{id}%22,siteNumber={}", self.site);
        self.api("recruitingCEJobRequisitionDetails", &query)
    }

    fn job_url(&self, id: &str) -> String {
        format!("https://{}/hcmUI/CandidateExperience/en/sites/{}/job/{id}", self.host, self.site)
    }
}

#[derive(Deserialize)]
struct ListDoc {
    #[serde(default)]
    items: Vec<SearchBlock>,
}

#[derive(Deserialize)]
struct SearchBlock {
    #[serde(rename = "TotalJobsCount")]
    total: Option<usize>,
    /// Absent when the answer was not expanded: never read as an empty board.
    #[serde(rename = "requisitionList")]
    requisitions: Option<Vec<Requisition>>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Requisition {
    id: Value,
    title: Option<String>,
    posted_date: Option<String>,
    primary_location: Option<String>,
    primary_location_country: Option<String>,
    workplace_type: Option<String>,
    workplace_type_code: Option<String>,
    job_schedule: Option<String>,
    short_description_str: Option<String>,
    #[serde(rename = "secondaryLocations", default)]
    secondary_locations: Vec<SecondaryLocation>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct SecondaryLocation {
    name: Option<String>,
    country_code: Option<String>,
}

/// The detail resource answers a collection (`items[0]`); a bare object is read as well.
#[derive(Deserialize)]
#[serde(untagged)]
enum DetailDoc {
    Items { items: Vec<Detail> },
    One(Box<Detail>),
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "PascalCase")]
struct Detail {
    title: Option<String>,
    external_description_str: Option<String>,
    external_responsibilities_str: Option<String>,
    external_qualifications_str: Option<String>,
    short_description_str: Option<String>,
    primary_location: Option<String>,
    primary_location_country: Option<String>,
    workplace_type: Option<String>,
    workplace_type_code: Option<String>,
    job_schedule: Option<String>,
    external_posted_start_date: Option<String>,
}

impl DetailDoc {
    fn into_detail(self) -> Detail {
        match self {
            Self::Items { items } => items.into_iter().next().unwrap_or_default(),
            Self::One(d) => *d,
        }
    }
}

/// Work mode from `WorkplaceType` (`Hybrid`) or its code (`ORA_HYBRID`, `ORA_ON_SITE`).
fn mode(label: Option<&str>, code: Option<&str>) -> Option<WorkMode> {
    label.and_then(workplace_mode).or_else(|| {
        let code = code?;
        workplace_mode(code.strip_prefix("ORA_").unwrap_or(code))
    })
}

fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.trim().is_empty())
}

/// A posting from its listing row and its detail document.
fn posting(site: &Site<'_>, id: String, req: Requisition, detail: Detail) -> RawPosting {
    let mut location = String::new();
    let primary = non_empty(req.primary_location.as_deref())
        .or(non_empty(detail.primary_location.as_deref()));
    add_location(&mut location, primary.unwrap_or_default());
    let mut countries = Vec::new();
    for loc in &req.secondary_locations {
        add_location(&mut location, loc.name.as_deref().unwrap_or_default());
        countries.extend(loc.country_code.as_deref().and_then(country));
    }
    for cc in [&req.primary_location_country, &detail.primary_location_country] {
        countries.extend(cc.as_deref().and_then(country));
    }
    let body: String = [
        &detail.external_description_str,
        &detail.external_responsibilities_str,
        &detail.external_qualifications_str,
    ]
    .into_iter()
    .filter_map(|s| non_empty(s.as_deref()))
    .collect();
    let description = if body.is_empty() {
        non_empty(detail.short_description_str.as_deref())
            .or(non_empty(req.short_description_str.as_deref()))
            .unwrap_or_default()
            .to_owned()
    } else {
        body
    };
    let work_mode = mode(detail.workplace_type.as_deref(), detail.workplace_type_code.as_deref())
        .or_else(|| mode(req.workplace_type.as_deref(), req.workplace_type_code.as_deref()));
    let schedule = detail.job_schedule.as_deref().or(req.job_schedule.as_deref());
    let title = non_empty(req.title.as_deref()).or(non_empty(detail.title.as_deref()));
    let mut p = RawPosting {
        url: site.job_url(&id),
        native_id: id,
        title: title.unwrap_or_default().trim().to_owned(),
        location,
        description_html: description,
        posted_at: detail.external_posted_start_date.or(req.posted_date).map(RawDate::Text),
        remote: work_mode.map(|m| m == WorkMode::Remote),
        work_mode,
        employment_type: schedule.and_then(employment_type),
        countries,
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

/// A listing page decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    let site = Site { host: "x.oraclecloud.com", site: "CX" };
    if let Ok(doc) = serde_json::from_slice::<ListDoc>(bytes) {
        for block in doc.items {
            for req in block.requisitions.into_iter().flatten() {
                if let Some(id) = id_text(&req.id) {
                    drop(posting(&site, id, req, Detail::default()));
                }
            }
        }
    }
}

/// A detail document decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    let site = Site { host: "x.oraclecloud.com", site: "CX" };
    if let Ok(doc) = serde_json::from_slice::<DetailDoc>(bytes) {
        let req = Requisition {
            id: Value::Null,
            title: None,
            posted_date: None,
            primary_location: None,
            primary_location_country: None,
            workplace_type: None,
            workplace_type_code: None,
            job_schedule: None,
            short_description_str: None,
            secondary_locations: Vec::new(),
        };
        drop(posting(&site, "1".into(), req, doc.into_detail()));
    }
}

impl Oracle {
    /// Every requisition of the site, by id, in listing order.
    async fn list(
        &self,
        site: &Site<'_>,
        board: &str,
    ) -> Result<Vec<(String, Requisition)>, IngestError> {
        let mut walk = Walk::new(board);
        for page_no in 0..MAX_PAGES {
            let url = site.listing_url(page_no * PAGE_SIZE)?;
            let doc: ListDoc = if page_no == 0 {
                self.0.listing(&url, board).await?
            } else {
                self.0.http.get_json(&url).await?
            };
            // An answer without a search block is an empty page.
            let Some(block) = doc.items.into_iter().next() else {
                walk.take(std::iter::empty(), PageEnd::sized(PAGE_SIZE, None))?;
                return Ok(walk.into_items());
            };
            let Some(requisitions) = block.requisitions else {
                if page_no == 0 && block.total == Some(0) {
                    return Ok(walk.into_items());
                }
                return Err(IngestError::Incomplete {
                    board: board.to_owned(),
                    reason: "the search answer has no requisitionList".into(),
                });
            };
            let rows = requisitions
                .into_iter()
                .map(|req| id_text(&req.id).map(|id| (id.clone(), (id, req))));
            if walk.take(rows, PageEnd::sized(PAGE_SIZE, block.total))? == Step::Done {
                return Ok(walk.into_items());
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, &format!("pages of {PAGE_SIZE}")))
    }

    async fn detail(
        &self,
        site: &Site<'_>,
        id: String,
        req: Requisition,
    ) -> Result<RawPosting, IngestError> {
        let url = site.detail_url(&id)?;
        let doc: DetailDoc = self.0.http.get_json(&url).await?;
        Ok(posting(site, id, req, doc.into_detail()))
    }
}

#[async_trait::async_trait]
impl Source for Oracle {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        Site::parse(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let host = url.host();
        let is = |seg: &str, want: &str| seg.eq_ignore_ascii_case(want);
        let site = match url.segments() {
            [ui, ce, _lang, sites, site, ..]
                if is(ui, "hcmUI") && is(ce, "CandidateExperience") && is(sites, "sites") =>
            {
                (*site).to_owned()
            }
            [ui, ce, sites, site, ..]
                if is(ui, "hcmUI") && is(ce, "CandidateExperience") && is(sites, "sites") =>
            {
                (*site).to_owned()
            }
            [api, "resources", _, resource, ..]
                if is(api, "hcmRestApi") && resource.starts_with("recruitingCE") =>
            {
                let finder = url.query("finder")?;
                finder
                    .split([';', ','])
                    .find_map(|part| part.strip_prefix("siteNumber="))
                    .map(str::to_owned)?
            }
            _ => return None,
        };
        if !is_host_name(host) || !is_path_segment(&site) {
            return None;
        }
        let canonical = format!("https://{host}/hcmUI/CandidateExperience/en/sites/{site}");
        Some(BoardMatch::new(format!("{host}/{site}"), canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let site = Site::parse(&board.key.board)?;
        let listed = self.list(&site, &board.key.board).await?;
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |id, req| self.detail(&site, id, req)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites() {
        assert!(Site::parse("ejov.fa.ca2.oraclecloud.com/CX").is_ok());
        assert!(Site::parse("careers.acme.com/CX_1").is_ok(), "a custom careers domain");
        for bad in [
            "ejov.fa.ca2.oraclecloud.com",
            "x/CX",
            "127.0.0.1/CX",
            "[::1]/CX",
            "a.oraclecloud.com/b/c",
            "a.oraclecloud.com/..",
        ] {
            assert!(Site::parse(bad).is_err(), "{bad}");
        }
        let site = Site::parse("a.oraclecloud.com/CX_1").unwrap();
        assert!(site.detail_url("1&x=2").is_err());
        assert_eq!(
            site.detail_url("25587").unwrap().as_str(),
            "https://a.oraclecloud.com/hcmRestApi/resources/latest/recruitingCEJobRequisitionDetails?expand=all&onlyData=true&finder=ById;Id=%2225587%22,siteNumber=CX_1"
        );
    }
}
