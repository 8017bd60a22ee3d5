//! The liveness probe (reference §3.9 `cmd/liveness`): postings no live board watches (manual
//! entries, a provider whose boards were all retired) are read at their page, at most once
//! per [`LivenessConfig::recheck_after`]; [`judge`] reads the answer with heuristics only — a
//! 404/410, a redirect to an error or listing page, a curated English, German or French
//! "position filled" notice, a near-empty page — and two expired reads in a row
//! ([`STRIKES_TO_CLOSE`]) close the posting `expired`. A closed posting is never reopened by
//! the probe; a page that cannot be read (network, 5xx, a refused address) counts neither way.

use chrono::{DateTime, Duration, Utc};
use freehire_domain::ClosedReason;
use freehire_ingest::IngestError;
use freehire_ingest::http::{ClientConfig, Fetched, Fetcher, HttpClient, ProviderPolicy};
use freehire_store::{LivenessCandidate, LivenessRead, Store};
use futures::{StreamExt, stream};
use url::Url;

use crate::AppError;

/// Consecutive expired reads that close a posting.
pub const STRIKES_TO_CLOSE: u32 = 2;
/// Visible text below this many characters is a near-empty page (unless it carries a
/// schema.org `JobPosting`).
pub const NEAR_EMPTY_CHARS: usize = 120;

/// Notices that a vacancy is gone, lowercase, apostrophes straight.
const GONE_PHRASES: &[&str] = &[
    // English
    "this position has been filled",
    "the position has been filled",
    "this job is no longer available",
    "this job posting is no longer available",
    "the job you are looking for is no longer available",
    "this position is no longer available",
    "no longer accepting applications",
    "this job has expired",
    "this job posting has expired",
    "this vacancy has been filled",
    "this vacancy is now closed",
    "this role has been filled",
    "the job you are trying to apply for has been filled",
    "sorry, this job has been closed",
    "this job is closed",
    // German
    "diese stelle ist bereits besetzt",
    "die stelle wurde bereits besetzt",
    "diese stelle ist nicht mehr verfügbar",
    "die stellenanzeige ist nicht mehr verfügbar",
    "diese stellenanzeige ist nicht mehr aktiv",
    "die bewerbungsfrist ist abgelaufen",
    "diese position ist bereits besetzt",
    // French
    "ce poste a été pourvu",
    "ce poste est pourvu",
    "cette offre n'est plus disponible",
    "cette offre d'emploi n'est plus disponible",
    "cette annonce n'est plus disponible",
    "cette offre a expiré",
    "ce poste n'est plus disponible",
];

/// Path words of an error page a dead posting redirects to.
const ERROR_PATH_WORDS: &[&str] =
    &["error", "404", "not-found", "notfound", "expired", "unavailable", "no-longer", "closed"];

/// How the probe runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LivenessConfig {
    /// Postings read per pass.
    pub batch: u32,
    /// A posting is read again at most this often.
    pub recheck_after: Duration,
    /// Pages read at once.
    pub concurrency: usize,
    /// Sources whose page outlives the vacancy: never judged by it.
    pub excluded_sources: Vec<String>,
}

impl Default for LivenessConfig {
    fn default() -> Self {
        Self {
            batch: 500,
            recheck_after: Duration::hours(20),
            concurrency: 8,
            excluded_sources: Vec::new(),
        }
    }
}

/// The probe's HTTP side: the ingest client (SSRF guard, body cap, per-host pace, redirects
/// followed hop by hop).
#[derive(Clone)]
pub struct Prober {
    http: Fetcher,
}

impl Prober {
    /// A prober over a client configured by `config`.
    pub fn new(config: ClientConfig) -> Result<Self, AppError> {
        Ok(Self { http: HttpClient::new(config)?.for_provider(ProviderPolicy::default()) })
    }

    /// Reads `url` and judges the answer.
    pub async fn read(&self, url: &str) -> (LivenessRead, String) {
        let Ok(parsed) = Url::parse(url) else {
            return (LivenessRead::Unknown, format!("not a URL: {url:?}"));
        };
        let answer = self.http.get(&parsed, "text/html").await;
        judge(&parsed, answer.as_ref())
    }
}

/// The verdict on one read of `url` and why: pure, so every heuristic is tested offline.
pub fn judge(url: &Url, answer: Result<&Fetched, &IngestError>) -> (LivenessRead, String) {
    let fetched = match answer {
        Ok(fetched) => fetched,
        Err(e) => {
            return match e.status() {
                Some(status @ (404 | 410)) => (LivenessRead::Expired, format!("HTTP {status}")),
                _ => (LivenessRead::Unknown, freehire_ingest::error_chain(e)),
            };
        }
    };
    if let Some(why) = dead_redirect(url, &fetched.url) {
        return (LivenessRead::Expired, why);
    }
    let html = String::from_utf8_lossy(&fetched.body);
    let text = freehire_normalize::visible_text(&html).to_lowercase().replace('’', "'");
    if let Some(phrase) = GONE_PHRASES.iter().find(|p| text.contains(*p)) {
        return (LivenessRead::Expired, format!("the page says \"{phrase}\""));
    }
    if text.chars().count() < NEAR_EMPTY_CHARS && !html.contains("JobPosting") {
        return (LivenessRead::Expired, "a near-empty page".to_owned());
    }
    (LivenessRead::Alive, "the posting is shown".to_owned())
}

