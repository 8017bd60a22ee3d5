//! `freehire screening …`: your answers to the usual application-form questions on a freehire
//! server, over the API with a `full` key. `set` changes only the answers it is given;
//! `--clear FIELD` forgets one.

use std::io::Write;

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use freehire_client::screening::{ScreeningAnswers, ScreeningUpdate};

use super::remote::Remote;

/// An answer `--clear` forgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Field {
    /// `--country`.
    Countries,
    /// `--visa-sponsorship`.
    VisaSponsorship,
    /// `--salary`, `--currency` and `--period`.
    Salary,
    /// `--notice-days`.
    Notice,
    /// `--relocate`.
    Relocate,
    /// `--adult`.
    Adult,
}

/// `freehire screening …`
#[derive(Debug, Subcommand)]
pub enum ScreeningCommand {
    /// Your screening answers, and the ones not stated yet.
    Show {
        /// Print JSON instead of a list.
        #[arg(long)]
        json: bool,
    },
    /// Changes the answers given; the others stay.
    Set {
        /// A country you may work in (ISO code such as de); repeat for more (replaces the list).
        #[arg(long = "country")]
        countries: Vec<String>,
        /// Whether you need visa sponsorship.
        #[arg(long, value_name = "yes|no", value_parser = yes_no)]
        visa_sponsorship: Option<bool>,
        /// The salary you ask for, in whole units.
        #[arg(long)]
        salary: Option<i64>,
        /// Its ISO 4217 currency (EUR, USD…).
        #[arg(long)]
        currency: Option<String>,
        /// What it is paid per: year, month, day or hour.
        #[arg(long)]
        period: Option<String>,
        /// Your notice period in days.
        #[arg(long)]
        notice_days: Option<i64>,
        /// Whether you would relocate.
        #[arg(long, value_name = "yes|no", value_parser = yes_no)]
        relocate: Option<bool>,
        /// Whether you are 18 or older.
        #[arg(long, value_name = "yes|no", value_parser = yes_no)]
        adult: Option<bool>,
        /// Forget an answer; repeat for more.
        #[arg(long = "clear", value_enum)]
        clear: Vec<Field>,
    },
}

fn yes_no(raw: &str) -> Result<bool, String> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "true" => Ok(true),
        "no" | "n" | "false" => Ok(false),
        _ => Err(format!("{raw:?}: answer yes or no")),
    }
}

/// A flag's value, or `null` when the field is cleared.
fn value<T>(given: Option<T>, cleared: bool) -> Option<Option<T>> {
    if cleared { Some(None) } else { given.map(Some) }
}

/// Runs a `screening` command.
pub async fn run(
    remote: &Remote,
    cmd: ScreeningCommand,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let client = remote.client()?;
    let answers = match cmd {
        ScreeningCommand::Show { json } => {
            let answers = client.screening_answers().await?;
            if json {
                let body = serde_json::json!({ "data": answers });
                writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
                return Ok(());
            }
            answers
        }
        ScreeningCommand::Set {
            countries,
            visa_sponsorship,
            salary,
            currency,
            period,
            notice_days,
            relocate,
            adult,
            clear,
        } => {
            let cleared = |f| clear.contains(&f);
            let change = ScreeningUpdate {
                authorized_countries: value(
                    (!countries.is_empty()).then_some(countries),
                    cleared(Field::Countries),
                ),
                visa_sponsorship_needed: value(visa_sponsorship, cleared(Field::VisaSponsorship)),
                desired_salary_amount: value(salary, cleared(Field::Salary)),
                desired_salary_currency: value(currency, cleared(Field::Salary)),
                desired_salary_period: value(period, cleared(Field::Salary)),
                notice_period_days: value(notice_days, cleared(Field::Notice)),
                willing_to_relocate: value(relocate, cleared(Field::Relocate)),
                age_18_or_older: value(adult, cleared(Field::Adult)),
            };
            client.update_screening_answers(&change).await.context("saving the answers")?
        }
    };
    write_answers(out, &answers)
}

fn yes(b: Option<bool>) -> String {
    b.map_or_else(String::new, |b| if b { "yes" } else { "no" }.to_owned())
}

fn write_answers(out: &mut impl Write, a: &ScreeningAnswers) -> anyhow::Result<()> {
    let salary = match (a.desired_salary_amount, &a.desired_salary_currency) {
        (Some(n), currency) => {
            let per = a.desired_salary_period.as_deref().map(|p| format!(" per {p}"));
            format!("{n} {}{}", currency.as_deref().unwrap_or(""), per.unwrap_or_default())
        }
        (None, _) => String::new(),
    };
    let rows = [
        ("may work in", a.authorized_countries.as_ref().map(|c| c.join(", ")).unwrap_or_default()),
        ("needs visa sponsorship", yes(a.visa_sponsorship_needed)),
        ("desired salary", salary.split_whitespace().collect::<Vec<_>>().join(" ")),
        ("notice period", a.notice_period_days.map(|d| format!("{d} days")).unwrap_or_default()),
        ("would relocate", yes(a.willing_to_relocate)),
        ("18 or older", yes(a.age_18_or_older)),
    ];
    for (label, value) in rows {
        let value = if value.is_empty() { "not stated" } else { value.as_str() };
        writeln!(out, "{label}: {value}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yes_and_no() {
        assert_eq!(yes_no("Yes"), Ok(true));
        assert_eq!(yes_no("n"), Ok(false));
        assert!(yes_no("maybe").unwrap_err().contains("yes or no"));
    }

    #[test]
    fn a_cleared_field_is_null_and_an_absent_one_is_left_out() {
        assert_eq!(value(Some(3), false), Some(Some(3)));
        assert_eq!(value(Some(3), true), Some(None));
        assert_eq!(value::<i64>(None, false), None);
    }
}
