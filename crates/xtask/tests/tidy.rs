//! The tidy test: the checks that keep the docs from going stale silently. Run by
//! `cargo test --workspace` (and `cargo test -p freehire-xtask`), over the workspace this
//! crate sits in.
//!
//! - every workspace crate has a heading naming it (`` `package-name` ``) in
//!   `docs/ARCHITECTURE.md`;
//! - the layer table of `docs/ARCHITECTURE.md` (`| crate | layer | may depend on |`) lists
//!   exactly each crate's `[dependencies]` on workspace crates (dev-dependencies excluded), and
//!   every such dependency has a lower layer;
//! - every `.rs` file under a crate's `src`, `tests`, `benches` or `examples` opens with `//!`
//!   (after blank lines and `#![…]` attributes);
//! - every `#### Scenario: <name>` of `openspec/specs/*/spec.md` is named by a test through a
//!   line `// scenario: <name>`, every such mark names a scenario, and no two scenarios share
//!   a name (a mark could not say which one it proves).
//!
//! Each check is its own test and lists every offender, not just the first.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item};

/// The architecture document, relative to the workspace root.
const ARCHITECTURE: &str = "docs/ARCHITECTURE.md";
/// The header of the layer table in [`ARCHITECTURE`].
const LAYER_HEADER: [&str; 3] = ["crate", "layer", "may depend on"];
/// Where the source files of a crate live, relative to its directory.
const SOURCE_DIRS: [&str; 4] = ["src", "tests", "benches", "examples"];
/// The heading prefix of a scenario in a spec.
const SCENARIO: &str = "#### Scenario:";
/// The comment that names a scenario a test proves.
const MARK: &str = "// scenario:";

/// One workspace member.
#[derive(Debug)]
struct Crate {
    /// The package name (`freehire-store`).
    name: String,
    /// Its directory, relative to the workspace root (`crates/store`).
    dir: PathBuf,
    /// Package names of the workspace crates in its `[dependencies]`.
    deps: BTreeSet<String>,
}

/// A name → where it occurs (`path` or `path:line`, relative to the root).
type Places = BTreeMap<String, Vec<String>>;

/// One row of the layer table.
#[derive(Debug)]
struct LayerRow {
    layer: Option<u32>,
    deps: BTreeSet<String>,
}

fn root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.ancestors().nth(2).expect("crates/xtask sits two levels below the root").into()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn manifest(path: &Path) -> DocumentMut {
    read(path).parse().unwrap_or_else(|e| panic!("{} is not TOML: {e}", path.display()))
}

fn strings(item: &Item) -> Vec<String> {
    let values = item.as_array().into_iter().flatten();
    values.filter_map(|v| v.as_str()).map(str::to_owned).collect()
}

/// The member directories of the root manifest, `dir/*` globs expanded, `exclude` removed.
fn member_dirs(root: &Path) -> Vec<PathBuf> {
    let doc = manifest(&root.join("Cargo.toml"));
    let exclude: BTreeSet<PathBuf> =
        strings(&doc["workspace"]["exclude"]).into_iter().map(PathBuf::from).collect();
    let mut dirs = Vec::new();
    for member in strings(&doc["workspace"]["members"]) {
        match member.strip_suffix("/*") {
            Some(parent) => {
                let entries = fs::read_dir(root.join(parent)).expect("member glob names a folder");
                for entry in entries {
                    let path = entry.expect("readable folder entry").path();
                    if path.join("Cargo.toml").is_file() {
                        dirs.push(Path::new(parent).join(path.file_name().expect("named entry")));
                    }
                }
            }
            None => dirs.push(PathBuf::from(member)),
        }
    }
    dirs.retain(|dir| !exclude.contains(dir));
    dirs.sort();
    dirs
}

/// The package names a dependency table names (a `package = "…"` rename counts by package).
fn dependency_names(table: &Item) -> Vec<String> {
    let Some(table) = table.as_table_like() else { return Vec::new() };
    let package = |item: &Item| {
        item.as_table_like().and_then(|t| t.get("package")).and_then(Item::as_str).map(Into::into)
    };
    table.iter().map(|(key, item)| package(item).unwrap_or_else(|| key.to_owned())).collect()
}

