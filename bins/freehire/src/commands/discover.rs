//! The catalogue from a server, as the reference's client reads it: `freehire facets`,
//! `freehire market-fit`, `freehire job` and `freehire company` (keyless, or with the key
//! when one is set or stored). Each prints lines for a person or, with `--json`, the API's
//! JSON as it came.

use std::io::Write;

use clap::Args;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use serde_json::Value;

use super::filters::FilterArgs;
use super::remote::Remote;

/// How many values `freehire facets` prints per facet by default.
const TOP_VALUES: usize = 10;

/// `freehire facets [filters] [--only a,b] [--top N] [--json]`
#[derive(Debug, Args)]
pub struct FacetsCommand {
    /// Words the jobs must match.
    words: Vec<String>,
    #[command(flatten)]
    filters: FilterArgs,
    /// Count only these facets (comma-separated: `skills,countries`; `company_slug` counts
    /// the companies, which are not counted otherwise).
    #[arg(long, value_name = "FACETS")]
    only: Option<String>,
    /// Values shown per facet, most frequent first.
    #[arg(long, default_value_t = TOP_VALUES)]
    top: usize,
    /// Print the API's JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    remote: Remote,
}

/// `freehire market-fit SKILL… [filters] [--json]`
#[derive(Debug, Args)]
pub struct MarketFitCommand {
    /// The skills to measure (`rust go kubernetes`; 1 to 20 slugs). They are measured, not
    /// a filter (`--skills` narrows the jobs first, like the other filters).
    #[arg(required = true, value_name = "SKILL")]
    measure: Vec<String>,
    #[command(flatten)]
    filters: FilterArgs,
    /// Print the API's JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    remote: Remote,
}

/// `freehire job SLUG [--json]`
#[derive(Debug, Args)]
pub struct JobCommand {
    /// The job's public slug (as in its address).
    slug: String,
    /// Print the API's JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    remote: Remote,
}

/// `freehire company SLUG [--json]`
#[derive(Debug, Args)]
pub struct CompanyCommand {
    /// The company's slug (`company_slug` of its jobs).
    slug: String,
    /// Print the API's JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    remote: Remote,
}

/// `freehire companies [NAME…] [--region R] [--country C] [--work-mode M] [--source P]
/// [--skill S]`
#[derive(Debug, Args)]
pub struct CompaniesCommand {
    /// Words of the company's name.
    words: Vec<String>,
    /// Companies with open jobs in this region (`eu`, `north_america`, …); repeatable.
    #[arg(long = "region", value_name = "REGION")]
    regions: Vec<String>,
    /// … in this country (ISO code: `de`); repeatable.
    #[arg(long = "country", value_name = "CODE")]
    countries: Vec<String>,
    /// … in this work mode (`remote`, `hybrid`, `onsite`); repeatable.
    #[arg(long = "work-mode", value_name = "MODE")]
    work_modes: Vec<String>,
    /// … read from this ATS platform (`greenhouse`); repeatable.
    #[arg(long = "source", value_name = "PLATFORM")]
    sources: Vec<String>,
    /// … with this skill among their top skills; repeatable.
    #[arg(long = "skill", value_name = "SKILL")]
    skills: Vec<String>,
    /// Rows (1-100).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100))]
    limit: u32,
    /// Rows to skip.
    #[arg(long, default_value_t = 0)]
    offset: u64,
    /// Print the API's JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    remote: Remote,
}

impl CompaniesCommand {
    /// The query parameters of `GET /companies`.
    fn params(&self) -> Vec<(String, String)> {
        let mut params: Vec<(String, String)> = words_param(&self.words).into_iter().collect();
        for (name, values) in [
            ("regions", &self.regions),
            ("countries", &self.countries),
            ("work_mode", &self.work_modes),
            ("source", &self.sources),
            ("skills", &self.skills),
        ] {
            params.extend(values.iter().map(|v| (name.to_owned(), v.clone())));
        }
        params.push(("limit".into(), self.limit.to_string()));
        params.push(("offset".into(), self.offset.to_string()));
        params
    }
}

/// Companies as a table: name, open jobs, countries, work modes, slug.
pub async fn companies(cmd: CompaniesCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let answer = cmd.remote.public_client()?.companies(&cmd.params()).await?;
    if cmd.json {
        return print_json(out, &answer);
    }
    let rows = answer["data"].as_array().cloned().unwrap_or_default();
    let total = answer["meta"]["total"].as_u64().unwrap_or(rows.len() as u64);
    if rows.is_empty() {
        writeln!(out, "No companies on this page ({total} match).")?;
        return Ok(());
    }
    let list = |c: &Value, field: &str, n: usize| -> String {
        let values: Vec<&str> =
            c[field].as_array().into_iter().flatten().filter_map(Value::as_str).take(n).collect();
        values.join(", ")
    };
    let mut table = Table::new();
    table
        .load_style(UTF8_BORDERS_ONLY)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(160)
        .set_header(["COMPANY", "JOBS", "COUNTRIES", "MODES", "SLUG"]);
    for c in &rows {
        table.add_row([
            text(c, "name").to_owned(),
            c["job_count"].to_string(),
            list(c, "countries", 5),
            list(c, "work_modes", 3),
            text(c, "slug").to_owned(),
        ]);
    }
    writeln!(out, "{table}")?;
    writeln!(out, "{}-{} of {total} companies", cmd.offset + 1, cmd.offset + rows.len() as u64)?;
    Ok(())
}

