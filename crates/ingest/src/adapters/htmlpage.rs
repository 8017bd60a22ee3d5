//! Reading the HTML pages of the page-scraping adapters (iCIMS, Jobvite, JazzHR, Breezy)
//! without an HTML parser: anchors and their text, the text of an element, and a schema.org
//! `JobPosting` (found by [`super::ldjson::job_posting`]) mapped to the structured fields of
//! a [`RawPosting`].
//!
//! Only what the page states in markup or in the JobPosting's structured properties is read;
//! no heuristics over the text.

use serde_json::Value;

use super::common::{add_location, country, employment_type, join_non_empty, number, salary};
use crate::posting::{RawDate, RawPosting};
use crate::sanitize::decode_maybe_encoded_html;

/// An anchor: its `href` (entity-decoded) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Anchor {
    pub(crate) href: String,
    pub(crate) text: String,
    /// The anchor's inner HTML.
    pub(crate) inner: String,
}

/// Case-insensitive `find` of an ASCII needle from `from`.
fn find_ci(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let hay_b = hay.as_bytes();
    let n = needle.as_bytes();
    if n.is_empty() || hay_b.len() < n.len() || from > hay_b.len() - n.len() {
        return None;
    }
    (from..=hay_b.len() - n.len()).find(|&i| hay_b[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// The value of attribute `name` in one tag's text (`<a href="x" class=…>`).
pub(crate) fn attr(tag: &str, name: &str) -> Option<String> {
    let mut from = 0;
    while let Some(at) = find_ci(tag, name, from) {
        from = at + name.len();
        let before = tag[..at].chars().next_back();
        if !before.is_some_and(char::is_whitespace) {
            continue;
        }
        let rest = tag[from..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else { continue };
        let rest = rest.trim_start();
        let value = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or_default(),
            _ => rest.split(|c: char| c.is_whitespace() || c == '>').next().unwrap_or_default(),
        };
        return Some(html_escape::decode_html_entities(value).into_owned());
    }
    None
}

/// Every `<a …>…</a>` of the page with an `href`, in page order.
pub(crate) fn anchors(page: &str) -> Vec<Anchor> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = find_ci(page, "<a", from) {
        from = open + 2;
        if !page[from..].starts_with(|c: char| c.is_whitespace()) {
            continue;
        }
        let Some(tag_end) = page[open..].find('>').map(|i| open + i) else { break };
        let Some(close) = find_ci(page, "</a", tag_end) else { break };
        from = close;
        let Some(href) = attr(&page[open..tag_end], "href") else { continue };
        let inner = &page[tag_end + 1..close];
        out.push(Anchor { href, text: text(inner), inner: inner.to_owned() });
    }
    out
}

/// The text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed.
pub(crate) fn text(fragment: &str) -> String {
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
    let decoded = html_escape::decode_html_entities(&out).into_owned();
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The inner HTML of the first `<{tag}…>…</{tag}>` after `from` in `page`, and where it ends.
pub(crate) fn element<'a>(page: &'a str, tag: &str, from: usize) -> Option<(&'a str, usize)> {
    let mut at = from;
    loop {
        let open = find_ci(page, &format!("<{tag}"), at)?;
        let after = open + 1 + tag.len();
        at = after;
        if !page[after..].starts_with(|c: char| c.is_whitespace() || c == '>') {
            continue;
        }
        let start = open + page[open..].find('>')? + 1;
        let close = find_ci(page, &format!("</{tag}"), start)?;
        return Some((&page[start..close], close));
    }
}

/// The chunks of `page` that start at each occurrence of `marker` (a card's class name),
/// each ending where the next begins.
pub(crate) fn chunks<'a>(page: &'a str, marker: &str) -> Vec<&'a str> {
    let mut starts = Vec::new();
    let mut from = 0;
    while let Some(at) = find_ci(page, marker, from) {
        starts.push(at);
        from = at + marker.len();
    }
    starts
        .iter()
        .enumerate()
        .map(|(i, &s)| &page[s..starts.get(i + 1).copied().unwrap_or(page.len())])
        .collect()
}

