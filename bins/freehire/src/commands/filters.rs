//! The search filters the catalogue commands share (`search`, `facets`, `market-fit`): the
//! reference client's flags (`--remote --region --country --city --company --category --role
//! --seniority --employment-type --english-level --salary-min --visa --facet key=value`) and
//! ours, each becoming the search grammar's query parameters, so the server checks every value
//! and names a bad one.

use clap::Args;

/// The filter flags.
#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    /// Country codes (`de`, `us`); repeat or comma-join for any of them.
    #[arg(long, visible_alias = "country", value_name = "CODES")]
    pub countries: Vec<String>,
    /// Regions (`eu`, `north_america`, `none` = no region).
    #[arg(long, visible_alias = "region", value_name = "REGIONS")]
    pub regions: Vec<String>,
    /// Canonical city names (`Berlin`; `freehire cities` completes them).
    #[arg(long, visible_alias = "city", value_name = "CITIES")]
    pub cities: Vec<String>,
    /// Work mode: remote, hybrid or onsite.
    #[arg(long, value_name = "MODE")]
    pub work_mode: Vec<String>,
    /// Remote jobs only (`--work-mode remote`).
    #[arg(long)]
    pub remote: bool,
    /// Company slugs (`acme`).
    #[arg(long, value_name = "SLUGS")]
    pub company: Vec<String>,
    /// Categories (`backend`, `data_science`, …).
    #[arg(long, value_name = "CATEGORIES")]
    pub category: Vec<String>,
    /// Role type (`people_manager`).
    #[arg(long, value_name = "ROLE")]
    pub role: Vec<String>,
    /// Skills (`rust`, `go`).
    #[arg(long, value_name = "SKILLS")]
    pub skills: Vec<String>,
    /// Seniority (`junior`, `senior`, `staff`, …).
    #[arg(long, value_name = "GRADES")]
    pub seniority: Vec<String>,
    /// Employment type (`full_time`, `contract`, …).
    #[arg(long, value_name = "TYPES")]
    pub employment_type: Vec<String>,
    /// Required English level (`b2`, `c1`, `native`, …).
    #[arg(long, value_name = "LEVELS")]
    pub english_level: Vec<String>,
    /// The lowest yearly salary wanted.
    #[arg(long, value_name = "AMOUNT")]
    pub salary_min: Option<u64>,
    /// Jobs that sponsor a visa only.
    #[arg(long)]
    pub visa: bool,
    /// Any facet as `NAME=VALUE` (`--facet domains=fintech`); repeat for more.
    #[arg(long = "facet", value_name = "NAME=VALUE", value_parser = key_value)]
    pub facet: Vec<(String, String)>,
    /// Any other search parameter, as over HTTP: `--param sort=salary_min`,
    /// `--param skills_exclude=php`, `--param posted_within_days=7`.
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = key_value)]
    pub params: Vec<(String, String)>,
}

/// `KEY=VALUE`, the key not blank.
pub fn key_value(raw: &str) -> Result<(String, String), String> {
    match raw.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.to_owned())),
        _ => Err(format!("expected KEY=VALUE, got {raw:?}")),
    }
}

impl FilterArgs {
    /// The facet filters as `(parameter, values)`, in the grammar's names.
    pub fn filters(&self) -> Vec<(String, Vec<String>)> {
        let mut work_mode = self.work_mode.clone();
        if self.remote && !work_mode.iter().any(|m| m == "remote") {
            work_mode.push("remote".to_owned());
        }
        [
            ("countries", self.countries.clone()),
            ("regions", self.regions.clone()),
            ("cities", self.cities.clone()),
            ("work_mode", work_mode),
            ("company_slug", self.company.clone()),
            ("category", self.category.clone()),
            ("role_type", self.role.clone()),
            ("skills", self.skills.clone()),
            ("seniority", self.seniority.clone()),
            ("employment_type", self.employment_type.clone()),
            ("english_level", self.english_level.clone()),
        ]
        .into_iter()
        .filter(|(_, values)| !values.is_empty())
        .map(|(name, values)| (name.to_owned(), values))
        .collect()
    }

    /// The other parameters: the salary floor, the visa flag, `--facet` and `--param`.
    pub fn extra(&self) -> Vec<(String, String)> {
        let mut extra = Vec::new();
        if let Some(min) = self.salary_min {
            extra.push(("salary_min".to_owned(), min.to_string()));
        }
        if self.visa {
            extra.push(("visa_sponsorship".to_owned(), "true".to_owned()));
        }
        extra.extend(self.facet.iter().cloned());
        extra.extend(self.params.iter().cloned());
        extra
    }

    /// Every parameter, filters first.
    pub fn params(&self) -> Vec<(String, String)> {
        let mut params: Vec<(String, String)> = self
            .filters()
            .into_iter()
            .flat_map(|(name, values)| values.into_iter().map(move |v| (name.clone(), v)))
            .collect();
        params.extend(self.extra());
        params
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_reference_flags_become_grammar_parameters() {
        let f = FilterArgs {
            countries: vec!["de".into()],
            remote: true,
            company: vec!["acme".into()],
            role: vec!["people_manager".into()],
            salary_min: Some(90_000),
            visa: true,
            facet: vec![("domains".into(), "fintech".into())],
            ..FilterArgs::default()
        };
        assert_eq!(
            f.params(),
            [
                ("countries", "de"),
                ("work_mode", "remote"),
                ("company_slug", "acme"),
                ("role_type", "people_manager"),
                ("salary_min", "90000"),
                ("visa_sponsorship", "true"),
                ("domains", "fintech"),
            ]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
        );
    }

    #[test]
    fn params_need_a_key_and_a_value() {
        assert_eq!(key_value("sort=salary_min").unwrap(), ("sort".into(), "salary_min".into()));
        assert_eq!(key_value("q=a=b").unwrap(), ("q".into(), "a=b".into()));
        assert!(key_value("sort").is_err());
        assert!(key_value("=x").is_err());
    }
}
