//! One module per ATS platform (reference §13.2). Each adapter reads the platform's public,
//! keyless endpoint through a [`Fetcher`] and maps only structured source fields into the
//! structured parts of a [`crate::RawPosting`].
//!
//! Deliberately absent: heuristics over free text (remote from titles, countries from
//! location strings) — that is the normaliser's job — and any database access.

use std::num::NonZeroU32;
use std::sync::Arc;

use freehire_domain::Provider;

use crate::http::{Fetcher, HttpClient, ProviderPolicy};
use crate::source::{Source, SourceConfig};

mod ashby;
mod bamboohr;
pub(crate) mod common;
mod greenhouse;
mod ldjson;
mod lever;
mod personio;
mod pinpoint;
mod recruitee;
mod rippling;
mod smartrecruiters;
mod teamtailor;
mod workable;
mod workday;

/// The provider keys of the built-in adapters.
pub const PROVIDERS: [&str; 12] = [
    "ashby",
    "bamboohr",
    "greenhouse",
    "lever",
    "personio",
    "pinpoint",
    "recruitee",
    "rippling",
    "smartrecruiters",
    "teamtailor",
    "workable",
    "workday",
];

/// Teamtailor's pace (the reference paces it without naming a rate; our choice).
const TEAMTAILOR_PER_SECOND: u32 = 2;

/// What every adapter holds: its provider key, its HTTP handle and the shared options.
#[derive(Debug, Clone)]
pub(crate) struct Base {
    pub(crate) provider: Provider,
    pub(crate) http: Fetcher,
    pub(crate) config: SourceConfig,
}

fn base(http: &HttpClient, config: SourceConfig, name: &str, policy: ProviderPolicy) -> Base {
    #[allow(clippy::expect_used)] // a constant from PROVIDERS, checked by a unit test
    let provider = Provider::parse(name).expect("built-in provider keys are valid");
    Base { provider, http: http.for_provider(policy), config }
}

/// Every built-in adapter over one shared client.
pub(crate) fn all(http: &HttpClient, config: SourceConfig) -> Vec<Arc<dyn Source>> {
    let plain = ProviderPolicy::default();
    let b = |name| base(http, config, name, plain);
    vec![
        Arc::new(ashby::Ashby(b("ashby"))),
        Arc::new(bamboohr::BambooHr(b("bamboohr"))),
        Arc::new(greenhouse::Greenhouse(b("greenhouse"))),
        Arc::new(lever::Lever(b("lever"))),
        Arc::new(personio::Personio(b("personio"))),
        Arc::new(pinpoint::Pinpoint(b("pinpoint"))),
        Arc::new(recruitee::Recruitee(b("recruitee"))),
        Arc::new(rippling::Rippling(b("rippling"))),
        Arc::new(smartrecruiters::SmartRecruiters(b("smartrecruiters"))),
        Arc::new(teamtailor::Teamtailor(base(
            http,
            config,
            "teamtailor",
            ProviderPolicy { pace_per_second: NonZeroU32::new(TEAMTAILOR_PER_SECOND), ..plain },
        ))),
        Arc::new(workable::Workable(b("workable"))),
        Arc::new(workday::Workday(base(
            http,
            config,
            "workday",
            ProviderPolicy { rate_limit_backoff: true, ..plain },
        ))),
    ]
}

/// Checks that a board has the shape its provider needs (a DNS label, a Workday `host/site`,
/// a Lever region…), without any request.
pub(crate) fn validate_board(key: &freehire_domain::BoardKey) -> Result<(), crate::IngestError> {
    let (p, b) = (key.provider.as_str(), key.board.as_str());
    let region_ok = key.region.is_empty() || (p == "lever" && key.region == "eu");
    if !region_ok {
        return Err(common::invalid_board(p, b, "this provider has no such region"));
    }
    match p {
        "recruitee" | "personio" | "bamboohr" | "pinpoint" => common::host_label(p, b).map(|_| ()),
        "teamtailor" => teamtailor::career_host(b).map(|_| ()),
        "workday" => workday::Site::parse(b).map(|_| ()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_key_parses() {
        for p in PROVIDERS {
            assert!(Provider::parse(p).is_ok(), "{p}");
        }
    }
}
