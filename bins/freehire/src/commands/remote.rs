//! The remote commands (`freehire track …`, `freehire saved-searches …`): they talk to a
//! freehire API server over HTTP with an API key, so they work against a remote server as
//! well as a local one. No database is opened.

use std::io::Write;

use anyhow::Context;
use chrono::{DateTime, NaiveDate, Utc};
use clap::{Args, Subcommand, ValueEnum};
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use freehire_client::{Client, DEFAULT_API_URL, credentials, wire::Card};
use freehire_domain::Stage;
use secrecy::SecretString;

/// Which server, with which key: the flags or the environment, else what `freehire auth
/// login` stored, else the local server without a key.
#[derive(Debug, Args)]
pub struct Remote {
    /// The API server's URL [default: the stored sign-in's server, else http://127.0.0.1:8080].
    #[arg(long, global = true, env = "FREEHIRE_API_URL")]
    api_url: Option<String>,
    /// An API key (`fhk_…`; `freehire auth login`, the account page or `freehire keys create`
    /// mints one) [default: the stored sign-in's key].
    #[arg(long, global = true, env = "FREEHIRE_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
}

/// Where a key came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySource {
    /// `--api-key` or `FREEHIRE_API_KEY`.
    Environment,
    /// The stored sign-in.
    Stored,
}

impl Remote {
    fn given_key(&self) -> Option<SecretString> {
        self.api_key
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(|k| SecretString::from(k.to_owned()))
    }

    fn given_url(&self) -> Option<&str> {
        self.api_url.as_deref().map(str::trim).filter(|u| !u.is_empty())
    }

    /// The stored sign-in, when it is for the server in use (an unreadable file is an error).
    fn stored(&self) -> anyhow::Result<Option<credentials::Credentials>> {
        let path = credentials::default_path()?;
        let stored = credentials::load(&path)?;
        Ok(stored.filter(|c| self.given_url().is_none_or(|url| same_server(url, &c.api_url))))
    }

    /// The server's URL and the key to send, with where the key came from.
    pub(crate) fn resolve(&self) -> anyhow::Result<(String, Option<(SecretString, KeySource)>)> {
        let stored = self.stored()?;
        let url = match (self.given_url(), &stored) {
            (Some(url), _) => url.to_owned(),
            (None, Some(c)) => c.api_url.clone(),
            (None, None) => DEFAULT_API_URL.to_owned(),
        };
        let key = match (self.given_key(), stored) {
            (Some(key), _) => Some((key, KeySource::Environment)),
            (None, Some(c)) => Some((c.key, KeySource::Stored)),
            (None, None) => None,
        };
        Ok((url, key))
    }

    pub(crate) fn client(&self) -> anyhow::Result<Client> {
        let (url, key) = self.resolve()?;
        let (key, _) = key.context(
            "no API key: run freehire auth login, or set FREEHIRE_API_KEY (or pass --api-key)",
        )?;
        Ok(Client::new(&url, key)?)
    }

    /// The API server's URL.
    pub(crate) fn api_url(&self) -> anyhow::Result<String> {
        Ok(self.resolve()?.0)
    }

    /// The API key, when one is set or stored.
    pub(crate) fn key(&self) -> anyhow::Result<Option<SecretString>> {
        Ok(self.resolve()?.1.map(|(key, _)| key))
    }

    /// A client for the public reads: with the key when one is set or stored, else keyless.
    pub(crate) fn public_client(&self) -> anyhow::Result<Client> {
        let (url, key) = self.resolve()?;
        match key {
            Some((key, _)) => Ok(Client::new(&url, key)?),
            None => Ok(Client::public(&url)?),
        }
    }
}

/// Whether two API URLs name one server (a trailing slash does not matter).
pub(crate) fn same_server(a: &str, b: &str) -> bool {
    a.trim().trim_end_matches('/') == b.trim().trim_end_matches('/')
}

/// Which tracked jobs to list.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Filter {
    /// Every tracked job.
    All,
    /// Viewed jobs.
    Viewed,
    /// Saved jobs.
    Saved,
    /// Applied jobs.
    Applied,
    /// Jobs on the board (with a stage).
    Board,
    /// Dismissed jobs.
    Dismissed,
}

impl Filter {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Filter::All => "all",
            Filter::Viewed => "viewed",
            Filter::Saved => "saved",
            Filter::Applied => "applied",
            Filter::Board => "board",
            Filter::Dismissed => "dismissed",
        }
    }
}

