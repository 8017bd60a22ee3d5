//! `freehire letters …`: cover letters on a freehire server, over the API with a key (a
//! `cv`-scoped key is enough). `draft` writes the letter for a job from your confirmed
//! achievements only; the server keeps one per job.

use std::io::Write;

use anyhow::Context;
use clap::Subcommand;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};

use super::remote::Remote;

/// `freehire letters …`
#[derive(Debug, Subcommand)]
pub enum LettersCommand {
    /// Draft (or draft again) the cover letter for a job, from your confirmed achievements.
    Draft {
        /// The job's public slug (from `freehire search`).
        job: String,
        /// Two paragraphs instead of three.
        #[arg(long)]
        short: bool,
    },
    /// Your cover letters, newest first.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// One letter's text.
    Show {
        /// The letter's id (`freehire letters list`).
        id: i64,
    },
    /// Delete a letter.
    Rm {
        /// The letter's id.
        id: i64,
    },
}

/// Runs a `letters` command.
pub async fn run(remote: &Remote, cmd: LettersCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let client = remote.client()?;
    match cmd {
        LettersCommand::Draft { job, short } => {
            let band = if short { "short" } else { "standard" };
            let l = client.draft_cover_letter(&job, band).await.context("drafting the letter")?;
            writeln!(out, "{}\n", l.text)?;
            let cited: usize = l.paragraphs.iter().map(|p| p.evidence_ids.len()).sum();
            write!(
                out,
                "letter {} ({}): {} paragraphs citing {cited} achievements",
                l.id,
                l.band,
                l.paragraphs.len()
            )?;
            match l.dropped_paragraphs {
                Some(n) if n > 0 => writeln!(out, "; {n} left out, not backed by your bank")?,
                _ => writeln!(out)?,
            }
        }
        LettersCommand::List { json } => {
            let letters = client.cover_letters().await?;
            if json {
                let body = serde_json::json!({ "data": letters });
                writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
                return Ok(());
            }
            let mut table = Table::new();
            table
                .load_style(UTF8_BORDERS_ONLY)
                .set_content_arrangement(ContentArrangement::Dynamic);
            table.set_header(["id", "job", "company", "band", "drafted"]);
            for l in &letters {
                table.add_row([
                    l.id.to_string(),
                    l.job_title.clone().unwrap_or_default(),
                    l.company.clone().unwrap_or_default(),
                    l.band.clone(),
                    l.updated_at.clone(),
                ]);
            }
            writeln!(out, "{table}")?;
            writeln!(out, "{} letters", letters.len())?;
        }
        LettersCommand::Show { id } => {
            let l = client.cover_letter(id).await?;
            writeln!(out, "{}", l.text)?;
        }
        LettersCommand::Rm { id } => {
            client.delete_cover_letter(id).await?;
            writeln!(out, "letter {id} deleted")?;
        }
    }
    Ok(())
}
