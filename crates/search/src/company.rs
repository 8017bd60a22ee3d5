//! The companies index (reference §5.4): what one indexed company carries, and a search of
//! the companies by name and facets.
//!
//! Both engines hold the same [`CompanyDocument`]s (keyed by slug) and answer a
//! [`CompanySearch`] the same way:
//!
//! - **Text.** Every word of `q` must match the company's name or slug (its words): exactly,
//!   the last word also as a prefix, and within Meilisearch's typo budget (one typo from 5
//!   characters, two from 9), as job search matches its words.
//! - **Facets.** `regions`, `countries`, `work_modes`, `sources` and `skills` (the company's
//!   top skills): OR within a facet, AND across facets.
//! - **Order.** Without text: most open jobs first, then by slug. With text: the better match
//!   first (fewer typos, then a match in the name before one in the slug only, then an exact
//!   word before a prefix), then most open jobs, then by slug.
//! - **Total.** Exact.

use serde::{Deserialize, Serialize};

use crate::filter::quote;

/// One company as the companies index holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanyDocument {
    /// The company's key (the index's primary key).
    pub slug: String,
    /// Display name.
    pub name: String,
    /// Open, non-duplicate jobs.
    pub job_count: u64,
    /// The newest effective posted date among them, Unix seconds.
    pub latest_posted_ts: i64,
    /// Regions of its jobs, most jobs first.
    pub regions: Vec<String>,
    /// Countries of its jobs (ISO codes, lower case), most jobs first.
    pub countries: Vec<String>,
    /// Work modes of its jobs, most jobs first.
    pub work_modes: Vec<String>,
    /// Its most frequent skills (canonical names), most jobs first.
    pub top_skills: Vec<String>,
    /// Providers its jobs come from, most jobs first.
    pub sources: Vec<String>,
}

/// A facet of the companies index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompanyFacet {
    /// `regions`.
    Regions,
    /// `countries`.
    Countries,
    /// `work_modes`.
    WorkModes,
    /// `sources`.
    Sources,
    /// `top_skills` (filtered by the `skills` parameter).
    Skills,
}

impl CompanyFacet {
    /// Every facet.
    pub const ALL: [CompanyFacet; 5] =
        [Self::Regions, Self::Countries, Self::WorkModes, Self::Sources, Self::Skills];

    /// The document attribute (and embedded field) holding the facet.
    pub const fn attribute(self) -> &'static str {
        match self {
            Self::Regions => "regions",
            Self::Countries => "countries",
            Self::WorkModes => "work_modes",
            Self::Sources => "sources",
            Self::Skills => "top_skills",
        }
    }

    /// The document's values of this facet.
    pub fn values(self, doc: &CompanyDocument) -> &[String] {
        match self {
            Self::Regions => &doc.regions,
            Self::Countries => &doc.countries,
            Self::WorkModes => &doc.work_modes,
            Self::Sources => &doc.sources,
            Self::Skills => &doc.top_skills,
        }
    }
}

/// A search of the companies index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanySearch {
    /// Text to match in names and slugs (`None` or blank: every company).
    pub q: Option<String>,
    /// Per facet, the values any of which a company must have (an empty list: no filter).
    pub regions: Vec<String>,
    /// See [`CompanySearch::regions`].
    pub countries: Vec<String>,
    /// See [`CompanySearch::regions`].
    pub work_modes: Vec<String>,
    /// See [`CompanySearch::regions`].
    pub sources: Vec<String>,
    /// See [`CompanySearch::regions`]; matched against the top skills.
    pub skills: Vec<String>,
    /// Companies to skip.
    pub offset: u64,
    /// Companies to return.
    pub limit: u32,
}

impl CompanySearch {
    /// The text, trimmed; `None` when blank.
    pub fn text(&self) -> Option<&str> {
        self.q.as_deref().map(str::trim).filter(|q| !q.is_empty())
    }

    /// The selected values of `facet`.
    pub fn selected(&self, facet: CompanyFacet) -> &[String] {
        match facet {
            CompanyFacet::Regions => &self.regions,
            CompanyFacet::Countries => &self.countries,
            CompanyFacet::WorkModes => &self.work_modes,
            CompanyFacet::Sources => &self.sources,
            CompanyFacet::Skills => &self.skills,
        }
    }

    /// The filter in Meilisearch's syntax (`None` when nothing is selected): one
    /// `attribute IN [...]` per selected facet, ANDed; every value a quoted literal.
    pub fn meili_filter(&self) -> Option<String> {
        let groups: Vec<String> = CompanyFacet::ALL
            .iter()
            .filter(|f| !self.selected(**f).is_empty())
            .map(|f| {
                let values: Vec<String> = self.selected(*f).iter().map(|v| quote(v)).collect();
                format!("{} IN [{}]", f.attribute(), values.join(", "))
            })
            .collect();
        (!groups.is_empty()).then(|| groups.join(" AND "))
    }
}

/// A page of companies and how many match in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanyHits {
    /// The requested page, in order.
    pub hits: Vec<CompanyDocument>,
    /// How many companies match (exact).
    pub total: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meili_filter_ors_within_and_ands_across_facets_with_quoted_values() {
        let search = CompanySearch {
            regions: vec!["eu".into(), "us".into()],
            skills: vec!["c\"++".into()],
            ..CompanySearch::default()
        };
        assert_eq!(
            search.meili_filter().as_deref(),
            Some(r#"regions IN ["eu", "us"] AND top_skills IN ["c\"++"]"#)
        );
        assert_eq!(CompanySearch::default().meili_filter(), None);
        let blank = CompanySearch { q: Some("  ".into()), ..CompanySearch::default() };
        assert_eq!(blank.text(), None);
    }
}
