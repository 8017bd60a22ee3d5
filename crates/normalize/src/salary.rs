//! Salary (reference §3.11): only from structured source fields. The period must be one of
//! `year`, `month`, `day`, `hour`; otherwise, or when the figures do not make a range, the
//! whole salary is dropped.

use freehire_domain::{Salary, SalaryPeriod};

/// The salary parts an adapter read from structured fields, unchecked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SalaryParts {
    /// Lower bound in whole currency units.
    pub min: Option<i64>,
    /// Upper bound in whole currency units.
    pub max: Option<i64>,
    /// ISO 4217 code.
    pub currency: Option<String>,
    /// Period as the source wrote it (`year`, `month`, `day`, `hour`, any case).
    pub period: Option<String>,
}

/// The salary, or `None` when any part is missing or invalid. Zero bounds mean "not given".
pub fn salary(parts: &SalaryParts) -> Option<Salary> {
    let period = SalaryPeriod::parse(&parts.period.as_deref()?.trim().to_ascii_lowercase()).ok()?;
    let positive = |v: Option<i64>| v.filter(|v| *v > 0);
    Salary::new(positive(parts.min), positive(parts.max), parts.currency.as_deref()?, period).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(min: Option<i64>, max: Option<i64>, cur: &str, period: &str) -> SalaryParts {
        SalaryParts { min, max, currency: Some(cur.into()), period: Some(period.into()) }
    }

    // scenario: Bad period
    #[test]
    fn salary_table() {
        let ok = salary(&parts(Some(100_000), Some(150_000), "usd", "Year")).unwrap();
        assert_eq!(
            (ok.min, ok.max, ok.currency.as_str(), ok.period),
            (Some(100_000), Some(150_000), "USD", SalaryPeriod::Year)
        );
        assert_eq!(
            salary(&parts(Some(50), None, "EUR", "hour")).unwrap().period,
            SalaryPeriod::Hour
        );
        let dropped = [
            parts(Some(1), Some(2), "USD", "week"),
            parts(Some(1), Some(2), "USD", ""),
            parts(Some(3), Some(2), "USD", "year"),
            parts(None, None, "USD", "year"),
            parts(Some(0), Some(0), "USD", "year"),
            parts(Some(1), Some(2), "dollars", "year"),
            SalaryParts::default(),
        ];
        for p in dropped {
            assert_eq!(salary(&p), None, "{p:?}");
        }
    }
}
