//! # freehire-client
//!
//! A typed client for the freehire HTTP API, authenticated by an API key
//! (`Authorization: Bearer fhk_…`). The command line's remote commands (`freehire track …`,
//! `freehire saved-searches …`) go through it, so they work against any server, local or
//! remote, with nothing but a URL and a key (`FREEHIRE_API_URL`, `FREEHIRE_API_KEY`).
//!
//! - [`Client`]: one method per route it calls, answers decoded into the [`wire`] shapes;
//! - the assistant ([`Client::create_session`], [`Client::send_message`], …): a turn is a
//!   [`TurnStream`] of [`wire::TurnEvent`]s read from the server's event stream as they arrive;
//! - the experience bank ([`experience`]): [`Client::experience`], [`Client::add_atom`],
//!   [`Client::add_employment`] (a `cv`-scoped key is enough);
//! - screening answers ([`screening`]): [`Client::screening_answers`],
//!   [`Client::update_screening_answers`] (a `full` key);
//! - cover letters ([`letters`]): [`Client::draft_cover_letter`], [`Client::cover_letters`],
//!   [`Client::cover_letter`], [`Client::delete_cover_letter`] (a `cv`-scoped key is enough);
//! - CVs ([`cvs`]): [`Client::cvs`], [`Client::cv`], [`Client::cv_pdf`];
//! - the catalogue's public lookups ([`lookup`], keyless through [`Client::public`]):
//!   [`Client::find_job`], [`Client::job_copies`], [`Client::cities`], [`Client::suggest`];
//! - [`mcp::Bridge`]: `freehire mcp`, an MCP server on standard input and output forwarding to
//!   the server's `POST /mcp`;
//! - the catalogue's reads ([`catalogue`]): [`Client::facets`], [`Client::search`],
//!   [`Client::job`], [`Client::company`], [`Client::market_coverage`], and [`Client::me`];
//! - the stored sign-in ([`credentials`]): `credentials.json` (0600) under the configuration
//!   directory;
//! - signing in from the terminal ([`signin`]): [`Client::sign_in_and_mint`] mints a key with
//!   the password and keeps only the key;
//! - [`ClientError`]: a refusal carries the API's own `{error, code, param}` body, so the
//!   message a person sees is the server's, naming the field (a 402 keeps its allowance).
//!
//! The client holds no state beyond its connection pool; it never retries a write.

mod assistant;
pub mod catalogue;
mod client;
pub mod credentials;
pub mod cvs;
mod error;
pub mod experience;
pub mod letters;
pub mod lookup;
pub mod mcp;
pub mod screening;
pub mod signin;
pub mod wire;

pub use assistant::TurnStream;
pub use client::{Client, DEFAULT_API_URL};
pub use error::ClientError;
