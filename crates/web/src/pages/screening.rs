//! The "Screening answers" section of `/account` and its action `POST /account/screening`:
//! the candidate's answers to the usual application-form questions (reference assistant.md
//! §10.5), the same answers the assistant records with `screening_answers_set`. The form
//! sends every field; a blank one is forgotten, so what the page shows after saving is exactly
//! what was typed. A bad value re-renders the page with the message next to its field and
//! writes nothing.

use freehire_domain::screening::RawScreening;
use freehire_domain::{DomainError, SalaryPeriod, ScreeningAnswers, ScreeningPatch};

use super::forms::Fields;

/// A yes/no/not-stated choice as the form shows it.
pub struct Choice {
    /// The field's name.
    pub name: &'static str,
    /// Its label.
    pub label: &'static str,
    /// `yes`, `no` or empty.
    pub value: String,
}

/// The section's values: as stored, or as typed after an error.
pub struct ScreeningForm {
    /// Country codes, comma-separated.
    pub countries: String,
    /// Digits.
    pub salary: String,
    /// A currency code.
    pub currency: String,
    /// `year`, `month`, `day`, `hour` or empty.
    pub period: String,
    /// Every period, for the select.
    pub periods: Vec<&'static str>,
    /// Digits.
    pub notice: String,
    /// The yes/no questions.
    pub choices: Vec<Choice>,
}

const CHOICES: [(&str, &str); 3] = [
    ("visa_sponsorship_needed", "Do you need visa sponsorship?"),
    ("willing_to_relocate", "Would you relocate?"),
    ("age_18_or_older", "Are you 18 or older?"),
];

fn yes_no(b: Option<bool>) -> String {
    b.map_or_else(String::new, |b| if b { "yes" } else { "no" }.to_owned())
}

impl ScreeningForm {
    /// The form over the stored answers, or over what was typed.
    pub fn new(stored: &ScreeningAnswers, typed: Option<&Fields>) -> Self {
        let stored_choices =
            [stored.visa_sponsorship_needed, stored.willing_to_relocate, stored.age_18_or_older];
        let pick = |name: &str, value: String| typed.map_or(value, |f| f.get(name).to_owned());
        Self {
            countries: pick(
                "authorized_countries",
                stored
                    .authorized_countries
                    .as_ref()
                    .map(|l| l.iter().map(|c| c.as_str().to_ascii_uppercase()).collect::<Vec<_>>())
                    .unwrap_or_default()
                    .join(", "),
            ),
            salary: pick(
                "desired_salary_amount",
                stored.desired_salary_amount.map(|n| n.to_string()).unwrap_or_default(),
            ),
            currency: pick(
                "desired_salary_currency",
                stored.desired_salary_currency.clone().unwrap_or_default(),
            ),
            period: pick(
                "desired_salary_period",
                stored.desired_salary_period.map(|p| p.as_str().to_owned()).unwrap_or_default(),
            ),
            periods: SalaryPeriod::ALL.iter().map(|p| p.as_str()).collect(),
            notice: pick(
                "notice_period_days",
                stored.notice_period_days.map(|d| d.to_string()).unwrap_or_default(),
            ),
            choices: CHOICES
                .iter()
                .zip(stored_choices)
                .map(|((name, label), value)| Choice {
                    name,
                    label,
                    value: pick(name, yes_no(value)),
                })
                .collect(),
        }
    }
}

/// An integer field: blank forgets it, anything but digits is refused naming the field.
fn number(f: &Fields, field: &'static str) -> Result<Option<i64>, DomainError> {
    f.optional(field)
        .map(|raw| {
            raw.replace([',', '_', ' '], "").parse::<i64>().map_err(|_| DomainError::Invalid {
                field,
                value: raw.to_owned(),
                reason: "must be a whole number",
            })
        })
        .transpose()
}

/// A yes/no select: blank forgets it.
fn choice(f: &Fields, field: &'static str) -> Result<Option<bool>, DomainError> {
    match f.get(field) {
        "" => Ok(None),
        "yes" => Ok(Some(true)),
        "no" => Ok(Some(false)),
        other => Err(DomainError::UnknownValue {
            field,
            value: other.to_owned(),
            allowed: "yes, no".to_owned(),
        }),
    }
}

/// The whole form as a patch: every field set, blanks forgotten.
pub fn patch_of(f: &Fields) -> Result<ScreeningPatch, DomainError> {
    let countries: Vec<&str> =
        f.get("authorized_countries").split([',', ' ', ';']).filter(|c| !c.is_empty()).collect();
    ScreeningPatch::check(RawScreening {
        authorized_countries: Some((!countries.is_empty()).then_some(countries)),
        visa_sponsorship_needed: Some(choice(f, "visa_sponsorship_needed")?),
        desired_salary_amount: Some(number(f, "desired_salary_amount")?),
        desired_salary_currency: Some(f.optional("desired_salary_currency")),
        desired_salary_period: Some(f.optional("desired_salary_period")),
        notice_period_days: Some(number(f, "notice_period_days")?),
        willing_to_relocate: Some(choice(f, "willing_to_relocate")?),
        age_18_or_older: Some(choice(f, "age_18_or_older")?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_is_a_whole_patch_and_blanks_forget() {
        let f = Fields::parse(
            b"authorized_countries=DE%2C+fr&desired_salary_amount=85%2C000&desired_salary_currency=eur\
              &desired_salary_period=year&notice_period_days=&visa_sponsorship_needed=no\
              &willing_to_relocate=&age_18_or_older=yes",
        );
        let p = patch_of(&f).unwrap();
        let after = ScreeningAnswers::default().patched(&p);
        assert_eq!(after.desired_salary_amount, Some(85_000));
        assert_eq!(after.desired_salary_currency.as_deref(), Some("EUR"));
        assert_eq!(after.visa_sponsorship_needed, Some(false));
        assert_eq!(p.notice_period_days, Some(None), "blank forgets");
        assert_eq!(p.willing_to_relocate, Some(None));
        let form = ScreeningForm::new(&after, None);
        assert_eq!(form.countries, "DE, FR");
        assert_eq!(form.choices[2].value, "yes");
    }

    #[test]
    fn bad_values_name_their_field() {
        let e = patch_of(&Fields::parse(b"notice_period_days=soon")).unwrap_err();
        assert!(e.to_string().contains("notice_period_days"), "{e}");
        let e = patch_of(&Fields::parse(b"willing_to_relocate=maybe")).unwrap_err();
        assert!(e.to_string().contains("yes, no"), "{e}");
    }
}
