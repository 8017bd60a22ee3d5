//! Your applications from the command line, as the reference's client names them: `freehire
//! save`, `unsave`, `apply`, `stage`, `note` and `my` (the same calls as `freehire track …`),
//! and `ghost` (report a job you applied to and never heard back from as a ghost job),
//! each with `--json` for the API's answer. They need a `full` key: stored by `freehire auth
//! login`, or in `FREEHIRE_API_KEY`.

use std::io::Write;

use chrono::NaiveDate;
use clap::Subcommand;
use freehire_domain::Stage;

use super::remote::{Filter, Remote, write_cards, write_track};

/// The top-level tracking commands.
#[derive(Debug, Subcommand)]
pub enum BoardCommand {
    /// Save a job (its public slug, as in its address).
    Save {
        /// The job's public slug.
        slug: String,
        /// Print the API's JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        remote: Remote,
    },
    /// Remove a job from your saved jobs.
    Unsave {
        /// The job's public slug.
        slug: String,
        /// Print the API's JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        remote: Remote,
    },
    /// Record that you applied (it submits nothing to the employer).
    Apply {
        /// The job's public slug.
        slug: String,
        /// The day you applied (YYYY-MM-DD; today when left out; at most a year ago).
        #[arg(long)]
        on: Option<NaiveDate>,
        /// Print the API's JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        remote: Remote,
    },
    /// Report a job you applied to and never heard back from as a ghost job (its page and
    /// the API then count your report in its ghost signal), or take the report back.
    Ghost {
        /// The job's public slug.
        slug: String,
        /// The day you applied (YYYY-MM-DD; today when left out; at most a year ago).
        #[arg(long, conflicts_with = "retract")]
        on: Option<NaiveDate>,
        /// Take your report back.
        #[arg(long)]
        retract: bool,
        #[command(flatten)]
        remote: Remote,
    },
    /// Move an application to a stage.
    Stage {
        /// The job's public slug.
        slug: String,
        /// preparing, applied, screening, responded, interview, offer, accepted, rejected,
        /// withdrawn or expired.
        stage: Stage,
        /// Print the API's JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        remote: Remote,
    },
    /// Set an application's notes (an empty string clears them).
    Note {
        /// The job's public slug.
        slug: String,
        /// The notes.
        text: String,
        /// Print the API's JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        remote: Remote,
    },
    /// Your tracked jobs: the board (applications with a stage) by default.
    My {
        /// Which ones.
        #[arg(long, value_enum, default_value = "board")]
        filter: Filter,
        /// Rows to show (1-500).
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=500))]
        limit: u32,
        /// Print the API's JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        remote: Remote,
    },
}

/// Runs a tracking command.
pub async fn run(cmd: BoardCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let (track, json) = match cmd {
        BoardCommand::Ghost { slug, on, retract, remote } => {
            let client = remote.client()?;
            if retract {
                client.retract_ghost(&slug).await?;
                writeln!(out, "no ghost report of yours stands on {slug}")?;
            } else {
                let day = client.report_ghost(&slug, on).await?;
                writeln!(out, "reported {slug} as a ghost job (you applied on {day})")?;
            }
            return Ok(());
        }
        BoardCommand::Save { slug, json, remote } => (remote.client()?.save(&slug).await?, json),
        BoardCommand::Unsave { slug, json, remote } => {
            (remote.client()?.unsave(&slug).await?, json)
        }
        BoardCommand::Apply { slug, on, json, remote } => {
            (remote.client()?.apply(&slug, on).await?, json)
        }
        BoardCommand::Stage { slug, stage, json, remote } => {
            (remote.client()?.set_stage(&slug, stage).await?, json)
        }
        BoardCommand::Note { slug, text, json, remote } => {
            (remote.client()?.set_notes(&slug, &text).await?, json)
        }
        BoardCommand::My { filter, limit, json, remote } => {
            let client = remote.client()?;
            if json {
                let answer = client.my_jobs(filter.as_str(), limit).await?;
                writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
            } else {
                let (cards, total) = client.tracking(filter.as_str(), limit, 0).await?;
                write_cards(out, &cards, total, 0)?;
            }
            return Ok(());
        }
    };
    if json {
        let body = serde_json::json!({ "data": track });
        writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
        return Ok(());
    }
    write_track(out, &track)
}
