//! `freehire boards add|import|seed|list`.

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
    /// Add the bundled board catalogue (about 14,600 public boards on eight platforms) as
    /// `pending` boards the worker crawls. Rows board recognition refuses are listed, never
    /// fatal; boards already present are left as they are, so a second run adds nothing.
    Seed {
        /// Seed the offline demo's recorded boards instead (crawl them with
        /// `freehire-worker --demo-replay`).
        #[arg(long)]
        demo: bool,
        /// Only when the database has no boards at all (the first start).
        #[arg(long)]
        if_empty: bool,
        /// List every refused row, not only the first ones.
        #[arg(long)]
        all_refused: bool,
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
            let progress = super::progress::CliProgress::new("boards import");
            let report =
                freehire_app::boards::import_csv_with(store, input, Utc::now(), &progress).await?;
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
        BoardsCommand::Seed { demo, if_empty, all_refused } => {
            seed(store, demo, if_empty, all_refused, out).await?;
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

/// Refused rows printed without `--all-refused`.
const REFUSED_SHOWN: usize = 10;

async fn seed(
    store: &dyn Store,
    demo: bool,
    if_empty: bool,
    all_refused: bool,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    use freehire_app::board_catalogue as catalogue;
    let files = if demo { freehire_app::demo::BOARDS } else { catalogue::BUNDLED };
    let started = std::time::Instant::now();
    let report = if if_empty {
        match catalogue::seed_if_empty(store, files, BoardStatus::Pending, Utc::now()).await? {
            Some(report) => report,
            None => {
                writeln!(out, "the database has boards already; not seeding")?;
                return Ok(());
            }
        }
    } else {
        catalogue::seed(store, files, BoardStatus::Pending, Utc::now()).await?
    };
    for (name, c) in &report.files {
        writeln!(
            out,
            "{name}: {} added, {} already present, {} refused",
            c.added, c.existing, c.refused
        )?;
    }
    let shown = if all_refused { report.refused.len() } else { REFUSED_SHOWN };
    for refusal in report.refused.iter().take(shown) {
        writeln!(out, "refused: {}: {}", refusal.file, refusal.reason)?;
    }
    if report.refused.len() > shown {
        writeln!(
            out,
            "refused: … and {} more (--all-refused lists them)",
            report.refused.len() - shown
        )?;
    }
    let total = report.total();
    writeln!(
        out,
        "{} boards added, {} already present, {} refused in {:.1} s",
        total.added,
        total.existing,
        total.refused,
        started.elapsed().as_secs_f64()
    )?;
    if total.added == 0 {
        writeln!(out, "nothing new: every recognised board is present already")?;
    } else {
        writeln!(
            out,
            "the worker crawls them as `pending` boards; each is activated by its first crawl"
        )?;
    }
    Ok(())
}
