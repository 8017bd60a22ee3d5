//! Helpers shared by the adapters: structured-field mappings (country, work mode, employment
//! type, salary period, ids), board-shape checks, URL building with validated board parts,
//! and the hydrating detail fan-out ([`hydrate`]).

use std::future::Future;

use freehire_domain::{
    CountryCode, EmploymentType, MAX_EXPERIENCE_YEARS, Salary, SalaryPeriod, Seniority, WorkMode,
};
use futures::StreamExt;
use url::Url;

use freehire_domain::BoardKey;
use serde_json::Value;

use crate::IngestError;
use crate::error_chain;
use crate::posting::{BoardListing, RawPosting, SeenSet, Unreadable};

/// Lowercase letters and digits only, for matching platform labels.
fn squash(raw: &str) -> String {
    raw.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// A country from a structured field: ISO alpha-2, alpha-3 or an English name / alias.
pub(crate) fn country(raw: &str) -> Option<CountryCode> {
    let raw = raw.trim();
    if raw.is_empty() {
        return None;
    }
    // "UK" is what people write for the United Kingdom, whose ISO code is GB.
    if raw.eq_ignore_ascii_case("uk") {
        return CountryCode::parse("gb").ok();
    }
    let found = match raw.len() {
        2 => celes::Country::from_alpha2(raw).ok(),
        3 => celes::Country::from_alpha3(raw).ok(),
        _ => None,
    }
    .or_else(|| {
        let key = squash(raw);
        celes::Country::from_name(&key).or_else(|_| celes::Country::from_alias(&key)).ok()
    })?;
    CountryCode::parse(found.alpha2).ok()
}

/// Work mode from a workplace-type field: remote / hybrid / on-site, onsite, office.
pub(crate) fn workplace_mode(raw: &str) -> Option<WorkMode> {
    match squash(raw).as_str() {
        "remote" | "fullyremote" => Some(WorkMode::Remote),
        "hybrid" => Some(WorkMode::Hybrid),
        "onsite" | "office" | "inoffice" => Some(WorkMode::Onsite),
        _ => None,
    }
}

/// Work mode from remote / hybrid flags: remote wins over hybrid; both false is unknown.
pub(crate) fn mode_from_flags(remote: Option<bool>, hybrid: Option<bool>) -> Option<WorkMode> {
    if remote == Some(true) {
        Some(WorkMode::Remote)
    } else if hybrid == Some(true) {
        Some(WorkMode::Hybrid)
    } else {
        None
    }
}

/// Employment type from a platform's structured label (`FullTime`, `full-time`, `Part time`,
/// `Contract`, `Intern`…). Labels that do not say one of ours (`Regular`, `Temporary`) give
/// `None`.
pub(crate) fn employment_type(raw: &str) -> Option<EmploymentType> {
    match squash(raw).as_str() {
        "fulltime" | "full" | "fulltimepermanent" | "fulltimefixedterm" => {
            Some(EmploymentType::FullTime)
        }
        "parttime" | "part" | "parttimepermanent" | "parttimefixedterm" => {
            Some(EmploymentType::PartTime)
        }
        "contract" | "contractor" | "freelance" | "freelancer" => Some(EmploymentType::Contract),
        "intern" | "internship" => Some(EmploymentType::Internship),
        "fellowship" => Some(EmploymentType::Fellowship),
        _ => None,
    }
}

/// Seniority from a platform's experience-level code. Only unambiguous values map:
/// `internship` → intern, `entry_level`/`entry-level`/`junior` → junior, `mid_level` → middle,
/// `senior` → senior. `experienced`, `mid_senior_level`, `director`, `executive` and the like
/// say nothing certain and give `None`.
pub(crate) fn seniority(raw: &str) -> Option<Seniority> {
    match squash(raw).as_str() {
        "internship" | "intern" => Some(Seniority::Intern),
        "entrylevel" | "junior" => Some(Seniority::Junior),
        "midlevel" => Some(Seniority::Middle),
        "senior" | "seniorlevel" => Some(Seniority::Senior),
        _ => None,
    }
}

/// The lower bound of a years-of-experience field (`7-10`, `3+`, `5`), within the believable
/// range.
pub(crate) fn experience_years_min(raw: &str) -> Option<i32> {
    let digits: String = raw.trim().chars().take_while(char::is_ascii_digit).collect();
    let years: i32 = digits.parse().ok()?;
    (0..=MAX_EXPERIENCE_YEARS).contains(&years).then_some(years)
}

/// A salary period from `year`/`yearly`/`annual`/`1 YEAR`/`per-year-salary`/`month`/… A
/// period we do not carry (week, one-time) gives `None`, which drops the salary.
pub(crate) fn salary_period(raw: &str) -> Option<SalaryPeriod> {
    let s = squash(raw);
    let s = s.strip_prefix('1').unwrap_or(&s);
    let s = s.strip_prefix("per").unwrap_or(s);
    let s = s.strip_suffix("salary").or_else(|| s.strip_suffix("wage")).unwrap_or(s);
    match s {
        "year" | "yearly" | "annual" | "annually" | "annum" => Some(SalaryPeriod::Year),
        "month" | "monthly" => Some(SalaryPeriod::Month),
        "day" | "daily" => Some(SalaryPeriod::Day),
        "hour" | "hourly" => Some(SalaryPeriod::Hour),
        _ => None,
    }
}

/// A salary from structured figures; `None` unless a bound, a currency and a known period are
/// all present and consistent.
pub(crate) fn salary(
    min: Option<f64>,
    max: Option<f64>,
    currency: Option<&str>,
    period: Option<&str>,
) -> Option<Salary> {
    let period = salary_period(period?)?;
    let whole = |v: f64| (v.is_finite() && v >= 0.0).then(|| v.round() as i64);
    Salary::new(min.and_then(whole), max.and_then(whole), currency?, period).ok()
}

/// A JSON id that may be a number or a string.
pub(crate) fn id_text(id: &Value) -> Option<String> {
    match id {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        _ => None,
    }
}

/// A number that may arrive as a JSON number or a string (`"75000"`).
pub(crate) fn number(value: &serde_json::Value) -> Option<f64> {
    match value {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.trim().replace(',', "").parse().ok(),
        _ => None,
    }
}

/// Joins the non-empty trimmed parts with `sep`.
pub(crate) fn join_non_empty<'a>(parts: impl IntoIterator<Item = &'a str>, sep: &str) -> String {
    parts.into_iter().map(str::trim).filter(|p| !p.is_empty()).collect::<Vec<_>>().join(sep)
}

