//! The search document (reference §5.2): what one indexed job carries, built from a stored
//! [`Job`], and the rule for which jobs are indexed at all.
//!
//! The document holds what a search hit shows (slug, source id, title, company, location, url,
//! the truncated description, dates, salary) plus every facet value as a plain string, keyed by
//! [`Facet`], so every engine filters and counts the same strings the query model renders.
//! Facets the catalogue does not derive yet (domains, company type/size, archetype, role
//! type, reality, collections, relocation, visa sponsorship) are simply empty.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use freehire_domain::Job;
use serde::{Deserialize, Serialize};

use crate::facet::Facet;

/// Longest indexed description, in characters (`maxIndexedDescriptionRunes`).
pub const MAX_DESCRIPTION_CHARS: usize = 1_000;

/// One job as the search index holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchDocument {
    /// Internal job id (the index's primary key; never shown over HTTP).
    pub id: i64,
    /// Public address.
    pub public_slug: String,
    /// The job's id at its source (the source itself is the `source` facet).
    pub external_id: String,
    /// Job title.
    pub title: String,
    /// Company display name.
    pub company: String,
    /// Company key.
    pub company_slug: String,
    /// Location string, verbatim.
    pub location: String,
    /// Visible text of the description, at most [`MAX_DESCRIPTION_CHARS`], cut at a word
    /// boundary.
    pub description: String,
    /// The source's apply / detail URL.
    pub url: String,
    /// Every facet value, by facet parameter name (absent = no value).
    pub facets: BTreeMap<String, Vec<String>>,
    /// Effective posted date (falls back to first-seen), Unix seconds (`posted_ts`).
    pub posted_ts: i64,
    /// First seen, Unix seconds (`created_ts`).
    pub created_ts: i64,
    /// Content last changed, Unix seconds.
    pub updated_ts: i64,
    /// Salary lower bound (`enrichment.salary_min`).
    pub salary_min: Option<i64>,
    /// Salary upper bound (`enrichment.salary_max`).
    pub salary_max: Option<i64>,
    /// Minimum years of experience (`enrichment.experience_years_min`).
    pub experience_years_min: Option<i64>,
    /// Visa sponsorship (`enrichment.visa_sponsorship`); not derived yet, so `None`.
    pub visa_sponsorship: Option<bool>,
    /// Views (sortable); not tracked yet, so 0.
    pub view_count: i64,
}

impl SearchDocument {
    /// The values of one facet (empty when none).
    pub fn values(&self, facet: Facet) -> &[String] {
        self.facets.get(facet.param()).map_or(&[], Vec::as_slice)
    }

    /// Builds the document of a stored job; `now` anchors the effective posted date.
    pub fn from_job(job: &Job, now: DateTime<Utc>) -> Self {
        let p = &job.posting;
        let f = &p.facets;
        let mut facets: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut put = |facet: Facet, values: Vec<String>| {
            if !values.is_empty() {
                facets.insert(facet.param().to_owned(), values);
            }
        };
        let one = |v: Option<&str>| v.map(str::to_owned).into_iter().collect::<Vec<_>>();
        put(Facet::Source, vec![p.source.as_str().to_owned()]);
        put(Facet::CompanySlug, vec![job.company_slug.as_str().to_owned()]);
        put(Facet::Regions, f.regions.iter().map(|r| r.as_str().to_owned()).collect());
        put(Facet::WorkMode, one(f.work_mode.map(|v| v.as_str())));
        put(Facet::EmploymentType, one(f.employment_type.map(|v| v.as_str())));
        put(Facet::EducationLevel, one(f.education_level.map(|v| v.as_str())));
        put(Facet::Seniority, one(f.seniority.map(|v| v.as_str())));
        put(Facet::Category, one(f.category.map(|v| v.as_str())));
        put(Facet::Countries, f.countries.iter().map(|c| c.as_str().to_owned()).collect());
        put(Facet::Cities, f.cities.clone());
        put(Facet::SalaryCurrency, one(p.salary.as_ref().map(|s| s.currency.as_str())));
        put(Facet::SalaryPeriod, one(p.salary.as_ref().map(|s| s.period.as_str())));
        put(Facet::Skills, f.skills.clone());
        put(Facet::IsTech, one(f.is_tech.map(|t| if t { "tech" } else { "non_tech" })));
        put(Facet::RequiresClearance, one((f.requires_clearance == Some(true)).then_some("true")));
        put(Facet::EnglishLevel, one(f.english_level.map(|v| v.as_str())));
        put(Facet::PostingLanguage, one(f.posting_language.as_deref()));
        Self {
            id: job.id.get(),
            public_slug: job.public_slug.as_str().to_owned(),
            external_id: p.external_id.clone(),
            title: p.title.clone(),
            company: p.company.clone(),
            company_slug: job.company_slug.as_str().to_owned(),
            location: p.location.clone(),
            description: truncate_words(&visible_text(&p.description), MAX_DESCRIPTION_CHARS),
            url: p.url.clone(),
            facets,
            posted_ts: job.effective_posted_at(now).timestamp(),
            created_ts: job.created_at.timestamp(),
            updated_ts: job.updated_at.timestamp(),
            salary_min: p.salary.as_ref().and_then(|s| s.min),
            salary_max: p.salary.as_ref().and_then(|s| s.max),
            experience_years_min: f.experience_years_min.map(i64::from),
            visa_sponsorship: None,
            view_count: 0,
        }
    }
}