fn workspace_crates(root: &Path) -> Vec<Crate> {
    let members: Vec<(PathBuf, DocumentMut)> = member_dirs(root)
        .into_iter()
        .map(|d| (d.clone(), manifest(&root.join(d).join("Cargo.toml"))))
        .collect();
    let names: BTreeSet<String> = members
        .iter()
        .map(|(dir, doc)| {
            let name = doc["package"]["name"].as_str();
            name.unwrap_or_else(|| panic!("{} has no package name", dir.display())).to_owned()
        })
        .collect();
    members
        .into_iter()
        .map(|(dir, doc)| {
            let mut deps = dependency_names(&doc["dependencies"]);
            if let Some(targets) = doc.get("target").and_then(Item::as_table_like) {
                for (_, target) in targets.iter() {
                    deps.extend(dependency_names(&target["dependencies"]));
                }
            }
            Crate {
                name: doc["package"]["name"].as_str().unwrap_or_default().to_owned(),
                dir,
                deps: deps.into_iter().filter(|d| names.contains(d)).collect(),
            }
        })
        .collect()
}

/// Every `.rs` file under `dir`, recursively, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> =
        entries.map(|e| e.expect("readable folder entry").path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The source files of every workspace crate, relative to the root.
fn source_files(root: &Path, crates: &[Crate]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for krate in crates {
        for dir in SOURCE_DIRS {
            rust_files(&root.join(&krate.dir).join(dir), &mut files);
        }
    }
    files.into_iter().map(|f| f.strip_prefix(root).expect("under the root").into()).collect()
}

fn table_cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    Some(inner.split('|').map(|c| c.trim().trim_matches('`').trim().to_owned()).collect())
}

/// The layer table: crate → row, or why it cannot be read.
fn layer_table(doc: &str) -> Result<BTreeMap<String, LayerRow>, Vec<String>> {
    let mut lines = doc.lines();
    let is_header = |line: &str| table_cells(line).is_some_and(|cells| cells == LAYER_HEADER);
    if !lines.by_ref().any(is_header) {
        return Err(vec![format!("no table with the header | {} |", LAYER_HEADER.join(" | "))]);
    }
    lines.next(); // the |---| separator
    let (mut rows, mut problems) = (BTreeMap::new(), Vec::new());
    for cells in lines.map_while(table_cells) {
        let [name, layer, deps] = &cells[..] else {
            problems.push(format!("row {cells:?} does not have 3 cells"));
            continue;
        };
        let deps = deps.split(',').map(|d| d.trim().trim_matches('`').trim());
        let deps = deps.filter(|d| !d.is_empty() && *d != "—" && *d != "-").map(Into::into);
        let row = LayerRow { layer: layer.parse().ok(), deps: deps.collect() };
        if row.layer.is_none() {
            problems.push(format!("{name}: layer {layer:?} is not a number"));
        }
        if rows.insert(name.clone(), row).is_some() {
            problems.push(format!("{name}: listed twice"));
        }
    }
    if problems.is_empty() { Ok(rows) } else { Err(problems) }
}

fn join(names: &BTreeSet<String>) -> String {
    names.iter().map(String::as_str).collect::<Vec<_>>().join(", ")
}

/// What is wrong with the layer table against the crates' manifests.
fn layer_offenders(crates: &[Crate], doc: &str) -> Vec<String> {
    let table = match layer_table(doc) {
        Ok(table) => table,
        Err(problems) => return problems,
    };
    let mut offenders = Vec::new();
    for krate in crates {
        let Some(row) = table.get(&krate.name) else {
            offenders.push(format!("{}: no row", krate.name));
            continue;
        };
        let missing: BTreeSet<_> = krate.deps.difference(&row.deps).cloned().collect();
        let extra: BTreeSet<_> = row.deps.difference(&krate.deps).cloned().collect();
        if !missing.is_empty() {
            offenders.push(format!(
                "{}: depends on {} (not in the table)",
                krate.name,
                join(&missing)
            ));
        }
        if !extra.is_empty() {
            offenders.push(format!(
                "{}: the table names {} (not a dependency)",
                krate.name,
                join(&extra)
            ));
        }
        for dep in &krate.deps {
            let dep_layer = table.get(dep).and_then(|r| r.layer);
            if let (Some(own), Some(theirs)) = (row.layer, dep_layer)
                && theirs >= own
            {
                offenders.push(format!(
                    "{} (layer {own}) depends on {dep} (layer {theirs})",
                    krate.name
                ));
            }
        }
    }
    let known: BTreeSet<&str> = crates.iter().map(|c| c.name.as_str()).collect();
    let strays = table.keys().filter(|name| !known.contains(name.as_str()));
    offenders.extend(strays.map(|name| format!("{name}: a row for no workspace crate")));
    offenders
}

