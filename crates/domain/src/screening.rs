//! Screening answers (reference assistant.md §10.5): the facts application forms ask every
//! candidate (where they may work, whether they need a visa, the salary they want, their
//! notice period, whether they would relocate, whether they are of age), kept once per account
//! so the candidate never types them twice.
//!
//! [`ScreeningAnswers`] is what is stored: every fact optional, unknown until the candidate
//! states it. [`ScreeningPatch`] is a partial update: an absent field is left untouched, a
//! cleared one (`Some(None)`) is forgotten. Its JSON form (absent fields left out, cleared ones
//! `null`) is an RFC 7396 merge patch, which is how the store applies it in one statement.
//! Values are checked when the patch is built ([`ScreeningPatch::check`]): ISO 3166-1 country
//! codes (deduplicated, sorted, at most [`MAX_AUTHORIZED_COUNTRIES`]), an ISO 4217 currency, a
//! positive amount up to [`MAX_SALARY_AMOUNT`], a notice period up to [`MAX_NOTICE_DAYS`].

use serde::{Deserialize, Serialize};

use crate::{CountryCode, DomainError, SalaryPeriod};

/// The most countries a candidate may list as authorised to work in.
pub const MAX_AUTHORIZED_COUNTRIES: usize = 60;
/// The largest desired salary amount (whole currency units).
pub const MAX_SALARY_AMOUNT: u64 = 1_000_000_000;
/// The longest notice period, in days (two years).
pub const MAX_NOTICE_DAYS: u16 = 730;

/// The candidate's screening answers as stored: `None` is "not stated".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreeningAnswers {
    /// Countries the candidate may work in without sponsorship, sorted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorized_countries: Option<Vec<CountryCode>>,
    /// Whether they need visa sponsorship.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visa_sponsorship_needed: Option<bool>,
    /// The salary they ask for, in whole units of [`desired_salary_currency`](Self::desired_salary_currency).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired_salary_amount: Option<u64>,
    /// The ISO 4217 code of the desired salary, upper case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired_salary_currency: Option<String>,
    /// What the desired salary is paid per.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired_salary_period: Option<SalaryPeriod>,
    /// Their notice period, in days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice_period_days: Option<u16>,
    /// Whether they would relocate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub willing_to_relocate: Option<bool>,
    /// Whether they are 18 or older.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub age_18_or_older: Option<bool>,
}

impl ScreeningAnswers {
    /// Whether nothing is stated.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The answers with `patch` applied (what the store's merge computes, for callers that
    /// hold the answers already and for tests).
    pub fn patched(mut self, patch: &ScreeningPatch) -> Self {
        fn set<T: Clone>(slot: &mut Option<T>, change: &Option<Option<T>>) {
            if let Some(value) = change {
                slot.clone_from(value);
            }
        }
        set(&mut self.authorized_countries, &patch.authorized_countries);
        set(&mut self.visa_sponsorship_needed, &patch.visa_sponsorship_needed);
        set(&mut self.desired_salary_amount, &patch.desired_salary_amount);
        set(&mut self.desired_salary_currency, &patch.desired_salary_currency);
        set(&mut self.desired_salary_period, &patch.desired_salary_period);
        set(&mut self.notice_period_days, &patch.notice_period_days);
        set(&mut self.willing_to_relocate, &patch.willing_to_relocate);
        set(&mut self.age_18_or_older, &patch.age_18_or_older);
        self
    }
}

/// A partial update of [`ScreeningAnswers`]: `None` leaves a field, `Some(None)` clears it.
/// Serialised, it is the merge patch the store applies (absent fields left out, clears `null`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ScreeningPatch {
    /// See [`ScreeningAnswers::authorized_countries`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorized_countries: Option<Option<Vec<CountryCode>>>,
    /// See [`ScreeningAnswers::visa_sponsorship_needed`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visa_sponsorship_needed: Option<Option<bool>>,
    /// See [`ScreeningAnswers::desired_salary_amount`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_amount: Option<Option<u64>>,
    /// See [`ScreeningAnswers::desired_salary_currency`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_currency: Option<Option<String>>,
    /// See [`ScreeningAnswers::desired_salary_period`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_salary_period: Option<Option<SalaryPeriod>>,
    /// See [`ScreeningAnswers::notice_period_days`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice_period_days: Option<Option<u16>>,
    /// See [`ScreeningAnswers::willing_to_relocate`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub willing_to_relocate: Option<Option<bool>>,
    /// See [`ScreeningAnswers::age_18_or_older`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_18_or_older: Option<Option<bool>>,
}

