//! The companies list's query parameters (reference §5.4), parsed once for the API, the web
//! page and the command line: `q`, and the facets `regions`, `countries`, `work_mode`,
//! `source` and `skills`. Values are repeated or comma-joined, trimmed, deduplicated; OR within
//! a facet, AND across facets. A value outside a vocabulary (`source`: the platforms read, and
//! `manual`) is refused, naming the parameter,
//! the value and the allowed set.

use freehire_domain::{CountryCode, DomainError, Provider, Region, WorkMode};
use freehire_store::CompanyFilter;

/// The parameters [`parse`] reads.
pub const PARAMS: [&str; 6] = ["q", "regions", "countries", "work_mode", "source", "skills"];

/// At most this many distinct values per facet parameter (as the job search allows).
pub const MAX_VALUES: usize = freehire_search::MAX_VALUES;

/// A refused parameter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {param} {value:?}: {rule}")]
pub struct FilterError {
    /// The parameter's name.
    pub param: &'static str,
    /// The value as sent.
    pub value: String,
    /// What is allowed.
    pub rule: String,
}

impl FilterError {
    fn of(param: &'static str, e: DomainError) -> Self {
        match e {
            DomainError::UnknownValue { value, allowed, .. } => {
                Self { param, value, rule: format!("allowed values are {allowed}") }
            }
            DomainError::Invalid { value, reason, .. } => {
                Self { param, value, rule: reason.to_owned() }
            }
        }
    }
}

/// The filter of `params` (other parameters are left to the caller).
pub fn parse(params: &[(String, String)]) -> Result<CompanyFilter, FilterError> {
    let q = params
        .iter()
        .find(|(k, _)| k == "q")
        .map(|(_, v)| v.trim().to_owned())
        .filter(|v| !v.is_empty());
    Ok(CompanyFilter {
        q,
        regions: values(params, "regions", Region::parse)?,
        countries: values(params, "countries", CountryCode::parse)?,
        work_modes: values(params, "work_mode", WorkMode::parse)?,
        sources: values(params, "source", |raw| {
            let known = freehire_ingest::provider_keys();
            let provider = Provider::parse(raw)?;
            if known.contains(&provider.as_str()) || provider.as_str() == Provider::MANUAL {
                Ok(provider)
            } else {
                Err(DomainError::UnknownValue {
                    field: "source",
                    value: raw.to_owned(),
                    allowed: format!("{}, {}", known.join(", "), Provider::MANUAL),
                })
            }
        })?,
        skills: values(params, "skills", |s| {
            Ok::<_, DomainError>(
                freehire_normalize::canonical_skill(s)
                    .map_or_else(|| s.to_ascii_lowercase(), str::to_owned),
            )
        })?,
    })
}

fn values<T: PartialEq>(
    params: &[(String, String)],
    param: &'static str,
    parse: impl Fn(&str) -> Result<T, DomainError>,
) -> Result<Vec<T>, FilterError> {
    let mut out = Vec::new();
    for raw in params.iter().filter(|(k, _)| k == param).flat_map(|(_, v)| v.split(',')) {
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        let value = parse(raw).map_err(|e| FilterError::of(param, e))?;
        if !out.contains(&value) {
            out.push(value);
        }
        if out.len() > MAX_VALUES {
            return Err(FilterError {
                param,
                value: raw.to_owned(),
                rule: format!("at most {MAX_VALUES} values"),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn repeated_and_comma_joined_values_are_one_list() {
        let f = parse(&params(&[
            ("countries", "de, us"),
            ("countries", "DE"),
            ("work_mode", "remote"),
            ("skills", "Rust,,Go"),
            ("q", "  acme "),
        ]))
        .unwrap();
        let countries: Vec<&str> = f.countries.iter().map(|c| c.as_str()).collect();
        assert_eq!(countries, ["de", "us"]);
        assert_eq!(f.work_modes, [WorkMode::Remote]);
        assert_eq!(f.skills, ["rust", "go"]);
        assert_eq!(f.q.as_deref(), Some("acme"));
        assert_eq!(parse(&params(&[("q", "  ")])).unwrap(), CompanyFilter::default());
    }

    #[test]
    fn a_value_outside_a_vocabulary_names_the_parameter_and_the_allowed_set() {
        let e = parse(&params(&[("work_mode", "remote,sometimes")])).unwrap_err();
        assert_eq!((e.param, e.value.as_str()), ("work_mode", "sometimes"));
        assert!(e.rule.contains("remote, hybrid, onsite"), "{e}");
        let e = parse(&params(&[("regions", "mars")])).unwrap_err();
        assert_eq!(e.param, "regions");
        let e = parse(&params(&[("source", "monster")])).unwrap_err();
        assert_eq!(e.param, "source");
        let e = parse(&params(&[("countries", "germany")])).unwrap_err();
        assert_eq!(e.param, "countries");
        let many = (0..=MAX_VALUES).map(|i| format!("s{i}")).collect::<Vec<_>>().join(",");
        let e = parse(&params(&[("skills", &many)])).unwrap_err();
        assert!(e.rule.contains("at most"), "{e}");
    }
}
