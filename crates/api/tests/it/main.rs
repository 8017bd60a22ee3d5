//! HTTP tests: the real router on a random port, real databases, real HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent;
mod catalogue;
mod companies;
mod facets;
mod jobs;
mod meili;
mod outages;
mod search;
mod server;
