//! The entry point: a [`Draft`] (what an adapter read) → [`Facets`], with the reference's
//! per-facet precedence (structured source value → title → location → description), and the
//! re-derivation of a stored posting.

use freehire_domain::{Facets, JobPosting, Provider, Salary, WorkMode};

use crate::salary::{SalaryParts, salary};
use crate::{
    category, clearance, dates, description, eligibility, employment, experience, fingerprint, geo,
    language, schooling, seniority, skills, text, title, work_mode,
};
pub use freehire_domain::Structured;

/// What an adapter read about one posting, before normalisation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Draft {
    /// Job title.
    pub title: String,
    /// Employer display name.
    pub company: String,
    /// Free-text location (possibly several places).
    pub location: String,
    /// Description HTML (sanitised or not: only its visible text is read).
    pub description: String,
    /// The source's remote flag: a structured remote statement when no work mode is given.
    pub remote: bool,
    /// Structured facet values.
    pub structured: Structured,
    /// Structured salary parts.
    pub salary: SalaryParts,
    /// The raw posted-at value (RFC 3339, date, epoch s or ms).
    pub posted_at: Option<String>,
}

/// Derives every facet of a draft. Pure and deterministic; unknowns stay empty.
pub fn derive(draft: &Draft) -> Facets {
    derive_from(draft, text::blocks_text(&draft.description))
}

/// [`derive`] with the description's [`text::blocks_text`] already at hand (`body`).
fn derive_from(draft: &Draft, body: String) -> Facets {
    let s = &draft.structured;
    let lower = body.to_ascii_lowercase();
    let hits = description::scan_lowered(&body, &lower);
    let title_hits = title::scan_title(&draft.title);

    // Geography: structured → location → title restriction → description eligibility.
    let mut geo = geo::parse_location(&draft.location);
    // Whether the location names a place at all (before the title or description pin one).
    let placeless = geo.is_unpinned() && geo.cities.is_empty();
    if geo.is_unpinned() {
        let pin = eligibility::from_title(&draft.title);
        let pin = if pin.is_empty() { eligibility::from_description(&body, &hits) } else { pin };
        if !pin.is_empty() {
            geo::pin(&mut geo, &pin.countries, &pin.regions);
        }
    }
    let (countries, mut regions) = if s.countries.is_empty() {
        (geo.countries, geo.regions)
    } else {
        (s.countries.clone(), geo::regions_of(&s.countries))
    };
    if !s.regions.is_empty() {
        regions = s.regions.clone();
    }
    let cities = if s.cities.is_empty() { geo.cities } else { s.cities.clone() };

    // A structured work mode, then the location's marker, then what the description states
    // (a hybrid or on-site statement is more specific than a platform's bare remote flag),
    // then the flag, which counts only when the location names no place: platforms set it on
    // office postings ("Tel Aviv Office", "Montreal HQ") as a company default.
    let work_mode = s
        .work_mode
        .or(geo.work_mode)
        .or_else(|| work_mode::from_description(&hits))
        .or((draft.remote && placeless).then_some(WorkMode::Remote));

    let seniority = s
        .seniority
        .or_else(|| seniority::from_title_and_hits(&draft.title, &title_hits))
        .or_else(|| seniority::from_description(&hits));
    let category = s
        .category
        .or_else(|| category::from_title_text(&draft.title, &title_hits))
        .or_else(|| category::from_description(&lower));
    let is_tech = category::is_tech(category, &title_hits);

    let mut skill_set: Vec<String> =
        skills::from_description(&body, &lower, &hits, &draft.company, category)
            .into_iter()
            .map(str::to_owned)
            .collect();
    for given in &s.skills {
        let canonical =
            skills::canonical(given).map_or_else(|| given.trim().to_lowercase(), str::to_owned);
        if !canonical.is_empty() {
            skill_set.push(canonical);
        }
    }

    let mut facets = Facets {
        countries,
        regions,
        cities,
        work_mode,
        seniority,
        category,
        is_tech,
        skills: skill_set,
        employment_type: s
            .employment_type
            .or_else(|| employment::from_title(&title_hits))
            .or_else(|| employment::from_description(&hits)),
        education_level: s.education_level.or_else(|| schooling::education(&hits)),
        english_level: s.english_level.or_else(|| schooling::english(&hits)),
        experience_years_min: s
            .experience_years_min
            .or_else(|| experience::from_hits(&body, &hits)),
        requires_clearance: clearance::requires(&hits),
        posting_language: language::detect(&body).map(str::to_owned),
    };
    facets.canonicalize();
    facets
}

/// The structured salary of a draft (see [`salary`]).
pub fn draft_salary(draft: &Draft) -> Option<Salary> {
    salary(&draft.salary)
}

/// Builds the posting a writer stores: facets, salary, posted date and role fingerprint.
pub fn posting(draft: &Draft, source: Provider, external_id: &str, url: &str) -> JobPosting {
    let mut posting = source_posting(draft, source, external_id, url);
    complete(&mut posting, draft);
    posting
}

/// Fills the derived values (facets, role fingerprint) of a [`source_posting`] built from the
/// same draft.
pub fn complete(posting: &mut JobPosting, draft: &Draft) {
    // The description's two texts come from one pass over its HTML.
    let texts = text::texts(&draft.description);
    posting.role_fingerprint =
        fingerprint::role_fingerprint_of_text(&draft.title, &draft.company, &texts.visible);
    posting.facets = derive_from(draft, texts.blocks);
}

/// The posting as the source stated it, without derived facets or role fingerprint: enough
/// for [`JobPosting::source_hash`], so a re-crawl can tell an unchanged posting cheaply.
pub fn source_posting(draft: &Draft, source: Provider, external_id: &str, url: &str) -> JobPosting {
    JobPosting {
        source,
        external_id: external_id.to_owned(),
        url: url.to_owned(),
        title: draft.title.trim().to_owned(),
        company: draft.company.trim().to_owned(),
        location: draft.location.trim().to_owned(),
        description: draft.description.clone(),
        remote: draft.remote,
        posted_at: draft.posted_at.as_deref().and_then(dates::parse_posted_at),
        facets: Facets::default(),
        salary: draft_salary(draft),
        role_fingerprint: String::new(),
        structured: draft.structured.clone(),
    }
}

/// The outcome of re-deriving a stored posting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rederived {
    /// The facets the current dictionaries give.
    pub facets: Facets,
    /// The role fingerprint the current rules give.
    pub role_fingerprint: String,
    /// Whether either differs from what is stored (the posting needs re-indexing).
    pub changed: bool,
}

/// Re-derives a stored posting's facets (after a dictionary change), from its text and the
/// structured values stored with it (`JobPosting::structured`), or others passed in.
pub fn rederive(stored: &JobPosting, structured: &Structured) -> Rederived {
    let draft = Draft {
        title: stored.title.clone(),
        company: stored.company.clone(),
        location: stored.location.clone(),
        description: stored.description.clone(),
        remote: stored.remote,
        structured: structured.clone(),
        salary: SalaryParts::default(),
        posted_at: None,
    };
    let texts = text::texts(&stored.description);
    let role_fingerprint =
        fingerprint::role_fingerprint_of_text(&stored.title, &stored.company, &texts.visible);
    let facets = derive_from(&draft, texts.blocks);
    let changed = facets != stored.facets || role_fingerprint != stored.role_fingerprint;
    Rederived { facets, role_fingerprint, changed }
}
