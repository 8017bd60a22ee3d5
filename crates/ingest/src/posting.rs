//! What an adapter yields: [`RawPosting`] and the per-board [`BoardListing`], plus the
//! [`SeenSet`] a hydrating fetch skips and the external-id namespacing.

use std::collections::HashSet;

use freehire_domain::{BoardKey, CountryCode, EmploymentType, Salary, Seniority, WorkMode};

/// A posting as the platform states it. Description HTML is the source's own, decoded where
/// the platform entity-encodes it but **not sanitised**: the pipeline sanitises it
/// ([`crate::sanitize_html`]) before anything is stored or served, and only for postings it
/// writes (an unchanged posting is only marked seen). Everything else is verbatim or taken
/// from a structured source field. Structured fields are `None`/empty unless the platform states them in a structured
/// field: they are never guessed from free text.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct RawPosting {
    /// The platform's own id for the posting (not yet namespaced; see [`external_id`]).
    pub native_id: String,
    /// The employer's apply / posting URL.
    pub url: String,
    /// Job title.
    pub title: String,
    /// The employer as the posting names it; `None` means "the board's company".
    pub company: Option<String>,
    /// Location as free text, verbatim (several locations joined with `"; "`).
    pub location: String,
    /// Description HTML as the source states it (entity-decoded, unsanitised: never store or
    /// serve it without [`crate::sanitize_html`]). Empty when the source gives none (e.g. a
    /// listing without detail).
    pub description_html: String,
    /// When it was posted, as the platform states it; parsed by the normaliser.
    pub posted_at: Option<RawDate>,
    /// The platform's remote flag, when it has one.
    pub remote: Option<bool>,
    /// Work mode from a structured workplace-type field.
    pub work_mode: Option<WorkMode>,
    /// Employment type from a structured field.
    pub employment_type: Option<EmploymentType>,
    /// Seniority from a platform's own experience-level field, only where its value names one
    /// of ours unambiguously.
    pub seniority: Option<Seniority>,
    /// Minimum years of experience from a structured field (Personio `yearsOfExperience`).
    pub experience_years_min: Option<i32>,
    /// Countries from structured address/country fields, sorted and unique.
    pub countries: Vec<CountryCode>,
    /// Salary from structured compensation fields; dropped whole when the period is unknown.
    pub salary: Option<Salary>,
    /// Department / team names, verbatim.
    pub departments: Vec<String>,
    /// Recruitee's apply form (its `open_questions` and `options_*`), verbatim.
    pub apply_form: Option<serde_json::Value>,
}

impl RawPosting {
    /// The employer: the posting's own, else the board's company.
    pub fn company_or<'a>(&'a self, board_company: &'a str) -> &'a str {
        self.company.as_deref().filter(|c| !c.trim().is_empty()).unwrap_or(board_company)
    }

    /// Sorts and de-duplicates the set-valued fields. Adapters call it before returning.
    pub fn canonicalize(&mut self) {
        self.countries.sort();
        self.countries.dedup();
        let mut seen = HashSet::new();
        self.departments.retain(|d| !d.is_empty() && seen.insert(d.clone()));
    }
}

/// A posted-at value exactly as the platform gives it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum RawDate {
    /// A textual date or timestamp (ISO 8601, `2026-08-05 09:41:37 UTC`, `Posted Yesterday`…).
    Text(String),
    /// Milliseconds since the Unix epoch (Lever's `createdAt`).
    UnixMillis(i64),
}

/// One board's result.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct BoardListing {
    /// Postings read in full (listing plus detail when the platform needs one).
    pub postings: Vec<RawPosting>,
    /// Native ids a hydrating fetch re-listed without fetching their detail because they were
    /// in the seen set: only their liveness should be refreshed.
    pub seen_refresh: Vec<String>,
    /// Postings the listing named whose detail could not be read (timeout, 403, 429, 5xx,
    /// undecodable). A detail 404/410 means gone: such postings are dropped, not listed here.
    pub unreadable: Vec<Unreadable>,
    /// The board's own "about" text (sanitised HTML), where the platform has one (Greenhouse),
    /// to fill gaps in the company's description.
    pub company_description: Option<String>,
    /// Why the listing may not be the whole board although every page read was sound (a
    /// board exactly at a page cap the platform may impose): its postings are written, but
    /// it proves nothing gone, so nothing of the board is closed (neither the board's own
    /// close nor the provider's sweep). `None`: the listing is complete.
    pub partial: Option<String>,
}

impl BoardListing {
    /// Every native id the listing named: read, refreshed or unreadable.
    pub fn named_ids(&self) -> impl Iterator<Item = &str> {
        self.postings
            .iter()
            .map(|p| p.native_id.as_str())
            .chain(self.seen_refresh.iter().map(String::as_str))
            .chain(self.unreadable.iter().map(|u| u.native_id.as_str()))
    }
}

/// A posting whose detail could not be read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unreadable {
    /// Its native id.
    pub native_id: String,
    /// The error, as text.
    pub error: String,
}

/// The native ids of a board's postings already stored: a hydrating fetch does not fetch
/// their detail again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeenSet(HashSet<String>);

impl SeenSet {
    /// An empty set (fetch every detail).
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds the set from stored external ids `<board>:<native id>`, keeping those with this
    /// board's prefix and stripping it.
    pub fn from_external_ids<'a>(
        board: &BoardKey,
        external_ids: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let prefix = board.external_id_prefix();
        Self(
            external_ids
                .into_iter()
                .filter_map(|id| id.strip_prefix(prefix.as_str()))
                .map(str::to_owned)
                .collect(),
        )
    }

    /// Adds a native id.
    pub fn insert(&mut self, native_id: impl Into<String>) {
        self.0.insert(native_id.into());
    }

    /// Whether the native id is stored.
    pub fn contains(&self, native_id: &str) -> bool {
        self.0.contains(native_id)
    }

    /// How many ids it holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<String> for SeenSet {
    fn from_iter<T: IntoIterator<Item = String>>(iter: T) -> Self {
        Self(iter.into_iter().collect())
    }
}

/// The stored external id of a board-keyed posting: `<board>:<native id>`.
pub fn external_id(board: &BoardKey, native_id: &str) -> String {
    format!("{}{}", board.external_id_prefix(), native_id)
}

#[cfg(test)]
mod tests {
    use freehire_domain::Provider;

    use super::*;

    // scenario: Namespacing
    #[test]
    fn external_ids_namespace_and_strip() {
        let key = BoardKey::new(Provider::parse("ashby").unwrap(), "cartesia", "").unwrap();
        let id = external_id(&key, "abc-1");
        assert_eq!(id, "cartesia:abc-1");
        let seen = SeenSet::from_external_ids(&key, [id.as_str(), "other:x", "cartesia:b"]);
        assert_eq!(seen.len(), 2);
        assert!(seen.contains("abc-1") && seen.contains("b") && !seen.contains("x"));
    }

    #[test]
    fn canonicalize_dedups() {
        let mut p = RawPosting {
            countries: vec![CountryCode::parse("pt").unwrap(), CountryCode::parse("es").unwrap()],
            departments: vec!["A".into(), "".into(), "A".into(), "B".into()],
            ..RawPosting::default()
        };
        p.countries.push(CountryCode::parse("ES").unwrap());
        p.canonicalize();
        let cc: Vec<_> = p.countries.iter().map(CountryCode::as_str).collect();
        assert_eq!(cc, ["es", "pt"]);
        assert_eq!(p.departments, ["A", "B"]);
    }
}
