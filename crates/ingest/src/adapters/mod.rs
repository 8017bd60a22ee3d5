//! One file per ATS platform (reference §13.2). Each adapter reads the platform's public,
//! keyless endpoint through a [`Fetcher`] and maps only structured source fields into the
//! structured parts of a [`crate::RawPosting`].
//!
//! A platform is one file plus its registration: the file implements [`Source`] (fetch,
//! capabilities, and its offline board rules [`Source::validate_board`] /
//! [`Source::recognize`]) and exposes a `PLATFORM` descriptor ([`Platform::of`]); this module
//! declares the file and lists the descriptor in [`PLATFORMS`]. The provider list, the
//! board validation and the URL recognition are all derived from that list.
//!
//! Shape of an adapter file (see `greenhouse.rs`): the doc names the endpoint, private serde
//! shapes, one pure mapping function, a short `fetch`. Shared helpers live in [`common`].
//!
//! Deliberately absent: heuristics over free text (remote from titles, countries from
//! location strings) — that is the normaliser's job — and any database access.

use std::sync::Arc;

use freehire_domain::{BoardKey, Provider};
use serde::de::DeserializeOwned;

use crate::IngestError;
use crate::http::{Fetcher, HttpClient, ProviderPolicy};
use crate::recognize::{BoardMatch, BoardUrl};
use crate::source::{Source, SourceConfig};

mod ashby;
mod ashbygraphql;
mod bamboohr;
mod breezy;
pub(crate) mod common;
mod dayforce;
mod eightfold;
mod gem;
mod graphql;
mod greenhouse;
mod hrmdirect;
mod htmlpage;
mod icims;
mod jazzhr;
mod jobvite;
mod ldjson;
mod lever;
mod neogov;
mod oracle;
mod pager;
mod paycom;
mod paylocity;
mod personio;
mod phenom;
mod pinpoint;
mod recruitee;
mod rippling;
mod smartrecruiters;
mod successfactors;
mod taleo;
mod teamtailor;
mod ukg;
mod ukgready;
mod workable;
mod workday;
mod zohorecruit;

/// The registered platforms, sorted by provider key (a unit test holds the order).
pub(crate) const PLATFORMS: &[Platform] = &[
    ashby::PLATFORM,
    ashbygraphql::PLATFORM,
    bamboohr::PLATFORM,
    breezy::PLATFORM,
    dayforce::PLATFORM,
    eightfold::PLATFORM,
    gem::PLATFORM,
    greenhouse::PLATFORM,
    hrmdirect::PLATFORM,
    icims::PLATFORM,
    jazzhr::PLATFORM,
    jobvite::PLATFORM,
    lever::PLATFORM,
    neogov::PLATFORM,
    oracle::PLATFORM,
    paycom::PLATFORM,
    paylocity::PLATFORM,
    personio::PLATFORM,
    phenom::PLATFORM,
    pinpoint::PLATFORM,
    recruitee::PLATFORM,
    rippling::PLATFORM,
    smartrecruiters::PLATFORM,
    successfactors::PLATFORM,
    taleo::PLATFORM,
    teamtailor::PLATFORM,
    ukg::PLATFORM,
    ukgready::PLATFORM,
    workable::PLATFORM,
    workday::PLATFORM,
    zohorecruit::PLATFORM,
];