fn words_param(words: &[String]) -> Option<(String, String)> {
    let text = words.join(" ");
    (!text.trim().is_empty()).then(|| ("q".to_owned(), text))
}

fn print_json(out: &mut impl Write, value: &Value) -> anyhow::Result<()> {
    writeln!(out, "{}", serde_json::to_string_pretty(value)?)?;
    Ok(())
}

fn text<'a>(value: &'a Value, field: &str) -> &'a str {
    value[field].as_str().unwrap_or_default()
}

/// Runs `freehire facets`.
pub async fn facets(cmd: FacetsCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let mut params: Vec<(String, String)> = words_param(&cmd.words).into_iter().collect();
    params.extend(cmd.filters.params());
    if let Some(only) = &cmd.only {
        params.push(("facets".to_owned(), only.clone()));
    }
    let answer = cmd.remote.public_client()?.facets(&params).await?;
    if cmd.json {
        return print_json(out, &answer);
    }
    write!(out, "{}", render_facets(&answer["data"], cmd.top))?;
    write!(out, "{}", render_ignored(&answer["meta"]))?;
    Ok(())
}

/// Runs `freehire market-fit`.
pub async fn market_fit(cmd: MarketFitCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let params = cmd.filters.params();
    let answer = cmd.remote.public_client()?.market_coverage(&params, &cmd.measure).await?;
    if cmd.json {
        return print_json(out, &answer);
    }
    let d = &answer["data"];
    writeln!(
        out,
        "{} of {} matching jobs ({}%) list at least one of: {}",
        d["covered"],
        d["total"],
        d["coverage_percent"],
        cmd.measure.join(", ")
    )?;
    let mut table = Table::new();
    table.load_style(UTF8_BORDERS_ONLY).set_content_arrangement(ContentArrangement::Dynamic);
    table.set_header(["SKILL", "JOBS", "SHARE"]);
    for s in d["skills"].as_array().into_iter().flatten() {
        table.add_row([
            text(s, "skill").to_owned(),
            s["vacancies"].to_string(),
            format!("{}%", s["percent"]),
        ]);
    }
    writeln!(out, "{table}")?;
    let gaps: Vec<&str> =
        d["gaps"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    if !gaps.is_empty() {
        writeln!(out, "gaps (under 2% of the jobs): {}", gaps.join(", "))?;
    }
    let top: Vec<String> = d["top_skills"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            let mark = if t["measured"] == true { "*" } else { "" };
            format!("{}{mark} {}", text(t, "skill"), t["vacancies"])
        })
        .collect();
    if !top.is_empty() {
        writeln!(out, "most listed (* yours): {}", top.join(" · "))?;
    }
    Ok(())
}

