//! The tracking CSV (beyond the reference): every application with its full history, one row
//! per event (RFC 4180, the stable [`COLUMNS`]), and the import that takes the same file back.
//!
//! Import is idempotent: each event carries `source = import` and a `source_ref` that is a
//! SHA-256 of (company slug, role title, kind, signal, occurred at), and an event already on the
//! application (the same kind, signal and time, whoever recorded it) is skipped, so importing
//! a file twice, or an account's own export, creates nothing new. An application is matched by
//! its job's slug when that job exists, else by company slug and role title, else created. A bad
//! row is reported with its line and field and does not stop the others.

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use freehire_domain::{EventKind, Stage, UserId, company_slug};
use freehire_store::{ExportRow, ImportEvent, ImportRow};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Tracking, TrackingError};

/// The columns, in order (the header row).
pub const COLUMNS: [&str; 12] = [
    "application_id",
    "job_slug",
    "company",
    "company_slug",
    "role_title",
    "stage",
    "applied_at",
    "notes",
    "event_kind",
    "event_signal",
    "occurred_at",
    "source",
];

/// The most rows one import reads.
pub const MAX_IMPORT_ROWS: usize = 10_000;

/// One CSV row, as written and read (every field text; empty is none).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct CsvRow {
    application_id: String,
    job_slug: String,
    company: String,
    company_slug: String,
    role_title: String,
    stage: String,
    applied_at: String,
    notes: String,
    event_kind: String,
    event_signal: String,
    occurred_at: String,
    source: String,
}

/// A row the import refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportIssue {
    /// The file's line (1 is the header).
    pub line: u64,
    /// The column at fault (`csv` for a row that is not CSV).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    /// Applications created.
    pub applications_created: u64,
    /// Events recorded.
    pub events_created: u64,
    /// Good rows that were already there (nothing new).
    pub skipped: u64,
    /// Rows refused, each with its line and field.
    pub errors: Vec<ImportIssue>,
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}

fn empty_none(s: &str) -> Option<&str> {
    let s = s.trim();
    (!s.is_empty()).then_some(s)
}

/// An instant as RFC 3339, or a bare date (its midnight UTC).
fn instant(raw: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(raw)
        .map(|t| t.with_timezone(&Utc))
        .or_else(|_| {
            NaiveDate::parse_from_str(raw, "%Y-%m-%d")
                .map(|d| d.and_time(chrono::NaiveTime::MIN).and_utc())
        })
        .map_err(|_| format!("{raw:?} is not an RFC 3339 time or a YYYY-MM-DD date"))
}

