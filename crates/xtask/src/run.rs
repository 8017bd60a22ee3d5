//! What `cargo xtask run [--demo] [--no-seed] [API ARGS…]` starts, as a plan its tests read.
//!
//! - Plain `run` seeds the bundled board catalogue on an empty database first
//!   (`freehire boards seed --if-empty`: no boards at all), so a connected machine's worker
//!   starts crawling at once; `--no-seed` skips it.
//! - `--demo` runs offline on its own data folder (`./data/demo`, so the real catalogue is never
//!   sent to the replay): it seeds the recorded demo boards (`freehire boards seed --demo`,
//!   idempotent), and the worker serves their recordings in-process (`--demo-replay`) with a 5 s
//!   tick, so the first crawl and its drain land within seconds.
//!
//! Every other argument goes to `freehire-api`.

use std::process::Command;

/// The demo's data folder, relative to the working directory (like `./data`).
pub const DEMO_DATA: &str = "./data/demo";

/// What one `cargo xtask run` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunPlan {
    /// `--demo`: the offline demo.
    pub demo: bool,
    /// Seed before serving (false with `--no-seed`; the demo always seeds its boards).
    pub seed: bool,
    /// The arguments for `freehire-api`.
    pub api_args: Vec<String>,
}

impl RunPlan {
    /// Reads `run`'s arguments: `--demo` and `--no-seed` anywhere, the rest for the API.
    pub fn parse(args: &[String]) -> Self {
        let flag = |name: &str| args.iter().any(|a| a == name);
        let api_args = args
            .iter()
            .filter(|a| !matches!(a.as_str(), "--demo" | "--no-seed"))
            .cloned()
            .collect();
        Self { demo: flag("--demo"), seed: flag("--demo") || !flag("--no-seed"), api_args }
    }

    /// The variables every process of the run gets: the demo's own database and embedded index.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        if !self.demo {
            return Vec::new();
        }
        vec![
            ("FREEHIRE_DATABASE_URL", format!("sqlite://{DEMO_DATA}/freehire.db")),
            ("FREEHIRE_INDEX_DIR", format!("{DEMO_DATA}/index")),
            ("FREEHIRE_SEARCH_ENGINE", "embedded".to_owned()),
        ]
    }

    /// The variables removed from every process: under the demo, a replay URL would conflict
    /// with the worker's own replay.
    pub fn env_removed(&self) -> &'static [&'static str] {
        if self.demo { &["FREEHIRE_ATS_REPLAY_URL", "DATABASE_URL"] } else { &[] }
    }

    /// The `freehire` arguments that seed, if this run seeds.
    pub fn seed_args(&self) -> Option<&'static [&'static str]> {
        match (self.demo, self.seed) {
            (true, _) => Some(&["boards", "seed", "--demo"]),
            (false, true) => Some(&["boards", "seed", "--if-empty"]),
            (false, false) => None,
        }
    }

    /// The `freehire-worker` arguments.
    pub fn worker_args(&self) -> &'static [&'static str] {
        if self.demo { &["--demo-replay", "--tick-secs", "5"] } else { &[] }
    }

    /// `command` with this plan's environment.
    pub fn apply<'c>(&self, command: &'c mut Command) -> &'c mut Command {
        for name in self.env_removed() {
            command.env_remove(name);
        }
        command.envs(self.env())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(args: &[&str]) -> RunPlan {
        RunPlan::parse(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
    }

    // scenario: First run seeds the catalogue
    #[test]
    fn a_plain_run_seeds_an_empty_database_unless_told_not_to() {
        let run = plan(&["--port", "9000"]);
        assert!(!run.demo && run.seed);
        assert_eq!(run.seed_args(), Some(&["boards", "seed", "--if-empty"][..]));
        assert!(run.env().is_empty() && run.worker_args().is_empty());
        assert_eq!(run.api_args, ["--port", "9000"]);
        let run = plan(&["--no-seed"]);
        assert_eq!(run.seed_args(), None);
        assert!(run.api_args.is_empty());
    }

    #[test]
    fn the_demo_runs_on_its_own_folder_with_the_workers_replay() {
        let run = plan(&["--demo", "--no-seed", "--x"]);
        assert_eq!(run.seed_args(), Some(&["boards", "seed", "--demo"][..]), "always seeded");
        assert_eq!(run.worker_args(), ["--demo-replay", "--tick-secs", "5"]);
        assert_eq!(run.api_args, ["--x"]);
        let mut command = Command::new("true");
        run.apply(&mut command);
        let envs: Vec<(String, Option<String>)> = command
            .get_envs()
            .map(|(k, v)| {
                (k.to_string_lossy().into_owned(), v.map(|v| v.to_string_lossy().into_owned()))
            })
            .collect();
        assert!(envs.contains(&(
            "FREEHIRE_DATABASE_URL".into(),
            Some("sqlite://./data/demo/freehire.db".into())
        )));
        assert!(envs.contains(&("FREEHIRE_INDEX_DIR".into(), Some("./data/demo/index".into()))));
        assert!(envs.contains(&("FREEHIRE_ATS_REPLAY_URL".into(), None)), "{envs:?}");
    }
}