/// Why a redirect from `from` to `to` means the posting is gone: to an error page, or up to a
/// listing (a path that is a strict prefix of the posting's, or the site's root).
fn dead_redirect(from: &Url, to: &Url) -> Option<String> {
    let trim = |u: &Url| u.path().trim_end_matches('/').to_ascii_lowercase();
    let (before, after) = (trim(from), trim(to));
    if before == after && from.host_str() == to.host_str() {
        return None;
    }
    if let Some(word) = ERROR_PATH_WORDS.iter().find(|w| after.contains(*w) && !before.contains(*w))
    {
        return Some(format!("redirected to an error page ({to}, \"{word}\")"));
    }
    let up = after.is_empty() || before.starts_with(&format!("{after}/"));
    up.then(|| format!("redirected to a listing ({to})"))
}

/// One posting's read in a pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    /// The posting.
    pub candidate: LivenessCandidate,
    /// What the read found.
    pub verdict: LivenessRead,
    /// Why.
    pub reason: String,
    /// Its consecutive expired reads now.
    pub strikes: u32,
    /// Whether this read closed it.
    pub closed: bool,
}

/// What a pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LivenessReport {
    /// Every read, in candidate order.
    pub reads: Vec<Read>,
}

impl LivenessReport {
    /// Postings closed by the pass.
    pub fn closed(&self) -> usize {
        self.reads.iter().filter(|r| r.closed).count()
    }
}

/// One pass: up to `config.batch` due postings read, each read recorded, the second expired
/// read in a row closing its posting `expired`.
pub async fn pass(
    store: &dyn Store,
    prober: &Prober,
    config: &LivenessConfig,
    clock: &(dyn Fn() -> DateTime<Utc> + Send + Sync),
) -> Result<LivenessReport, AppError> {
    let now = clock();
    let candidates: Vec<LivenessCandidate> = store
        .liveness_candidates(now - config.recheck_after, config.batch)
        .await?
        .into_iter()
        .filter(|c| !config.excluded_sources.iter().any(|s| s == c.key.source.as_str()))
        .collect();
    let answers: Vec<(LivenessCandidate, (LivenessRead, String))> = stream::iter(candidates)
        .map(|c| async move {
            let read = prober.read(&c.url).await;
            (c, read)
        })
        .buffered(config.concurrency.max(1))
        .collect()
        .await;
    let mut report = LivenessReport::default();
    for (candidate, (verdict, reason)) in answers {
        let at = clock();
        // Strikes are observations at least half a recheck apart (another worker's read of
        // the same run is the same observation).
        let strike_after = at - config.recheck_after / 2;
        let strikes =
            store.record_liveness(candidate.id, verdict, Some(&reason), at, strike_after).await?;
        let closed = verdict == LivenessRead::Expired
            && strikes >= STRIKES_TO_CLOSE
            && !store
                .close_jobs(std::slice::from_ref(&candidate.key), ClosedReason::Expired, at)
                .await?
                .is_empty();
        report.reads.push(Read { candidate, verdict, reason, strikes, closed });
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, body: &str) -> Fetched {
        Fetched {
            url: Url::parse(url).unwrap(),
            content_type: None,
            body: body.as_bytes().to_vec(),
            set_cookies: Vec::new(),
        }
    }

    const POSTING: &str = "https://jobs.example.com/careers/jobs/42";
    const LONG: &str = "We are looking for a backend engineer to build our payments platform in \
        Rust and PostgreSQL, with a team of six in Berlin. You will own services end to end.";

    fn verdict(body: &str) -> LivenessRead {
        judge(&Url::parse(POSTING).unwrap(), Ok(&page(POSTING, body))).0
    }

    #[test]
    fn a_shown_posting_is_alive() {
        assert_eq!(
            verdict(&format!("<html><body><h1>Backend Engineer</h1><p>{LONG}</p></body></html>")),
            LivenessRead::Alive
        );
    }

    #[test]
    fn filled_notices_in_three_languages_are_expired() {
        for notice in [
            "Sorry, this position has been filled.",
            "Diese Stelle ist bereits besetzt.",
            "Cette offre n’est plus disponible.",
        ] {
            let body = format!("<html><body><p>{notice}</p><p>{LONG}</p></body></html>");
            assert_eq!(verdict(&body), LivenessRead::Expired, "{notice}");
        }
    }

    #[test]
    fn a_near_empty_page_is_expired_unless_it_carries_a_job_posting() {
        assert_eq!(
            verdict("<html><body><div id='app'></div></body></html>"),
            LivenessRead::Expired
        );
        let ld = r#"<script type="application/ld+json">{"@type":"JobPosting"}</script>"#;
        assert_eq!(
            verdict(&format!("<html><head>{ld}</head><body></body></html>")),
            LivenessRead::Alive
        );
    }

    #[test]
    fn gone_statuses_and_dead_redirects_are_expired_and_failures_unknown() {
        let url = Url::parse(POSTING).unwrap();
        let gone = IngestError::Status { method: "GET", url: POSTING.into(), status: 410 };
        assert_eq!(judge(&url, Err(&gone)).0, LivenessRead::Expired);
        let down = IngestError::Status { method: "GET", url: POSTING.into(), status: 503 };
        assert_eq!(judge(&url, Err(&down)).0, LivenessRead::Unknown);
        let body = format!("<p>{LONG}</p>");
        for (to, expected) in [
            ("https://jobs.example.com/careers/jobs", LivenessRead::Expired),
            ("https://jobs.example.com/", LivenessRead::Expired),
            ("https://jobs.example.com/error?code=404", LivenessRead::Expired),
            ("https://jobs.example.com/careers/jobs/42/", LivenessRead::Alive),
            ("https://apply.example.com/careers/jobs/42-backend-engineer", LivenessRead::Alive),
        ] {
            assert_eq!(judge(&url, Ok(&page(to, &body))).0, expected, "{to}");
        }
    }
}
