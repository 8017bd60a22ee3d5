//! `freehire search`: the search index from the terminal, on the same grammar as
//! `GET /api/v1/jobs/search` (the flags become its query parameters; see
//! `freehire_app::search`).

use std::{io::Write, sync::Arc};

use chrono::{DateTime, Utc};
use clap::Args;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use freehire_api::view::{FacetsData, SearchHit, SearchMeta};
use freehire_app::search::{Found, SearchArgs};
use freehire_app::search_engine::{self, Access, SearchEngineArgs, SearchEngineConfig};
use freehire_search::{Facet, SearchIndex};
use serde::Serialize;

/// How many values `--facets` prints per facet.
const TOP_VALUES: usize = 8;

/// `freehire search [WORDS…] [filters] [--facets] [--limit N] [--json]`
#[derive(Debug, Args)]
pub struct SearchCommand {
    /// Words to find in the title, company, description or location (all must match).
    words: Vec<String>,
    /// Country codes (`de`, `us`); repeat or comma-join for any of them.
    #[arg(long, value_name = "CODES")]
    countries: Vec<String>,
    /// Regions (`eu`, `north_america`, `none` = no region).
    #[arg(long, value_name = "REGIONS")]
    regions: Vec<String>,
    /// Work mode: remote, hybrid or onsite.
    #[arg(long, value_name = "MODE")]
    work_mode: Vec<String>,
    /// Skills (`rust`, `go`).
    #[arg(long, value_name = "SKILLS")]
    skills: Vec<String>,
    /// Seniority (`junior`, `senior`, `staff`, …).
    #[arg(long, value_name = "GRADES")]
    seniority: Vec<String>,
    /// Any other search parameter, as over HTTP: `--param sort=salary_min`,
    /// `--param skills_exclude=php`, `--param posted_within_days=7`.
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = key_value)]
    params: Vec<(String, String)>,
    /// Also count the values of every facet over all matches.
    #[arg(long)]
    facets: bool,
    /// Hits to show (clamped to 1-100, default 20).
    #[arg(long)]
    limit: Option<u32>,
    /// Hits to skip.
    #[arg(long)]
    offset: Option<u32>,
    /// Print the API's JSON (`/api/v1/jobs/search`, plus `facets` as `/api/v1/jobs/facets`
    /// answers with `--facets`).
    #[arg(long)]
    json: bool,
    /// The search index the worker fills (the same options as the API's).
    #[command(flatten)]
    search: SearchEngineArgs,
}

fn key_value(raw: &str) -> Result<(String, String), String> {
    match raw.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.to_owned())),
        _ => Err(format!("expected KEY=VALUE, got {raw:?}")),
    }
}

impl SearchCommand {
    fn args(&self) -> SearchArgs {
        let text = self.words.join(" ");
        let filters = [
            ("countries", &self.countries),
            ("regions", &self.regions),
            ("work_mode", &self.work_mode),
            ("skills", &self.skills),
            ("seniority", &self.seniority),
        ];
        SearchArgs {
            text: (!text.trim().is_empty()).then_some(text),
            filters: filters
                .into_iter()
                .filter(|(_, values)| !values.is_empty())
                .map(|(name, values)| (name.to_owned(), values.clone()))
                .collect(),
            extra: self.params.clone(),
            limit: self.limit,
            offset: self.offset,
            facets: self.facets,
        }
    }
}

/// Opens the configured search index for reading, following the worker's commits. An
/// embedded index directory that does not exist yet is an error here (searching it would
/// create an empty index), not created.
pub async fn open_index(args: &SearchEngineArgs) -> anyhow::Result<Arc<dyn SearchIndex>> {
    let engine = args.config()?;
    if let SearchEngineConfig::Embedded { dir } = &engine {
        anyhow::ensure!(
            dir.is_dir(),
            "no search index in {}: run freehire-worker to build it, or set FREEHIRE_INDEX_DIR",
            dir.display()
        );
    }
    Ok(search_engine::open_named(&engine, Access::Read).await?)
}

