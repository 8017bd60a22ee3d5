//! SAP SuccessFactors Recruiting Marketing career sites: the job sitemap and one job page per
//! posting.
//!
//! - Listing: `GET https://{host}/job_sitemap.xml`, a sitemap (`<urlset><url><loc>, <lastmod>`)
//!   or a sitemap index whose sitemaps are read one level down; locs on the board's host
//!   whose path has a `/job/` segment are postings (`/job/{slug}/{id}/`, the numeric id is the
//!   native id). A 404 on the sitemap is `BoardGone`; any sub-sitemap failure, a document that
//!   is not a sitemap, or locs none of which is a job page fails the board. A full-listing
//!   provider.
//! - Detail: the job page's microdata: `itemprop="title"` (fallback `og:title`),
//!   `itemprop="description"`, `itemprop="employmentType"`, the `jobLocation` address parts
//!   (`addressLocality`, `addressRegion`, `addressCountry`); `lastmod` is the posted date
//!   (fallback `itemprop="datePosted"`). Hydrating.
//!
//! Board: the career host (recognition mode `host`), recognised from URLs of
//! `*.jobs2web.com`, `*.successfactors.com`, `*.successfactors.eu`, `*.sapsf.com` and
//! `*.sapsf.eu` career sites (custom career domains are added by host, unrecognised). The
//! reference's hub mode (a tenant path segment naming the employer) is not implemented.
//!
//! Unproven: no recorded real response was found under a compatible licence; the fixture is
//! constructed from the sitemap protocol and the career site's documented microdata.

use std::collections::HashSet;
use std::sync::Arc;

use freehire_domain::BoardKey;
use serde::Deserialize;

use super::common::{add_location, country, employment_type, hydrate, invalid_board};
use super::common::{is_dns_label, join_non_empty, no_region};
use super::{Base, Platform};
use crate::IngestError;
use crate::http::Fetcher;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, tenant_label};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform {
    parsers: &[("successfactors.sitemap", parse_sitemap), ("successfactors.job", parse_job)],
    ..Platform::of::<SuccessFactors>("successfactors", |base| Arc::new(SuccessFactors(base)))
};

/// Domains whose subdomains are SuccessFactors career sites.
const DOMAINS: &[&str] =
    &["jobs2web.com", "successfactors.com", "successfactors.eu", "sapsf.com", "sapsf.eu"];
/// First labels on those domains that are SAP's own application hosts, not career sites.
const NOT_CAREER_SITES: &[&str] = &["career", "performancemanager", "hcm", "salesdemo", "api"];
/// Most sub-sitemaps one index may name.
const MAX_SITEMAPS: usize = 200;

pub(crate) struct SuccessFactors(Base);

/// A career host: lowercase DNS labels, at least two, not an IP literal.
fn is_host(host: &str) -> bool {
    host.len() <= 253
        && host.contains('.')
        && host.split('.').all(is_dns_label)
        && host.parse::<std::net::IpAddr>().is_err()
        && !host.bytes().any(|b| b.is_ascii_uppercase())
}

#[derive(Deserialize, Default)]
struct Sitemap {
    #[serde(rename = "url", default)]
    urls: Vec<Entry>,
    #[serde(rename = "sitemap", default)]
    sitemaps: Vec<Entry>,
}

#[derive(Deserialize, Clone)]
struct Entry {
    loc: String,
    lastmod: Option<String>,
}

/// A listed posting: its page and its sitemap date.
#[derive(Clone)]
struct Listed {
    url: url::Url,
    lastmod: Option<String>,
}

/// A sitemap loc on `host` (`http`/`https`), if it is one.
fn on_host(loc: &str, host: &str) -> Option<url::Url> {
    let url = url::Url::parse(loc.trim()).ok()?;
    let ok = matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some_and(|h| h.eq_ignore_ascii_case(host));
    ok.then_some(url)
}

