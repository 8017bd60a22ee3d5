//! How values read on a page: instants in the viewer's zone, salaries, facet values as
//! labels (`north_america` → "North America", `de` → "DE").

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use freehire_domain::Salary;

/// `2026-11-20 13:00` in `tz`.
pub fn date(at: DateTime<Utc>, tz: Tz) -> String {
    at.with_timezone(&tz).format("%Y-%m-%d %H:%M").to_string()
}

/// `2026-11-20` in `tz`.
pub fn day(at: DateTime<Utc>, tz: Tz) -> String {
    at.with_timezone(&tz).format("%Y-%m-%d").to_string()
}

/// A number with thousands separators: `80000` → `80,000`.
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

/// `80,000–100,000 EUR a year`, or what of it is known.
pub fn salary(s: &Salary) -> String {
    let range = salary_bounds(s.min, s.max).unwrap_or_default();
    format!("{range} {} a {}", s.currency, s.period.as_str()).trim().to_owned()
}

/// `min`–`max` of the index's salary fields.
pub fn salary_bounds(min: Option<i64>, max: Option<i64>) -> Option<String> {
    match (min, max) {
        (Some(a), Some(b)) if a == b => Some(thousands(a)),
        (Some(a), Some(b)) => Some(format!("{}–{}", thousands(a), thousands(b))),
        (Some(a), None) => Some(format!("from {}", thousands(a))),
        (None, Some(b)) => Some(format!("up to {}", thousands(b))),
        (None, None) => None,
    }
}

/// A facet value as a label: snake case in words with a capital, two-letter codes upper-case.
pub fn label(param: &str, value: &str) -> String {
    match param {
        "countries" => value.to_ascii_uppercase(),
        "skills" | "cities" => value.to_owned(),
        // A slug's words, capitalised: `acme-robotics` reads "Acme Robotics".
        "company_slug" => value.split('-').map(capitalised).collect::<Vec<_>>().join(" "),
        "regions" => match value {
            "eu" | "uk" | "mena" | "apac" | "cis" => value.to_ascii_uppercase(),
            "latam" => "Latin America".to_owned(),
            "none" => "No region".to_owned(),
            _ => value.split('_').map(capitalised).collect::<Vec<_>>().join(" "),
        },
        _ => capitalised(&value.replace('_', " ")),
    }
}

/// `value` with its first letter upper-cased.
fn capitalised(value: &str) -> String {
    let mut chars = value.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_labels_read_well() {
        assert_eq!(thousands(80_000), "80,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(-950), "-950");
        assert_eq!(label("regions", "north_america"), "North America");
        assert_eq!(label("work_mode", "full_time"), "Full time");
        assert_eq!(label("regions", "eu"), "EU");
        assert_eq!(label("countries", "de"), "DE");
        assert_eq!(label("skills", "rust"), "rust");
        assert_eq!(label("company_slug", "acme-robotics"), "Acme Robotics");
    }
}
