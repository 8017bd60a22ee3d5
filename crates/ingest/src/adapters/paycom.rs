//! Paycom: a board is a client key (32 hex digits). Three steps (reference §13.2):
//!
//! 1. `GET www.paycomonline.net/v4/ats/web.php/portal/{KEY}/jobs/1`: the portal page embeds
//!    `configsFromHost = {…}` with the session JWT (`sessionJWT`) and, inside its `libConfig`
//!    JSON string, the regional "Mantle" API (`atsPortalMantleServiceUrl`,
//!    `https://portal-applicant-tracking.<region>.paycomonline.net/`; any other host is
//!    refused). A page saying "Job board does not exist." (or a 404) is
//!    [`IngestError::BoardGone`]; a page without the session fails the board.
//! 2. `POST {mantle}/api/ats/job-posting-previews/search` with the JWT as `Authorization`,
//!    `{skip, take: 50, filtersForQuery: {…}}`: `jobPostingPreviews[]` (jobId, jobTitle,
//!    positionType, remoteType, locations, postedOn) and `jobPostingPreviewsCount`. Paged by
//!    skip/take until the count, at most 200 pages. Fails closed: a failed page, a page that
//!    ends the walk short of the count, or the page cap fails the board.
//! 3. Detail (hydrating): `GET {mantle}/api/ats/job-postings/{id}` with the JWT:
//!    `jobPosting` description + qualifications (HTML), location + secondaryLocations,
//!    jobCategory, and `googleJobJson` (a schema.org `JobPosting` as a JSON string):
//!    datePosted, `jobLocation.address.addressCountry`, `baseSalary` (currency, min/max, unit).
//!    `salaryRange` is free text and not read.
//!
//! The posting URL is `https://www.paycomonline.net/v4/ats/web.php/portal/{KEY}/jobs/{id}`.
//! Board URLs (recognition modes `path` and `query`): `paycomonline.net/v4/ats/web.php/portal/{KEY}/…` (career page, job pages) and
//! the older `…/web.php/jobs?clientkey={KEY}` / `…/jobs/ViewJobDetails?job={id}&clientkey={KEY}`.
//! Not a full-listing provider (the reference does not name it so).
//!
//! Proven on a recorded search answer (`tests/fixtures/paycom/fvcc.search.json`, see its
//! ATTRIBUTION.md); the portal page and the detail answer are constructed from documentation
//! (unproven).

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};

use super::common::{
    add_location, build_url, country, employment_type, hydrate, id_text, invalid_board,
    is_dns_label, no_region, number, salary, workplace_mode,
};
use super::pager::{PageEnd, Step, Walk};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{BoardTarget, Capabilities, Source};
use freehire_domain::BoardKey;

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[
        ("paycom.portal", parse_portal),
        ("paycom.search", parse_search),
        ("paycom.detail", parse_detail),
    ],
    ..Platform::of::<Paycom>("paycom", |base| Arc::new(Paycom(base)))
};

const PORTAL_HOST: &str = "www.paycomonline.net";
const PAGE_SIZE: usize = 50;
/// Safety cap on search pages; reaching it fails the board.
const MAX_PAGES: usize = 200;
const GONE_TEXT: &str = "Job board does not exist.";

pub(crate) struct Paycom(Base);

