//! Scalar bounds (reference §5.5): visa sponsorship, salary and experience bounds, and the
//! posted/open within-days windows. A value that does not parse, or a window outside
//! 1..=36,500 days, is ignored (and reported in `ignored_params`), never an error.

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
    /// `visa_sponsorship=true` is `Some(true)`; any other non-empty value is `Some(false)`.
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

/// Outcome of reading one scalar parameter.
pub(crate) enum Read {
    /// Taken into the query.
    Taken,
    /// Not usable; the parameter is ignored.
    Ignored,
}

impl Scalars {
    /// Reads `value` into the field named `param` (one of [`SCALAR_PARAMS`]). The first usable
    /// value of a parameter wins.
    pub(crate) fn read(&mut self, param: &str, value: &str) -> Read {
        let v = value.trim();
        let int = v.parse::<i64>().ok();
        let days = int
            .filter(|n| (i64::from(MIN_WITHIN_DAYS)..=i64::from(MAX_WITHIN_DAYS)).contains(n))
            .and_then(|n| u32::try_from(n).ok());
        let slot_taken = match param {
            "visa_sponsorship" if !v.is_empty() => {
                set(&mut self.visa_sponsorship, Some(v == "true"))
            }
            "salary_min" => set(&mut self.salary_min, int),
            "salary_max" => set(&mut self.salary_max, int),
            "experience_years_min" => set(&mut self.experience_years_min, int),
            "experience_years_max" => set(&mut self.experience_years_max, int.filter(|n| *n >= 0)),
            "posted_within_days" => set(&mut self.posted_within_days, days),
            "open_within_days" => set(&mut self.open_within_days, days),
            _ => false,
        };
        if slot_taken { Read::Taken } else { Read::Ignored }
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

/// Stores `value` when the slot is still empty; true when the value was usable (a later
/// repeat of an already-set parameter counts as usable and is simply not used).
fn set<T>(slot: &mut Option<T>, value: Option<T>) -> bool {
    match value {
        None => false,
        Some(v) => {
            if slot.is_none() {
                *slot = Some(v);
            }
            true
        }
    }
}
