//! The bundled board catalogue and the seed that imports it (`freehire boards seed`, the first
//! start of `cargo xtask run`).
//!
//! [`BUNDLED`] is about 14,600 real board URLs on eight ATS platforms, one `name,url` CSV per
//! platform under `crates/app/catalogue/boards/` (collected by the stapply-ai/ats-scrapers
//! project, MIT, licence and attribution beside the files), compiled into the binary. [`seed`]
//! reads every row through board recognition (the path of `boards add`), folds duplicates by
//! board identity, skips the boards already present and adds the rest in batches of
//! [`BATCH`] boards, one store transaction each ([`freehire_store::BoardRepo::add_boards`]). A
//! row recognition refuses (some SmartRecruiters rows are postings of a board already
//! listed) is counted and reported, never fatal. Seeding twice adds nothing.
//! Seeded boards are `pending`: crawled, and activated by their first successful crawl.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use freehire_domain::{BoardStatus, NewBoard};
use freehire_store::{BoardFilter, Store};

use crate::AppError;

/// One catalogue file: `name,url` rows of one platform (or of the demo).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatalogueFile {
    /// What the report calls it (the platform: `ashby`, `workday`, …).
    pub name: &'static str,
    /// The CSV text.
    pub csv: &'static str,
}

macro_rules! bundled {
    ($($name:literal),* $(,)?) => {
        &[$(CatalogueFile {
            name: $name,
            csv: include_str!(concat!("../catalogue/boards/", $name, ".csv")),
        }),*]
    };
}

/// The bundled catalogue, one file per platform.
pub const BUNDLED: &[CatalogueFile] = bundled![
    "ashby",
    "gem",
    "greenhouse",
    "lever",
    "rippling",
    "smartrecruiters",
    "workable",
    "workday",
];

/// Boards per store call (one transaction each).
pub const BATCH: usize = 1000;

/// What a seed did with one catalogue file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileCounts {
    /// Boards created.
    pub added: u64,
    /// Rows naming a board already present (stored before, or an earlier row of the catalogue).
    pub existing: u64,
    /// Rows recognition refused.
    pub refused: u64,
}

/// A refused row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The catalogue file.
    pub file: &'static str,
    /// Why, naming the line and the URL.
    pub reason: String,
}

/// What a seed did, per file (in catalogue order) and in total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeedReport {
    /// Each file's counts, in catalogue order.
    pub files: Vec<(&'static str, FileCounts)>,
    /// Every refused row, in catalogue order.
    pub refused: Vec<Refusal>,
}

impl SeedReport {
    /// The counts over every file.
    pub fn total(&self) -> FileCounts {
        self.files.iter().fold(FileCounts::default(), |t, (_, c)| FileCounts {
            added: t.added + c.added,
            existing: t.existing + c.existing,
            refused: t.refused + c.refused,
        })
    }
}

/// Seeds the boards of `files` as `status` boards at `at`: recognised, folded by identity,
/// the present ones skipped, the rest added in batches. Only a store failure is an error.
pub async fn seed(
    store: &dyn Store,
    files: &[CatalogueFile],
    status: BoardStatus,
    at: DateTime<Utc>,
) -> Result<SeedReport, AppError> {
    let live = store
        .list_boards(&BoardFilter {
            provider: None,
            statuses: vec![BoardStatus::Pending, BoardStatus::Active],
        })
        .await?;
    let mut seen: HashSet<_> =
        live.iter().map(|b| freehire_ingest::board_identity(&b.key)).collect();
    let mut report = SeedReport::default();
    // The file each new board comes from, by identity.
    let mut origin = HashMap::new();
    let mut new = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let mut counts = FileCounts::default();
        for row in freehire_ingest::parse_catalogue_csv(file.csv) {
            match row {
                Err(e) => {
                    counts.refused += 1;
                    report.refused.push(Refusal { file: file.name, reason: e.to_string() });
                }
                Ok(row) => {
                    let identity = freehire_ingest::board_identity(&row.key);
                    if !seen.insert(identity.clone()) {
                        counts.existing += 1;
                        continue;
                    }
                    origin.insert(identity, i);
                    new.push(NewBoard {
                        key: row.key,
                        company: row.company,
                        url: Some(row.url),
                        status,
                    });
                }
            }
        }
        report.files.push((file.name, counts));
    }
    let mut added = vec![0u64; files.len()];
    for batch in new.chunks(BATCH) {
        for board in store.add_boards(batch, at).await? {
            if let Some(&i) = origin.get(&freehire_ingest::board_identity(&board.key)) {
                added[i] += 1;
            }
        }
    }
    // A board of `new` the store did not create was added meanwhile by another writer.
    let mut wanted = vec![0u64; files.len()];
    for i in origin.values() {
        wanted[*i] += 1;
    }
    for (i, (_, counts)) in report.files.iter_mut().enumerate() {
        counts.added = added[i];
        counts.existing += wanted[i].saturating_sub(added[i]);
    }
    Ok(report)
}

/// [`seed`] when the store has no boards at all, of any status (the first start of a fresh
/// installation); `None` when it has some.
pub async fn seed_if_empty(
    store: &dyn Store,
    files: &[CatalogueFile],
    status: BoardStatus,
    at: DateTime<Utc>,
) -> Result<Option<SeedReport>, AppError> {
    if !store.list_boards(&BoardFilter::default()).await?.is_empty() {
        return Ok(None);
    }
    Ok(Some(seed(store, files, status, at).await?))
}