/// Appends `part` to a `"; "`-joined location unless it is already there.
pub(crate) fn add_location(location: &mut String, part: &str) {
    let part = part.trim();
    if part.is_empty() || location.split("; ").any(|p| p == part) {
        return;
    }
    if !location.is_empty() {
        location.push_str("; ");
    }
    location.push_str(part);
}

/// One DNS label: 1 to 63 letters, digits and inner `-`.
pub(crate) fn is_dns_label(label: &str) -> bool {
    (1..=63).contains(&label.len())
        && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !label.starts_with('-')
        && !label.ends_with('-')
}

/// A public host name: at least two DNS labels, at most 253 characters, a top-level label
/// that is not numeric (so never an IP literal). Used by platforms whose board names a host
/// (an Oracle Cloud host, a custom careers domain).
pub(crate) fn is_host_name(host: &str) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    host.len() <= 253
        && labels.len() >= 2
        && labels.iter().all(|l| is_dns_label(l))
        && labels.last().is_some_and(|tld| !tld.bytes().all(|b| b.is_ascii_digit()))
}

/// A board used as one DNS label (`<board>.recruitee.com`): letters, digits and `-` only, so
/// a board can never change the host.
pub(crate) fn host_label<'a>(provider: &str, board: &'a str) -> Result<&'a str, IngestError> {
    if is_dns_label(board) {
        Ok(board)
    } else {
        Err(invalid_board(provider, board, "must be one DNS label (letters, digits, '-')"))
    }
}

/// Whether `seg` is safe as one URL path segment on every platform: 1 to
/// [`BoardKey::MAX_BOARD_LEN`] unreserved characters (letters, digits, `-`, `_`, `.`, `~`), no
/// `..` anywhere (so never a dot segment), and not an IP literal. `/`, `%`, `?`, `#`, `\`,
/// whitespace and control characters are thereby excluded, so the URL builder cannot turn a
/// board into another path, another query or another host.
pub(crate) fn is_path_segment(seg: &str) -> bool {
    !seg.is_empty()
        && seg.len() <= BoardKey::MAX_BOARD_LEN
        && seg.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'))
        && seg != "."
        && !seg.contains("..")
        && seg.parse::<std::net::IpAddr>().is_err()
}

