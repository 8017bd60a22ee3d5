//! The agent's project rule: a project entry must not read like a job. The assistant could
//! otherwise put an employment the candidate never had on the CV as a "project"; a project
//! has no company, role or dates, so a project whose name or summary carries them is a job in
//! disguise.
//!
//! The rule (on the name and the summary, case-insensitive):
//! - an employment date range: a year 1950–2099 followed, across at most a dash, "to" or
//!   "until", by another year or by `present`, `now`, `current` or `today`;
//! - a role at an organisation: a role word (`engineer`, `developer`, `manager`, `intern`,
//!   `consultant`, …) directly followed by `at` or `@`;
//! - a name ending with a company suffix (`inc`, `ltd`, `llc`, `gmbh`, `corp`, `plc`, …).
//!
//! Only projects the batch added or changed are checked, so an imported CV does not block
//! the assistant's other edits.

use crate::ProjectEntry;

const ROLE_WORDS: [&str; 20] = [
    "engineer",
    "developer",
    "manager",
    "lead",
    "intern",
    "consultant",
    "architect",
    "analyst",
    "designer",
    "scientist",
    "director",
    "administrator",
    "officer",
    "programmer",
    "specialist",
    "contractor",
    "employee",
    "cto",
    "ceo",
    "head",
];

const COMPANY_SUFFIXES: [&str; 13] = [
    "inc",
    "ltd",
    "llc",
    "gmbh",
    "corp",
    "corporation",
    "plc",
    "ag",
    "bv",
    "sarl",
    "llp",
    "limited",
    "co",
];

const OPEN_ENDS: [&str; 4] = ["present", "now", "current", "today"];

/// Why `project` reads like a job, or `None`.
pub fn looks_like_job(project: &ProjectEntry) -> Option<String> {
    let name = words(&project.name);
    if let Some(last) = name.last().filter(|w| COMPANY_SUFFIXES.contains(&w.as_str())) {
        return Some(format!("its name ends with the company suffix \"{last}\""));
    }
    for text in [&project.name, &project.summary] {
        let w = words(text);
        if let Some(pair) = w
            .windows(2)
            .find(|p| ROLE_WORDS.contains(&p[0].as_str()) && (p[1] == "at" || p[1] == "@"))
        {
            return Some(format!("\"{} {}\" names a role at an organisation", pair[0], pair[1]));
        }
        if let Some(range) = date_range(&w) {
            return Some(format!("\"{range}\" is an employment period"));
        }
    }
    None
}

/// Lowercase words; `@` and dashes are words of their own.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if matches!(c, '@' | '-' | '–' | '—') {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn is_year(w: &str) -> bool {
    w.len() == 4 && w.parse::<u32>().is_ok_and(|y| (1950..=2099).contains(&y))
}

/// A start year, a link (`-`, `to`, `until`) right after it or after one word (a month), and
/// an end within three words of the link.
fn date_range(w: &[String]) -> Option<String> {
    let is_link = |s: &String| matches!(s.as_str(), "-" | "–" | "—" | "to" | "until");
    let is_end = |s: &&String| is_year(s) || OPEN_ENDS.contains(&s.as_str());
    w.iter().enumerate().filter(|(_, s)| is_year(s)).find_map(|(i, start)| {
        let link = (i + 1..=i + 2).find(|&j| w.get(j).is_some_and(is_link))?;
        let end = w.iter().skip(link + 1).take(3).find(is_end)?;
        Some(format!("{start} – {end}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(name: &str, summary: &str) -> ProjectEntry {
        ProjectEntry { name: name.into(), summary: summary.into(), ..Default::default() }
    }

    // scenario: The agent cannot disguise a job as a project
    #[test]
    fn jobs_in_disguise_are_caught_and_projects_are_not() {
        for (name, summary) in [
            ("Acme Inc", ""),
            ("Billing rewrite", "Senior engineer at Acme"),
            ("Payments", "Lead @ Stripe, shipped the ledger"),
            ("Platform", "2019 - 2022, on-call"),
            ("Platform", "Mar 2019 – present"),
            ("Platform", "2020 to Jan 2023"),
        ] {
            assert!(looks_like_job(&project(name, summary)).is_some(), "{name} / {summary}");
        }
        for (name, summary) in [
            ("freehire", "A job board in Rust, written in 2024"),
            ("Ray tracer", "Renders 1080p frames at 60 fps"),
            ("Compiler", "Looked at 2019 benchmarks and beat them"),
            ("Coffee co-op app", "Orders for a local co-op"),
        ] {
            assert_eq!(looks_like_job(&project(name, summary)), None, "{name} / {summary}");
        }
    }
}
