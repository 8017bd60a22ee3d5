//! Rendering a [`JobQuery`] to Meilisearch's filter syntax, exactly as the reference's
//! `FilterFromValues` builds it (reference §5.5): a list of OR-groups that are ANDed.
//!
//! Every string value is written as a double-quoted literal with `"` and `\` backslash-escaped,
//! so no value can add filter syntax; attribute names and numbers come from our own tables
//! and integers, never from input.

use chrono::{DateTime, Utc};

use crate::JobQuery;
use crate::facet::{FacetValue, Mode};

/// Seconds per day, for the within-days windows.
const DAY: i64 = 86_400;

/// A rendered filter: AND of OR-groups. Empty means no filter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    groups: Vec<Vec<String>>,
}

impl Filter {
    /// The OR-groups, in order (Meilisearch's nested-array form: the outer list is ANDed,
    /// each inner list ORed).
    pub fn groups(&self) -> &[Vec<String>] {
        &self.groups
    }

    /// Whether there is no filter at all.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The filter as one expression string, or `None` when there is no filter.
    pub fn expression(&self) -> Option<String> {
        (!self.is_empty()).then(|| self.to_string())
    }
}

impl std::fmt::Display for Filter {
    /// `a AND (b OR c) AND d`: groups of one term are written bare, larger ones parenthesised.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, group) in self.groups.iter().enumerate() {
            if i > 0 {
                f.write_str(" AND ")?;
            }
            if group.len() == 1 {
                f.write_str(&group[0])?;
            } else {
                write!(f, "({})", group.join(" OR "))?;
            }
        }
        Ok(())
    }
}

/// A string literal: `"` + value with `\` and `"` backslash-escaped + `"`.
pub fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// One facet term; `negated` is the `_exclude` form.
fn term(attribute: &str, value: &FacetValue, negated: bool) -> String {
    match (value, negated) {
        (FacetValue::Text(v), false) => format!("{attribute} = {}", quote(v)),
        (FacetValue::Text(v), true) => format!("{attribute} != {}", quote(v)),
        (FacetValue::Empty, false) => format!("{attribute} IS EMPTY"),
        (FacetValue::Empty, true) => format!("{attribute} IS NOT EMPTY"),
        // The flag is true or absent, so "false" is "not true".
        (FacetValue::Flag(b), negated) if *b != negated => format!("{attribute} = true"),
        (FacetValue::Flag(_), _) => format!("NOT {attribute} = true"),
    }
}

impl JobQuery {
    /// The Meilisearch filter of this query; `now` anchors the within-days windows.
    ///
    /// Order: the geography OR-group (all included regions, countries and cities), then per
    /// facet in table order its included values (one OR-group, or one group per value under
    /// `_mode=and`) and one group per excluded value, then the scalar bounds.
    pub fn filter(&self, now: DateTime<Utc>) -> Filter {
        let mut groups: Vec<Vec<String>> = Vec::new();

        let geography: Vec<String> = self
            .facets
            .iter()
            .filter(|(facet, _)| facet.is_geography())
            .flat_map(|(facet, sel)| sel.include.iter().map(|v| term(facet.attribute(), v, false)))
            .collect();
        if !geography.is_empty() {
            groups.push(geography);
        }

        for (facet, sel) in &self.facets {
            let attr = facet.attribute();
            if !facet.is_geography() && !sel.include.is_empty() {
                let terms = sel.include.iter().map(|v| term(attr, v, false));
                match sel.mode {
                    Mode::Or => groups.push(terms.collect()),
                    Mode::And => groups.extend(terms.map(|t| vec![t])),
                }
            }
            groups.extend(sel.exclude.iter().map(|v| vec![term(attr, v, true)]));
        }

        let s = &self.scalars;
        let mut scalar = |t: String| groups.push(vec![t]);
        if let Some(b) = s.visa_sponsorship {
            scalar(format!("enrichment.visa_sponsorship = {b}"));
        }
        if let Some(n) = s.salary_min {
            scalar(format!("enrichment.salary_min >= {n}"));
        }
        if let Some(n) = s.salary_max {
            scalar(format!("enrichment.salary_max <= {n}"));
        }
        if let Some(n) = s.experience_years_min {
            scalar(format!("enrichment.experience_years_min >= {n}"));
        }
        if let Some(n) = s.experience_years_max {
            scalar(format!("enrichment.experience_years_min <= {n}"));
        }
        let now = now.timestamp();
        if let Some(d) = s.posted_within_days {
            scalar(format!("posted_ts >= {}", now - i64::from(d) * DAY));
        }
        if let Some(d) = s.open_within_days {
            scalar(format!("created_ts >= {}", now - i64::from(d) * DAY));
        }
        Filter { groups }
    }
}
