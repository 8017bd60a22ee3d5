//! Configuration from the environment: every variable carries the `FREEHIRE_` prefix, and
//! each name documented before the prefix was settled stays an alias for one release
//! ([`DEPRECATED_ALIASES`]; the new name wins when both are set).
//!
//! The binaries parse their command line with [`parse`], which points each argument whose
//! variable is unset at its old name when that one is set (so clap reads it with the same
//! value parser, and `--help` names the new variable). Tests read variables through [`var`].

use std::ffi::OsString;

use clap::{Command, Parser};

/// `(variable, deprecated alias)`: the alias is read when the variable is unset.
pub const DEPRECATED_ALIASES: &[(&str, &str)] = &[
    ("FREEHIRE_DATABASE_URL", "DATABASE_URL"),
    ("FREEHIRE_MEILI_URL", "MEILI_URL"),
    ("FREEHIRE_MEILI_MASTER_KEY", "MEILI_MASTER_KEY"),
    ("FREEHIRE_MEILI_INDEX", "MEILI_INDEX"),
    ("FREEHIRE_INGEST_REFETCH_ALL", "INGEST_REFETCH_ALL"),
];

/// The variable's value, or its deprecated alias's when it is unset (empty values count as
/// unset).
pub fn var(name: &str) -> Option<String> {
    let lookup = |n: &str| std::env::var(n).ok().filter(|v| !v.is_empty());
    lookup(name).or_else(|| alias_of(name).and_then(lookup))
}

fn alias_of(name: &str) -> Option<&'static str> {
    DEPRECATED_ALIASES.iter().find(|(new, _)| *new == name).map(|(_, old)| *old)
}

/// `command` (and its subcommands) with every argument whose variable `lookup` finds unset
/// reading the deprecated alias instead, when `lookup` finds that set. Returns the aliases
/// put in use.
pub fn with_aliases(
    mut command: Command,
    lookup: &impl Fn(&str) -> Option<OsString>,
    used: &mut Vec<&'static str>,
) -> Command {
    let renamed: Vec<(clap::Id, &'static str)> = command
        .get_arguments()
        .filter_map(|arg| {
            let env = arg.get_env()?.to_str()?;
            let old = alias_of(env)?;
            (lookup(env).is_none() && lookup(old).is_some()).then(|| (arg.get_id().clone(), old))
        })
        .collect();
    for (id, old) in renamed {
        command = command.mut_arg(id, |arg| arg.env(old));
        if !used.contains(&old) {
            used.push(old);
        }
    }
    let subcommands: Vec<String> =
        command.get_subcommands().map(|s| s.get_name().to_owned()).collect();
    for name in subcommands {
        command = command.mut_subcommand(name, |sub| with_aliases(sub, lookup, used));
    }
    command
}

/// Parses `T` from the process's arguments and environment, deprecated aliases included
/// (exits with clap's message on an error, like [`Parser::parse`]). Returns the aliases read,
/// for the caller to warn about once logging is up.
pub fn parse<T: Parser>() -> (T, Vec<&'static str>) {
    let mut used = Vec::new();
    let command = with_aliases(T::command(), &|name: &str| std::env::var_os(name), &mut used);
    let parsed = T::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit());
    (parsed, used)
}

/// One notice per alias read: `OLD is deprecated: set NEW instead`.
pub fn deprecation_notices(used: &[&str]) -> Vec<String> {
    used.iter()
        .filter_map(|old| DEPRECATED_ALIASES.iter().find(|(_, o)| o == old))
        .map(|(new, old)| format!("{old} is deprecated: set {new} instead"))
        .collect()
}

/// Logs [`deprecation_notices`] as warnings (the servers, once logging is up).
pub fn warn_deprecated(used: &[&str]) {
    for notice in deprecation_notices(used) {
        tracing::warn!("{notice}");
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use clap::CommandFactory;

    use super::*;

    #[derive(Debug, Parser)]
    struct Cli {
        #[arg(long, env = "FREEHIRE_DATABASE_URL")]
        database_url: Option<String>,
        #[command(subcommand)]
        command: Option<Sub>,
    }

    #[derive(Debug, clap::Subcommand)]
    enum Sub {
        Search {
            #[command(flatten)]
            engine: crate::search_engine::SearchEngineArgs,
        },
    }

    fn env_of(command: &Command, id: &str) -> String {
        let arg = command.get_arguments().find(|a| a.get_id() == id).unwrap();
        arg.get_env().unwrap().to_str().unwrap().to_owned()
    }

    #[test]
    fn an_unset_variable_reads_its_alias_and_the_new_name_wins() {
        let only_old = |n: &str| matches!(n, "DATABASE_URL" | "MEILI_URL").then(|| "x".into());
        let mut used = Vec::new();
        let command = with_aliases(Cli::command(), &only_old, &mut used);
        assert_eq!(env_of(&command, "database_url"), "DATABASE_URL");
        let search = command.find_subcommand("search").unwrap();
        assert_eq!(env_of(search, "meili_url"), "MEILI_URL", "subcommands too");
        assert_eq!(env_of(search, "meili_key"), "FREEHIRE_MEILI_MASTER_KEY", "unset alias: kept");
        assert_eq!(used, ["DATABASE_URL", "MEILI_URL"]);
        assert_eq!(
            deprecation_notices(&used)[0],
            "DATABASE_URL is deprecated: set FREEHIRE_DATABASE_URL instead"
        );

        let both =
            |n: &str| matches!(n, "DATABASE_URL" | "FREEHIRE_DATABASE_URL").then(|| "x".into());
        let mut used = Vec::new();
        let command = with_aliases(Cli::command(), &both, &mut used);
        assert_eq!(env_of(&command, "database_url"), "FREEHIRE_DATABASE_URL");
        assert!(used.is_empty());
    }

    #[test]
    fn every_alias_is_a_freehire_variable() {
        for (new, old) in DEPRECATED_ALIASES {
            assert_eq!(new.strip_prefix("FREEHIRE_"), Some(*old));
        }
    }
}
