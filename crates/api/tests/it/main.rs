//! HTTP tests: the real router on a random port, real databases, real HTTP.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod agent;
mod battery;
mod catalogue;
mod companies;
mod errors;
mod facets;
mod http;
mod jobs;
mod meili;
mod missing_index;
mod openapi;
mod outages;
mod ratelimit;
mod saved_searches;
mod search;
mod server;
