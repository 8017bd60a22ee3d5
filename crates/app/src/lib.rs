//! # freehire-app
//!
//! Application services that the binaries share, above storage and the source side:
//!
//! - [`accounts`]: sign-up, sign-in, sessions, mailed codes, API keys and the operator's
//!   account commands;
//! - [`ingest`]: one provider run (the pipeline: fetch each board, normalise every posting,
//!   write it with its search-outbox row in one transaction per board, record board health),
//!   the lifecycle that closes what fully listed boards no longer list, and the scheduler loop
//!   the worker runs;
//! - [`assistant`]: freehire's assistant presets, prompts, tool-name groups and step caps, and
//!   its tool catalogue (discovery, tracking, interview context), composed per session into a
//!   system prompt naming only the registered tools and a tool registry for the generic
//!   assistant library;
//! - [`plans`]: turn metering against the daily allowances (`PLAN_*`, shadow mode by
//!   default), the 402 body of a refusal, and the usage report;
//! - [`llmkey`]: per-user gateway keys (the `KeyGateway` port, the Bifrost governance
//!   adapter, the resolver that mints a user's key on first use);
//! - [`boards`]: adding boards from careers URLs and importing them from CSV files;
//! - [`board_catalogue`]: the bundled board catalogue (~14,600 real board URLs) and the seed that
//!   imports it through board recognition (`freehire boards seed`);
//! - [`demo`]: the offline demo: recorded boards crawled through the real adapters against a
//!   local replay server (`cargo xtask run --demo`, the browser suite);
//! - [`notify`]: the notification engines the worker runs (match new jobs against saved-search
//!   subscriptions with the percolator, digests, deliveries by email and signed webhook,
//!   saved-job reminders, silence and interview nudges);
//! - [`market`]: market coverage of a set of skills over a filtered slice of the catalogue
//!   (the assistant's `market_fit`);
//! - [`rederive`]: re-deriving stored jobs' facets after a dictionary change;
//! - [`search`]: search as a use case (the degrade-and-retry on a refused filter, agent-search
//!   hydration, facet counts), shared by the HTTP routes and the command line, whose flags
//!   become the HTTP search grammar;
//! - [`describe`]: a job description rendered as HTML, plain text or Markdown;
//! - [`saved_searches`]: saved searches, their email and webhook subscriptions, notification
//!   settings, the notification history and the public shared boards;
//! - [`search_sync`]: draining the search outboxes into a [`freehire_search::SearchIndex`];
//! - [`reindex`]: rebuilding the whole search index from the store (`freehire reindex`);
//! - [`search_slot`]: the search index a server reads, opened lazily (shared by the API and
//!   the web pages);
//! - [`screening`]: the candidate's screening answers (work authorisation, visa, desired
//!   salary, notice, relocation, age), read and merged by the routes, the account page and the
//!   assistant's `screening_answers_set`;
//! - [`catalogue`]: jobs and companies as the pages and routes read them;
//! - [`tracking`]: application tracking (view, save, dismiss, apply, stages, notes, the
//!   pipeline, silence and follow-up drafts, CSV export and import), what the tracking routes
//!   and pages call;
//! - [`search_engine`]: choosing the engine (embedded or Meilisearch) by configuration and
//!   opening it for reading or writing;
//! - [`config`]: the `FREEHIRE_` environment variables and their deprecated aliases;
//! - [`throttle`]: the port through which the web pages count auth attempts against the
//!   JSON API's rate limits;
//! - [`startup`]: the start-up assembly (configuration → connected, migrated store → search
//!   index), shared by the binaries and the tests;
//! - `testing` (feature `testing`): the binaries' process-test support (running a binary,
//!   SIGTERM with a deadline, the replay server over recorded fixtures);
//! - [`process`]: a server's `main` (configuration, logging, exit code), logging set-up and
//!   the shutdown signal the servers share.
//!
//! Time, storage and the network come in as parameters (`&dyn Store`, a
//! [`freehire_ingest::Sources`], a clock), so every service runs in tests against real
//! databases and a local replay server.

pub mod accounts;
pub mod assistant;
pub mod board_catalogue;
pub mod boards;
pub mod catalogue;
pub mod company_filter;
pub mod company_index;
pub mod config;
pub mod cv_import;
pub mod cvs;
pub mod demo;
pub mod describe;
mod error;
pub mod error_reporting;
pub mod experience;
pub mod facets_cache;
pub mod ingest;
pub mod lifecycle;
pub mod llmkey;
pub mod market;
/// The MCP server's tools (see [`assistant::tools::mcp`]).
pub use assistant::tools::mcp;
pub mod notify;
pub mod plans;
pub mod posting_url;
pub mod process;
pub mod progress;
pub mod rederive;
pub mod reindex;
pub mod saved_searches;
pub mod screening;
pub mod search;
pub mod search_engine;
pub mod search_slot;
pub mod search_sync;
pub mod signals;
pub mod startup;
pub mod status;
pub mod suggest;
pub mod telemetry;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod throttle;
pub mod tracking;

pub use error::{AppError, BusyProvider};
