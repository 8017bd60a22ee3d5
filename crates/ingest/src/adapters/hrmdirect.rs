//! HRMDirect (ClearCompany): the tenant's public openings page.
//!
//! - Listing: `GET https://{b}.hrmdirect.com/employment/job-openings.php?search=true` (the
//!   bare path renders only the search form): one page, a table row per posting and location
//!   (`<tr … data-req-id="{req}">` with `departments`, `posTitle` (the link to
//!   `job-opening.php?req=…&req_loc=…`), `cities`, `state`, `countries` cells and the posting
//!   date). Rows of one requisition are merged, their locations joined. A page with no row that
//!   is not the openings page (no `job-openings.php` search form: a block or error page) fails
//!   the board, as does a cut body; a 404 is [`IngestError::BoardGone`]. Not a full-listing
//!   provider (the reference does not list it).
//! - Detail (hydrating): the posting's `job-opening.php?req=…` page: its `jobDesc` block, else
//!   its schema.org `JobPosting`. A page with neither leaves the description empty.
//!
//! Board: the tenant, one DNS label. Recognised (mode `subdomain`) from any
//! `{b}.hrmdirect.com` URL; `acme.hrmdirect.com` ≡ `acme` (tenant-host fold).
//!
//! Proven on a recorded response: an openings page (careerkit `hrmdirect.html`, employer name
//! sanitised by the recording). The detail page shape is unproven: the tests derive it.

use std::sync::Arc;

use freehire_domain::BoardKey;

use super::common::{
    add_location, build_url, country, find_ci, host_label, host_label_board, hydrate,
    join_non_empty, next_div,
};
use super::ldjson;
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::sanitize::decode_maybe_encoded_html;
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    tenant_hosts: &[".hrmdirect.com"],
    parsers: &[("hrmdirect.listing", parse_listing), ("hrmdirect.detail", parse_detail)],
    ..Platform::of::<HrmDirect>("hrmdirect", |base| Arc::new(HrmDirect(base)))
};

pub(crate) struct HrmDirect(Base);

/// One requisition as the openings page lists it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Row {
    req: String,
    title: String,
    href: Option<String>,
    department: String,
    location: String,
    countries: Vec<String>,
    date: Option<String>,
}

/// The value of attribute `name` in a start tag (`<tr class="a" data-req-id="1">`).
fn attr(tag: &str, name: &str) -> Option<String> {
    let mut from = 0;
    while let Some(at) = find_ci(tag, name, from) {
        from = at + name.len();
        let preceded = tag[..at].ends_with(|c: char| c.is_ascii_whitespace());
        let Some(rest) = tag[from..].trim_start().strip_prefix('=') else { continue };
        if !preceded {
            continue;
        }
        let rest = rest.trim_start();
        let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'');
        let value = match quote {
            Some(q) => rest[1..].split(q).next()?,
            None => rest.split(|c: char| c.is_ascii_whitespace() || c == '>').next()?,
        };
        return Some(html_escape::decode_html_entities(value).into_owned());
    }
    None
}

/// The text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed.
fn text_of(fragment: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in fragment.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let decoded = html_escape::decode_html_entities(&out).into_owned();
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `MM/DD/YYYY`.
fn is_us_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[2] == b'/'
        && b[5] == b'/'
        && b.iter().enumerate().all(|(i, c)| i == 2 || i == 5 || c.is_ascii_digit())
}

/// One `<tr data-req-id>` row (the text from its start tag to the next row).
fn read_row(req: String, row: &str) -> Row {
    let mut out = Row { req, ..Row::default() };
    let (mut city, mut state, mut nation) = (String::new(), String::new(), String::new());
    let mut at = 0;
    while let Some(open) = find_ci(row, "<td", at) {
        let Some(tag_end) = row[open..].find('>').map(|e| open + e + 1) else { break };
        let end = [find_ci(row, "<td", tag_end), find_ci(row, "</tr", tag_end)]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(row.len());
        at = end;
        let tag = &row[open..tag_end];
        let cell = &row[tag_end..end];
        let class = attr(tag, "class").unwrap_or_default().to_ascii_lowercase();
        let text = text_of(cell);
        match class.split_whitespace().next().unwrap_or_default() {
            "postitle" => {
                out.title = text;
                out.href = find_ci(cell, "<a", 0).and_then(|a| {
                    let a_end = cell[a..].find('>').map_or(cell.len(), |e| a + e + 1);
                    attr(&cell[a..a_end], "href")
                });
            }
            "departments" => out.department = text,
            "cities" => city = text,
            "state" => state = text,
            "countries" => nation = text,
            _ if is_us_date(&text) => out.date = Some(text),
            _ => {}
        }
    }
    out.location = join_non_empty([city.as_str(), state.as_str(), nation.as_str()], ", ");
    if !nation.is_empty() {
        out.countries.push(nation);
    }
    out
}

/// The openings page's requisitions, rows of one requisition merged; an error when the page
/// lists none and is not the openings page.
fn read_listing(html: &str) -> Result<Vec<Row>, String> {
    let mut rows: Vec<Row> = Vec::new();
    let mut at = 0;
    while let Some(open) = find_ci(html, "<tr", at) {
        let tag_end = html[open..].find('>').map_or(html.len(), |e| open + e + 1);
        at = tag_end;
        let Some(req) = attr(&html[open..tag_end], "data-req-id").map(|r| r.trim().to_owned())
        else {
            continue;
        };
        if req.is_empty() {
            continue;
        }
        let end = find_ci(html, "<tr", tag_end).unwrap_or(html.len());
        let row = read_row(req, &html[tag_end..end]);
        match rows.iter_mut().find(|r| r.req == row.req) {
            Some(known) => {
                add_location(&mut known.location, &row.location);
                known.countries.extend(row.countries);
            }
            None => rows.push(row),
        }
    }
    if rows.is_empty() && find_ci(html, "job-openings.php", 0).is_none() {
        return Err("neither a posting row nor the openings search form".into());
    }
    Ok(rows)
}