/// The raw values of a patch as an edge received them (strings and numbers not yet checked):
/// `None` leaves a field, `Some(None)` clears it.
#[derive(Debug, Clone, Default)]
pub struct RawScreening<'a> {
    /// Country codes, any case.
    pub authorized_countries: Option<Option<Vec<&'a str>>>,
    /// As stated.
    pub visa_sponsorship_needed: Option<Option<bool>>,
    /// Any integer; checked to be positive and at most [`MAX_SALARY_AMOUNT`].
    pub desired_salary_amount: Option<Option<i64>>,
    /// A currency code, any case.
    pub desired_salary_currency: Option<Option<&'a str>>,
    /// `year`, `month`, `day` or `hour`.
    pub desired_salary_period: Option<Option<&'a str>>,
    /// Any integer; checked to be 0 to [`MAX_NOTICE_DAYS`].
    pub notice_period_days: Option<Option<i64>>,
    /// As stated.
    pub willing_to_relocate: Option<Option<bool>>,
    /// As stated.
    pub age_18_or_older: Option<Option<bool>>,
}

/// `f` over a present, non-null value; absence and `null` pass through.
fn each<T, U>(
    value: Option<Option<T>>,
    f: impl FnOnce(T) -> Result<U, DomainError>,
) -> Result<Option<Option<U>>, DomainError> {
    value.map(|v| v.map(f).transpose()).transpose()
}

