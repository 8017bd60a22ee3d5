//! Phrase completion for `GET /suggest?q=&limit=` (reference search-ingest §5.12): what a job
//! seeker may be typing, completed over the catalogue's posting titles (those with at least
//! 25 open jobs), companies (at least 5), skills and categories, each answered with the open
//! jobs it would find.
//!
//! [`SuggestIndex`] is the pure part: built from the store's
//! [`SuggestionTerms`], it matches the typed text against each term's folded form (accents,
//! case and punctuation ignored) at its start or at the start of any word, whole-term prefixes
//! first, then most jobs. [`Suggestions`] keeps one index per process and rebuilds it from
//! the store when it is older than [`REFRESH_EVERY`] (one rebuild at a time; the others wait
//! for it). Search demand (the reference's `search_queries`) is not recorded here.

use std::sync::Arc;
use std::time::{Duration, Instant};

use freehire_domain::slugify;
use freehire_store::{Store, SuggestFloors, SuggestionTerms};
use tokio::sync::Mutex;

use crate::AppError;

/// Suggestions answered when `limit` is absent.
pub const DEFAULT_SUGGESTIONS: usize = 5;
/// The most suggestions one request gets (a larger `limit` is clamped).
pub const MAX_SUGGESTIONS: usize = 20;
/// How old the index may grow before the next request rebuilds it.
pub const REFRESH_EVERY: Duration = Duration::from_secs(10 * 60);

/// What a part of a suggestion is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartKind {
    /// A posting title.
    Title,
    /// A role (a title family; not built here yet, kept for the vocabulary).
    Role,
    /// A skill.
    Skill,
    /// A category.
    Category,
    /// A company.
    Company,
}

impl PartKind {
    /// Every kind, as the wire names them.
    pub const ALL: [Self; 5] =
        [Self::Title, Self::Role, Self::Skill, Self::Category, Self::Company];

    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Title => "title",
            Self::Role => "role",
            Self::Skill => "skill",
            Self::Category => "category",
            Self::Company => "company",
        }
    }
}

/// One part of a suggestion: what it names and, for a skill, category or company, the value
/// the search filter takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Its kind.
    pub kind: PartKind,
    /// The filter value (`rust`, `data_engineering`, `acme`); none for a title.
    pub slug: Option<String>,
    /// What the job seeker reads.
    pub text: String,
}

/// One completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The completed phrase.
    pub text: String,
    /// What it is made of.
    pub parts: Vec<Part>,
    /// The open jobs it finds.
    pub jobs: u64,
}

/// A suggestion and its folded form.
#[derive(Debug, Clone)]
struct Entry {
    key: String,
    suggestion: Suggestion,
}

/// The terms, folded and ordered by jobs (most first), ready to complete.
#[derive(Debug, Clone, Default)]
pub struct SuggestIndex {
    entries: Vec<Entry>,
}

impl SuggestIndex {
    /// The index over `terms`.
    pub fn build(terms: &SuggestionTerms) -> Self {
        let mut entries = Vec::new();
        let mut push = |kind: PartKind, slug: Option<String>, text: String, jobs: u64| {
            let key = slugify(&text);
            if key.is_empty() {
                return;
            }
            let part = Part { kind, slug, text: text.clone() };
            entries.push(Entry { key, suggestion: Suggestion { text, parts: vec![part], jobs } });
        };
        for t in &terms.titles {
            push(PartKind::Title, None, t.text.trim().to_owned(), t.jobs);
        }
        for c in &terms.companies {
            push(PartKind::Company, Some(c.slug.clone()), c.name.trim().to_owned(), c.jobs);
        }
        for s in &terms.skills {
            let label = freehire_normalize::skill_label(&s.text).unwrap_or(&s.text).to_owned();
            push(PartKind::Skill, Some(s.text.clone()), label, s.jobs);
        }
        for c in &terms.categories {
            push(PartKind::Category, Some(c.text.clone()), category_label(&c.text), c.jobs);
        }
        entries.sort_by(|a, b| {
            b.suggestion.jobs.cmp(&a.suggestion.jobs).then_with(|| a.key.cmp(&b.key))
        });
        Self { entries }
    }

