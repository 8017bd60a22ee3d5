//! `freehire cv …`: the candidate's CVs on a freehire server, over the API with a key (a
//! `cv`-scoped key is enough): list them, show one, download its PDF.

use std::io::Write;

use anyhow::Context;
use clap::Subcommand;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};

use super::remote::Remote;

/// `freehire cv …`
#[derive(Debug, Subcommand)]
pub enum CvCommand {
    /// Your CVs.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// One CV's content, as JSON.
    Show {
        /// The CV's id (`freehire cv list`).
        id: i64,
    },
    /// Download a CV's PDF.
    Pdf {
        /// The CV's id.
        id: i64,
        /// Where to write it.
        #[arg(short, long)]
        output: std::path::PathBuf,
    },
}

/// Runs a `cv` command.
pub async fn run(remote: &Remote, cmd: CvCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let client = remote.client()?;
    match cmd {
        CvCommand::List { json } => {
            let list = client.cvs().await?;
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
            table.set_header(["id", "kind", "title", "template", "updated"]);
            for cv in &list {
                table.add_row([
                    cv.id.to_string(),
                    cv.kind.clone(),
                    cv.title.clone(),
                    cv.template_id.clone(),
                    cv.updated_at.clone(),
                ]);
            }
            writeln!(out, "{table}")?;
            writeln!(out, "{} CVs", list.len())?;
        }
        CvCommand::Show { id } => {
            let cv = client.cv(id).await?;
            writeln!(out, "{}", serde_json::to_string_pretty(&cv)?)?;
        }
        CvCommand::Pdf { id, output } => {
            let pdf = client.cv_pdf(id).await?;
            std::fs::write(&output, &pdf)
                .with_context(|| format!("writing {}", output.display()))?;
            writeln!(out, "wrote {} ({} bytes)", output.display(), pdf.len())?;
        }
    }
    Ok(())
}
