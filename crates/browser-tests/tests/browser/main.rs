//! The browser suite: headless Chromium (Debian's, provisioned by `cargo xtask test`) driven
//! over WebDriver against the real composed server (the JSON API and the web pages, composed
//! as `freehire-api` composes them) on 127.0.0.1:0, over a real SQLite database and embedded
//! index holding the offline demo's catalogue (recorded boards ingested through the replay
//! mechanism).
//!
//! - `search`: a query, a facet click (the count, the URL, the chip, htmx swapping in place,
//!   the pushed URL reloading to the same results, the chip removing it), with and without
//!   JavaScript; opening a job from its hit;
//! - `accounts`: sign up, the file mailer's code, verify, sign out, a refused and a good
//!   sign-in, mint a key (the API takes it), revoke it (the API refuses it), sign out, with
//!   and without JavaScript;
//! - `pages`: every page at 360, 390 and 1280 px into `target/screenshots/pages/` (the account
//!   pages are shot by the journey), each exactly as wide as the screen;
//! - `workspace`: save a job from the search, mark it applied, move it to `interview` with the
//!   board's form and drag it to Offer, open its application page; save a search from the
//!   search page and subscribe to it by email;
//! - `assistant`: start a chat, send a message against a scripted OpenAI-protocol model,
//!   see the tool steps and the job card stream in, save the job from its card and find it on
//!   the tracking board, Stop a slow turn, and the quota when the allowance is spent; start an
//!   interview rehearsal from the board and see its opening stream in by itself; Retry a
//!   failed turn after a reload;
//! - `experience`: build the bank (a job, an achievement in one's own words), confirm an
//!   achievement the assistant inferred, merge two near-duplicates; write a CV in the editor,
//!   see its preview, undo an edit and download the PDF;
//! - `tailoring`: tailor a CV to a job from its page, watch autopilot run by itself, confirm a
//!   claim with the Yes button and see it banked as the candidate's and cited on the copy, and
//!   undo the run;
//! - `harness`: the harness itself on inline pages.
//!
//! Each test launches its own server and browser ([`freehire_browser_tests::Browser`]: a
//! chromedriver and a fresh profile, so tests run in parallel) and runs its body through
//! `Browser::check`, which saves `target/screenshots/<test>.png` (and `.html`) when it fails.
//! Without `FREEHIRE_CHROMIUM` and `FREEHIRE_CHROMEDRIVER` every test fails, naming
//! `cargo xtask test`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod assistant;
mod common;
mod experience;
mod harness;
mod pages;
mod search;
mod server;
mod tailoring;
mod workspace;