/// The text of the first element carrying `class` (its opening tag's name, up to that
/// tag's first closing tag).
pub(crate) fn class_text(fragment: &str, class: &str) -> Option<String> {
    let at = find_ci(fragment, class, 0)?;
    let open = fragment[..at].rfind('<')?;
    let name: String =
        fragment[open + 1..].chars().take_while(char::is_ascii_alphanumeric).collect();
    if name.is_empty() {
        return None;
    }
    element(fragment, &name, open).map(|(inner, _)| text(inner)).filter(|t| !t.is_empty())
}

/// A job page mapped to a posting: its JobPosting's fields, with the listing's title and
/// location where the JobPosting gives none; `None` when the page has no JobPosting and the
/// listing no title.
pub(crate) fn page_posting(
    page: &str,
    native_id: String,
    url: String,
    title: Option<&str>,
    location: Option<&str>,
) -> Option<RawPosting> {
    let jp = super::ldjson::job_posting(page);
    if jp.is_none() && title.is_none() {
        return None;
    }
    let mut p = jp.as_ref().map(from_job_posting).unwrap_or_default();
    p.native_id = native_id;
    p.url = url;
    if p.title.is_empty() {
        p.title = title.unwrap_or_default().trim().to_owned();
    }
    if p.location.is_empty() {
        p.location = location.unwrap_or_default().trim().to_owned();
    }
    Some(p)
}

/// A single-page listing that named no job must still be the platform's page: an empty board
/// renders the platform's markup (`marker`), while a page without it (a redesign, a
/// script-rendered shell, a parked domain) proves nothing and fails the board rather than
/// reading as empty (which would let the sweep close the board's jobs).
pub(crate) fn empty_listing_is_the_platforms(
    url: &url::Url,
    page: &str,
    named: usize,
    marker: &str,
) -> Result<(), crate::IngestError> {
    if named > 0 || page.contains(marker) {
        return Ok(());
    }
    Err(crate::IngestError::Decode {
        url: url.to_string(),
        format: "HTML",
        source: format!("the page lists no job and has none of the platform's markup ({marker})")
            .into(),
    })
}

/// The error of a job page that has neither a JobPosting nor a listed title.
pub(crate) fn no_job_posting(url: &url::Url) -> crate::IngestError {
    crate::IngestError::Decode {
        url: url.to_string(),
        format: "JobPosting ld+json",
        source: "the job page has no JobPosting".into(),
    }
}

/// A schema.org value that is a string or `{name}` / `{value}`; `UNAVAILABLE`
/// placeholders (iCIMS) are blank.
fn text_value(v: Option<&Value>) -> Option<String> {
    let v = v?;
    let s = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Object(o) => {
            return text_value(o.get("name").or_else(|| o.get("value")));
        }
        _ => return None,
    };
    let s = s.trim();
    (!s.is_empty() && !s.eq_ignore_ascii_case("unavailable")).then(|| s.to_owned())
}

fn one_or_many(v: Option<&Value>) -> Vec<&Value> {
    match v {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(Value::Null) | None => Vec::new(),
        Some(other) => vec![other],
    }
}