/// The import key of an event.
fn source_ref(
    company_slug: &str,
    role: &str,
    kind: EventKind,
    signal: Option<&str>,
    at: DateTime<Utc>,
) -> String {
    let mut hash = Sha256::new();
    for part in [company_slug, role, kind.as_str(), signal.unwrap_or(""), &stamp(at)] {
        hash.update(part.as_bytes());
        hash.update([0x1f]);
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A checked row, owning what the store's [`ImportRow`] borrows.
struct Checked {
    job_slug: Option<String>,
    company: String,
    company_slug: String,
    role_title: String,
    stage: Option<Stage>,
    applied_at: Option<DateTime<Utc>>,
    notes: String,
    event: Option<(EventKind, Option<String>, DateTime<Utc>, String)>,
}

fn issue(line: u64, field: &str, message: impl Into<String>) -> ImportIssue {
    ImportIssue { line, field: field.to_owned(), message: message.into() }
}

fn check(row: CsvRow, line: u64) -> Result<Checked, ImportIssue> {
    let company = row.company.trim().to_owned();
    let role_title = row.role_title.trim().to_owned();
    if role_title.is_empty() {
        return Err(issue(line, "role_title", "is required"));
    }
    let slug = match empty_none(&row.company_slug) {
        Some(s) => s.to_owned(),
        None if !company.is_empty() => company_slug(&company),
        None => return Err(issue(line, "company", "company or company_slug is required")),
    };
    let stage = empty_none(&row.stage)
        .map(Stage::parse)
        .transpose()
        .map_err(|e| issue(line, "stage", e.to_string()))?;
    let applied_at = empty_none(&row.applied_at)
        .map(instant)
        .transpose()
        .map_err(|m| issue(line, "applied_at", m))?;
    let event = match empty_none(&row.event_kind) {
        None => None,
        Some(kind) => {
            let kind =
                EventKind::parse(kind).map_err(|e| issue(line, "event_kind", e.to_string()))?;
            let at = empty_none(&row.occurred_at)
                .ok_or_else(|| issue(line, "occurred_at", "is required with event_kind"))
                .and_then(|raw| instant(raw).map_err(|m| issue(line, "occurred_at", m)))?;
            let signal = empty_none(&row.event_signal).map(str::to_owned);
            let key = source_ref(&slug, &role_title, kind, signal.as_deref(), at);
            Some((kind, signal, at, key))
        }
    };
    Ok(Checked {
        job_slug: empty_none(&row.job_slug).map(str::to_owned),
        company,
        company_slug: slug,
        role_title,
        stage,
        applied_at,
        notes: row.notes,
        event,
    })
}

fn export_row(row: &ExportRow) -> CsvRow {
    let event = row.event.as_ref();
    CsvRow {
        application_id: row.application_id.get().to_string(),
        job_slug: row.job_slug.clone().unwrap_or_default(),
        company: row.company.clone(),
        company_slug: row.company_slug.clone(),
        role_title: row.role_title.clone(),
        stage: row.stage.map(|s| s.as_str().to_owned()).unwrap_or_default(),
        applied_at: row.applied_at.map(stamp).unwrap_or_default(),
        notes: row.notes.clone(),
        event_kind: event.map(|e| e.kind.as_str().to_owned()).unwrap_or_default(),
        event_signal: event.and_then(|e| e.signal.clone()).unwrap_or_default(),
        occurred_at: event.map(|e| stamp(e.occurred_at)).unwrap_or_default(),
        source: event.map(|e| e.source.as_str().to_owned()).unwrap_or_default(),
    }
}

impl Tracking {
    /// Every application of the owner with its events, one row per event, as CSV.
    pub async fn export_csv(&self, owner: UserId) -> Result<String, TrackingError> {
        let rows = self.store.export_applications(owner).await?;
        let mut out = ::csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        let csv_error = |e: ::csv::Error| TrackingError::invalid("csv", e.to_string());
        out.write_record(COLUMNS).map_err(csv_error)?;
        for row in &rows {
            out.serialize(export_row(row)).map_err(csv_error)?;
        }
        let bytes = out.into_inner().map_err(|e| TrackingError::invalid("csv", e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| TrackingError::invalid("csv", e.to_string()))
    }

    /// Imports a CSV of [`COLUMNS`] (a header row naming at least `role_title` and `company`
    /// or `company_slug`; other columns may be missing or in another order). Idempotent.
    pub async fn import_csv(
        &self,
        owner: UserId,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<ImportReport, TrackingError> {
        let mut reader = ::csv::ReaderBuilder::new().flexible(true).from_reader(text.as_bytes());
        let headers = reader
            .headers()
            .map_err(|e| TrackingError::invalid("csv", format!("the header row is not CSV: {e}")))?
            .clone();
        let has = |name: &str| headers.iter().any(|h| h.trim() == name);
        if !has("role_title") || !(has("company") || has("company_slug")) {
            return Err(TrackingError::invalid(
                "csv",
                format!(
                    "the header row must name role_title and company or company_slug (the columns are {})",
                    COLUMNS.join(",")
                ),
            ));
        }
        let mut report = ImportReport::default();
        for (n, record) in reader.records().enumerate() {
            if n >= MAX_IMPORT_ROWS {
                return Err(TrackingError::invalid(
                    "csv",
                    format!("at most {MAX_IMPORT_ROWS} rows per import"),
                ));
            }
            let record = match record {
                Ok(r) => r,
                Err(e) => {
                    let line = e.position().map_or(0, |p| p.line());
                    report.errors.push(issue(line, "csv", e.to_string()));
                    continue;
                }
            };
            let line = record.position().map_or(0, |p| p.line());
            let row: CsvRow = match record.deserialize(Some(&headers)) {
                Ok(row) => row,
                Err(e) => {
                    report.errors.push(issue(line, "csv", e.to_string()));
                    continue;
                }
            };
            let checked = match check(row, line) {
                Ok(c) => c,
                Err(problem) => {
                    report.errors.push(problem);
                    continue;
                }
            };
            let event = checked.event.as_ref().map(|(kind, signal, at, key)| ImportEvent {
                kind: *kind,
                signal: signal.as_deref(),
                occurred_at: *at,
                source_ref: key,
            });
            let row = ImportRow {
                job_slug: checked.job_slug.as_deref(),
                company: &checked.company,
                company_slug: &checked.company_slug,
                role_title: &checked.role_title,
                stage: checked.stage,
                applied_at: checked.applied_at,
                notes: &checked.notes,
                event,
            };
            let done = self.store.import_application_row(owner, &row, now).await?;
            report.applications_created += u64::from(done.application_created);
            report.events_created += u64::from(done.event_created);
            if !done.application_created && !done.event_created {
                report.skipped += 1;
            }
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn row(kind: &str, at: &str) -> CsvRow {
        CsvRow {
            company: "Acme Labs".into(),
            role_title: "SRE".into(),
            event_kind: kind.into(),
            occurred_at: at.into(),
            ..CsvRow::default()
        }
    }

    #[test]
    fn a_bad_row_names_its_line_and_field() {
        let e = check(CsvRow { stage: "ghosted".into(), ..row("", "") }, 4).err().unwrap();
        assert_eq!((e.line, e.field.as_str()), (4, "stage"));
        assert!(e.message.contains("interview"), "{}", e.message);
        let e = check(row("teleported", "2026-01-01"), 5).err().unwrap();
        assert_eq!(e.field, "event_kind");
        let e = check(row("applied", ""), 6).err().unwrap();
        assert_eq!(e.field, "occurred_at");
        let e = check(row("applied", "yesterday"), 7).err().unwrap();
        assert_eq!(e.field, "occurred_at");
        let e = check(CsvRow { role_title: " ".into(), ..row("", "") }, 8).err().unwrap();
        assert_eq!(e.field, "role_title");
    }

    #[test]
    fn the_import_key_is_stable_and_the_company_slug_is_derived() {
        let a = check(row("applied", "2026-01-01"), 2).unwrap();
        let b = check(row("applied", "2026-01-01T00:00:00Z"), 3).unwrap();
        assert_eq!(a.company_slug, "acme-labs");
        assert_eq!(a.event.as_ref().unwrap().3, b.event.as_ref().unwrap().3);
        let c = check(row("applied", "2026-01-02"), 3).unwrap();
        assert_ne!(a.event.unwrap().3, c.event.unwrap().3);
    }
}