/// The native id of a job page: the numeric segment after the slug (`/job/{slug}/{id}/`),
/// else the path.
fn native_id(url: &url::Url) -> Option<String> {
    let segs: Vec<&str> = url.path_segments()?.filter(|s| !s.is_empty()).collect();
    let at = segs.iter().position(|s| *s == "job")?;
    let rest = &segs[at + 1..];
    if rest.is_empty() {
        return None;
    }
    let numeric = rest.iter().rev().find(|s| s.bytes().all(|b| b.is_ascii_digit()));
    Some(numeric.map_or_else(|| rest.join("/"), |id| (*id).to_owned()))
}

// --- a small microdata reader -------------------------------------------------------------

/// The opening tag that carries `attr="value"` (either quote), and where it ends.
fn tag_with(html: &str, attr: &str, value: &str) -> Option<(usize, usize)> {
    let lower = html.to_ascii_lowercase();
    let value = value.to_ascii_lowercase();
    for quote in ['"', '\''] {
        let needle = format!("{attr}={quote}{value}{quote}");
        let mut from = 0;
        while let Some(found) = lower[from..].find(&needle) {
            let at = from + found;
            from = at + needle.len();
            if !lower[..at].ends_with(|c: char| c.is_ascii_whitespace()) {
                continue;
            }
            let Some(open) = lower[..at].rfind('<') else { continue };
            // The attribute must be inside this tag, not after its `>`.
            if lower[open..at].contains('>') {
                continue;
            }
            let Some(close) = lower[at..].find('>') else { continue };
            return Some((open, at + close + 1));
        }
    }
    None
}

/// The value of `name` in an opening tag (`<meta content="…">`), entity-decoded.
fn attr_value(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    for quote in ['"', '\''] {
        let needle = format!("{name}={quote}");
        let mut from = 0;
        while let Some(found) = lower[from..].find(&needle) {
            let at = from + found;
            from = at + needle.len();
            if !lower[..at].ends_with(|c: char| c.is_ascii_whitespace()) {
                continue;
            }
            let start = at + needle.len();
            let end = start + lower[start..].find(quote)?;
            return Some(html_escape::decode_html_entities(&tag[start..end]).trim().to_owned());
        }
    }
    None
}

