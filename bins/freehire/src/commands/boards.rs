//! `freehire boards add|import|list`.

use std::{io::Write, path::PathBuf};

use anyhow::Context;
use chrono::Utc;
use clap::Subcommand;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use freehire_domain::{BoardStatus, Provider};
use freehire_store::{BoardFilter, Store};

/// `freehire boards …`
#[derive(Debug, Subcommand)]
pub enum BoardsCommand {
    /// Add the board a careers page or ATS API URL names (e.g. https://jobs.ashbyhq.com/acme).
    Add {
        /// The board's public careers URL or API URL.
        url: String,
        /// The company's display name.
        #[arg(long)]
        company: String,
        /// Add it as `pending` (crawled but unproven) instead of `active`.
        #[arg(long)]
        pending: bool,
    },
    /// Import boards from a CSV file with the columns `provider,board,company`.
    Import {
        /// The CSV file.
        file: PathBuf,
    },
    /// List boards.
    List {
        /// Only this provider.
        #[arg(long)]
        provider: Option<Provider>,
    },
}

/// Runs a boards command, writing to `out`.
pub async fn run(
    store: &dyn Store,
    cmd: BoardsCommand,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    match cmd {
        BoardsCommand::Add { url, company, pending } => {
            let status = if pending { BoardStatus::Pending } else { BoardStatus::Active };
            let added =
                freehire_app::boards::add_from_url(store, &url, &company, status, Utc::now())
                    .await?;
            let verb = if added.created { "added" } else { "already present:" };
            writeln!(
                out,
                "{verb} {} ({}, {})",
                added.board.key, added.board.company, added.board.status
            )?;
        }
        BoardsCommand::Import { file } => {
            let input = std::fs::File::open(&file)
                .with_context(|| format!("cannot open {}", file.display()))?;
            let report = freehire_app::boards::import_csv(store, input, Utc::now()).await?;
            for error in &report.errors {
                writeln!(out, "skipped: {error}")?;
            }
            writeln!(
                out,
                "{} added, {} already present, {} skipped",
                report.added,
                report.existing,
                report.errors.len()
            )?;
            if !report.errors.is_empty() {
                anyhow::bail!(
                    "{} rows of {} were not imported",
                    report.errors.len(),
                    file.display()
                );
            }
        }
        BoardsCommand::List { provider } => {
            let boards = store.list_boards(&BoardFilter { provider, statuses: vec![] }).await?;
            let mut table = Table::new();
            table
                .load_style(UTF8_BORDERS_ONLY)
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(160)
                .set_header(["PROVIDER", "BOARD", "REGION", "COMPANY", "STATUS"]);
            for b in &boards {
                table.add_row([
                    b.key.provider.as_str(),
                    b.key.board.as_str(),
                    b.key.region.as_str(),
                    b.company.as_str(),
                    b.status.as_str(),
                ]);
            }
            writeln!(out, "{table}")?;
            writeln!(out, "{} boards", boards.len())?;
        }
    }
    Ok(())
}
