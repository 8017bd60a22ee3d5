//! The catalogue's lookups on a freehire server, keyless (`FREEHIRE_API_URL`; a key, when
//! set, is sent and counts the requests against it): `freehire find URL` (the posting at an
//! address, however it was pasted), `freehire copies SLUG` (the same role's other postings),
//! `freehire cities TEXT` (canonical city names for `--city`) and `freehire suggest TEXT`
//! (completions). Each prints lines for a person, or the API's JSON with `--json`.

use std::io::Write;

use clap::{Args, Subcommand};
use freehire_client::lookup::JobSummary;

use super::remote::Remote;

/// One lookup.
#[derive(Debug, Subcommand)]
pub enum LookupCommand {
    /// The posting at an address (scheme, case, `www.`, tracking parameters and the fragment
    /// do not matter).
    Find {
        /// The posting's address.
        url: String,
        #[command(flatten)]
        out: Output,
        #[command(flatten)]
        remote: Remote,
    },
    /// The same role's other open postings (other cities, other sources).
    Copies {
        /// The job's public slug.
        slug: String,
        #[command(flatten)]
        out: Output,
        #[command(flatten)]
        remote: Remote,
    },
    /// City names completing the text, most populous first (the values `--city` takes).
    Cities {
        /// What you have typed.
        text: String,
        /// Only this country's (ISO code, e.g. `de`).
        #[arg(long)]
        country: Option<String>,
        /// At most this many (1..=50, default 10).
        #[arg(long)]
        limit: Option<u32>,
        #[command(flatten)]
        out: Output,
        #[command(flatten)]
        remote: Remote,
    },
    /// The server's health: the ingest fleet's verdict, each provider's boards, the
    /// catalogue's size.
    Status(StatusArgs),
    /// Completions of what you are typing: titles, companies, skills, categories.
    Suggest {
        /// What you have typed.
        text: String,
        /// At most this many (1..=20, default 5).
        #[arg(long)]
        limit: Option<u32>,
        #[command(flatten)]
        out: Output,
        #[command(flatten)]
        remote: Remote,
    },
}

/// The server's health: the ingest fleet's verdict, each provider, the catalogue's size.
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    out: Output,
    #[command(flatten)]
    remote: Remote,
}

/// How to print.
#[derive(Debug, Args)]
pub struct Output {
    /// Print the API's JSON instead of lines.
    #[arg(long)]
    json: bool,
}

/// Runs `command` against the server it names.
pub async fn run(command: LookupCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let remote = match &command {
        LookupCommand::Find { remote, .. }
        | LookupCommand::Copies { remote, .. }
        | LookupCommand::Cities { remote, .. }
        | LookupCommand::Suggest { remote, .. }
        | LookupCommand::Status(StatusArgs { remote, .. }) => remote,
    };
    let client = remote.public_client()?;
    match command {
        LookupCommand::Find { url, out: how, .. } => {
            let job = client.find_job(&url).await?;
            if how.json {
                return json(out, &job);
            }
            job_line(out, &job)?;
            writeln!(out, "  {}", job.url)?;
        }
        LookupCommand::Copies { slug, out: how, .. } => {
            let copies = client.job_copies(&slug).await?;
            if how.json {
                return json(out, &copies);
            }
            if copies.is_empty() {
                writeln!(out, "no other posting of this role")?;
            }
            for job in &copies {
                job_line(out, job)?;
            }
        }
        LookupCommand::Cities { text, country, limit, out: how, .. } => {
            let cities = client.cities(&text, country.as_deref(), limit).await?;
            if how.json {
                return json(out, &cities);
            }
            for city in &cities {
                writeln!(out, "{} ({})", city.value, city.country)?;
            }
        }
        LookupCommand::Status(StatusArgs { out: how, .. }) => {
            let (fleet, catalog) = tokio::try_join!(client.status(), client.catalog_stats())?;
            if how.json {
                return json(out, &serde_json::json!({"status": fleet, "catalog": catalog}));
            }
            let last = fleet.last_job_added_at.as_deref().unwrap_or("never");
            writeln!(out, "fleet: {} (last job added {last})", fleet.verdict)?;
            writeln!(
                out,
                "catalogue: {} open jobs, {} companies, {} providers, {} boards",
                catalog.open_jobs, catalog.companies, catalog.providers, catalog.boards
            )?;
            for p in &fleet.providers {
                writeln!(
                    out,
                    "  {}: {} ({} boards: {} healthy, {} failing, {} cooling, {} not crawled; {} open jobs)",
                    p.provider,
                    p.verdict,
                    p.boards,
                    p.healthy,
                    p.failing,
                    p.cooling,
                    p.never_crawled,
                    p.open_jobs
                )?;
                if !p.failure_classes.is_empty() {
                    let classes: Vec<String> = p
                        .failure_classes
                        .iter()
                        .map(|c| format!("{} {}", c.class, c.boards))
                        .collect();
                    writeln!(out, "    failing by kind: {}", classes.join(", "))?;
                }
                for b in &p.failing_boards {
                    let region =
                        if b.region.is_empty() { String::new() } else { format!("@{}", b.region) };
                    let cooling = b
                        .cooldown_until
                        .as_deref()
                        .map(|until| format!(", cooling until {until}"))
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "    failing {}/{}{region} ({}): {} failures{cooling}: {}: {}",
                        p.provider,
                        b.board,
                        b.company,
                        b.consecutive_failures,
                        b.error_class,
                        b.last_error.as_deref().unwrap_or("")
                    )?;
                }
            }
        }
        LookupCommand::Suggest { text, limit, out: how, .. } => {
            let found = client.suggest(&text, limit).await?;
            if how.json {
                return json(out, &found);
            }
            for s in &found {
                let kinds: Vec<&str> = s.parts.iter().map(|p| p.kind.as_str()).collect();
                writeln!(out, "{}  [{}]  {} jobs", s.text, kinds.join(", "), s.jobs)?;
            }
        }
    }
    Ok(())
}

fn job_line(out: &mut impl Write, job: &JobSummary) -> anyhow::Result<()> {
    let closed = if job.closed_at.is_some() { "  (closed)" } else { "" };
    writeln!(
        out,
        "{}  {} at {} ({}){closed}",
        job.public_slug, job.title, job.company, job.location
    )?;
    Ok(())
}

fn json(out: &mut impl Write, value: &impl serde::Serialize) -> anyhow::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}