/// A board used as one URL path segment (`…/job-board/<board>`), checked by
/// [`is_path_segment`].
pub(crate) fn path_segment<'a>(provider: &str, board: &'a str) -> Result<&'a str, IngestError> {
    if is_path_segment(board) {
        Ok(board)
    } else {
        Err(invalid_board(
            provider,
            board,
            "must be one URL path segment (letters, digits, '-', '_', '.', '~'; no '..', not an \
             IP address)",
        ))
    }
}

/// The default board rule ([`crate::Source::validate_board`]): no region, and one URL path
/// segment.
pub(crate) fn path_segment_board(key: &BoardKey) -> Result<(), IngestError> {
    no_region(key)?;
    path_segment(key.provider.as_str(), &key.board).map(|_| ())
}

/// The board has no region.
pub(crate) fn no_region(key: &BoardKey) -> Result<(), IngestError> {
    if key.region.is_empty() {
        Ok(())
    } else {
        Err(invalid_board(key.provider.as_str(), &key.board, "this provider has no such region"))
    }
}

/// The default rule plus [`host_label`]: for platforms whose board is a subdomain.
pub(crate) fn host_label_board(key: &BoardKey) -> Result<(), IngestError> {
    no_region(key)?;
    host_label(key.provider.as_str(), &key.board).map(|_| ())
}

/// The board-shape error.
pub(crate) fn invalid_board(provider: &str, board: &str, reason: &str) -> IngestError {
    IngestError::InvalidBoard {
        provider: provider.into(),
        board: board.into(),
        reason: reason.into(),
    }
}

/// `https://{host}` plus percent-encoded path segments and a query.
pub(crate) fn build_url(
    host: &str,
    segments: &[&str],
    query: &[(&str, &str)],
) -> Result<Url, IngestError> {
    let mut url = Url::parse(&format!("https://{host}/"))
        .map_err(|e| IngestError::config(format!("bad host {host:?}"), e))?;
    {
        let mut path = url
            .path_segments_mut()
            .map_err(|()| IngestError::config_only(format!("bad host {host:?}")))?;
        path.clear();
        path.extend(segments);
    }
    if !query.is_empty() {
        url.query_pairs_mut().extend_pairs(query);
    }
    Ok(url)
}

/// What one detail request gave.
enum Detail {
    /// Read.
    Read(Box<RawPosting>),
    /// 404/410: the posting is gone; drop it.
    Gone,
    /// Anything else: listed but unreadable.
    Unreadable(Unreadable),
}

impl Detail {
    /// Classifies a detail result for the posting `native_id`.
    fn from_result(native_id: &str, result: Result<RawPosting, IngestError>) -> Self {
        match result {
            Ok(p) => Self::Read(Box::new(p)),
            Err(e) if e.is_not_found() => Self::Gone,
            Err(e) => {
                tracing::debug!(native_id, error = %error_chain(&e), "detail unreadable");
                Self::Unreadable(Unreadable {
                    native_id: native_id.to_owned(),
                    error: error_chain(&e),
                })
            }
        }
    }
}