/// A job page's description: its `jobDesc` block, else its `JobPosting`.
fn read_detail(html: &str) -> Option<String> {
    let block = find_ci(html, "jobdesc", 0)
        .and_then(|at| html[..at].rfind("<div").or_else(|| html[..at].rfind("<DIV")))
        .and_then(|div| next_div(html, div))
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_owned);
    block.or_else(|| {
        let jp = ldjson::job_posting(html)?;
        let d = jp.get("description")?.as_str()?;
        Some(decode_maybe_encoded_html(d)).filter(|d| !d.trim().is_empty())
    })
}

fn listing_url(b: &str) -> Result<url::Url, IngestError> {
    build_url(
        &format!("{b}.hrmdirect.com"),
        &["employment", "job-openings.php"],
        &[("search", "true")],
    )
}

fn posting(base: &url::Url, row: &Row, description: Option<String>) -> RawPosting {
    let mut url = row
        .href
        .as_deref()
        .and_then(|h| base.join(h).ok())
        .filter(|u| u.host_str() == base.host_str())
        .unwrap_or_else(|| {
            let mut u = base.clone();
            u.set_path("/employment/job-opening.php");
            u.set_query(Some(&format!("req={}", row.req)));
            u
        });
    url.set_fragment(None);
    let mut p = RawPosting {
        native_id: row.req.clone(),
        url: url.to_string(),
        title: row.title.clone(),
        location: row.location.clone(),
        description_html: description.unwrap_or_default(),
        posted_at: row.date.clone().map(RawDate::Text),
        countries: row.countries.iter().filter_map(|c| country(c)).collect(),
        departments: vec![row.department.clone()],
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

/// An openings page read and mapped as `fetch` maps it (a fuzz entry point).
fn parse_listing(bytes: &[u8]) {
    if let (Ok(rows), Ok(base)) = (read_listing(&String::from_utf8_lossy(bytes)), listing_url("x"))
    {
        rows.iter().map(|r| posting(&base, r, None)).for_each(drop);
    }
}

/// A job page read as `fetch` reads it (a fuzz entry point).
fn parse_detail(bytes: &[u8]) {
    drop(read_detail(&String::from_utf8_lossy(bytes)));
}

impl HrmDirect {
    async fn detail(&self, base: &url::Url, row: Row) -> Result<RawPosting, IngestError> {
        let listed = posting(base, &row, None);
        let url = url::Url::parse(&listed.url)
            .map_err(|e| IngestError::config(format!("bad posting URL {:?}", listed.url), e))?;
        let fetched = self.0.http.get(&url, "text/html").await?;
        let description = read_detail(&String::from_utf8_lossy(&fetched.body));
        Ok(RawPosting { description_html: description.unwrap_or_default(), ..listed })
    }
}

#[async_trait::async_trait]
impl Source for HrmDirect {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: false, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        host_label_board(key)
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let tenant = url.tenant(".hrmdirect.com")?;
        let canonical = format!("https://{tenant}.hrmdirect.com/employment/job-openings.php");
        Some(BoardMatch::new(tenant, canonical))
    }

    async fn fetch(
        &self,
        board: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let b = host_label(self.0.provider.as_str(), &board.key.board)?;
        let url = listing_url(b)?;
        let fetched =
            self.0.http.get(&url, "text/html").await.map_err(|e| e.board_gone_on_404(b))?;
        let rows = read_listing(&String::from_utf8_lossy(&fetched.body)).map_err(|why| {
            IngestError::Decode { url: fetched.url.to_string(), format: "HTML", source: why.into() }
        })?;
        let listed = rows.into_iter().map(|r| (r.req.clone(), r)).collect();
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |_, row| self.detail(&url, row)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_attributes_and_details() {
        assert_eq!(
            attr(r#"<tr class="a" data-req-id="12">"#, "data-req-id").as_deref(),
            Some("12")
        );
        assert_eq!(attr(r#"<tr x-data-req-id="12">"#, "data-req-id"), None);
        assert_eq!(
            attr("<a href=job-opening.php?req=1&amp;x=2>", "href").as_deref(),
            Some("job-opening.php?req=1&x=2")
        );
        let page = r#"<table><tr data-req-id="42"><td class="posTitle reqitem"><a href="job-opening.php?req=42&amp;req_loc=1#job">ML Engineer </td>
            <td class="cities reqitem">Cleveland</td><td class="state">OH</td><td class="countries">United States</td></tr>
            <tr data-req-id="42"><td class="posTitle"><a href="job-opening.php?req=42&amp;req_loc=2">ML Engineer</a></td>
            <td class="cities">Toronto</td><td class="countries">Canada</td></tr></table>"#;
        let rows = read_listing(page).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].title, "ML Engineer");
        assert_eq!(rows[0].location, "Cleveland, OH, United States; Toronto, Canada");
        assert_eq!(rows[0].countries, ["United States", "Canada"]);
        assert!(read_listing("<html><body>Blocked</body></html>").is_err());
        assert_eq!(read_listing(r#"<form action="job-openings.php"></form>"#), Ok(vec![]));
        let detail = r#"<table class="viewFields"></table><div class="jobDesc"><p>Do <b>x</b>.</p><div>y</div></div><div>z</div>"#;
        assert_eq!(read_detail(detail).as_deref(), Some("<p>Do <b>x</b>.</p><div>y</div>"));
        assert_eq!(read_detail("<html></html>"), None);
    }
}
