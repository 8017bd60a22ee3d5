//! What a delivery says: the email text (the first [`LIST_LIMIT`] jobs as
//! "Title — Company (Location)" with their links, "and N more", then the notification's page)
//! and the webhook's JSON payload. Built at send time from the stored notification, so a retry
//! sends exactly what the first attempt did.

use freehire_store::{DueDelivery, NotifiedJob};
use serde::Serialize;

/// Jobs a channel message lists (`ListLimit`, reference §8.2).
pub const LIST_LIMIT: usize = 10;

/// Public links: `<base>/jobs/<slug>`, `<base>/notifications/<id>`.
#[derive(Debug, Clone)]
pub struct Links {
    base: String,
}

impl Links {
    /// Links under `base` (e.g. `http://127.0.0.1:8080`; a trailing `/` is dropped).
    pub fn new(base: &str) -> Self {
        Self { base: base.trim_end_matches('/').to_owned() }
    }

    /// A job's page.
    pub fn job(&self, slug: &str) -> String {
        format!("{}/jobs/{slug}", self.base)
    }

    /// A notification's page.
    pub fn notification(&self, id: impl std::fmt::Display) -> String {
        format!("{}/notifications/{id}", self.base)
    }
}

/// "Title — Company (Location)" (the parenthesis only with a location).
pub fn job_line(job: &NotifiedJob) -> String {
    let mut line = job.title.trim().to_owned();
    if !job.company.trim().is_empty() {
        line.push_str(" — ");
        line.push_str(job.company.trim());
    }
    if !job.location.trim().is_empty() {
        line.push_str(&format!(" ({})", job.location.trim()));
    }
    line
}

/// The plain-text email of a delivery.
pub fn email_text(d: &DueDelivery, links: &Links) -> String {
    let mut out = String::new();
    if !d.body.trim().is_empty() {
        out.push_str(d.body.trim());
        out.push_str("\n\n");
    }
    for job in d.jobs.iter().take(LIST_LIMIT) {
        out.push_str(&format!("- {}\n  {}\n", job_line(job), links.job(&job.slug)));
    }
    let total = usize::try_from(d.total).unwrap_or(usize::MAX).max(d.jobs.len());
    let listed = d.jobs.len().min(LIST_LIMIT);
    if total > listed {
        out.push_str(&format!("and {} more\n", total - listed));
    }
    if !d.jobs.is_empty() {
        out.push('\n');
    }
    out.push_str(&format!("See it on freehire: {}\n", links.notification(d.notification)));
    out
}

/// A job in the webhook payload.
#[derive(Debug, Serialize)]
pub struct PayloadJob<'a> {
    slug: &'a str,
    title: &'a str,
    company: &'a str,
    location: &'a str,
    url: String,
}

/// The saved search a digest payload is about.
#[derive(Debug, Serialize)]
pub struct PayloadSearch<'a> {
    id: i64,
    name: &'a str,
}

/// The webhook's JSON body.
#[derive(Debug, Serialize)]
pub struct Payload<'a> {
    id: i64,
    kind: &'static str,
    title: &'a str,
    saved_search: Option<PayloadSearch<'a>>,
    jobs: Vec<PayloadJob<'a>>,
    total: u64,
    notification_url: String,
}

/// The webhook payload of a delivery (every job the notification holds, up to the snapshot
/// cap).
pub fn payload<'a>(d: &'a DueDelivery, links: &Links) -> Payload<'a> {
    Payload {
        id: d.notification.get(),
        kind: d.kind.as_str(),
        title: &d.title,
        saved_search: match (d.saved_search_id, d.saved_search.as_deref()) {
            (Some(id), Some(name)) => Some(PayloadSearch { id, name }),
            _ => None,
        },
        jobs: d
            .jobs
            .iter()
            .map(|j| PayloadJob {
                slug: &j.slug,
                title: &j.title,
                company: &j.company,
                location: &j.location,
                url: links.job(&j.slug),
            })
            .collect(),
        total: d.total,
        notification_url: links.notification(d.notification),
    }
}

#[cfg(test)]
mod tests {
    use freehire_domain::{Channel, NotificationId, NotificationKind, UserId};
    use freehire_store::DeliveryId;

    use super::*;

    fn delivery(jobs: usize, total: u64) -> DueDelivery {
        DueDelivery {
            id: DeliveryId(5),
            notification: NotificationId::new(42).unwrap(),
            owner: UserId::new(1).unwrap(),
            channel: Channel::Email,
            destination: "ada@example.com".into(),
            secret: None,
            attempts: 0,
            kind: NotificationKind::Digest,
            title: format!("{total} new jobs for Rust"),
            body: String::new(),
            jobs: (0..jobs)
                .map(|i| NotifiedJob {
                    slug: format!("job-{i}"),
                    title: format!("Engineer {i}"),
                    company: "Acme".into(),
                    location: if i == 0 { String::new() } else { "Berlin".into() },
                    url: None,
                })
                .collect(),
            total,
            saved_search: Some("Rust".into()),
            saved_search_id: Some(3),
        }
    }

    // scenario: A digest lists ten jobs and how many more
    #[test]
    fn a_digest_lists_ten_jobs_and_how_many_more() {
        let links = Links::new("http://127.0.0.1:8080/");
        let text = email_text(&delivery(25, 25), &links);
        assert_eq!(text.matches("\n- ").count() + usize::from(text.starts_with("- ")), 10);
        assert!(text.starts_with("- Engineer 0 — Acme\n  http://127.0.0.1:8080/jobs/job-0\n"));
        assert!(text.contains("- Engineer 9 — Acme (Berlin)\n"));
        assert!(!text.contains("Engineer 10"));
        assert!(text.contains("and 15 more\n"));
        assert!(text.ends_with("http://127.0.0.1:8080/notifications/42\n"));
        // The total counts matches beyond the snapshot too.
        assert!(email_text(&delivery(200, 250), &links).contains("and 240 more"));
        assert!(!email_text(&delivery(3, 3), &links).contains("more"));
    }

    #[test]
    fn the_payload_carries_every_job_with_its_url() {
        let d = delivery(12, 12);
        let json = serde_json::to_value(payload(&d, &Links::new("https://freehire.dev"))).unwrap();
        assert_eq!(json["id"], 42);
        assert_eq!(json["kind"], "digest");
        assert_eq!(json["saved_search"]["name"], "Rust");
        assert_eq!(json["jobs"].as_array().unwrap().len(), 12);
        assert_eq!(json["jobs"][1]["url"], "https://freehire.dev/jobs/job-1");
        assert_eq!(json["notification_url"], "https://freehire.dev/notifications/42");
    }
}