/// The element's name in its opening tag (`<span …>` → `span`).
fn tag_name(tag: &str) -> String {
    tag.trim_start_matches('<')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The inner HTML of the element whose opening tag is `html[open..inner]`, balancing nested
/// elements of the same name.
fn inner_html(html: &str, open: usize, inner: usize) -> Option<&str> {
    let name = tag_name(&html[open..inner]);
    if name.is_empty() || html[open..inner].ends_with("/>") {
        return None;
    }
    let lower = html.to_ascii_lowercase();
    let (opening, closing) = (format!("<{name}"), format!("</{name}"));
    let mut depth = 1usize;
    let mut at = inner;
    while at < lower.len() {
        let next_close = lower[at..].find(&closing).map(|i| at + i)?;
        let next_open = lower[at..].find(&opening).map(|i| at + i);
        match next_open {
            Some(o)
                if o < next_close
                    && lower[o + opening.len()..]
                        .starts_with(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/') =>
            {
                depth += 1;
                at = o + opening.len();
            }
            _ => {
                depth -= 1;
                if depth == 0 {
                    return Some(&html[inner..next_close]);
                }
                at = next_close + closing.len();
            }
        }
    }
    None
}

/// Text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed.
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
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    html_escape::decode_html_entities(&out).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An `itemprop`'s value: a `content` attribute, else the element's text.
fn itemprop_text(html: &str, prop: &str) -> Option<String> {
    let (open, inner) = tag_with(html, "itemprop", prop)?;
    let tag = &html[open..inner];
    attr_value(tag, "content")
        .or_else(|| inner_html(html, open, inner).map(text_of))
        .filter(|v| !v.is_empty())
}

/// What a job page states.
#[derive(Debug, Default, PartialEq, Eq)]
struct JobPage {
    title: Option<String>,
    description: Option<String>,
    employment: Option<String>,
    locality: Option<String>,
    region: Option<String>,
    country: Option<String>,
    date_posted: Option<String>,
}

fn read_job(html: &str) -> JobPage {
    let og_title = tag_with(html, "property", "og:title")
        .and_then(|(o, i)| attr_value(&html[o..i], "content"))
        .filter(|t| !t.is_empty());
    JobPage {
        title: itemprop_text(html, "title").or(og_title),
        description: tag_with(html, "itemprop", "description")
            .and_then(|(o, i)| inner_html(html, o, i))
            .map(|d| d.trim().to_owned())
            .filter(|d| !d.is_empty()),
        employment: itemprop_text(html, "employmentType"),
        locality: itemprop_text(html, "addressLocality"),
        region: itemprop_text(html, "addressRegion"),
        country: itemprop_text(html, "addressCountry"),
        date_posted: itemprop_text(html, "datePosted"),
    }
}

fn posting(id: String, listed: &Listed, page: JobPage) -> RawPosting {
    let mut location = String::new();
    let parts = [&page.locality, &page.region, &page.country];
    add_location(
        &mut location,
        &join_non_empty(parts.into_iter().flatten().map(String::as_str), ", "),
    );
    let mut p = RawPosting {
        native_id: id,
        url: listed.url.to_string(),
        title: page.title.unwrap_or_default(),
        location,
        description_html: page.description.unwrap_or_default(),
        posted_at: listed.lastmod.clone().or(page.date_posted).map(RawDate::Text),
        employment_type: page.employment.as_deref().and_then(employment_type),
        countries: page.country.as_deref().and_then(country).into_iter().collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

/// Whether a body is a sitemap document (`<urlset …>` or `<sitemapindex …>`).
fn is_sitemap(body: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&body[..body.len().min(4096)]).to_ascii_lowercase();
    head.contains("<urlset") || head.contains("<sitemapindex")
}

/// A sitemap decoded as `fetch` decodes it (a fuzz entry point).
fn parse_sitemap(bytes: &[u8]) {
    if let Ok(text) = std::str::from_utf8(bytes)
        && let Ok(map) = quick_xml::de::from_str::<Sitemap>(text)
    {
        map.urls.iter().filter_map(|e| on_host(&e.loc, "example.com")).for_each(|u| {
            drop(native_id(&u));
        });
    }
}

/// A job page read and mapped as `fetch` maps it (a fuzz entry point).
fn parse_job(bytes: &[u8]) {
    let html = String::from_utf8_lossy(bytes);
    if let Ok(url) = url::Url::parse("https://example.com/job/x/1/") {
        drop(posting("1".into(), &Listed { url, lastmod: None }, read_job(&html)));
    }
}

impl SuccessFactors {
    /// A sitemap or sitemap index. Any other XML document is refused: decoded leniently it
    /// would read as an empty board.
    async fn sitemap(&self, url: &url::Url) -> Result<Sitemap, IngestError> {
        let fetched = self.0.http.get(url, "application/xml, text/xml").await?;
        if !is_sitemap(&fetched.body) {
            return Err(IngestError::Decode {
                url: url.to_string(),
                format: "XML",
                source: "not a sitemap (no urlset or sitemapindex)".into(),
            });
        }
        Fetcher::decode_xml(&fetched)
    }

    async fn list(&self, host: &str) -> Result<Vec<(String, Listed)>, IngestError> {
        let root = super::common::build_url(host, &["job_sitemap.xml"], &[])?;
        let first: Sitemap = self.sitemap(&root).await.map_err(|e| e.board_gone_on_404(host))?;
        let mut entries = first.urls;
        if first.sitemaps.len() > MAX_SITEMAPS {
            return Err(IngestError::Incomplete {
                board: host.to_owned(),
                reason: format!("more than {MAX_SITEMAPS} sitemaps"),
            });
        }
        for sub in &first.sitemaps {
            // A sub-sitemap elsewhere cannot be read safely: the listing would be partial.
            let url = on_host(&sub.loc, host).ok_or_else(|| IngestError::Incomplete {
                board: host.to_owned(),
                reason: format!("sub-sitemap {} is not on the career host", sub.loc),
            })?;
            entries.extend(self.sitemap(&url).await?.urls);
        }
        let mut seen = HashSet::new();
        let named = entries.len();
        let listed: Vec<_> = entries
            .into_iter()
            .filter_map(|e| {
                let url = on_host(&e.loc, host)?;
                let id = native_id(&url)?;
                seen.insert(id.clone()).then_some((id, Listed { url, lastmod: e.lastmod }))
            })
            .collect();
        // Pages listed but none a job page on this host: the sitemap is not what we read it
        // as, and an empty listing would close the board's jobs.
        if listed.is_empty() && named > 0 {
            return Err(IngestError::Incomplete {
                board: host.to_owned(),
                reason: format!("none of the sitemap's {named} pages is a job page on the host"),
            });
        }
        Ok(listed)
    }

    async fn detail(&self, id: String, listed: Listed) -> Result<RawPosting, IngestError> {
        let fetched = self.0.http.get(&listed.url, "text/html").await?;
        let html = String::from_utf8_lossy(&fetched.body);
        Ok(posting(id, &listed, read_job(&html)))
    }
}

#[async_trait::async_trait]
impl Source for SuccessFactors {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: true }
    }

    fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
        no_region(key)?;
        if is_host(&key.board) {
            Ok(())
        } else {
            Err(invalid_board(
                "successfactors",
                &key.board,
                "must be the career site's host name (lowercase, e.g. careers.example.com)",
            ))
        }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let host = url.host();
        let on_domain = DOMAINS.iter().any(|d| {
            host.strip_suffix(*d).is_some_and(|rest| rest.ends_with('.') && rest.len() > 1)
        });
        if !on_domain {
            return None;
        }
        let first = host.split('.').next()?;
        let base = first.trim_end_matches(|c: char| c.is_ascii_digit());
        if NOT_CAREER_SITES.contains(&base) || !is_host(host) {
            return None;
        }
        // One tenant label before the domain (`acme.jobs2web.com`), or a deeper career host.
        tenant_label(first)?;
        Some(BoardMatch::new(host, format!("https://{host}/")))
    }

    async fn fetch(
        &self,
        target: &BoardTarget,
        seen: &SeenSet,
    ) -> Result<BoardListing, IngestError> {
        let host = target.key.board.trim();
        if !is_host(host) {
            return Err(invalid_board("successfactors", host, "must be the career site's host"));
        }
        let listed = self.list(host).await?;
        let concurrency = self.0.config.detail_concurrency;
        Ok(hydrate(listed, seen, concurrency, |id, l| self.detail(id, l)).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microdata() {
        let html = r#"<html><head><meta property="og:title" content="OG &amp; Title"></head><body>
            <h1><span itemprop="title" data-x="1">Senior &amp; Staff Engineer</span></h1>
            <span itemprop="description" class="jobdescription"><p>Build <span>things</span>.</p><span>More</span></span>
            <span itemprop="jobLocation" itemscope><span itemprop="address" itemscope>
              <meta itemprop="addressLocality" content="Walldorf"><meta itemprop="addressCountry" content="DE">
            </span></span><span itemprop='employmentType'>Full Time</span></body></html>"#;
        let page = read_job(html);
        assert_eq!(page.title.as_deref(), Some("Senior & Staff Engineer"));
        assert_eq!(
            page.description.as_deref(),
            Some("<p>Build <span>things</span>.</p><span>More</span>")
        );
        assert_eq!(page.locality.as_deref(), Some("Walldorf"));
        assert_eq!(page.country.as_deref(), Some("DE"));
        assert_eq!(page.employment.as_deref(), Some("Full Time"));
        let og = read_job(r#"<meta property="og:title" content="OG &amp; Title">"#);
        assert_eq!(og.title.as_deref(), Some("OG & Title"));
        assert_eq!(read_job("<span itemprop=\"description\"><span>unclosed"), JobPage::default());
        let url =
            url::Url::parse("https://jobs.example.com/job/Walldorf-Engineer/1234567/").unwrap();
        assert_eq!(native_id(&url).as_deref(), Some("1234567"));
        let url = url::Url::parse("https://jobs.example.com/search/").unwrap();
        assert_eq!(native_id(&url), None);
    }
}