/// A registered platform: its provider key, its HTTP policy, its offline board rules (taken
/// from its [`Source`] impl) and the constructor of its adapter.
#[derive(Clone, Copy)]
pub(crate) struct Platform {
    /// The provider key.
    pub(crate) key: &'static str,
    /// Pacing (a per-host override of the client's default, a provider-wide pacer) and
    /// rate-limit backoff of its requests. Only Teamtailor overrides the per-host default
    /// today: the reference names no per-host rate for the other platforms we crawl (§3.2).
    pub(crate) policy: ProviderPolicy,
    /// Its [`Source::validate_board`].
    pub(crate) validate: fn(&BoardKey) -> Result<(), IngestError>,
    /// Its [`Source::recognize`].
    pub(crate) recognize: fn(&BoardUrl<'_>) -> Option<BoardMatch>,
    /// Board spellings that name the same board as the bare tenant (`acme.recruitee.com` ≡
    /// `acme`), for [`crate::board_identity`].
    pub(crate) tenant_hosts: &'static [&'static str],
    /// Its pure parsers of untrusted bytes (a listing page, a detail document), by name
    /// (`oracle.listing`), for the fuzz targets ([`crate::fuzzing`]): each decodes and maps
    /// the bytes as `fetch` would and must never panic, whatever the bytes.
    pub(crate) parsers: &'static [crate::fuzzing::Parser],
    /// A form fold beyond `tenant_hosts` (iCIMS `careers-acme.icims.com` ≡ `acme`, a Dayforce
    /// culture segment, a UKG Ready pod host): the board (already lowercase, without a
    /// trailing `/`) as its identity compares it, or `None` to keep it.
    pub(crate) fold: fn(&str) -> Option<String>,
    /// Its override of the unseen sweep's window (reference `sweepGrace()`: Gem 24 h), for a
    /// platform whose postings leave its listing faster or slower than the default.
    pub(crate) sweep_grace: Option<std::time::Duration>,
    build: fn(Base) -> Arc<dyn Source>,
}

impl Platform {
    /// The platform served by adapter `S`, built by `build`, with the plain policy and no
    /// tenant-host fold.
    pub(crate) const fn of<S: Source>(
        key: &'static str,
        build: fn(Base) -> Arc<dyn Source>,
    ) -> Self {
        Self {
            key,
            policy: ProviderPolicy {
                pace_per_second: None,
                host_pace: None,
                rate_limit_backoff: false,
            },
            validate: S::validate_board,
            recognize: S::recognize,
            tenant_hosts: &[],
            parsers: &[],
            fold: |_| None,
            sweep_grace: None,
            build,
        }
    }

    /// Its provider key as a [`Provider`].
    pub(crate) fn provider(&self) -> Provider {
        #[allow(clippy::expect_used)] // constant keys, all parsed by a unit test
        Provider::parse(self.key).expect("registered provider keys are valid")
    }

    /// Its adapter over `http`.
    pub(crate) fn source(&self, http: &HttpClient, config: SourceConfig) -> Arc<dyn Source> {
        (self.build)(Base {
            provider: self.provider(),
            http: http.for_provider(self.policy),
            config,
        })
    }
}

/// The registered platform of a provider.
pub(crate) fn platform(provider: &Provider) -> Option<&'static Platform> {
    PLATFORMS.iter().find(|p| p.key == provider.as_str())
}

/// What every adapter holds: its provider key, its HTTP handle and the shared options.
#[derive(Debug, Clone)]
pub(crate) struct Base {
    pub(crate) provider: Provider,
    pub(crate) http: Fetcher,
    pub(crate) config: SourceConfig,
}

impl Base {
    /// A board's listing document: a 404/410 on it is [`IngestError::BoardGone`].
    pub(crate) async fn listing<T: DeserializeOwned>(
        &self,
        url: &url::Url,
        board: &str,
    ) -> Result<T, IngestError> {
        self.http.get_json(url).await.map_err(|e| e.board_gone_on_404(board))
    }
}

/// The unseen sweep's window of `provider` when its platform overrides the default (reference
/// `sweepGrace()`); `None` for the default or an unknown provider.
pub fn sweep_grace(provider: &Provider) -> Option<std::time::Duration> {
    platform(provider).and_then(|p| p.sweep_grace)
}

/// The provider keys of the registered platforms, sorted.
pub fn provider_keys() -> Vec<&'static str> {
    PLATFORMS.iter().map(|p| p.key).collect()
}

/// Checks that a board has the shape its provider needs (one URL path segment, a DNS label, a
/// Workday `host/site`, a Lever region…), without any request: the one board rule that
/// `boards add` (through recognition), `boards import`, the API and recognition itself apply.
/// A provider without a registered platform is [`IngestError::UnknownProvider`].
pub fn validate_board(key: &BoardKey) -> Result<(), IngestError> {
    let platform = platform(&key.provider)
        .ok_or_else(|| IngestError::UnknownProvider(key.provider.to_string()))?;
    (platform.validate)(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_key_parses_and_the_list_is_sorted_and_unique() {
        for p in PLATFORMS {
            assert!(Provider::parse(p.key).is_ok(), "{}", p.key);
        }
        let keys = provider_keys();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
    }
}
