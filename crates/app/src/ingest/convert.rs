//! A raw posting from an adapter into the stored shape: namespaced id, employer, facets.

use freehire_domain::{BoardKey, JobPosting, Provider};
use freehire_ingest::{RawDate, RawPosting};
use freehire_normalize::{Draft, SalaryParts, Structured};

/// A raw posting read into the stored shape, before its description is sanitised and its
/// facets are derived: enough to tell an unchanged posting by its source hash without paying
/// for either.
pub struct Converted {
    draft: Draft,
    /// The posting as the source stated it (namespaced id, employer, structured values), its
    /// description still unsanitised: never store it as it is, [`Converted::derive`] it.
    pub posting: JobPosting,
    /// [`JobPosting::source_hash`] of `posting`: over the description as the source stated it.
    pub source_hash: String,
}

impl Converted {
    /// Reads one posting of `board` (whose company is `board_company`).
    pub fn new(raw: &RawPosting, board: &BoardKey, board_company: &str) -> Self {
        // The draft's description stays empty until `derive`: the posting holds the one copy.
        let draft = draft(raw, board_company);
        let mut posting = freehire_normalize::source_posting(
            &draft,
            Provider::clone(&board.provider),
            &freehire_ingest::external_id(board, &raw.native_id),
            &raw.url,
        );
        posting.description.clone_from(&raw.description_html);
        let source_hash = posting.source_hash();
        Self { draft, posting, source_hash }
    }

    /// Sanitises the description and derives the facets and role fingerprint: the posting as
    /// it is stored.
    pub fn derive(mut self) -> JobPosting {
        let clean = freehire_ingest::sanitize_html(&self.posting.description);
        self.draft.description.clone_from(&clean);
        self.posting.description = clean;
        freehire_normalize::complete(&mut self.posting, &self.draft);
        self.posting.facets.canonicalize();
        self.posting
    }
}

/// Normalises one posting of `board` (whose company is `board_company`), its description
/// sanitised.
pub fn to_posting(raw: &RawPosting, board: &BoardKey, board_company: &str) -> JobPosting {
    Converted::new(raw, board, board_company).derive()
}

/// What the normaliser reads of a raw posting, but its description (see [`Converted::new`]).
fn draft(raw: &RawPosting, board_company: &str) -> Draft {
    Draft {
        title: raw.title.clone(),
        company: raw.company_or(board_company).to_owned(),
        location: raw.location.clone(),
        description: String::new(),
        remote: raw.remote.unwrap_or(false),
        structured: Structured {
            countries: raw.countries.clone(),
            work_mode: raw.work_mode,
            employment_type: raw.employment_type,
            seniority: raw.seniority,
            experience_years_min: raw.experience_years_min,
            ..Structured::default()
        },
        salary: raw.salary.as_ref().map_or_else(SalaryParts::default, |s| SalaryParts {
            min: s.min,
            max: s.max,
            currency: Some(s.currency.clone()),
            period: Some(s.period.as_str().to_owned()),
        }),
        posted_at: raw.posted_at.as_ref().map(|d| match d {
            RawDate::Text(t) => t.clone(),
            RawDate::UnixMillis(ms) => ms.to_string(),
        }),
    }
}
