//! Ashby: one request, `GET api.ashbyhq.com/posting-api/job-board/{b}?includeCompensation=true`.
//! Salary from the `Salary` components of `compensation.compensationTiers[]` (all tiers must
//! agree on currency and interval; the range spans them). `{"jobs": []}` is an empty board.
//!
//! Board URLs: `jobs.ashbyhq.com/{b}` and the API URL.

use std::sync::Arc;

use serde::Deserialize;

use super::common::{
    add_location, build_url, country, employment_type, path_segment, salary, workplace_mode,
};
use super::{Base, Platform};
use crate::IngestError;
use crate::posting::{BoardListing, RawDate, RawPosting, SeenSet};
use crate::recognize::{BoardMatch, BoardUrl, path_board};
use crate::source::{BoardTarget, Capabilities, Source};

pub(crate) const PLATFORM: Platform = Platform::of::<Ashby>("ashby", |base| Arc::new(Ashby(base)));

pub(crate) struct Ashby(Base);

#[derive(Deserialize)]
struct Board {
    jobs: Vec<Job>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Job {
    id: String,
    title: String,
    department: Option<String>,
    team: Option<String>,
    employment_type: Option<String>,
    location: Option<String>,
    #[serde(default)]
    secondary_locations: Vec<Secondary>,
    published_at: Option<String>,
    is_listed: Option<bool>,
    is_remote: Option<bool>,
    workplace_type: Option<String>,
    address: Option<Address>,
    #[serde(default)]
    job_url: String,
    description_html: Option<String>,
    compensation: Option<Compensation>,
}

#[derive(Deserialize)]
struct Secondary {
    location: Option<String>,
    address: Option<Address>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Address {
    postal_address: Option<PostalAddress>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PostalAddress {
    address_country: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Compensation {
    #[serde(default)]
    compensation_tiers: Vec<Tier>,
}

#[derive(Deserialize)]
struct Tier {
    #[serde(default)]
    components: Vec<Component>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Component {
    compensation_type: Option<String>,
    interval: Option<String>,
    currency_code: Option<String>,
    min_value: Option<f64>,
    max_value: Option<f64>,
}

fn address_country(a: Option<&Address>) -> Option<freehire_domain::CountryCode> {
    a?.postal_address.as_ref()?.address_country.as_deref().and_then(country)
}

/// The salary across tiers: `None` unless every salary component has the same currency and
/// interval.
fn tiers_salary(c: &Compensation) -> Option<freehire_domain::Salary> {
    let parts: Vec<&Component> = c
        .compensation_tiers
        .iter()
        .flat_map(|t| &t.components)
        .filter(|c| c.compensation_type.as_deref() == Some("Salary"))
        .collect();
    let first = parts.first()?;
    if parts.iter().any(|p| p.currency_code != first.currency_code || p.interval != first.interval)
    {
        return None;
    }
    let min = parts.iter().filter_map(|p| p.min_value).reduce(f64::min);
    let max = parts.iter().filter_map(|p| p.max_value).reduce(f64::max);
    salary(min, max, first.currency_code.as_deref(), first.interval.as_deref())
}

fn posting(job: Job) -> RawPosting {
    let mut location = String::new();
    add_location(&mut location, job.location.as_deref().unwrap_or_default());
    // A remote job's postal addresses are where the company sits, not where the job may be
    // done (the page shows the location text, which the normaliser reads): only an office
    // job's addresses are its countries.
    let remote = job.is_remote == Some(true);
    let office = |a: Option<&Address>| if remote { None } else { address_country(a) };
    let mut countries: Vec<_> = office(job.address.as_ref()).into_iter().collect();
    for s in &job.secondary_locations {
        add_location(&mut location, s.location.as_deref().unwrap_or_default());
        countries.extend(office(s.address.as_ref()));
    }
    let mut p = RawPosting {
        native_id: job.id,
        url: job.job_url,
        title: job.title.trim().to_owned(),
        location,
        description_html: job.description_html.unwrap_or_default(),
        posted_at: job.published_at.map(RawDate::Text),
        remote: job.is_remote,
        work_mode: job.workplace_type.as_deref().and_then(workplace_mode),
        employment_type: job.employment_type.as_deref().and_then(employment_type),
        countries,
        salary: job.compensation.as_ref().and_then(tiers_salary),
        departments: job.department.into_iter().chain(job.team).collect(),
        ..RawPosting::default()
    };
    p.canonicalize();
    p
}

#[async_trait::async_trait]
impl Source for Ashby {
    fn provider(&self) -> &freehire_domain::Provider {
        &self.0.provider
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities { full_board_listing: true, hydrating: false }
    }

    fn recognize(url: &BoardUrl<'_>) -> Option<BoardMatch> {
        let board = match (url.host(), url.segments()) {
            ("api.ashbyhq.com", ["posting-api", "job-board", b, ..]) => path_board(b)?,
            ("jobs.ashbyhq.com", [first, ..]) if *first != "api" => path_board(first)?,
            _ => return None,
        };
        let canonical = format!("https://jobs.ashbyhq.com/{board}");
        Some(BoardMatch::new(board, canonical))
    }

    async fn fetch(&self, board: &BoardTarget, _: &SeenSet) -> Result<BoardListing, IngestError> {
        let b = path_segment(self.0.provider.as_str(), &board.key.board)?;
        let url = build_url(
            "api.ashbyhq.com",
            &["posting-api", "job-board", b],
            &[("includeCompensation", "true")],
        )?;
        let page: Board = self.0.listing(&url, b).await?;
        let postings =
            page.jobs.into_iter().filter(|j| j.is_listed != Some(false)).map(posting).collect();
        Ok(BoardListing { postings, ..BoardListing::default() })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn job(remote: bool) -> Job {
        serde_json::from_value(serde_json::json!({
            "id": "j1", "title": "Engineer", "jobUrl": "https://jobs.ashbyhq.com/acme/j1",
            "location": "London", "isRemote": remote,
            "address": {"postalAddress": {"addressCountry": "UK"}},
            "secondaryLocations": [{"location": "Dublin",
                "address": {"postalAddress": {"addressCountry": "Ireland"}}}]
        }))
        .unwrap()
    }

    #[test]
    fn an_office_jobs_addresses_are_its_countries_a_remote_jobs_are_not() {
        let office = posting(job(false));
        let codes: Vec<&str> = office.countries.iter().map(|c| c.as_str()).collect();
        assert_eq!(codes, ["gb", "ie"], "UK is gb");
        assert!(posting(job(true)).countries.is_empty(), "the company's address, not the job's");
    }
}
