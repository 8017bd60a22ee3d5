//! Scalar bounds (reference §5.5): visa sponsorship, salary and experience bounds, and the
//! posted/open within-days windows. A value that does not parse, or a window outside
//! 1..=36,500 days, is refused naming the parameter (a blank value is the same as none).

use crate::SearchError;

/// Smallest accepted `posted_within_days` / `open_within_days`.
pub const MIN_WITHIN_DAYS: u32 = 1;
/// Largest accepted `posted_within_days` / `open_within_days`.
pub const MAX_WITHIN_DAYS: u32 = 36_500;

/// The scalar parameter names, in rendering order.
pub const SCALAR_PARAMS: &[&str] = &[
    "visa_sponsorship",
    "salary_min",
    "salary_max",
    "experience_years_min",
    "experience_years_max",
    "posted_within_days",
    "open_within_days",
];

/// The scalar bounds of a query; `None` means not given (or ignored).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scalars {
    /// `visa_sponsorship=true|false`.
    pub visa_sponsorship: Option<bool>,
    /// `enrichment.salary_min >= N` (currency not normalised).
    pub salary_min: Option<i64>,
    /// `enrichment.salary_max <= N` (currency not normalised).
    pub salary_max: Option<i64>,
    /// `enrichment.experience_years_min >= N`.
    pub experience_years_min: Option<i64>,
    /// `enrichment.experience_years_min <= N`, N ≥ 0.
    pub experience_years_max: Option<i64>,
    /// `posted_ts >= now − N·86400`, N in 1..=36,500.
    pub posted_within_days: Option<u32>,
    /// `created_ts >= now − N·86400`, N in 1..=36,500.
    pub open_within_days: Option<u32>,
}

impl Scalars {
    /// Reads `value` into the field named `param` (one of [`SCALAR_PARAMS`]). A blank value
    /// is the same as none; any other value must be usable (an error names the parameter and
    /// what it takes); the first value of a parameter wins.
    pub(crate) fn read(&mut self, param: &str, value: &str) -> Result<(), SearchError> {
        let v = value.trim();
        if v.is_empty() {
            return Ok(());
        }
        let int =
            || v.parse::<i64>().map_err(|_| SearchError::invalid(param, v, "must be an integer"));
        let days = || {
            v.parse::<u32>()
                .ok()
                .filter(|n| (MIN_WITHIN_DAYS..=MAX_WITHIN_DAYS).contains(n))
                .ok_or_else(|| {
                    SearchError::invalid(
                        param,
                        v,
                        format!("must be an integer from {MIN_WITHIN_DAYS} to {MAX_WITHIN_DAYS}"),
                    )
                })
        };
        match param {
            "visa_sponsorship" => {
                let b = match v {
                    "true" => true,
                    "false" => false,
                    _ => return Err(SearchError::unknown(param, v, "true, false")),
                };
                set(&mut self.visa_sponsorship, b);
            }
            "salary_min" => set(&mut self.salary_min, int()?),
            "salary_max" => set(&mut self.salary_max, int()?),
            "experience_years_min" => set(&mut self.experience_years_min, int()?),
            "experience_years_max" => {
                let n = int()?;
                if n < 0 {
                    return Err(SearchError::invalid(param, v, "must be 0 or more"));
                }
                set(&mut self.experience_years_max, n);
            }
            "posted_within_days" => set(&mut self.posted_within_days, days()?),
            "open_within_days" => set(&mut self.open_within_days, days()?),
            _ => {}
        }
        Ok(())
    }

    /// The names of the scalar parameters in effect.
    pub fn active_params(&self) -> Vec<&'static str> {
        let on = [
            self.visa_sponsorship.is_some(),
            self.salary_min.is_some(),
            self.salary_max.is_some(),
            self.experience_years_min.is_some(),
            self.experience_years_max.is_some(),
            self.posted_within_days.is_some(),
            self.open_within_days.is_some(),
        ];
        SCALAR_PARAMS.iter().zip(on).filter(|(_, on)| *on).map(|(p, _)| *p).collect()
    }
}

/// Stores `value` when the slot is still empty (the first value wins).
fn set<T>(slot: &mut Option<T>, value: T) {
    if slot.is_none() {
        *slot = Some(value);
    }
}
