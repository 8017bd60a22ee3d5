//! UKG Pro Recruiting (UltiPro): a paged JSON listing and one HTML detail page per posting.
//!
//! - Listing: `POST https://{host}/{tenant}/JobBoard/{guid}/JobBoardView/LoadSearchResults`
//!   with the search the board page sends (`{"opportunitySearch": {"Top": 50, "Skip": n,
//!   "QueryString": "", "OrderBy": [postedDateDesc], "Filters": [three empty term filters]},
//!   "matchCriteria": {…empty}}`: every posting, newest first), answering
//!   `{"opportunities": [{Id, Title, RequisitionNumber, FullTime, PostedDate, JobCategoryName,
//!   Locations: [{LocalizedDescription, Address: {City, State, Country}}]}], "totalCount": N}`;
//!   Top/Skip (the count received so far) until `totalCount`. A full-listing provider: any page
//!   failure, a page without `totalCount`, a page adding nothing before the total or the page
//!   cap fails the board; a 404 on the first page is `BoardGone`.
//! - Detail: `GET …/OpportunityDetail?opportunityId={id}`, an HTML page whose script calls
//!   `new US.Opportunity.CandidateOpportunityDetail({...})` with the posting as JSON
//!   (Description, FullTime, Locations). Hydrating.
//!
//! Board: `host/tenant/guid` on `*.ultipro.com`, `*.ultipro.ca` or `*.rec.pro.ukg.net`
//! (recognition mode `hosttenantboard`), recognised from any `…/{tenant}/JobBoard/{guid}/…`
//! careers, detail or listing URL of those hosts.
//!
//! Unproven: no recorded real response was found under a compatible licence; the test
//! fixture (`tests/fixtures/ukg/`) is constructed from the reference's field list (§13.2) and
//! public descriptions of the endpoint.

use std::sync::Arc;

use freehire_domain::{BoardKey, EmploymentType};
use serde::Deserialize;
use serde_json::json;

use super::common::{add_location, build_url, country, hydrate, invalid_board, is_dns_label};
use super::common::{is_path_segment, join_non_empty, no_region};
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("ukg.listing", parse_listing), ("ukg.detail", parse_detail)],
    ..Platform::of::<Ukg>("ukg", |base| Arc::new(Ukg(base)))
};

const PAGE_SIZE: usize = 50;
/// Safety cap on pages; reaching it fails the board.
const MAX_PAGES: usize = 400;
/// The host suffixes of UKG Pro career sites.
const HOST_SUFFIXES: &[&str] = &[".ultipro.com", ".ultipro.ca", ".rec.pro.ukg.net"];
/// The call whose argument is the detail page's posting JSON.
const DETAIL_CALL: &str = "CandidateOpportunityDetail(";

pub(crate) struct Ukg(Base);

/// A parsed board: `host/tenant/guid`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Board {
    host: String,
    tenant: String,
    guid: String,
}

fn is_guid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_ukg_host(host: &str) -> bool {
    HOST_SUFFIXES.iter().any(|s| host.strip_suffix(s).is_some_and(|rest| !rest.is_empty()))
        && host.split('.').all(is_dns_label)
}

impl Board {
    fn parse(board: &str) -> Result<Self, IngestError> {
        let bad = |why: &str| invalid_board("ukg", board, why);
        let parts: Vec<&str> = board.trim().trim_end_matches('/').split('/').collect();
        let [host, tenant, guid] = parts.as_slice() else {
            return Err(bad("must be host/tenant/guid"));
        };
        let host = host.to_ascii_lowercase();
        if !is_ukg_host(&host) {
            return Err(bad(
                "host must be a *.ultipro.com, *.ultipro.ca or *.rec.pro.ukg.net host",
            ));
        }
        if !is_path_segment(tenant) {
            return Err(bad("tenant must be one URL path segment"));
        }
        if !is_guid(guid) {
            return Err(bad("the job board id must be a GUID"));
        }
        Ok(Self { host, tenant: (*tenant).to_owned(), guid: guid.to_ascii_lowercase() })
    }

    fn url(&self, tail: &[&str], query: &[(&str, &str)]) -> Result<url::Url, IngestError> {
        let mut segs = vec![self.tenant.as_str(), "JobBoard", self.guid.as_str()];
        segs.extend_from_slice(tail);
        build_url(&self.host, &segs, query)
    }

