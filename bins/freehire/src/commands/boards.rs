//! `freehire boards add|import|seed|list|close-chronic`.

use std::{io::Write, path::PathBuf};

use anyhow::Context;
use chrono::{DateTime, Utc};
use clap::Subcommand;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use freehire_app::boards::{BoardListing, BoardWithHealth};
use freehire_domain::{BoardStatus, FailureClass, Provider};
use freehire_store::Store;

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
    /// List boards with their crawl health: last success, failures in a row, when a cooling
    /// board is crawled again and the class and text of its last error.
    List {
        /// Only this provider.
        #[arg(long)]
        provider: Option<Provider>,
        /// Only boards failing since their last success, each with its whole last error.
        #[arg(long)]
        failing: bool,
    },
    /// Close the open postings of every live board failing for over a week
    /// (`board_failing`); its next successful crawl reopens them. The worker runs this hourly.
    CloseChronic,
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
        BoardsCommand::CloseChronic => {
            let done =
                freehire_app::lifecycle::chronic::close_chronic_boards(store, Utc::now()).await?;
            for key in &done.boards {
                writeln!(out, "chronic: {key}")?;
            }
            writeln!(
                out,
                "{} chronically failing boards, {} postings closed (board_failing)",
                done.boards.len(),
                done.closed
            )?;
        }
        BoardsCommand::List { provider, failing } => {
            let listing = BoardListing { provider, failing_only: failing };
            let rows = freehire_app::boards::list_with_health(store, &listing).await?;
            write_board_table(&rows, Utc::now(), out)?;
            if failing {
                for row in &rows {
                    if let Some(h) = &row.health {
                        let class = h.last_error_class.map_or("other", FailureClass::as_str);
                        let error = h.last_error.as_deref().unwrap_or("");
                        writeln!(out, "{}: {class}: {error}", row.board.key)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Characters of the last error a table cell shows (its end: the root cause).
const ERROR_SHOWN: usize = 90;

/// The boards table: curation, then health; a summary line of how many fail and cool.
fn write_board_table(
    rows: &[BoardWithHealth],
    now: DateTime<Utc>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let stamp = |at: Option<DateTime<Utc>>| {
        at.map_or_else(|| "-".to_owned(), |at| at.format("%Y-%m-%d %H:%M").to_string())
    };
    let mut table = Table::new();
    table
        .load_style(UTF8_BORDERS_ONLY)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(200)
        .set_header([
            "PROVIDER",
            "BOARD",
            "REGION",
            "COMPANY",
            "STATUS",
            "LAST SUCCESS",
            "FAILURES",
            "COOLING UNTIL",
            "LAST ERROR",
        ]);
    let (mut failing, mut cooling) = (0, 0);
    for row in rows {
        let b = &row.board;
        let h = row.health.as_ref();
        failing += usize::from(row.is_failing());
        let cooling_until = h.and_then(|h| h.cooldown_until.filter(|until| *until > now));
        cooling += usize::from(cooling_until.is_some());
        let error = h
            .filter(|h| h.consecutive_failures > 0)
            .and_then(|h| {
                let class = h.last_error_class.map_or("other", FailureClass::as_str);
                Some(format!("{class}: {}", h.error_tail(ERROR_SHOWN)?))
            })
            .unwrap_or_default();
        table.add_row([
            b.key.provider.to_string(),
            b.key.board.clone(),
            b.key.region.clone(),
            b.company.clone(),
            b.status.as_str().to_owned(),
            h.map_or_else(|| "never crawled".to_owned(), |h| stamp(h.last_success_at)),
            h.map_or(0, |h| h.consecutive_failures).to_string(),
            stamp(cooling_until),
            error,
        ]);
    }
    writeln!(out, "{table}")?;
    writeln!(out, "{} boards, {failing} failing, {cooling} cooling", rows.len())?;
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
