//! `freehire search`: the search index from the terminal, on the same grammar as
//! `GET /api/v1/jobs/search` (the flags become its query parameters; see
//! `freehire_app::search`).

use std::{io::Write, sync::Arc};

use chrono::Utc;
use clap::Args;
use freehire_api::view::{FacetsData, SearchHit, SearchMeta};
use freehire_app::search::{Found, SearchArgs};
use freehire_app::search_engine::{self, Access, SearchEngineArgs, SearchEngineConfig};
use freehire_search::SearchIndex;

use super::filters::FilterArgs;
use super::remote::Remote;
use serde::Serialize;

/// How many values `--facets` prints per facet.
const TOP_VALUES: usize = 8;

/// `freehire search [WORDS…] [filters] [--facets] [--limit N] [--json] [--local]`
#[derive(Debug, Args)]
pub struct SearchCommand {
    /// Words to find in the title, company, description or location (all must match).
    words: Vec<String>,
    #[command(flatten)]
    filters: FilterArgs,
    /// Also count the values of every facet over all matches.
    #[arg(long)]
    facets: bool,
    /// Hits to show (clamped to 1-100, default 20).
    #[arg(long)]
    limit: Option<u32>,
    /// Hits to skip.
    #[arg(long)]
    offset: Option<u32>,
    /// Print the API's JSON (agent search's `{data, meta}`, each hit the full job with its
    /// description as Markdown; `--local`: `/api/v1/jobs/search`'s hits), plus `facets` as
    /// `/api/v1/jobs/facets` answers with `--facets`.
    #[arg(long)]
    json: bool,
    /// Search the index on this machine directly (the worker's, FREEHIRE_INDEX_DIR or
    /// Meilisearch) instead of a server.
    #[arg(long)]
    local: bool,
    /// The search index, with `--local` (the same options as the API's).
    #[command(flatten)]
    search: SearchEngineArgs,
    /// The server, without `--local`.
    #[command(flatten)]
    remote: Remote,
}

impl SearchCommand {
    fn args(&self) -> SearchArgs {
        let text = self.words.join(" ");
        SearchArgs {
            text: (!text.trim().is_empty()).then_some(text),
            filters: self.filters.filters(),
            extra: self.filters.extra(),
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

/// Runs the search (on the server, or `--local` on the index) and prints it to `out`.
pub async fn run(cmd: SearchCommand, out: &mut impl Write) -> anyhow::Result<()> {
    if !cmd.local {
        return remote(&cmd, out).await;
    }
    let index = open_index(&cmd.search).await?;
    let found = freehire_app::search::search(index.as_ref(), &cmd.args(), Utc::now()).await?;
    if cmd.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&json(&found))?)?;
    } else {
        write!(out, "{}", render(&found))?;
    }
    Ok(())
}

/// The search through the server's agent search (and its facets with `--facets`).
async fn remote(cmd: &SearchCommand, out: &mut impl Write) -> anyhow::Result<()> {
    let client = cmd.remote.public_client()?;
    let mut params = cmd.args().params();
    params.retain(|(name, _)| name != "facets");
    let mut answer = client.search(&params).await?;
    if cmd.facets {
        let counted: Vec<(String, String)> =
            params.iter().filter(|(k, _)| k != "limit" && k != "offset").cloned().collect();
        let facets = client.facets(&counted).await?;
        answer["facets"] = facets["data"].clone();
    }
    if cmd.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    } else {
        write!(out, "{}", super::discover::render_jobs(&answer))?;
        if let Some(facets) = answer.get("facets") {
            write!(out, "{}", super::discover::render_facets(facets, TOP_VALUES))?;
        }
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

fn json(found: &Found) -> JsonAnswer {
    JsonAnswer {
        data: found.results.hits.iter().map(SearchHit::new).collect(),
        meta: SearchMeta::of(&found.query, found.results.total),
        facets: found.facets.clone().map(FacetsData::from),
    }
}

/// The hits as an aligned table with the page and total under it, the ignored parameters,
/// and with `--facets` the most frequent values of each facet: the API's answer as the remote
/// search prints it ([`super::discover::render_jobs`], [`super::discover::render_facets`]).
pub fn render(found: &Found) -> String {
    let answer = serde_json::to_value(json(found)).unwrap_or_default();
    let mut out = super::discover::render_jobs(&answer);
    if let Some(facets) = answer.get("facets") {
        out.push_str(&super::discover::render_facets(facets, TOP_VALUES));
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
        let ts = chrono::DateTime::parse_from_rfc3339(&format!("2026-11-{day:02}T10:00:00Z"))
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
}