impl SearchDocument {
    /// Adds the geography of the canonical job's open duplicates (its role cluster) to the
    /// document: countries, regions and cities become the union over the cluster, so a role
    /// posted once per city stays findable in every one of them (reference §3.10).
    pub fn merge_cluster_geography<'a>(&mut self, duplicates: impl IntoIterator<Item = &'a Job>) {
        for job in duplicates {
            let f = &job.posting.facets;
            let values: [(Facet, Vec<String>); 3] = [
                (Facet::Countries, f.countries.iter().map(|c| c.as_str().to_owned()).collect()),
                (Facet::Regions, f.regions.iter().map(|r| r.as_str().to_owned()).collect()),
                (Facet::Cities, f.cities.clone()),
            ];
            for (facet, extra) in values {
                if extra.is_empty() {
                    continue;
                }
                let merged = self.facets.entry(facet.param().to_owned()).or_default();
                for value in extra {
                    if !merged.contains(&value) {
                        merged.push(value);
                    }
                }
            }
        }
    }
}

/// Whether a job belongs in the index: open, not a duplicate, and with a description that has
/// visible text (reference §5.2).
pub fn indexable(job: &Job) -> bool {
    job.is_open()
        && job.duplicate_of.is_none()
        && !visible_text(&job.posting.description).is_empty()
}

/// The visible text of sanitised HTML: tags become spaces, the common entities are decoded,
/// whitespace collapses to single spaces.
pub fn visible_text(html: &str) -> String {
    let mut raw = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                raw.push(' ');
            }
            _ if !in_tag => raw.push(c),
            _ => {}
        }
    }
    let decoded = raw
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most `max` characters of `text`; a longer text is cut back to its last space within the
/// limit (or hard at the limit when the first word alone is longer).
pub(crate) fn truncate_words(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((cut, next)) => {
            let head = &text[..cut];
            if next == ' ' {
                return head.trim_end().to_owned();
            }
            match head.rfind(' ') {
                Some(space) if space > 0 => head[..space].trim_end().to_owned(),
                _ => head.to_owned(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_text_strips_tags_and_entities() {
        assert_eq!(visible_text("<p>Build&nbsp;<b>fast</b></p><p>R&amp;D</p>"), "Build fast R&D");
        assert_eq!(visible_text("<p> </p><br/>"), "");
    }

    #[test]
    fn truncation_cuts_at_a_word_boundary() {
        assert_eq!(truncate_words("short text", 1000), "short text");
        assert_eq!(truncate_words("hello brave new world", 13), "hello brave");
        assert_eq!(truncate_words("hello brave new world", 11), "hello brave");
        assert_eq!(truncate_words("abcdefghij", 4), "abcd");
        let long = "word ".repeat(400);
        let cut = truncate_words(long.trim(), MAX_DESCRIPTION_CHARS);
        assert!(cut.chars().count() <= MAX_DESCRIPTION_CHARS);
        assert!(cut.ends_with("word"));
        let accented = "é".repeat(1500);
        assert_eq!(truncate_words(&accented, 1000).chars().count(), 1000);
    }
}