/// Runs `freehire job`.
pub async fn job(cmd: JobCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let answer = cmd.remote.public_client()?.job(&cmd.slug).await?;
    if cmd.json {
        return print_json(out, &answer);
    }
    let j = &answer["data"];
    writeln!(out, "{} at {}", text(j, "title"), text(j, "company"))?;
    writeln!(out, "{}", text(j, "location"))?;
    let facts: Vec<String> = ["work_mode", "seniority", "category", "employment_type"]
        .iter()
        .filter_map(|f| j[*f].as_str().map(str::to_owned))
        .collect();
    if !facts.is_empty() {
        writeln!(out, "{}", facts.join(" · "))?;
    }
    let skills: Vec<&str> =
        j["skills"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    if !skills.is_empty() {
        writeln!(out, "skills: {}", skills.join(", "))?;
    }
    if let Some(closed) = j["closed_at"].as_str() {
        writeln!(out, "closed {}", &closed[..closed.len().min(10)])?;
    }
    writeln!(out, "posted {}", &text(j, "posted_at")[..text(j, "posted_at").len().min(10)])?;
    writeln!(out, "apply: {}", text(j, "url"))?;
    writeln!(out, "slug: {}", text(j, "public_slug"))?;
    Ok(())
}

/// Runs `freehire company`.
pub async fn company(cmd: CompanyCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let answer = cmd.remote.public_client()?.company(&cmd.slug).await?;
    if cmd.json {
        return print_json(out, &answer);
    }
    let c = &answer["data"]["company"];
    writeln!(out, "{} ({} open jobs)", text(c, "name"), c["job_count"])?;
    for (label, field) in
        [("countries", "countries"), ("work modes", "work_modes"), ("top skills", "top_skills")]
    {
        let values: Vec<&str> =
            c[field].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if !values.is_empty() {
            writeln!(out, "{label}: {}", values.join(", "))?;
        }
    }
    let jobs = serde_json::json!({ "data": answer["data"]["jobs"].clone(), "meta": answer["meta"].clone() });
    write!(out, "{}", render_jobs(&jobs))?;
    Ok(())
}

/// Jobs (`{data: [job…], meta: {total, offset}}`) as an aligned table with the page and total,
/// then the parameters the server ignored.
pub fn render_jobs(answer: &Value) -> String {
    let jobs = answer["data"].as_array().cloned().unwrap_or_default();
    let total = answer["meta"]["total"].as_u64().unwrap_or(jobs.len() as u64);
    let mut out = String::new();
    if jobs.is_empty() {
        out.push_str(&format!("No jobs on this page ({total} match).\n"));
    } else {
        let mut table = Table::new();
        table
            .load_style(UTF8_BORDERS_ONLY)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(160)
            .set_header(["TITLE", "COMPANY", "LOCATION", "MODE", "POSTED", "SLUG"]);
        for j in &jobs {
            let posted = text(j, "posted_at");
            table.add_row([
                text(j, "title"),
                text(j, "company"),
                text(j, "location"),
                text(j, "work_mode"),
                &posted[..posted.len().min(10)],
                text(j, "public_slug"),
            ]);
        }
        out.push_str(&format!("{table}\n"));
        let offset = answer["meta"]["offset"].as_u64().unwrap_or(0);
        out.push_str(&format!("{}-{} of {total} jobs\n", offset + 1, offset + jobs.len() as u64));
    }
    out.push_str(&render_ignored(&answer["meta"]));
    out
}

/// The `ignored_params` of a `meta`, one line each.
pub fn render_ignored(meta: &Value) -> String {
    let mut out = String::new();
    for ignored in meta["ignored_params"].as_array().into_iter().flatten() {
        match ignored["did_you_mean"].as_str() {
            Some(hint) => out
                .push_str(&format!("ignored: {} (did you mean {hint}?)\n", text(ignored, "param"))),
            None => out.push_str(&format!("ignored: {}\n", text(ignored, "param"))),
        }
    }
    out
}

/// A facets answer's `data` (`{total, facets: {facet: {value: count}}}`): each facet's `top`
/// most frequent values, aligned.
pub fn render_facets(data: &Value, top: usize) -> String {
    let mut out = format!("\nFacets over {} matching jobs:\n", data["total"]);
    let mut shown: Vec<(String, String)> = Vec::new();
    for (facet, values) in data["facets"].as_object().into_iter().flatten() {
        let mut counted: Vec<(&String, u64)> = values
            .as_object()
            .into_iter()
            .flatten()
            .map(|(v, n)| (v, n.as_u64().unwrap_or(0)))
            .collect();
        if counted.is_empty() {
            continue;
        }
        counted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        let mut line: Vec<String> =
            counted.iter().take(top).map(|(v, n)| format!("{v} {n}")).collect();
        if counted.len() > top {
            line.push(format!("… {} more", counted.len() - top));
        }
        shown.push((facet.clone(), line.join(" · ")));
    }
    let width = shown.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    for (name, line) in shown {
        out.push_str(&format!("  {name:<width$}  {line}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn jobs_render_with_the_page_and_the_ignored_parameters() {
        let answer = json!({"data": [{"title": "Rust Engineer", "company": "Acme", "location": "Berlin",
            "work_mode": "remote", "posted_at": "2026-11-09T10:00:00Z", "public_slug": "rust-engineer-acme-aaaaaaa1"}],
            "meta": {"total": 57, "offset": 20, "ignored_params": [{"param": "country", "did_you_mean": "countries"}]}});
        let text = render_jobs(&answer);
        assert!(text.contains("Rust Engineer") && text.contains("2026-11-09"), "{text}");
        assert!(text.contains("21-21 of 57 jobs"), "{text}");
        assert!(text.contains("ignored: country (did you mean countries?)"), "{text}");
    }

    #[test]
    fn facets_render_most_frequent_first() {
        let data =
            json!({"total": 7, "facets": {"work_mode": {"hybrid": 2, "remote": 5}, "domains": {}}});
        let text = render_facets(&data, 1);
        assert!(text.contains("Facets over 7 matching jobs:"), "{text}");
        assert!(text.contains("  work_mode  remote 5 · … 1 more\n"), "{text}");
        assert!(!text.contains("domains"), "{text}");
    }
}