/// Runs the search and prints it to `out`.
pub async fn run(cmd: SearchCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let index = open_index(&cmd.search).await?;
    let found = freehire_app::search::search(index.as_ref(), &cmd.args(), Utc::now()).await?;
    if cmd.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&json(found))?)?;
    } else {
        write!(out, "{}", render(&found))?;
    }
    Ok(())
}

/// The API's shapes: the search answer, and the facets answer's `data` under `facets`.
/// Serialised from typed values (never through `serde_json::Value`, whose maps would sort the
/// facet values by name instead of by count).
#[derive(Debug, Serialize)]
struct JsonAnswer {
    data: Vec<SearchHit>,
    meta: SearchMeta,
    #[serde(skip_serializing_if = "Option::is_none")]
    facets: Option<FacetsData>,
}

fn json(found: Found) -> JsonAnswer {
    JsonAnswer {
        data: found.results.hits.iter().map(SearchHit::new).collect(),
        meta: SearchMeta::of(&found.query, found.results.total),
        facets: found.facets.map(FacetsData::from),
    }
}

/// The hits as an aligned table with the page and total under it, the ignored parameters,
/// and with `--facets` the most frequent values of each facet.
pub fn render(found: &Found) -> String {
    let mut out = String::new();
    let hits = &found.results.hits;
    let total = found.results.total;
    if hits.is_empty() {
        out.push_str(&format!("No jobs on this page ({total} match).\n"));
    } else {
        let mut table = Table::new();
        table
            .load_style(UTF8_BORDERS_ONLY)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(160)
            .set_header(["TITLE", "COMPANY", "LOCATION", "MODE", "POSTED", "SLUG"]);
        for hit in hits {
            let posted = DateTime::<Utc>::from_timestamp(hit.posted_ts, 0)
                .map(|t| t.format("%Y-%m-%d").to_string())
                .unwrap_or_default();
            let mode = hit.values(Facet::WorkMode).first().map_or("", String::as_str);
            table.add_row([
                hit.title.as_str(),
                hit.company.as_str(),
                hit.location.as_str(),
                mode,
                &posted,
                hit.public_slug.as_str(),
            ]);
        }
        out.push_str(&format!("{table}\n"));
        let first = u64::from(found.query.page.offset) + 1;
        let last = u64::from(found.query.page.offset) + hits.len() as u64;
        out.push_str(&format!("{first}-{last} of {total} jobs\n"));
    }
    for ignored in &found.query.ignored_params {
        match &ignored.did_you_mean {
            Some(hint) => {
                out.push_str(&format!("ignored: {} (did you mean {hint}?)\n", ignored.param))
            }
            None => out.push_str(&format!("ignored: {}\n", ignored.param)),
        }
    }
    if let Some(counts) = &found.facets {
        let shown: Vec<(&str, String)> = counts
            .facets
            .iter()
            .filter(|(_, values)| !values.is_empty())
            .map(|(facet, values)| {
                let mut line: Vec<String> =
                    values.iter().take(TOP_VALUES).map(|(v, n)| format!("{v} {n}")).collect();
                if values.len() > TOP_VALUES {
                    line.push(format!("… {} more", values.len() - TOP_VALUES));
                }
                (facet.param(), line.join(" · "))
            })
            .collect();
        out.push_str(&format!("\nFacets over {} matching jobs:\n", counts.total));
        let width = shown.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
        for (name, line) in shown {
            out.push_str(&format!("  {name:<width$}  {line}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::collections::BTreeMap;

    use freehire_search::{Endpoint, Facet, FacetCounts, JobQuery, SearchDocument, SearchResults};

    use super::*;

    fn hit(title: &str, company: &str, mode: Option<&str>, day: u32) -> SearchDocument {
        let mut facets = BTreeMap::new();
        if let Some(mode) = mode {
            facets.insert("work_mode".to_owned(), vec![mode.to_owned()]);
        }
        let ts = DateTime::parse_from_rfc3339(&format!("2026-11-{day:02}T10:00:00Z"))
            .unwrap()
            .timestamp();
        SearchDocument {
            id: i64::from(day),
            public_slug: format!("{}-aaaaaaa{day}", title.to_lowercase().replace(' ', "-")),
            external_id: String::new(),
            title: title.to_owned(),
            company: company.to_owned(),
            company_slug: company.to_lowercase(),
            location: "Berlin, Germany".to_owned(),
            description: String::new(),
            url: String::new(),
            facets,
            posted_ts: ts,
            created_ts: ts,
            updated_ts: ts,
            salary_min: None,
            salary_max: None,
            experience_years_min: None,
            visa_sponsorship: None,
            view_count: 0,
        }
    }

    fn found(query: &str, hits: Vec<SearchDocument>, total: u64) -> Found {
        Found {
            query: JobQuery::from_query_str(query, Endpoint::Search).unwrap(),
            results: SearchResults { hits, total, ..SearchResults::default() },
            facets: None,
        }
    }

    #[test]
    fn hits_render_as_an_aligned_table_with_the_page() {
        let f = found(
            "q=rust&offset=20&limit=2&country=de",
            vec![
                hit("Rust Engineer", "Acme", Some("remote"), 9),
                hit("Staff Engineer", "Globex", None, 3),
            ],
            57,
        );
        let text = render(&f);
        let lines: Vec<&str> = text.lines().collect();
        let header = lines.iter().find(|l| l.contains("TITLE")).unwrap();
        let row = lines.iter().find(|l| l.contains("Rust Engineer")).unwrap();
        for (column, value) in [("COMPANY", "Acme"), ("MODE", "remote"), ("POSTED", "2026-11-09")] {
            assert_eq!(header.find(column), row.find(value), "{column} aligned:\n{text}");
        }
        assert!(row.contains("rust-engineer-aaaaaaa9"), "{text}");
        assert!(text.contains("21-22 of 57 jobs"), "{text}");
        assert!(text.contains("ignored: country (did you mean countries?)"), "{text}");
        assert!(!text.contains("Facets"), "{text}");
    }

    #[test]
    fn an_empty_page_says_how_many_match() {
        let text = render(&found("offset=100", vec![], 57));
        assert_eq!(text, "No jobs on this page (57 match).\n");
    }

    #[test]
    fn facets_list_the_top_values_aligned() {
        let mut f = found("q=rust", vec![hit("Rust Engineer", "Acme", Some("remote"), 9)], 1);
        let mut facets = BTreeMap::new();
        facets.insert(Facet::WorkMode, vec![("remote".to_owned(), 5), ("hybrid".to_owned(), 2)]);
        facets.insert(Facet::Skills, (0..10).map(|i| (format!("s{i}"), 10 - i)).collect());
        facets.insert(Facet::Domains, vec![]);
        f.facets = Some(FacetCounts { total: 7, facets, ..FacetCounts::default() });
        let text = render(&f);
        assert!(text.contains("Facets over 7 matching jobs:"), "{text}");
        assert!(text.contains("  work_mode  remote 5 · hybrid 2\n"), "{text}");
        assert!(text.contains("  skills     s0 10 · s1 9"), "{text}");
        assert!(text.contains("s7 3 · … 2 more\n"), "{text}");
        assert!(!text.contains("domains"), "empty facets are not listed: {text}");
    }

    #[test]
    fn params_need_a_key_and_a_value() {
        assert_eq!(key_value("sort=salary_min").unwrap(), ("sort".into(), "salary_min".into()));
        assert_eq!(key_value("q=a=b").unwrap(), ("q".into(), "a=b".into()));
        assert!(key_value("sort").is_err());
        assert!(key_value("=x").is_err());
    }
}
