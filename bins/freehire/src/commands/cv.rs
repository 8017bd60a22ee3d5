//! `freehire cv …`: the candidate's CVs on a freehire server, over the API with a key (a
//! `cv`-scoped key is enough): list them, show one, download its PDF, import one pasted as
//! text (a file or standard input), tailor the base CV to a
//! job, read a tailored copy's report, undo one run of the assistant's edits.

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
    /// Import a CV from its text: it becomes your base CV and every job, project and bullet
    /// goes into your experience bank.
    Import {
        /// A text file holding the CV (`-` for standard input).
        file: std::path::PathBuf,
        /// Keep an existing base CV as it is; only fill the bank.
        #[arg(long)]
        keep_base: bool,
    },
    /// Copy your base CV for a job (once) and start or resume its tailoring session.
    Tailor {
        /// The job's public slug (from `freehire search`).
        job: String,
    },
    /// A tailored CV's score and report per requirement.
    Report {
        /// The tailored CV's id.
        id: i64,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Undo one run of the assistant's edits (the newest one when no batch is given).
    UndoRun {
        /// The tailored CV's id.
        id: i64,
        /// The run's batch (`freehire cv report` shows the newest).
        batch: Option<String>,
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
        CvCommand::Import { file, keep_base } => {
            let text = if file.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin()).context("reading standard input")?
            } else {
                std::fs::read_to_string(&file)
                    .with_context(|| format!("reading {}", file.display()))?
            };
            let i = client.import_cv(&text, keep_base).await?;
            writeln!(out, "base CV {} {}", i.cv.id, i.base_cv)?;
            writeln!(
                out,
                "bank: {} jobs and projects added, {} already there; {} achievements added, {} \
                 confirmed, {} already banked",
                i.employments_created,
                i.employments_matched,
                i.atoms_added,
                i.atoms_upgraded,
                i.atoms_already_banked
            )?;
            for line in &i.unread {
                writeln!(out, "not read: {line}")?;
            }
        }
        CvCommand::Tailor { job } => {
            let t = client.tailor_cv(&job).await?;
            let verb = if t.cold_start_running { "created" } else { "resumed" };
            writeln!(out, "tailored CV {} ({verb}) from base CV {}", t.tailor_cv_id, t.base_cv_id)?;
            if let Some(score) = t.analysis["score"].as_u64() {
                writeln!(out, "match score {score}/100")?;
            }
            writeln!(out, "session {}", t.session_id)?;
        }
        CvCommand::Report { id, json } => {
            let w = client.cv_tailoring(id).await?;
            if json {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({"data": w}))?
                )?;
                return Ok(());
            }
            let title = w.job_title.clone().unwrap_or_else(|| "(the job is gone)".into());
            writeln!(out, "{title} · {}", w.company.clone().unwrap_or_default())?;
            if let Some(score) = w.analysis["score"].as_u64() {
                writeln!(out, "match score {score}/100")?;
            }
            let mut table = Table::new();
            table
                .load_style(UTF8_BORDERS_ONLY)
                .set_content_arrangement(ContentArrangement::Dynamic);
            table.set_header(["requirement", "status", "note"]);
            let items = w.report["items"].as_array().cloned().unwrap_or_default();
            for i in &items {
                let field = |k: &str| i[k].as_str().unwrap_or_default().to_owned();
                table.add_row([field("requirement"), field("status"), field("note")]);
            }
            writeln!(out, "{table}")?;
            writeln!(out, "{} requirements", items.len())?;
            if let Some(batch) = &w.last_batch {
                writeln!(out, "last run {batch}")?;
            }
        }
        CvCommand::UndoRun { id, batch } => {
            let batch = match batch {
                Some(b) => b,
                None => client
                    .cv_tailoring(id)
                    .await?
                    .last_batch
                    .context("no run of the assistant's edits is left to undo")?,
            };
            let cv = client.undo_cv_batch(id, &batch).await?;
            writeln!(out, "undid run {batch} on CV {} ({})", cv.id, cv.title)?;
        }
    }
    Ok(())
}