impl ScreeningPatch {
    /// Checks every present value; the first bad one is an error naming its field.
    pub fn check(raw: RawScreening<'_>) -> Result<Self, DomainError> {
        Ok(Self {
            authorized_countries: each(raw.authorized_countries, countries)?,
            visa_sponsorship_needed: raw.visa_sponsorship_needed,
            desired_salary_amount: each(raw.desired_salary_amount, amount)?,
            desired_salary_currency: each(raw.desired_salary_currency, currency)?,
            desired_salary_period: each(raw.desired_salary_period, |p| {
                SalaryPeriod::parse(p.trim()).map_err(|_| DomainError::UnknownValue {
                    field: "desired_salary_period",
                    value: p.to_owned(),
                    allowed: SalaryPeriod::ALL
                        .iter()
                        .map(|p| p.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                })
            })?,
            notice_period_days: each(raw.notice_period_days, notice)?,
            willing_to_relocate: raw.willing_to_relocate,
            age_18_or_older: raw.age_18_or_older,
        })
    }

    /// Whether the patch changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

fn countries(raw: Vec<&str>) -> Result<Vec<CountryCode>, DomainError> {
    let mut out = raw
        .into_iter()
        .map(|c| {
            CountryCode::parse(c).map_err(|_| {
                DomainError::invalid(
                    "authorized_countries",
                    c,
                    "must be an ISO 3166-1 alpha-2 code such as \"de\"",
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    out.sort();
    out.dedup();
    if out.len() > MAX_AUTHORIZED_COUNTRIES {
        return Err(DomainError::invalid(
            "authorized_countries",
            out.len().to_string(),
            "lists more than 60 countries",
        ));
    }
    Ok(out)
}

fn amount(raw: i64) -> Result<u64, DomainError> {
    u64::try_from(raw).ok().filter(|a| (1..=MAX_SALARY_AMOUNT).contains(a)).ok_or_else(|| {
        DomainError::invalid(
            "desired_salary_amount",
            raw.to_string(),
            "must be a whole amount from 1 to 1000000000",
        )
    })
}

fn currency(raw: &str) -> Result<String, DomainError> {
    let code = raw.trim().to_ascii_uppercase();
    match iso_currency::Currency::from_code(&code) {
        Some(_) => Ok(code),
        None => Err(DomainError::invalid(
            "desired_salary_currency",
            raw,
            "must be an ISO 4217 currency code such as EUR or USD",
        )),
    }
}

fn notice(raw: i64) -> Result<u16, DomainError> {
    u16::try_from(raw).ok().filter(|d| *d <= MAX_NOTICE_DAYS).ok_or_else(|| {
        DomainError::invalid(
            "notice_period_days",
            raw.to_string(),
            "must be a number of days from 0 to 730",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patch(raw: RawScreening<'_>) -> Result<ScreeningPatch, DomainError> {
        ScreeningPatch::check(raw)
    }

    #[test]
    fn values_are_checked_and_normalised() {
        let p = patch(RawScreening {
            authorized_countries: Some(Some(vec!["DE", "fr", "de"])),
            desired_salary_amount: Some(Some(85_000)),
            desired_salary_currency: Some(Some(" eur ")),
            desired_salary_period: Some(Some("year")),
            notice_period_days: Some(Some(90)),
            ..RawScreening::default()
        })
        .unwrap();
        let countries = p.authorized_countries.clone().unwrap().unwrap();
        assert_eq!(countries.iter().map(CountryCode::as_str).collect::<Vec<_>>(), ["de", "fr"]);
        assert_eq!(p.desired_salary_currency, Some(Some("EUR".to_owned())));
        assert_eq!(p.desired_salary_period, Some(Some(SalaryPeriod::Year)));
    }

    #[test]
    fn bad_values_name_their_field() {
        let cases: Vec<(RawScreening<'_>, &str)> = vec![
            (
                RawScreening {
                    authorized_countries: Some(Some(vec!["germany"])),
                    ..Default::default()
                },
                "authorized_countries",
            ),
            (
                RawScreening { desired_salary_amount: Some(Some(0)), ..Default::default() },
                "desired_salary_amount",
            ),
            (
                RawScreening { desired_salary_amount: Some(Some(-5)), ..Default::default() },
                "desired_salary_amount",
            ),
            (
                RawScreening { desired_salary_currency: Some(Some("EURO")), ..Default::default() },
                "desired_salary_currency",
            ),
            (
                RawScreening { desired_salary_currency: Some(Some("ABC")), ..Default::default() },
                "desired_salary_currency",
            ),
            (
                RawScreening { desired_salary_period: Some(Some("week")), ..Default::default() },
                "desired_salary_period",
            ),
            (
                RawScreening { notice_period_days: Some(Some(731)), ..Default::default() },
                "notice_period_days",
            ),
        ];
        for (raw, field) in cases {
            let e = patch(raw).unwrap_err().to_string();
            assert!(e.contains(field), "{e}");
        }
        let e =
            patch(RawScreening { desired_salary_period: Some(Some("week")), ..Default::default() })
                .unwrap_err()
                .to_string();
        assert!(e.contains("year, month, day, hour"), "{e}");
    }

    #[test]
    fn the_patch_is_a_merge_patch() {
        let p = patch(RawScreening {
            visa_sponsorship_needed: Some(Some(true)),
            notice_period_days: Some(None),
            ..Default::default()
        })
        .unwrap();
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"visa_sponsorship_needed": true, "notice_period_days": null})
        );
    }

    #[test]
    fn patched_leaves_absent_fields_and_clears_nulls() {
        let stored = ScreeningAnswers {
            notice_period_days: Some(30),
            willing_to_relocate: Some(false),
            ..Default::default()
        };
        let p = ScreeningPatch {
            notice_period_days: Some(None),
            age_18_or_older: Some(Some(true)),
            ..Default::default()
        };
        let after = stored.patched(&p);
        assert_eq!(after.notice_period_days, None);
        assert_eq!(after.willing_to_relocate, Some(false));
        assert_eq!(after.age_18_or_older, Some(true));
        assert!(!after.is_empty());
        assert!(ScreeningAnswers::default().is_empty());
    }
}