    /// The completions of `query`: terms whose folded form starts with the folded query, then
    /// those with a word that does, each group most jobs first; at most `limit` (clamped to
    /// 1..=[`MAX_SUGGESTIONS`]). A blank query completes nothing.
    pub fn complete(&self, query: &str, limit: usize) -> Vec<Suggestion> {
        let wanted = slugify(query);
        if wanted.is_empty() {
            return Vec::new();
        }
        let limit = limit.clamp(1, MAX_SUGGESTIONS);
        let inner = format!("-{wanted}");
        let whole = self.entries.iter().filter(|e| e.key.starts_with(&wanted));
        let word =
            self.entries.iter().filter(|e| !e.key.starts_with(&wanted) && e.key.contains(&inner));
        whole.chain(word).take(limit).map(|e| e.suggestion.clone()).collect()
    }

    /// How many terms it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// `data_engineering` → "Data engineering".
fn category_label(value: &str) -> String {
    let spaced = value.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}

/// The index and when it was built.
type Built = Option<(Instant, Arc<SuggestIndex>)>;

/// The process's suggestion index over the store, rebuilt when stale; cheap to clone.
#[derive(Clone)]
pub struct Suggestions {
    store: Arc<dyn Store>,
    floors: SuggestFloors,
    built: Arc<Mutex<Built>>,
}

impl Suggestions {
    /// Suggestions over `store` with the reference's floors.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self { store, floors: SuggestFloors::default(), built: Arc::default() }
    }

    /// The same with other floors (a small catalogue, tests).
    pub fn with_floors(self, floors: SuggestFloors) -> Self {
        Self { floors, built: Arc::default(), ..self }
    }

    /// The completions of `query` (see [`SuggestIndex::complete`]); a blank query reads
    /// nothing.
    pub async fn complete(&self, query: &str, limit: usize) -> Result<Vec<Suggestion>, AppError> {
        if slugify(query).is_empty() {
            return Ok(Vec::new());
        }
        Ok(self.index().await?.complete(query, limit))
    }

    /// The index, rebuilt first when missing or older than [`REFRESH_EVERY`].
    async fn index(&self) -> Result<Arc<SuggestIndex>, AppError> {
        let mut built = self.built.lock().await;
        if let Some((at, index)) = built.as_ref()
            && at.elapsed() < REFRESH_EVERY
        {
            return Ok(index.clone());
        }
        let terms = self.store.suggestion_terms(self.floors).await?;
        let index = Arc::new(SuggestIndex::build(&terms));
        *built = Some((Instant::now(), index.clone()));
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use freehire_store::{CompanyTerm, TermCount};

    use super::*;

    fn terms() -> SuggestionTerms {
        let t = |text: &str, jobs| TermCount { text: text.into(), jobs };
        SuggestionTerms {
            titles: vec![t("Senior Rust Engineer", 40), t("Product Manager", 90)],
            companies: vec![CompanyTerm {
                slug: "rustcorp".into(),
                name: "RustCorp".into(),
                jobs: 7,
            }],
            skills: vec![t("rust", 300), t("postgresql", 120)],
            categories: vec![t("data_engineering", 55)],
        }
    }

    #[test]
    fn whole_prefixes_come_before_word_prefixes_each_by_jobs() {
        let index = SuggestIndex::build(&terms());
        let found = index.complete("RUST", 10);
        let texts: Vec<&str> = found.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["Rust", "RustCorp", "Senior Rust Engineer"]);
        assert_eq!(found[0].parts[0].kind, PartKind::Skill);
        assert_eq!(found[0].parts[0].slug.as_deref(), Some("rust"));
        assert_eq!(found[0].jobs, 300);
        assert_eq!(found[1].parts[0].kind, PartKind::Company);
        assert_eq!(found[2].parts[0].slug, None);
    }

    #[test]
    fn categories_read_as_words_and_limits_clamp() {
        let index = SuggestIndex::build(&terms());
        let found = index.complete("data eng", 5);
        assert_eq!(found[0].text, "Data engineering");
        assert_eq!(found[0].parts[0].slug.as_deref(), Some("data_engineering"));
        assert!(index.complete("", 5).is_empty());
        assert!(index.complete(" - ", 5).is_empty());
        assert_eq!(index.complete("r", 0).len(), 1);
        assert_eq!(index.len(), 6);
    }
}