    fn detail_url(&self, id: &str) -> Result<url::Url, IngestError> {
        self.url(&["OpportunityDetail"], &[("opportunityId", id)])
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    total_count: Option<usize>,
    #[serde(default)]
    opportunities: Vec<Opportunity>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Opportunity {
    #[serde(default)]
    id: String,
    title: Option<String>,
    full_time: Option<bool>,
    posted_date: Option<String>,
    job_category_name: Option<String>,
    #[serde(default)]
    locations: Vec<Location>,
    description: Option<String>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Location {
    localized_description: Option<String>,
    localized_name: Option<String>,
    address: Option<Address>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Address {
    city: Option<String>,
    state: Option<Region>,
    country: Option<Region>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Region {
    code: Option<String>,
    name: Option<String>,
}

impl Location {
    /// The location's own text, else its address (`City, ST, Country`).
    fn text(&self) -> String {
        let own = self
            .localized_description
            .as_deref()
            .or(self.localized_name.as_deref())
            .map(str::trim)
            .filter(|s| !s.is_empty());
        if let Some(own) = own {
            return own.to_owned();
        }
        let Some(a) = &self.address else { return String::new() };
        let region = |r: &Option<Region>| {
            r.as_ref().and_then(|r| r.code.clone().or_else(|| r.name.clone())).unwrap_or_default()
        };
        join_non_empty(
            [a.city.clone().unwrap_or_default(), region(&a.state), region(&a.country)]
                .iter()
                .map(String::as_str),
            ", ",
        )
    }

    fn country(&self) -> Option<freehire_domain::CountryCode> {
        let c = self.address.as_ref()?.country.as_ref()?;
        c.code.as_deref().and_then(country).or_else(|| c.name.as_deref().and_then(country))
    }
}

/// A posting from a listing item (and, when read, its detail document).
fn posting(board: &Board, item: Opportunity) -> Option<RawPosting> {
    let id = item.id.trim().to_owned();
    if id.is_empty() {
        return None;
    }
    let mut location = String::new();
    for l in &item.locations {
        add_location(&mut location, &l.text());
    }
    let url = board.detail_url(&id).map(|u| u.to_string()).unwrap_or_default();
    let mut p = RawPosting {
        native_id: id,
        url,
        title: item.title.unwrap_or_default().trim().to_owned(),
        location,
        description_html: item.description.unwrap_or_default(),
        posted_at: item.posted_date.filter(|d| !d.trim().is_empty()).map(RawDate::Text),
        employment_type: item
            .full_time
            .map(|full| if full { EmploymentType::FullTime } else { EmploymentType::PartTime }),
        countries: item.locations.iter().filter_map(Location::country).collect(),
        departments: item.job_category_name.into_iter().collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    Some(p)
}

/// The JSON object passed to `CandidateOpportunityDetail(` on a detail page: the balanced
/// `{…}` after the call, read string-aware.
fn detail_json(page: &str) -> Option<&str> {
    let at = page.find(DETAIL_CALL)? + DETAIL_CALL.len();
    let rest = &page[at..];
    let start = rest.find(|c: char| !c.is_whitespace())?;
    if !rest[start..].starts_with('{') {
        return None;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in rest[start..].char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(&rest[start..=start + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Merges a detail document into its listing item: the detail's fields win where present.
fn merge(item: Opportunity, detail: Opportunity) -> Opportunity {
    Opportunity {
        id: item.id,
        title: detail.title.or(item.title),
        full_time: detail.full_time.or(item.full_time),
        posted_date: item.posted_date.or(detail.posted_date),
        job_category_name: item.job_category_name.or(detail.job_category_name),
        locations: if detail.locations.is_empty() { item.locations } else { detail.locations },
        description: detail.description,
    }
}

/// The search the board page itself sends: every posting (no query, every filter empty),
/// newest first, `Top` from `skip`. A bare `{Top, Skip}` is not what the page sends.
fn search_body(skip: usize) -> serde_json::Value {
    let empty_terms = |field: u8| json!({"t": "TermsSearchFilterDto", "fieldName": field, "extra": null, "values": []});
    json!({
        "opportunitySearch": {
            "Top": PAGE_SIZE,
            "Skip": skip,
            "QueryString": "",
            "OrderBy": [{"Value": "postedDateDesc", "PropertyName": "PostedDate", "Ascending": false}],
            "Filters": [empty_terms(4), empty_terms(5), empty_terms(6)],
        },
        "matchCriteria": {
            "PreferredJobs": [], "Educations": [], "LicenseAndCertifications": [], "Skills": [],
            "hasNoLicenses": false, "SkippedSkills": [],
        },
    })
}

fn sample_board() -> Board {
    Board {
        host: "recruiting.ultipro.com".into(),
        tenant: "T".into(),
        guid: "00000000-0000-0000-0000-000000000000".into(),
    }
}

/// The listing page decoded and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let Ok(page) = serde_json::from_slice::<Page>(bytes) {
        let board = sample_board();
        page.opportunities.into_iter().filter_map(|o| posting(&board, o)).for_each(drop);
    }
}

/// The detail page read and mapped as `fetch` reads it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    let page = String::from_utf8_lossy(bytes);
    if let Some(doc) = detail_json(&page)
        && let Ok(detail) = serde_json::from_str::<Opportunity>(doc)
    {
        let board = sample_board();
        let item = Opportunity { id: "x".into(), ..detail.clone() };
        drop(posting(&board, merge(item, detail)));
    }
}

impl Ukg {
    async fn list(&self, board: &Board, key: &str) -> Result<Vec<Opportunity>, IngestError> {
        let url = board.url(&["JobBoardView", "LoadSearchResults"], &[])?;
        let mut walk = Walk::new(key);
        // Skip counts the items received, so a short page cannot make the walk skip any.
        let mut skip = 0;
        for page_no in 0..MAX_PAGES {
            let body = search_body(skip);
            let page: Result<Page, IngestError> = self.0.http.post_for_json(&url, &body).await;
            let page =
                if page_no == 0 { page.map_err(|e| e.board_gone_on_404(key))? } else { page? };
            // Without the total the walk's end proves nothing: fail rather than guess.
            let total = page.total_count.ok_or_else(|| IngestError::Incomplete {
                board: key.to_owned(),
                reason: format!("no totalCount on the page at Skip {skip}"),
            })?;
            skip += page.opportunities.len();
            let rows = page.opportunities.into_iter().map(|item| Some((item.id.clone(), item)));
            if walk.take(rows, PageEnd::total(Some(total)))? == Step::Done {
                return Ok(walk.into_items());
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, &format!("pages of {PAGE_SIZE}")))
    }

    async fn detail(&self, board: &Board, item: Opportunity) -> Result<RawPosting, IngestError> {
        let url = board.detail_url(&item.id)?;
        let fetched = self.0.http.get(&url, "text/html").await?;
        let page = String::from_utf8_lossy(&fetched.body);
        let decode = |reason: String| IngestError::Decode {
            url: url.to_string(),
            format: "HTML",
            source: reason.into(),
        };
        let doc =
            detail_json(&page).ok_or_else(|| decode(format!("no {DETAIL_CALL}…) on the page")))?;
        let detail: Opportunity =
            serde_json::from_str(doc).map_err(|e| decode(format!("posting JSON: {e}")))?;
        posting(board, merge(item, detail)).ok_or_else(|| decode("no posting id".into()))
    }
}

#[async_trait::async_trait]
impl Source for Ukg {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        Board::parse(&key.board).map(|_| ())
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let host = url.host();
        if !is_ukg_host(host) {
            return None;
        }
        let [tenant, job_board, guid, ..] = url.segments() else { return None };
        if !job_board.eq_ignore_ascii_case("JobBoard") || !is_path_segment(tenant) || !is_guid(guid)
        {
            return None;
        }
        let guid = guid.to_ascii_lowercase();
        Some(BoardMatch::new(
            format!("{host}/{tenant}/{guid}"),
            format!("https://{host}/{tenant}/JobBoard/{guid}/"),
        ))
    }

    async fn fetch(
        &self,
        target: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let key = target.key.board.as_str();
        let board = Board::parse(key)?;
        let listed = self
            .list(&board, key)
            .await?
            .into_iter()
            .filter(|o| !o.id.trim().is_empty())
            .map(|o| (o.id.trim().to_owned(), o))
            .collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |_, item| self.detail(&board, item)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_and_detail_json() {
        let b = Board::parse(
            "recruiting2.ultipro.com/PRO1053PROC/D6EED263-4950-420D-B9F8-5B1A441C931E",
        )
        .unwrap();
        assert_eq!(b.guid, "d6eed263-4950-420d-b9f8-5b1a441c931e");
        for bad in [
            "evil.com/T/d6eed263-4950-420d-b9f8-5b1a441c931e",
            "recruiting.ultipro.com/../d6eed263-4950-420d-b9f8-5b1a441c931e",
            "recruiting.ultipro.com/T/not-a-guid",
            "recruiting.ultipro.com/T",
            "ultipro.com/T/d6eed263-4950-420d-b9f8-5b1a441c931e",
        ] {
            assert!(Board::parse(bad).is_err(), "{bad}");
        }
        let page = r#"<script>var o = new US.Opportunity.CandidateOpportunityDetail( {"Id":"a","Description":"<p>x } { \" y</p>"} );</script>"#;
        assert_eq!(detail_json(page), Some(r#"{"Id":"a","Description":"<p>x } { \" y</p>"}"#));
        assert_eq!(detail_json("CandidateOpportunityDetail({\"Id\":"), None);
        assert_eq!(detail_json("CandidateOpportunityDetail(}"), None);
        assert_eq!(detail_json("nothing"), None);
    }
}