/// Crates without a heading naming them in backticks.
fn heading_offenders(crates: &[Crate], doc: &str) -> Vec<String> {
    let headings: Vec<&str> = doc.lines().filter(|l| l.starts_with('#')).collect();
    let named = |name: &str| headings.iter().any(|h| h.contains(&format!("`{name}`")));
    crates
        .iter()
        .filter(|c| !named(&c.name))
        .map(|c| format!("{} ({})", c.name, c.dir.display()))
        .collect()
}

/// Whether a source text opens with `//!`, after blank lines and `#![…]` attributes.
fn opens_with_module_doc(text: &str) -> bool {
    let mut in_attribute = false;
    for line in text.lines().map(str::trim) {
        if in_attribute || line.starts_with("#![") {
            in_attribute = !line.ends_with(']');
        } else if !line.is_empty() {
            return line.starts_with("//!");
        }
    }
    false
}

/// Every scenario of one spec text: its line number and name.
fn scenarios(spec: &str) -> Vec<(usize, String)> {
    let names = spec
        .lines()
        .enumerate()
        .filter_map(|(i, l)| Some((i + 1, l.trim().strip_prefix(SCENARIO)?)));
    names.map(|(line, name)| (line, name.trim().to_owned())).collect()
}

/// Every scenario a source text marks.
fn marks(source: &str) -> Vec<String> {
    let names = source.lines().filter_map(|l| l.trim().strip_prefix(MARK));
    names.map(|name| name.trim().to_owned()).collect()
}

/// Scenario name → where the specs hold it (`path:line`, relative to the root).
fn all_scenarios(root: &Path) -> Places {
    let mut all = Places::new();
    let mut specs: Vec<PathBuf> = fs::read_dir(root.join("openspec/specs"))
        .expect("openspec/specs exists")
        .map(|e| e.expect("readable folder entry").path().join("spec.md"))
        .filter(|p| p.is_file())
        .collect();
    specs.sort();
    for spec in specs {
        let shown = spec.strip_prefix(root).expect("under the root").display().to_string();
        for (line, name) in scenarios(&read(&spec)) {
            all.entry(name).or_default().push(format!("{shown}:{line}"));
        }
    }
    all
}

/// Scenario name → the files that mark it, relative to the root.
fn all_marks(root: &Path) -> Places {
    let mut all = Places::new();
    for file in source_files(root, &workspace_crates(root)) {
        for name in marks(&read(&root.join(&file))) {
            all.entry(name).or_default().push(file.display().to_string());
        }
    }
    all
}

fn assert_none(what: &str, offenders: &[String]) {
    assert!(offenders.is_empty(), "{} {what}:\n  {}", offenders.len(), offenders.join("\n  "));
}

#[test]
fn every_crate_has_its_heading_in_the_architecture_doc() {
    let root = root();
    let offenders = heading_offenders(&workspace_crates(&root), &read(&root.join(ARCHITECTURE)));
    assert_none(
        &format!("crates have no heading naming them (`name`) in {ARCHITECTURE}"),
        &offenders,
    );
}

#[test]
fn the_layer_table_matches_the_manifests() {
    let root = root();
    let offenders = layer_offenders(&workspace_crates(&root), &read(&root.join(ARCHITECTURE)));
    assert_none(&format!("problems in the layer table of {ARCHITECTURE}"), &offenders);
}

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let root = root();
    let files = source_files(&root, &workspace_crates(&root));
    let offenders: Vec<String> = files
        .iter()
        .filter(|file| !opens_with_module_doc(&read(&root.join(file))))
        .map(|file| file.display().to_string())
        .collect();
    assert_none("files do not open with `//!`", &offenders);
}