/// The hydrating fetch over a listing of `(native id, item)`: ids in `seen` go to
/// [`BoardListing::seen_refresh`]; the others get `detail`, at most `concurrency` in flight,
/// in listing order. A detail that is 404/410 drops the posting; any other failure lists it
/// in [`BoardListing::unreadable`].
pub(crate) async fn hydrate<T, F, Fut>(
    listed: Vec<(String, T)>,
    seen: &SeenSet,
    concurrency: usize,
    detail: F,
) -> BoardListing
where
    F: Fn(String, T) -> Fut,
    Fut: Future<Output = Result<RawPosting, IngestError>>,
{
    let mut listing = BoardListing::default();
    let mut todo = Vec::new();
    for (id, item) in listed {
        if seen.contains(&id) {
            listing.seen_refresh.push(id);
        } else {
            todo.push((id, item));
        }
    }
    let details: Vec<Detail> = futures::stream::iter(todo.into_iter().map(|(id, item)| {
        let fetched = detail(id.clone(), item);
        async move { Detail::from_result(&id, fetched.await) }
    }))
    .buffered(concurrency.max(1))
    .collect()
    .await;
    for d in details {
        match d {
            Detail::Read(p) => listing.postings.push(*p),
            Detail::Gone => {}
            Detail::Unreadable(u) => listing.unreadable.push(u),
        }
    }
    listing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countries_from_codes_and_names() {
        let cc = |s| country(s).map(|c| c.as_str().to_owned());
        assert_eq!(cc("US").as_deref(), Some("us"));
        assert_eq!(cc("deu").as_deref(), Some("de"));
        assert_eq!(cc("United States").as_deref(), Some("us"));
        assert_eq!(cc("Canada").as_deref(), Some("ca"));
        assert_eq!(cc("United Kingdom").as_deref(), Some("gb"));
        assert_eq!(cc("Germany").as_deref(), Some("de"));
        assert_eq!(cc("Remote"), None);
        assert_eq!(cc(""), None);
    }

    // scenario: Structured fields are not guessed
    #[test]
    fn periods_and_types() {
        assert_eq!(salary_period("1 YEAR"), Some(SalaryPeriod::Year));
        assert_eq!(salary_period("per-hour-wage"), Some(SalaryPeriod::Hour));
        assert_eq!(salary_period("per-month-salary"), Some(SalaryPeriod::Month));
        assert_eq!(salary_period("week"), None);
        assert_eq!(salary_period("1 WEEK"), None);
        assert_eq!(employment_type("FullTime"), Some(EmploymentType::FullTime));
        assert_eq!(employment_type("part-time"), Some(EmploymentType::PartTime));
        assert_eq!(employment_type("Regular"), None);
        assert_eq!(workplace_mode("OnSite"), Some(WorkMode::Onsite));
        assert_eq!(workplace_mode("on-site"), Some(WorkMode::Onsite));
        assert_eq!(workplace_mode("unspecified"), None);
        assert_eq!(mode_from_flags(Some(true), Some(true)), Some(WorkMode::Remote));
        assert_eq!(mode_from_flags(Some(false), Some(false)), None);
    }

    // scenario: Only unambiguous platform codes map
    #[test]
    fn seniority_and_experience() {
        assert_eq!(seniority("entry_level"), Some(Seniority::Junior));
        assert_eq!(seniority("entry-level"), Some(Seniority::Junior));
        assert_eq!(seniority("internship"), Some(Seniority::Intern));
        assert_eq!(seniority("mid_senior_level"), None);
        assert_eq!(seniority("experienced"), None);
        assert_eq!(experience_years_min("7-10"), Some(7));
        assert_eq!(experience_years_min("3+"), Some(3));
        assert_eq!(experience_years_min("lt-1"), None);
        assert_eq!(experience_years_min("99"), None);
    }

    // scenario: A salary without a known period is dropped
    #[test]
    fn salary_needs_a_known_period() {
        assert!(salary(Some(1.0), Some(2.0), Some("USD"), Some("week")).is_none());
        assert!(salary(Some(1.0), Some(2.0), Some("USD"), None).is_none());
        let s = salary(Some(60000.0), Some(75000.0), Some("eur"), Some("year")).unwrap();
        assert_eq!((s.min, s.max, s.currency.as_str()), (Some(60000), Some(75000), "EUR"));
    }

    #[test]
    fn path_segments_cannot_change_the_path() {
        for ok in ["acme", "Acme_Inc-2", "a.b", "x~y", "12345"] {
            assert!(is_path_segment(ok), "{ok}");
        }
        for bad in ["", ".", "..", "a..b", "a/b", "%2e", "a?b", "a#b", "a b", "127.0.0.1", "::1"] {
            assert!(!is_path_segment(bad), "{bad}");
        }
    }

    #[test]
    fn host_labels_cannot_change_the_host() {
        assert!(host_label("recruitee", "acme-1").is_ok());
        for bad in ["evil.com/x", "a.b", "", "-a", "a b", "a@b"] {
            assert!(host_label("recruitee", bad).is_err(), "{bad}");
        }
        let url = build_url("api.example.com", &["v1", "a/b?c"], &[("x", "1 2")]).unwrap();
        assert_eq!(url.as_str(), "https://api.example.com/v1/a%2Fb%3Fc?x=1+2");
    }
}