/// A `JobPosting`'s structured fields as a posting (no id, no URL): title, description
/// (entity-decoded when encoded), `datePosted`, `employmentType`, `jobLocation` addresses
/// (locality, region, country; countries from `addressCountry`), `jobLocationType`
/// `TELECOMMUTE`, `applicantLocationRequirements` countries and `baseSalary`.
pub(crate) fn from_job_posting(jp: &Value) -> RawPosting {
    let mut location = String::new();
    let mut countries = Vec::new();
    for place in one_or_many(jp.get("jobLocation")) {
        let Some(a) = place.get("address") else { continue };
        let cc = text_value(a.get("addressCountry"));
        let parts =
            [text_value(a.get("addressLocality")), text_value(a.get("addressRegion")), cc.clone()];
        add_location(
            &mut location,
            &join_non_empty(parts.iter().flatten().map(String::as_str), ", "),
        );
        countries.extend(cc.as_deref().and_then(country));
    }
    let remote = jp
        .get("jobLocationType")
        .and_then(Value::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("TELECOMMUTE"));
    if remote {
        for req in one_or_many(jp.get("applicantLocationRequirements")) {
            countries.extend(text_value(Some(req)).as_deref().and_then(country));
        }
    }
    let employment = one_or_many(jp.get("employmentType"))
        .into_iter()
        .find_map(|e| e.as_str().and_then(employment_type));
    let mut p = RawPosting {
        title: text_value(jp.get("title")).unwrap_or_default(),
        location,
        description_html: jp
            .get("description")
            .and_then(Value::as_str)
            .map(decode_maybe_encoded_html)
            .unwrap_or_default(),
        posted_at: text_value(jp.get("datePosted")).map(RawDate::Text),
        remote: remote.then_some(true),
        work_mode: remote.then_some(freehire_domain::WorkMode::Remote),
        employment_type: employment,
        countries,
        salary: base_salary(jp.get("baseSalary")),
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

/// `baseSalary`: `{currency, value: {minValue, maxValue | value, unitText}}`.
fn base_salary(v: Option<&Value>) -> Option<freehire_domain::Salary> {
    let v = v?;
    let amount = v.get("value")?;
    let (min, max) = match amount {
        Value::Object(_) => {
            let single = amount.get("value").and_then(number);
            (
                amount.get("minValue").and_then(number).or(single),
                amount.get("maxValue").and_then(number).or(single),
            )
        }
        other => (number(other), number(other)),
    };
    let unit = amount.get("unitText").or_else(|| v.get("unitText")).and_then(Value::as_str);
    salary(min, max, v.get("currency").and_then(Value::as_str), unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn anchors_and_text() {
        let page = r#"<A class=x HREF='/a?x=1&amp;y=2'>One <b>two</b></a><abbr>no</abbr><a name=n>no href</a><a href="/b">&amp; three</a>"#;
        let got: Vec<(String, String)> =
            anchors(page).into_iter().map(|a| (a.href, a.text)).collect();
        assert_eq!(
            got,
            [("/a?x=1&y=2".to_owned(), "One two".to_owned()), ("/b".into(), "& three".into())]
        );
        assert_eq!(element("<div><h3 class=t>Hi</h3></div>", "h3", 0).map(|e| e.0), Some("Hi"));
        assert!(anchors("<a href=").is_empty());
        assert_eq!(chunks("x<li class=c>1<li class=c>2", "class=c").len(), 2);
        let row = r#"<tr><td class="jv-job-list-location">  Chicago,
            Illinois </td></tr>"#;
        assert_eq!(class_text(row, "jv-job-list-location").as_deref(), Some("Chicago, Illinois"));
        assert_eq!(class_text("<x class=", "class="), None);
    }

    #[test]
    fn job_posting_fields() {
        let jp = json!({"@type": "JobPosting", "title": " Nurse ", "description": "&lt;p&gt;Care&lt;/p&gt;",
            "datePosted": "2026-08-01", "employmentType": ["FULL_TIME"],
            "jobLocation": [{"address": {"addressLocality": "Austin", "addressRegion": "TX", "addressCountry": "US"}},
                            {"address": {"addressLocality": "UNAVAILABLE", "addressCountry": {"name": "Canada"}}}],
            "baseSalary": {"currency": "USD", "value": {"minValue": 50000, "maxValue": "60,000", "unitText": "YEAR"}}});
        let p = from_job_posting(&jp);
        assert_eq!(p.title, "Nurse");
        assert_eq!(p.description_html, "<p>Care</p>");
        assert_eq!(p.location, "Austin, TX, US; Canada");
        assert_eq!(p.countries.iter().map(|c| c.as_str()).collect::<Vec<_>>(), ["ca", "us"]);
        assert_eq!(p.employment_type, Some(freehire_domain::EmploymentType::FullTime));
        let s = p.salary.unwrap();
        assert_eq!((s.min, s.max), (Some(50000), Some(60000)));
        assert_eq!(p.remote, None);
    }
}