/// `freehire track …`
#[derive(Debug, Subcommand)]
pub enum TrackCommand {
    /// Your tracked jobs.
    List {
        /// Which ones.
        #[arg(long, value_enum, default_value = "all")]
        filter: Filter,
        /// Rows to show (1-500).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=500))]
        limit: u32,
        /// Rows to skip.
        #[arg(long, default_value_t = 0)]
        offset: u32,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Save a job (its public slug, as in its URL).
    Save {
        /// The job's public slug.
        slug: String,
    },
    /// Remove a job from your saved jobs.
    Unsave {
        /// The job's public slug.
        slug: String,
    },
    /// Record that you applied.
    Apply {
        /// The job's public slug.
        slug: String,
        /// The day you applied (YYYY-MM-DD; today when left out; at most a year ago).
        #[arg(long)]
        on: Option<NaiveDate>,
    },
    /// Move an application to a stage.
    Stage {
        /// The job's public slug.
        slug: String,
        /// preparing, applied, screening, responded, interview, offer, accepted, rejected,
        /// withdrawn or expired.
        stage: Stage,
    },
    /// Replace an application's notes.
    Note {
        /// The job's public slug.
        slug: String,
        /// The notes (an empty string clears them).
        text: String,
    },
}

/// `freehire saved-searches …`
#[derive(Debug, Subcommand)]
pub enum SavedSearchesCommand {
    /// Your saved searches.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Save a search: a name and a query in the search grammar (`skills=rust&countries=de`).
    Add {
        /// Its name (unique among yours).
        name: String,
        /// The query, as in a search URL after the `?`.
        query: String,
    },
    /// Delete a saved search (and its subscriptions).
    Rm {
        /// Its id (`freehire saved-searches list`).
        id: i64,
    },
}

/// Runs a `track` command.
pub async fn track(remote: &Remote, cmd: TrackCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let client = remote.client()?;
    let track = match cmd {
        TrackCommand::List { filter, limit, offset, json } => {
            let (cards, total) = client.tracking(filter.as_str(), limit, offset).await?;
            if json {
                let body = serde_json::json!({"data": cards, "total": total});
                writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
            } else {
                write_cards(out, &cards, total, offset)?;
            }
            return Ok(());
        }
        TrackCommand::Save { slug } => {
            client.save(&slug).await?;
            writeln!(out, "saved {slug}")?;
            return Ok(());
        }
        TrackCommand::Unsave { slug } => {
            client.unsave(&slug).await?;
            writeln!(out, "unsaved {slug}")?;
            return Ok(());
        }
        TrackCommand::Apply { slug, on } => client.apply(&slug, on).await?,
        TrackCommand::Stage { slug, stage } => client.set_stage(&slug, stage).await?,
        TrackCommand::Note { slug, text } => client.set_notes(&slug, &text).await?,
    };
    write_track(out, &track)
}

/// One tracked job's state as a line: its application's stage and day, else whether it is
/// saved.
pub(crate) fn write_track(
    out: &mut impl Write,
    track: &freehire_client::wire::Track,
) -> anyhow::Result<()> {
    let slug = track.job_slug.as_deref().unwrap_or("?");
    match &track.application {
        Some(app) => writeln!(
            out,
            "{slug}: {}{}",
            app.stage.as_deref().unwrap_or("no stage"),
            app.applied_at.map(|at| format!(", applied {}", day(at))).unwrap_or_default()
        )?,
        None if track.saved_at.is_some() => writeln!(out, "{slug}: saved, not applied")?,
        None => writeln!(out, "{slug}: not saved, not applied")?,
    }
    Ok(())
}

/// Runs a `saved-searches` command.
pub async fn saved_searches(
    remote: &Remote,
    cmd: SavedSearchesCommand,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let client = remote.client()?;
    match cmd {
        SavedSearchesCommand::List { json } => {
            let list = client.saved_searches().await?;
            if json {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({"data": list}))?
                )?;
                return Ok(());
            }
            let mut table = Table::new();
            table
                .load_style(UTF8_BORDERS_ONLY)
                .set_content_arrangement(ContentArrangement::Dynamic);
            table.set_header(["id", "name", "query", "subscribed"]);
            for s in &list {
                let channels: Vec<&str> =
                    s.subscriptions.iter().map(|c| c.channel.as_str()).collect();
                let query = if s.query.is_empty() { "(everything)" } else { &s.query };
                table.add_row([
                    s.id.to_string(),
                    s.name.clone(),
                    query.to_owned(),
                    channels.join(", "),
                ]);
            }
            writeln!(out, "{table}")?;
            writeln!(out, "{} saved searches", list.len())?;
        }
        SavedSearchesCommand::Add { name, query } => {
            let created = client.add_saved_search(&name, &query).await?;
            writeln!(out, "saved search {} {:?}", created.id, created.name)?;
        }
        SavedSearchesCommand::Rm { id } => {
            client.remove_saved_search(id).await?;
            writeln!(out, "deleted saved search {id}")?;
        }
    }
    Ok(())
}

pub(crate) fn write_cards(
    out: &mut impl Write,
    cards: &[Card],
    total: u64,
    offset: u32,
) -> anyhow::Result<()> {
    let mut table = Table::new();
    table.load_style(UTF8_BORDERS_ONLY).set_content_arrangement(ContentArrangement::Dynamic);
    table.set_header(["slug", "role", "company", "stage", "applied", "silent"]);
    for c in cards {
        let silent = match (c.days_silent, c.silence_state.as_deref()) {
            (Some(d), Some("silent")) => format!("{d} d (follow up)"),
            (Some(d), _) => format!("{d} d"),
            _ => String::new(),
        };
        table.add_row([
            c.job_slug.clone().unwrap_or_default(),
            c.role_title.clone().or_else(|| c.title.clone()).unwrap_or_default(),
            c.company.clone().unwrap_or_default(),
            c.stage.clone().unwrap_or_else(|| {
                if c.saved_at.is_some() { "saved".into() } else { String::new() }
            }),
            c.applied_at.map(day).unwrap_or_default(),
            silent,
        ]);
    }
    writeln!(out, "{table}")?;
    let shown = cards.len() as u64;
    let first = if shown == 0 { 0 } else { u64::from(offset) + 1 };
    writeln!(out, "{first}-{} of {total} tracked jobs", u64::from(offset) + shown)?;
    Ok(())
}

fn day(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d").to_string()
}
