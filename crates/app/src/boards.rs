//! Board curation: add a board from its careers URL, import boards from a CSV file. Duplicates
//! are folded by board identity (the store's case fold plus each provider's own form fold).

use std::io::Read;

use chrono::{DateTime, Utc};
use freehire_domain::{Board, BoardHealth, BoardKey, BoardStatus, NewBoard, Provider};
use freehire_store::{AddedBoard, BoardFilter, Store};

use crate::AppError;

/// Adds the board a careers or API URL names, for `company`, with `status` (`active` for
/// curated adds). An unrecognised URL is an error, never a guess.
pub async fn add_from_url(
    store: &dyn Store,
    url: &str,
    company: &str,
    status: BoardStatus,
    at: DateTime<Utc>,
) -> Result<AddedBoard, AppError> {
    let recognized = freehire_ingest::recognize(url)?;
    let key = recognized.key()?;
    add(store, key, company, Some(recognized.canonical_url), status, at).await
}

/// Adds a board by key, folding duplicates by identity.
pub async fn add(
    store: &dyn Store,
    key: BoardKey,
    company: &str,
    url: Option<String>,
    status: BoardStatus,
    at: DateTime<Utc>,
) -> Result<AddedBoard, AppError> {
    freehire_ingest::validate_board(&key)?;
    let company = company.trim();
    if company.is_empty() {
        return Err(freehire_domain::DomainError::Invalid {
            field: "company",
            value: String::new(),
            reason: "must not be empty",
        }
        .into());
    }
    let identity = freehire_ingest::board_identity(&key);
    let live = store
        .list_boards(&BoardFilter {
            provider: Some(key.provider.clone()),
            statuses: vec![BoardStatus::Pending, BoardStatus::Active],
        })
        .await?;
    if let Some(existing) =
        live.into_iter().find(|b| freehire_ingest::board_identity(&b.key) == identity)
    {
        return Ok(AddedBoard { board: existing, created: false });
    }
    let board = NewBoard { key, company: company.to_owned(), url, status };
    Ok(store.add_board(&board, at).await?)
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Boards created.
    pub added: u64,
    /// Rows naming a board already present.
    pub existing: u64,
    /// Rows refused, each naming its line.
    pub errors: Vec<String>,
}

/// Imports a CSV with columns `provider,board,company` as `active` boards. Bad rows are
/// reported by line and skipped; good rows are added.
pub async fn import_csv(
    store: &dyn Store,
    input: impl Read,
    at: DateTime<Utc>,
) -> Result<ImportReport, AppError> {
    import_csv_with(store, input, at, &crate::progress::Silent).await
}

/// [`import_csv`], telling `progress` of the rows handled (the file is read whole first, so
/// the total is known).
pub async fn import_csv_with(
    store: &dyn Store,
    input: impl Read,
    at: DateTime<Utc>,
    progress: &dyn crate::progress::Progress,
) -> Result<ImportReport, AppError> {
    let mut report = ImportReport::default();
    let rows = freehire_ingest::parse_board_csv(input);
    let _phase = crate::progress::Phase::begin(progress, "rows", Some(rows.len() as u64));
    for row in rows {
        progress.advance(1);
        let row = match row {
            Ok(row) => row,
            Err(e) => {
                report.errors.push(e.to_string());
                continue;
            }
        };
        match add(store, row.key, &row.company, None, BoardStatus::Active, at).await {
            Ok(added) if added.created => report.added += 1,
            Ok(_) => report.existing += 1,
            Err(AppError::Store(e)) => return Err(e.into()),
            Err(e) => report.errors.push(format!("line {}: {e}", row.line)),
        }
    }
    Ok(report)
}

/// A board beside its crawl health (`None` until it is first crawled).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardWithHealth {
    /// The board.
    pub board: Board,
    /// Its health.
    pub health: Option<BoardHealth>,
}

impl BoardWithHealth {
    /// Whether it is failing since its last success.
    pub fn is_failing(&self) -> bool {
        self.health.as_ref().is_some_and(|h| h.consecutive_failures > 0)
    }
}

/// Which boards [`list_with_health`] lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardListing {
    /// Only this provider's.
    pub provider: Option<Provider>,
    /// Only boards failing since their last success.
    pub failing_only: bool,
}

/// Every board (of a provider) with its health, in the store's board order: two reads, joined
/// by board identity (health rows are keyed by the board folded to lowercase).
pub async fn list_with_health(
    store: &dyn Store,
    listing: &BoardListing,
) -> Result<Vec<BoardWithHealth>, AppError> {
    let filter = BoardFilter { provider: listing.provider.clone(), statuses: vec![] };
    let boards = store.list_boards(&filter).await?;
    let mut healths: std::collections::HashMap<(String, String, String), BoardHealth> = store
        .board_healths(listing.provider.as_ref())
        .await?
        .into_iter()
        .map(|h| {
            let key = (h.key.provider.to_string(), h.key.board.clone(), h.key.region.clone());
            (key, h)
        })
        .collect();
    let rows = boards
        .into_iter()
        .map(|board| {
            let k = &board.key;
            let identity = (k.provider.to_string(), k.board.to_ascii_lowercase(), k.region.clone());
            let health = healths.remove(&identity);
            BoardWithHealth { board, health }
        })
        .filter(|row| !listing.failing_only || row.is_failing())
        .collect();
    Ok(rows)
}
