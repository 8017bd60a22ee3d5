//! `cargo xtask`: the project's automation, as Rust, so it runs wherever cargo does.
//!
//! - `cargo xtask run [ARGS…]`: build and serve the product on the embedded default
//!   (SQLite + embedded index under `./data`); extra arguments go to `freehire-api`.
//! - `cargo xtask test`: lint, bring up PostgreSQL, run the whole suite. Fails loudly, never
//!   skips, when PostgreSQL cannot be had.
//! - `cargo xtask lint`: `cargo fmt --check` and clippy with `-D warnings`.
//! - `cargo xtask bench`: every benchmark, printing its figures (needs PostgreSQL too).
//! - `cargo xtask pg`: bring up PostgreSQL and print its URL.
//!
//! Std only, so it builds in seconds.

mod cmd;
mod postgres;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <run [ARGS…]|test|lint|bench|pg>";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    let result = match task.as_deref() {
        Some("run") => run(&rest),
        Some("test") => test(),
        Some("lint") => lint(),
        Some("bench") => bench(),
        Some("pg") => postgres::ensure().map(|url| println!("{url}")),
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    cmd::cargo(&["build", "--bin", "freehire-api"])?;
    let exe = cmd::workspace_root().join("target/debug/freehire-api");
    eprintln!("xtask: serving on the embedded default; data under ./data (Ctrl-C to stop)");
    cmd::run(std::process::Command::new(exe).args(args))
}

fn lint() -> Result<(), String> {
    cmd::cargo(&["fmt", "--all", "--check"])?;
    cmd::cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])
}

fn test() -> Result<(), String> {
    lint()?;
    let url = postgres::ensure()?;
    eprintln!("xtask: PostgreSQL for tests: {url}");
    cmd::run(cmd::cargo_command(&["test", "--workspace"]).env("FREEHIRE_TEST_DATABASE_URL", &url))
}

fn bench() -> Result<(), String> {
    let url = postgres::ensure()?;
    eprintln!("xtask: PostgreSQL for benches: {url}");
    cmd::run(
        cmd::cargo_command(&["bench", "-p", "freehire-store", "--bench", "upsert"])
            .env("FREEHIRE_TEST_DATABASE_URL", &url),
    )
}
