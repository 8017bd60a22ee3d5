//! `freehire merge-companies ALIAS INTO [--reason R] [--apply]` and `freehire
//! company-aliases`: the operator's side of merged company slugs (reference §4.1
//! `company_slug_aliases`, `cmd/merge-companies`), on the database.

use std::io::Write;
use std::sync::Arc;

use chrono::Utc;
use clap::Args;
use freehire_app::catalogue::{Catalogue, CompanyAt};
use freehire_domain::{AliasReason, CompanySlug};
use freehire_store::{ListPage, Store};

/// `freehire merge-companies ALIAS INTO`
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The slug to merge away (`acme-labs-gmbh`).
    alias: String,
    /// The slug it becomes (`acme-labs`).
    into: String,
    /// Why: `spelling` or `legal_form`.
    #[arg(long, default_value = "spelling", value_parser = reason)]
    reason: AliasReason,
    /// Merge (without it nothing changes).
    #[arg(long)]
    apply: bool,
}

fn reason(raw: &str) -> Result<AliasReason, String> {
    AliasReason::parse(raw).map_err(|e| e.to_string())
}

fn slug(raw: &str, what: &str) -> anyhow::Result<CompanySlug> {
    let slug = CompanySlug::parse(raw.trim()).map_err(|e| anyhow::anyhow!("{what}: {e}"))?;
    anyhow::ensure!(!slug.as_str().is_empty(), "{what}: a company slug is required");
    Ok(slug)
}

/// Open jobs under `slug` now.
async fn open_jobs(catalogue: &Catalogue, slug: &CompanySlug) -> anyhow::Result<u64> {
    Ok(match catalogue.company(slug, ListPage::new(1, 0), Utc::now()).await? {
        CompanyAt::Found(detail) => detail.company.job_count,
        CompanyAt::MovedTo(_) | CompanyAt::NotFound => 0,
    })
}

/// Reports, or with `--apply` performs, one merge.
pub async fn merge(
    store: Arc<dyn Store>,
    args: MergeArgs,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let (alias, into) = (slug(&args.alias, "ALIAS")?, slug(&args.into, "INTO")?);
    anyhow::ensure!(alias != into, "ALIAS and INTO are the same company {:?}", alias.as_str());
    let catalogue = Catalogue::new(store);
    let (moving, staying) =
        (open_jobs(&catalogue, &alias).await?, open_jobs(&catalogue, &into).await?);
    if !args.apply {
        writeln!(
            out,
            "would merge {} ({moving} open jobs) into {} ({staying} open jobs) as {}; \
             run again with --apply to merge",
            alias.as_str(),
            into.as_str(),
            args.reason.as_str()
        )?;
        return Ok(());
    }
    let done = catalogue.merge_companies(&alias, &into, args.reason, Utc::now()).await?;
    writeln!(
        out,
        "merged {} into {}: {} jobs moved ({moving} open), {} earlier aliases re-pointed; \
         /companies/{} now answers 301",
        alias.as_str(),
        into.as_str(),
        done.jobs_moved,
        done.aliases_repointed,
        alias.as_str()
    )?;
    Ok(())
}

/// Lists the merged slugs.
pub async fn aliases(store: Arc<dyn Store>, out: &mut impl Write) -> anyhow::Result<()> {
    let aliases = Catalogue::new(store).company_aliases().await?;
    if aliases.is_empty() {
        writeln!(out, "No merged company slugs.")?;
    }
    for a in &aliases {
        writeln!(
            out,
            "{} → {} ({}, {})",
            a.alias.as_str(),
            a.canonical.as_str(),
            a.reason.as_str(),
            a.created_at.format("%Y-%m-%d")
        )?;
    }
    Ok(())
}
