//! `freehire jobs list|show|rederive` and the lifecycle commands `jobs liveness`,
//! `jobs prune` and `jobs close`.

use std::io::Write;

use anyhow::Context;
use chrono::Utc;
use clap::Subcommand;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use freehire_api::view::JobView;
use freehire_domain::{Job, PublicSlug};
use freehire_store::{ListPage, Store};

/// `freehire jobs …`
#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// Open jobs, newest first.
    List {
        /// Rows to show (1-100).
        #[arg(long, default_value_t = ListPage::DEFAULT_LIMIT, value_parser = clap::value_parser!(u32).range(1..=100))]
        limit: u32,
        /// Rows to skip.
        #[arg(long, default_value_t = 0)]
        offset: u64,
        /// Print the API's JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Re-derive every stored job's facets with the current dictionaries (after an upgrade);
    /// changed jobs are rewritten and queued for re-indexing.
    Rederive {
        /// Jobs per batch (1-1000).
        #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=1000))]
        batch: u32,
    },
    /// Read the pages of open postings no live board watches (manual entries, retired boards)
    /// and close each read expired twice in a row (`expired`); the worker runs this hourly.
    Liveness {
        /// Postings to read (1-5000).
        #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=5000))]
        limit: u32,
        /// Send every request to this origin instead (a replay server).
        #[arg(long, env = "FREEHIRE_REPLAY_URL")]
        replay_url: Option<String>,
    },
    /// Delete jobs closed for a long time into `pruned_jobs` (applications keep their company
    /// and role). A dry run listing them unless `--apply`.
    Prune {
        /// Jobs closed at least this many days ago (1-3650).
        #[arg(long, default_value_t = 90, value_parser = clap::value_parser!(u32).range(1..=3650))]
        older_than_days: u32,
        /// At most this many jobs.
        #[arg(long)]
        limit: Option<u64>,
        /// Delete them (without it nothing changes).
        #[arg(long)]
        apply: bool,
    },
    /// Close one open job by its public slug (`moderated`): spam, a scam, a duplicate.
    Close {
        /// The job's public slug, as in its URL.
        slug: String,
    },
    /// One job by its public slug (closed jobs too).
    Show {
        /// The job's public slug, as in its URL.
        slug: String,
        /// Print the API's JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a jobs command, writing to `out`.
pub async fn run(store: &dyn Store, cmd: JobsCommand, out: &mut impl Write) -> anyhow::Result<()> {
    match cmd {
        JobsCommand::List { limit, offset, json } => {
            let page = ListPage::new(limit, offset);
            let list = store.list_open_jobs(page).await?;
            if json {
                let now = Utc::now();
                let data: Vec<JobView> = list.jobs.iter().map(|j| JobView::new(j, now)).collect();
                let body = serde_json::json!({
                    "data": data,
                    "meta": {"total": list.total, "limit": page.limit(), "offset": page.offset()},
                });
                writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
            } else {
                write_table(out, &list.jobs, list.total, page)?;
            }
        }
        JobsCommand::Rederive { batch } => {
            let progress = super::progress::CliProgress::new("rederive");
            let stats =
                freehire_app::rederive::rederive_all_with(store, batch, Utc::now(), &progress)
                    .await?;
            writeln!(
                out,
                "{} jobs re-derived, {} changed and queued for re-indexing",
                stats.scanned, stats.changed
            )?;
        }
        JobsCommand::Liveness { limit, replay_url } => {
            use freehire_app::lifecycle::liveness::{LivenessConfig, Prober, pass};
            let client = freehire_app::ingest::client_config(
                replay_url.as_deref(),
                freehire_app::ingest::HostPacing::default(),
            )?;
            let config = LivenessConfig { batch: limit, ..LivenessConfig::default() };
            let report = pass(store, &Prober::new(client)?, &config, &Utc::now).await?;
            for r in &report.reads {
                let action = if r.closed { " → closed expired" } else { "" };
                writeln!(
                    out,
                    "{} {}: {} ({}; strikes {}){action}",
                    r.candidate.key.source,
                    r.candidate.key.external_id,
                    r.verdict.as_str(),
                    r.reason,
                    r.strikes
                )?;
            }
            writeln!(out, "{} postings read, {} closed", report.reads.len(), report.closed())?;
        }
        JobsCommand::Prune { older_than_days, limit, apply } => {
            use freehire_app::lifecycle::prune::{PruneRule, prune};
            let rule = PruneRule {
                closed_for: chrono::Duration::days(i64::from(older_than_days)),
                limit,
                apply,
            };
            let jobs = prune(store, &rule, Utc::now()).await?;
            for j in &jobs {
                writeln!(out, "{} {}: {} ({})", j.source, j.external_id, j.title, j.company_slug)?;
            }
            if apply {
                writeln!(out, "{} jobs pruned ({})", jobs.len(), rule.name())?;
            } else {
                writeln!(
                    out,
                    "{} jobs would be pruned ({}); run again with --apply to delete them",
                    jobs.len(),
                    rule.name()
                )?;
            }
        }
        JobsCommand::Close { slug } => {
            let parsed =
                PublicSlug::parse(&slug).map_err(|_| anyhow::anyhow!("job not found: {slug}"))?;
            match freehire_app::lifecycle::moderate(store, &parsed, Utc::now()).await? {
                Some(key) => {
                    writeln!(out, "closed {} {} (moderated)", key.source, key.external_id)?
                }
                None => anyhow::bail!("no open job at {slug}"),
            }
        }
        JobsCommand::Show { slug, json } => {
            let parsed =
                PublicSlug::parse(&slug).map_err(|_| anyhow::anyhow!("job not found: {slug}"))?;
            let job = store
                .job_by_slug(&parsed)
                .await?
                .with_context(|| format!("job not found: {slug}"))?;
            let now = Utc::now();
            let reality = freehire_app::signals::of_jobs(store, std::slice::from_ref(&job), now)
                .await?
                .into_iter()
                .next()
                .context("no reality signals for the job")?;
            if json {
                let view = JobView::new(&job, now).with_reality(&reality);
                let body = serde_json::json!({"data": view});
                writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
            } else {
                write_detail(out, &job, &reality)?;
            }
        }
    }
    Ok(())
}

fn write_table(
    out: &mut impl Write,
    jobs: &[Job],
    total: u64,
    page: ListPage,
) -> anyhow::Result<()> {
    if jobs.is_empty() {
        writeln!(
            out,
            "No open jobs (total {total}). Add boards and run an ingest to fill the catalogue."
        )?;
        return Ok(());
    }
    let now = Utc::now();
    let mut table = Table::new();
    table
        .load_style(UTF8_BORDERS_ONLY)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(160)
        .set_header(["TITLE", "COMPANY", "LOCATION", "POSTED", "SLUG"]);
    for job in jobs {
        let p = &job.posting;
        table.add_row([
            p.title.as_str(),
            p.company.as_str(),
            p.location.as_str(),
            &job.effective_posted_at(now).format("%Y-%m-%d").to_string(),
            job.public_slug.as_str(),
        ]);
    }
    writeln!(out, "{table}")?;
    let first = page.offset() + 1;
    let last = page.offset() + jobs.len() as u64;
    writeln!(out, "{first}-{last} of {total} open jobs")?;
    Ok(())
}

fn write_detail(
    out: &mut impl Write,
    job: &Job,
    reality: &freehire_domain::reality::Reality,
) -> anyhow::Result<()> {
    let p = &job.posting;
    let f = &p.facets;
    writeln!(out, "{}", p.title)?;
    writeln!(out, "{} · {}", p.company, p.location)?;
    writeln!(out, "{}", p.url)?;
    let status = match (job.closed_at, job.closed_reason) {
        (Some(at), Some(reason)) => format!("closed {} ({reason})", at.format("%Y-%m-%d")),
        _ => "open".to_owned(),
    };
    writeln!(
        out,
        "status: {status}; posted {}",
        job.effective_posted_at(Utc::now()).format("%Y-%m-%d")
    )?;
    let mut facts = Vec::new();
    if let Some(m) = f.work_mode {
        facts.push(m.to_string());
    }
    if let Some(s) = f.seniority {
        facts.push(s.to_string());
    }
    if let Some(e) = f.employment_type {
        facts.push(e.to_string());
    }
    if !f.countries.is_empty() {
        facts.push(f.countries.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(","));
    }
    if let Some(s) = &p.salary {
        let range = match (s.min, s.max) {
            (Some(a), Some(b)) => format!("{a}-{b}"),
            (Some(a), None) => format!("from {a}"),
            (None, Some(b)) => format!("up to {b}"),
            (None, None) => String::new(),
        };
        facts.push(format!("{range} {} per {}", s.currency, s.period));
    }
    if !facts.is_empty() {
        writeln!(out, "{}", facts.join(" · "))?;
    }
    if !f.skills.is_empty() {
        writeln!(out, "skills: {}", f.skills.join(", "))?;
    }
    writeln!(
        out,
        "signals: {} (first seen {} days ago; {} postings of the role, {} open{})",
        reality.class,
        reality.age_days,
        reality.repost_count,
        reality.mass_posting_count,
        if reality.fake_freshness { "; an old posting claiming a recent date" } else { "" }
    )?;
    writeln!(out)?;
    let text = html2text::from_read(p.description.as_bytes(), 100)
        .unwrap_or_else(|_| p.description.clone());
    writeln!(out, "{}", text.trim_end())?;
    Ok(())
}