/// A client key: 32 hex digits.
fn is_client_key(raw: &str) -> bool {
    raw.len() == 32 && raw.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The session a portal page hands out: the JWT and the Mantle API host.
#[derive(Debug, PartialEq, Eq)]
struct Session {
    jwt: String,
    api_host: String,
}

/// What a portal page says.
#[derive(Debug, PartialEq, Eq)]
enum Portal {
    Session(Session),
    Gone,
}

/// The JSON object that follows `configsFromHost =` in the page, by brace matching outside
/// JSON strings.
fn configs_from_host(page: &str) -> Option<&str> {
    let at = page.find("configsFromHost")?;
    let rest = &page[at..];
    let open = rest.find('{')?;
    if !rest[..open].trim_start_matches("configsFromHost").trim().starts_with('=') {
        return None;
    }
    let body = &rest[open..];
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in body.char_indices() {
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
                depth -= 1;
                if depth == 0 {
                    return Some(&body[..=i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The Mantle API host from its URL: `portal-applicant-tracking.<region>.paycomonline.net`
/// over https, nothing else.
fn mantle_host(raw: &str) -> Option<String> {
    let url = url::Url::parse(raw.trim()).ok()?;
    if url.scheme() != "https"
        || url.port().is_some()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return None;
    }
    let host = url.host_str()?.to_ascii_lowercase();
    let region =
        host.strip_prefix("portal-applicant-tracking.")?.strip_suffix(".paycomonline.net")?;
    is_dns_label(region).then_some(host)
}

/// Reads a portal page: its session, or the platform's "no such board" text.
fn read_portal(page: &str) -> Result<Portal, String> {
    let Some(config) = configs_from_host(page) else {
        if page.contains(GONE_TEXT) {
            return Ok(Portal::Gone);
        }
        return Err("no configsFromHost in the portal page".to_owned());
    };
    let config: Value =
        serde_json::from_str(config).map_err(|e| format!("configsFromHost: {e}"))?;
    let jwt = config
        .get("sessionJWT")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|j| !j.is_empty())
        .ok_or("no sessionJWT in configsFromHost")?;
    let lib: Option<Value> =
        config.get("libConfig").and_then(Value::as_str).and_then(|s| serde_json::from_str(s).ok());
    let api = lib
        .as_ref()
        .and_then(|l| l.get("atsPortalMantleServiceUrl"))
        .or_else(|| config.get("atsPortalMantleServiceUrl"))
        .and_then(Value::as_str)
        .ok_or("no atsPortalMantleServiceUrl in configsFromHost")?;
    let api_host = mantle_host(api).ok_or_else(|| format!("untrusted Paycom API URL {api:?}"))?;
    Ok(Portal::Session(Session { jwt: jwt.to_owned(), api_host }))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SearchPage {
    #[serde(default)]
    job_posting_previews: Vec<Preview>,
    job_posting_previews_count: Option<usize>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Preview {
    job_id: Value,
    job_title: Option<String>,
    position_type: Option<String>,
    remote_type: Option<String>,
    locations: Option<String>,
    posted_on: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DetailDoc {
    job_posting: Option<Detail>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Detail {
    location: Option<String>,
    #[serde(default)]
    secondary_locations: Vec<Value>,
    remote_type: Option<String>,
    position_type: Option<String>,
    job_category: Option<String>,
    description: Option<String>,
    description_title: Option<String>,
    qualifications: Option<String>,
    qualifications_title: Option<String>,
    google_job_json: Option<String>,
}

fn text(v: Option<&str>) -> Option<&str> {
    v.map(str::trim).filter(|s| !s.is_empty())
}

/// One HTML section, under its title when it is given one.
fn section(title: Option<&str>, html: Option<&str>) -> String {
    let Some(html) = text(html) else { return String::new() };
    match text(title) {
        Some(t) => format!("<h3>{}</h3>{html}", html_escape::encode_text(t)),
        None => html.to_owned(),
    }
}

/// The structured parts of the detail's schema.org `JobPosting` (`googleJobJson`).
struct GoogleJob {
    date_posted: Option<String>,
    country: Option<freehire_domain::CountryCode>,
    salary: Option<freehire_domain::Salary>,
}

fn google_job(raw: Option<&str>) -> Option<GoogleJob> {
    let v: Value = serde_json::from_str(raw?).ok()?;
    let address = v.pointer("/jobLocation/address").or_else(|| v.pointer("/jobLocation/0/address"));
    let base = v.get("baseSalary");
    let value = base.and_then(|b| b.get("value"));
    let bound =
        |key: &str| value.and_then(|x| x.get(key).or_else(|| x.get("value"))).and_then(number);
    Some(GoogleJob {
        date_posted: v
            .get("datePosted")
            .and_then(Value::as_str)
            .and_then(|d| text(Some(d)))
            .map(str::to_owned),
        country: address
            .and_then(|a| a.get("addressCountry"))
            .and_then(|c| c.as_str().or_else(|| c.get("name").and_then(Value::as_str)))
            .and_then(country),
        salary: salary(
            bound("minValue"),
            bound("maxValue"),
            base.and_then(|b| b.get("currency")).and_then(Value::as_str),
            value.and_then(|x| x.get("unitText")).and_then(Value::as_str),
        ),
    })
}

fn posting(key: &str, id: String, preview: Preview, detail: Option<Detail>) -> RawPosting {
    let detail = detail.unwrap_or_default();
    let mut location = String::new();
    match text(detail.location.as_deref()) {
        Some(l) => add_location(&mut location, l),
        None => add_location(&mut location, preview.locations.as_deref().unwrap_or_default()),
    }
    for s in &detail.secondary_locations {
        let name = s.as_str().or_else(|| s.get("location").and_then(Value::as_str));
        add_location(&mut location, name.unwrap_or_default());
    }
    let google = google_job(detail.google_job_json.as_deref());
    // Both sections: each under its own title; one alone needs none.
    let both = text(detail.description.as_deref()).is_some()
        && text(detail.qualifications.as_deref()).is_some();
    let title = |t: &Option<String>| if both { t.clone() } else { None };
    let description =
        section(title(&detail.description_title).as_deref(), detail.description.as_deref())
            + &section(
                title(&detail.qualifications_title).as_deref(),
                detail.qualifications.as_deref(),
            );
    let remote_type = text(detail.remote_type.as_deref()).or(text(preview.remote_type.as_deref()));
    let position = text(detail.position_type.as_deref()).or(text(preview.position_type.as_deref()));
    let posted = google
        .as_ref()
        .and_then(|g| g.date_posted.clone())
        .or_else(|| text(preview.posted_on.as_deref()).map(str::to_owned));
    let work_mode = remote_type.and_then(workplace_mode);
    let mut p = RawPosting {
        url: format!("https://{PORTAL_HOST}/v4/ats/web.php/portal/{key}/jobs/{id}"),
        native_id: id,
        title: preview.job_title.as_deref().unwrap_or_default().trim().to_owned(),
        location,
        description_html: description,
        posted_at: posted.map(RawDate::Text),
        remote: work_mode.map(|m| m == freehire_domain::WorkMode::Remote),
        work_mode,
        employment_type: position.and_then(employment_type),
        countries: google.as_ref().and_then(|g| g.country.clone()).into_iter().collect(),
        salary: google.and_then(|g| g.salary),
        departments: text(detail.job_category.as_deref()).map(str::to_owned).into_iter().collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

/// The search body the portal itself sends, at `skip`.
fn search_body(skip: usize) -> Value {
    json!({"skip": skip, "take": PAGE_SIZE, "filtersForQuery": {
        "distanceFrom": 0, "workEnvironments": [], "positionTypes": [], "educationLevels": [],
        "categories": [], "travelTypes": [], "shiftTypes": [], "otherFilters": [],
        "keywordSearchText": "", "location": "", "sortOption": ""}})
}

/// A portal page read as `fetch` reads it (a fuzz entry point).
fn parse_portal(bytes: &[u8]) {
    drop(read_portal(&String::from_utf8_lossy(bytes)));
}

/// A search page decoded and mapped without detail (a fuzz entry point).
fn parse_search(bytes: &[u8]) {
    if let Ok(page) = serde_json::from_slice::<SearchPage>(bytes) {
        for p in page.job_posting_previews {
            if let Some(id) = id_text(&p.job_id) {
                drop(posting("K", id, p, None));
            }
        }
    }
}

/// A detail answer decoded and mapped (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    if let Ok(doc) = serde_json::from_slice::<DetailDoc>(bytes) {
        let preview = Preview {
            job_id: Value::Null,
            job_title: None,
            position_type: None,
            remote_type: None,
            locations: None,
            posted_on: None,
        };
        drop(posting("K", "1".to_owned(), preview, doc.job_posting));
    }
}

impl Paycom {
    async fn session(&self, key: &str) -> Result<Session, IngestError> {
        let url =
            build_url(PORTAL_HOST, &["v4", "ats", "web.php", "portal", key, "jobs", "1"], &[])?;
        let page = self
            .0
            .http
            .get(&url, "text/html,application/xhtml+xml")
            .await
            .map_err(|e| e.board_gone_on_404(key))?;
        match read_portal(&String::from_utf8_lossy(&page.body)) {
            Ok(Portal::Session(s)) => Ok(s),
            Ok(Portal::Gone) => {
                Err(IngestError::BoardGone { board: key.to_owned(), reason: GONE_TEXT.to_owned() })
            }
            Err(why) => Err(IngestError::Decode {
                url: page.url.to_string(),
                format: "HTML",
                source: why.into(),
            }),
        }
    }

    async fn list(&self, key: &str, s: &Session) -> Result<Vec<(String, Preview)>, IngestError> {
        let url = build_url(&s.api_host, &["api", "ats", "job-posting-previews", "search"], &[])?;
        let auth = [("Authorization", s.jwt.as_str())];
        let mut walk = Walk::new(key);
        for page_no in 0..MAX_PAGES {
            let page: SearchPage = self
                .0
                .http
                .post_for_json_with(&url, &search_body(page_no * PAGE_SIZE), &auth)
                .await?;
            let end = PageEnd::sized(PAGE_SIZE, page.job_posting_previews_count);
            let rows = page
                .job_posting_previews
                .into_iter()
                .map(|p| id_text(&p.job_id).map(|id| (id.clone(), (id, p))));
            if walk.take(rows, end)? == Step::Done {
                return Ok(walk.into_items());
            }
        }
        Err(walk.too_many_pages(MAX_PAGES, &format!("pages of {PAGE_SIZE}")))
    }

    async fn detail(
        &self,
        key: &str,
        s: &Session,
        id: String,
        preview: Preview,
    ) -> Result<RawPosting, IngestError> {
        let url = build_url(&s.api_host, &["api", "ats", "job-postings", &id], &[])?;
        let doc: DetailDoc =
            self.0.http.get_json_with(&url, &[("Authorization", s.jwt.as_str())]).await?;
        let detail = doc.job_posting.ok_or_else(|| IngestError::Decode {
            url: url.to_string(),
            format: "JSON",
            source: "no jobPosting in the detail answer".into(),
        })?;
        Ok(posting(key, id, preview, Some(detail)))
    }
}

#[async_trait::async_trait]
impl Source for Paycom {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        if is_client_key(&key.board) {
            Ok(())
        } else {
            Err(invalid_board(
                key.provider.as_str(),
                &key.board,
                "must be a 32-hex-digit client key",
            ))
        }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        if url.host() != "paycomonline.net" {
            return None;
        }
        let key = match url.segments() {
            ["v4", "ats", "web.php", "portal", key, ..] => (*key).to_owned(),
            ["v4", "ats", "web.php", "jobs", ..] => url.query("clientkey")?,
            _ => return None,
        };
        if !is_client_key(&key) {
            return None;
        }
        let key = key.to_ascii_uppercase();
        let canonical = format!("https://{PORTAL_HOST}/v4/ats/web.php/portal/{key}/career-page");
        Some(BoardMatch::new(key, canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        Self::validate_board(&board.key)?;
        let key = board.key.board.to_ascii_uppercase();
        let session = self.session(&key).await?;
        let listed = self.list(&key, &session).await?;
        let concurrency = self.0.config.detail_concurrency;
        let session = &session;
        let key = key.as_str();
        Ok(hydrate(listed, seen, concurrency, |id, p| self.detail(key, session, id, p)).await)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn portal_pages() {
        let page = r#"<script>var configsFromHost = {"sessionJWT":"a.b.c","libConfig":"{\"atsPortalMantleServiceUrl\":\"https://portal-applicant-tracking.us-cent.paycomonline.net/\"}","x":"}{"};
            var Mountable = {};</script>"#;
        assert_eq!(
            read_portal(page).unwrap(),
            Portal::Session(Session {
                jwt: "a.b.c".into(),
                api_host: "portal-applicant-tracking.us-cent.paycomonline.net".into()
            })
        );
        assert_eq!(read_portal("<p>Job board does not exist.</p>").unwrap(), Portal::Gone);
        assert!(read_portal("<html></html>").is_err());
        assert!(read_portal("var configsFromHost = {\"sessionJWT\":\"x\"").is_err());
        let evil =
            page.replace("portal-applicant-tracking.us-cent.paycomonline.net", "evil.example");
        assert!(read_portal(&evil).unwrap_err().contains("untrusted"));
        for bad in [
            "http://portal-applicant-tracking.us.paycomonline.net/",
            "https://portal-applicant-tracking.us.paycomonline.net:8443/",
            "https://u@portal-applicant-tracking.us.paycomonline.net/",
            "https://portal-applicant-tracking.a.b.paycomonline.net/",
            "https://portal-applicant-tracking.us.paycomonline.net.evil.example/",
        ] {
            assert_eq!(mantle_host(bad), None, "{bad}");
        }
    }

    #[test]
    fn google_job_gives_date_country_and_salary() {
        let g = google_job(Some(
            r#"{"datePosted":"2025-11-21","jobLocation":{"address":{"addressCountry":"USA"}},
               "baseSalary":{"currency":"USD","value":{"minValue":15.16,"maxValue":18.5,"unitText":"HOUR"}}}"#,
        ))
        .unwrap();
        assert_eq!(g.date_posted.as_deref(), Some("2025-11-21"));
        assert_eq!(g.country.unwrap().as_str(), "us");
        let s = g.salary.unwrap();
        assert_eq!((s.min, s.max, s.currency.as_str()), (Some(15), Some(19), "USD"));
        assert!(google_job(Some("{bad")).is_none());
        let no_unit = google_job(Some(
            r#"{"baseSalary":{"currency":"USD","value":{"minValue":1,"unitText":""}}}"#,
        ));
        assert!(no_unit.unwrap().salary.is_none(), "no period, no salary");
    }
}
