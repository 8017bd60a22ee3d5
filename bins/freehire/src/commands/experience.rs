//! `freehire experience …`: the experience bank on a freehire server, over the API with a key
//! (a `cv`-scoped key is enough). What is added here is the candidate's own (`manual`).

use std::io::Write;

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use freehire_client::experience::{Bank, NewAtom, NewEmployment, Period};

use super::remote::Remote;

/// A job or a project.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Kind {
    /// A job at a company.
    Job,
    /// A project.
    Project,
}

/// `freehire experience …`
#[derive(Debug, Subcommand)]
pub enum ExperienceCommand {
    /// Your employments and achievements, with their provenance.
    List {
        /// Print JSON instead of tables.
        #[arg(long)]
        json: bool,
    },
    /// Add an achievement in your own words (recorded as `manual`: a CV may cite it).
    Add {
        /// The achievement, one sentence.
        claim: String,
        /// The employment it belongs to (an id from `freehire experience list`).
        #[arg(long)]
        employment: Option<i64>,
        /// What made it hard or what it changed.
        #[arg(long, default_value = "")]
        context: String,
        /// A figure ("p99 20s → 1s"); repeat for more.
        #[arg(long = "metric")]
        metrics: Vec<String>,
        /// A skill; repeat for more.
        #[arg(long = "skill")]
        skills: Vec<String>,
    },
    /// Add a job or a project.
    AddEmployment {
        /// `job` or `project`.
        #[arg(long, value_enum, default_value = "job")]
        kind: Kind,
        /// The employer (or the project's name).
        #[arg(long)]
        company: String,
        /// The role.
        #[arg(long, default_value = "")]
        role: String,
        /// From: YYYY or YYYY-MM.
        #[arg(long, value_parser = parse_period)]
        start: Option<Period>,
        /// To: YYYY or YYYY-MM (leave out with --current).
        #[arg(long, value_parser = parse_period)]
        end: Option<Period>,
        /// Still there.
        #[arg(long)]
        current: bool,
        /// A skill of the stack; repeat for more.
        #[arg(long = "skill")]
        stack: Vec<String>,
    },
}

/// `2021` or `2021-03`.
fn parse_period(raw: &str) -> Result<Period, String> {
    let bad = || format!("{raw:?} is not a date: write YYYY or YYYY-MM");
    let (year, month) = match raw.trim().split_once('-') {
        Some((y, m)) => (y, Some(m.parse::<u8>().map_err(|_| bad())?)),
        None => (raw.trim(), None),
    };
    Ok(Period { year: year.parse().map_err(|_| bad())?, month })
}

/// Runs an `experience` command.
pub async fn run(
    remote: &Remote,
    cmd: ExperienceCommand,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let client = remote.client()?;
    match cmd {
        ExperienceCommand::List { json } => {
            let bank = client.experience().await?;
            if json {
                let body = serde_json::json!({ "data": bank });
                writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
            } else {
                write_bank(out, &bank)?;
            }
        }
        ExperienceCommand::Add { claim, employment, context, metrics, skills } => {
            let atom = NewAtom { claim, employment_id: employment, context, metrics, skills };
            let added = client.add_atom(&atom).await.context("adding the achievement")?;
            writeln!(out, "achievement {} ({}): {}", added.id, added.provenance, added.claim)?;
        }
        ExperienceCommand::AddEmployment { kind, company, role, start, end, current, stack } => {
            let (kind, company, name) = match kind {
                Kind::Job => ("job", Some(company), None),
                Kind::Project => ("project", None, Some(company)),
            };
            let e = NewEmployment {
                kind: kind.to_owned(),
                company,
                name,
                role,
                start,
                end,
                current,
                stack,
            };
            let added = client.add_employment(&e).await.context("adding the employment")?;
            let place = added.company.or(added.name).unwrap_or_default();
            writeln!(out, "employment {}: {} {}", added.id, place, added.role)?;
        }
    }
    Ok(())
}

fn period(p: Option<Period>) -> String {
    p.map(|p| match p.month {
        Some(m) => format!("{}-{m:02}", p.year),
        None => p.year.to_string(),
    })
    .unwrap_or_default()
}

fn write_bank(out: &mut impl Write, bank: &Bank) -> anyhow::Result<()> {
    let mut table = Table::new();
    table.load_style(UTF8_BORDERS_ONLY).set_content_arrangement(ContentArrangement::Dynamic);
    table.set_header(["id", "kind", "place", "role", "from", "to"]);
    for e in &bank.employments {
        let to = if e.current { "now".to_owned() } else { period(e.end) };
        table.add_row([
            e.id.to_string(),
            e.kind.clone(),
            e.company.clone().or_else(|| e.name.clone()).unwrap_or_default(),
            e.role.clone(),
            period(e.start),
            to,
        ]);
    }
    writeln!(out, "{table}")?;
    writeln!(out, "{} employments", bank.employments.len())?;
    let mut table = Table::new();
    table.load_style(UTF8_BORDERS_ONLY).set_content_arrangement(ContentArrangement::Dynamic);
    table.set_header(["id", "employment", "provenance", "claim", "metrics"]);
    for a in &bank.atoms {
        let provenance = if a.confirmed {
            a.provenance.clone()
        } else {
            format!("{} (unconfirmed)", a.provenance)
        };
        table.add_row([
            a.id.to_string(),
            a.employment_id.map(|e| e.to_string()).unwrap_or_default(),
            provenance,
            a.claim.clone(),
            a.metrics.join("; "),
        ]);
    }
    writeln!(out, "{table}")?;
    writeln!(out, "{} achievements", bank.atoms.len())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_parse_from_year_or_year_month() {
        assert_eq!(parse_period("2021").unwrap(), Period { year: 2021, month: None });
        assert_eq!(parse_period("2021-03").unwrap(), Period { year: 2021, month: Some(3) });
        assert!(parse_period("March").unwrap_err().contains("YYYY-MM"));
    }
}