/// The names (with where they are) that `keep` selects, as offender lines.
fn named(places: Places, keep: impl Fn(&str, &[String]) -> bool) -> Vec<String> {
    let kept = places.into_iter().filter(|(name, at)| keep(name, at));
    kept.map(|(name, at)| format!("{name} ({})", at.join(", "))).collect()
}

#[test]
fn every_scenario_is_named_by_a_test() {
    let root = root();
    let marked = all_marks(&root);
    let offenders = named(all_scenarios(&root), |name, _| !marked.contains_key(name));
    assert_none(&format!("scenarios no test marks with `{MARK} <name>`"), &offenders);
}

#[test]
fn every_scenario_mark_names_a_scenario() {
    let root = root();
    let known = all_scenarios(&root);
    let offenders = named(all_marks(&root), |name, _| !known.contains_key(name));
    assert_none("marks name no `#### Scenario:` in openspec/specs/*/spec.md", &offenders);
}

#[test]
fn every_scenario_name_is_unique() {
    let offenders = named(all_scenarios(&root()), |_, specs| specs.len() > 1);
    assert_none("scenario names are used twice (a mark could not say which it proves)", &offenders);
}

// The checks themselves, on small inputs: each can fail, and says why.

fn krate(name: &str, deps: &[&str]) -> Crate {
    let deps = deps.iter().map(|d| (*d).to_owned()).collect();
    Crate { name: name.into(), dir: PathBuf::from("crates").join(name), deps }
}

const DOC: &str = "# Architecture\n\n### `low` (crates/low)\n\n## Layers\n\n\
| crate | layer | may depend on |\n|---|---|---|\n| `low` | 0 | — |\n| `high` | 1 | `low` |\n\nAfter.\n";

#[test]
fn the_layer_check_names_every_offender() {
    assert_none(
        "in a matching table",
        &layer_offenders(&[krate("low", &[]), krate("high", &["low"])], DOC),
    );
    let crates = [krate("low", &["high"]), krate("high", &[]), krate("new", &[])];
    assert_eq!(
        layer_offenders(&crates, DOC),
        [
            "low: depends on high (not in the table)",
            "low (layer 0) depends on high (layer 1)",
            "high: the table names low (not a dependency)",
            "new: no row",
        ]
    );
    assert_eq!(
        layer_offenders(&crates[..1], "no table"),
        ["no table with the header | crate | layer | may depend on |"]
    );
    let unreadable = DOC.replace("| `high` | 1 |", "| `high` | x |");
    assert_eq!(layer_offenders(&crates, &unreadable), [r#"high: layer "x" is not a number"#]);
    assert_eq!(layer_offenders(&[krate("low", &[])], DOC), ["high: a row for no workspace crate"]);
}

#[test]
fn the_heading_check_names_every_offender() {
    let crates = [krate("low", &[]), krate("high", &[]), krate("new", &[])];
    assert_eq!(heading_offenders(&crates, DOC), ["high (crates/high)", "new (crates/new)"]);
}

#[test]
fn a_module_doc_may_follow_blank_lines_and_inner_attributes() {
    assert!(opens_with_module_doc("\n//! Docs.\nfn f() {}\n"));
    assert!(opens_with_module_doc(
        "#![forbid(unsafe_code)]\n#![cfg_attr(\n  test,\n  allow(x)\n)]\n//! Docs.\n"
    ));
    assert!(!opens_with_module_doc("/// Item docs.\nfn f() {}\n"));
    assert!(!opens_with_module_doc("use std::fs;\n//! Too late.\n"));
    assert!(!opens_with_module_doc(""));
}

#[test]
fn scenarios_and_marks_are_read_trimmed() {
    let spec =
        "### Requirement: R\n#### Scenario: A job is found \n- **WHEN** …\n#### Scenario:B\n";
    assert_eq!(scenarios(spec), [(2, "A job is found".to_owned()), (4, "B".to_owned())]);
    let source =
        "    // scenario: A job is found\n#[test]\nfn found() {}\n// scenarios: not a mark\n";
    assert_eq!(marks(source), ["A job is found"]);
}
