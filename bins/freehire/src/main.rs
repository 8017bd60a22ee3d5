//! `freehire`: the operator and user command line.
//!
//! Every command reads the same configuration as the API server (`FREEHIRE_DATABASE_URL`, default the
//! embedded SQLite file `./data/freehire.db`), so it works on the same data. Commands that read
//! apply pending migrations first, so a fresh data folder just works.

mod commands;

use std::io::Write;

use clap::{Parser, Subcommand};
use freehire_store::{DEFAULT_DATABASE_URL, DatabaseUrl};

/// freehire: jobs straight from companies' ATS platforms.
#[derive(Debug, Parser)]
#[command(name = "freehire", version, about, long_about = None)]
struct Cli {
    /// Database: `sqlite://PATH` (embedded) or `postgres://USER[:PASSWORD]@HOST[:PORT]/DB`.
    #[arg(long, global = true, env = "FREEHIRE_DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    database_url: DatabaseUrl,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Sign the command line in to a server (the key is stored in your configuration
    /// directory, readable by you alone), see who it is signed in as, or sign out.
    #[command(subcommand)]
    Auth(commands::auth::AuthCommand),
    /// Search jobs on a server (FREEHIRE_API_URL; the agent search, descriptions as Markdown),
    /// or with `--local` the index on this machine.
    Search(commands::search::SearchCommand),
    /// Value counts of every filter over the jobs matching yours: the valid names and values.
    Facets(commands::discover::FacetsCommand),
    /// How much of the market a set of skills reaches: the share of matching jobs listing at
    /// least one, per-skill counts, gaps and the most listed skills.
    MarketFit(commands::discover::MarketFitCommand),
    /// One job by its slug.
    Job(commands::discover::JobCommand),
    /// One company and its open jobs.
    Company(commands::discover::CompanyCommand),
    /// Companies with open jobs, most first: by name, region, country, work mode, platform
    /// or skill.
    Companies(commands::discover::CompaniesCommand),
    /// Your applications: save, unsave, apply, stage, note, my (a full key).
    #[command(flatten)]
    Board(commands::board::BoardCommand),
    /// Print shell completions for bash, zsh, fish, elvish or powershell.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Write the man pages (roff): `freehire.1` and one `freehire-<command>.1` per command.
    #[command(hide = true)]
    Man {
        /// The folder to write them in.
        #[arg(long)]
        dir: std::path::PathBuf,
    },
    /// Track jobs and applications on a freehire server (FREEHIRE_API_URL, FREEHIRE_API_KEY).
    Track {
        #[command(flatten)]
        remote: commands::remote::Remote,
        #[command(subcommand)]
        command: commands::remote::TrackCommand,
    },
    /// Your saved searches on a freehire server (FREEHIRE_API_URL, FREEHIRE_API_KEY).
    SavedSearches {
        #[command(flatten)]
        remote: commands::remote::Remote,
        #[command(subcommand)]
        command: commands::remote::SavedSearchesCommand,
    },
    /// Your CVs on a freehire server: list, show, download the PDF (FREEHIRE_API_URL,
    /// FREEHIRE_API_KEY; a `cv`-scoped key is enough).
    Cv {
        #[command(flatten)]
        remote: commands::remote::Remote,
        #[command(subcommand)]
        command: commands::cv::CvCommand,
    },
    /// Your experience bank on a freehire server (FREEHIRE_API_URL, FREEHIRE_API_KEY; a
    /// `cv`-scoped key is enough).
    Experience {
        #[command(flatten)]
        remote: commands::remote::Remote,
        #[command(subcommand)]
        command: commands::experience::ExperienceCommand,
    },
    /// Your cover letters on a freehire server: draft one for a job from your confirmed
    /// achievements, list, show, delete (FREEHIRE_API_URL, FREEHIRE_API_KEY; a `cv` key is
    /// enough).
    Letters {
        #[command(flatten)]
        remote: commands::remote::Remote,
        #[command(subcommand)]
        command: commands::letters::LettersCommand,
    },
    /// Your answers to the usual application-form questions on a freehire server
    /// (FREEHIRE_API_URL, FREEHIRE_API_KEY; a `full` key).
    Screening {
        #[command(flatten)]
        remote: commands::remote::Remote,
        #[command(subcommand)]
        command: commands::screening::ScreeningCommand,
    },
    /// Talk to the assistant on a freehire server (FREEHIRE_API_URL, FREEHIRE_API_KEY).
    Chat {
        #[command(flatten)]
        remote: commands::remote::Remote,
        #[command(flatten)]
        args: commands::chat::ChatArgs,
    },
    /// Serve MCP on standard input and output for desktop MCP clients (Claude Desktop, IDE
    /// agents), forwarding to a freehire server's /mcp (FREEHIRE_API_URL; FREEHIRE_API_KEY adds
    /// your own tools: tracking, CVs, the experience bank).
    Mcp {
        #[command(flatten)]
        remote: commands::remote::Remote,
    },
    /// Look the catalogue up on a freehire server, no key needed (FREEHIRE_API_URL): a
    /// posting by its address, a job's copies, city names, completions.
    #[command(flatten)]
    Lookup(commands::lookup::LookupCommand),
    #[command(flatten)]
    Catalogue(Catalogue),
}

/// The commands that work on the database.
#[derive(Debug, Subcommand)]
enum Catalogue {
    /// Apply pending database migrations.
    Migrate,
    /// Browse the job catalogue.
    #[command(subcommand)]
    Jobs(commands::jobs::JobsCommand),
    /// Curate the boards that ingest crawls.
    #[command(subcommand)]
    Boards(commands::boards::BoardsCommand),
    /// Crawl a provider's boards now.
    Ingest(commands::ingest::IngestArgs),
    /// Rebuild the whole search index from the database.
    Reindex(commands::reindex::ReindexArgs),
    /// Merge one company slug into another (a spelling or legal-form variant): its jobs move,
    /// later postings under its name land in the other, its page answers 301. A report of
    /// what would change unless `--apply`.
    MergeCompanies(commands::companies::MergeArgs),
    /// The merged company slugs and where each now lives.
    CompanyAliases,
    /// Manage accounts (operators).
    #[command(subcommand)]
    Users(commands::users::UsersCommand),
    /// Mint API keys for accounts (operators).
    #[command(subcommand)]
    Keys(commands::users::KeysCommand),
}

fn main() -> std::process::ExitCode {
    let (cli, aliases) = freehire_app::config::parse::<Cli>();
    for notice in freehire_app::config::deprecation_notices(&aliases) {
        eprintln!("warning: {notice}");
    }
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let out = &mut std::io::stdout();
    let command = match cli.command {
        Command::Auth(cmd) => {
            return commands::auth::run(cmd, &mut std::io::stdin().lock(), out).await;
        }
        Command::Facets(cmd) => return commands::discover::facets(cmd, out).await,
        Command::MarketFit(cmd) => return commands::discover::market_fit(cmd, out).await,
        Command::Job(cmd) => return commands::discover::job(cmd, out).await,
        Command::Company(cmd) => return commands::discover::company(cmd, out).await,
        Command::Companies(cmd) => return commands::discover::companies(cmd, out).await,
        Command::Board(cmd) => return commands::board::run(cmd, out).await,
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "freehire", out);
            return Ok(());
        }
        Command::Man { dir } => {
            let command = <Cli as clap::CommandFactory>::command();
            std::fs::create_dir_all(&dir)?;
            clap_mangen::generate_to(command, &dir)?;
            writeln!(out, "man pages written to {}", dir.display())?;
            return Ok(());
        }
        // Search reads a server or the index only: no database needed.
        Command::Search(cmd) => return commands::search::run(cmd, out).await,
        Command::Track { remote, command } => {
            return commands::remote::track(&remote, command, &mut std::io::stdout()).await;
        }
        Command::SavedSearches { remote, command } => {
            return commands::remote::saved_searches(&remote, command, &mut std::io::stdout())
                .await;
        }
        Command::Cv { remote, command } => {
            return commands::cv::run(&remote, command, &mut std::io::stdout()).await;
        }
        Command::Experience { remote, command } => {
            return commands::experience::run(&remote, command, &mut std::io::stdout()).await;
        }
        Command::Letters { remote, command } => {
            return commands::letters::run(&remote, command, &mut std::io::stdout()).await;
        }
        Command::Screening { remote, command } => {
            return commands::screening::run(&remote, command, &mut std::io::stdout()).await;
        }
        Command::Chat { remote, args } => {
            return commands::chat::run(remote.client()?, args).await;
        }
        Command::Mcp { remote } => return commands::mcp::run(&remote).await,
        Command::Lookup(command) => {
            return commands::lookup::run(command, &mut std::io::stdout()).await;
        }
        Command::Catalogue(command) => command,
    };
    let store = commands::open(&cli.database_url).await?;
    let result = match command {
        Catalogue::Migrate => commands::migrate::run(store.as_ref(), &cli.database_url).await,
        Catalogue::Jobs(cmd) => {
            commands::jobs::run(store.as_ref(), cmd, &mut std::io::stdout()).await
        }
        Catalogue::Boards(cmd) => {
            commands::boards::run(store.as_ref(), cmd, &mut std::io::stdout()).await
        }
        Catalogue::Ingest(args) => {
            commands::ingest::run(store.as_ref(), args, &mut std::io::stdout()).await
        }
        Catalogue::Reindex(args) => {
            commands::reindex::run(store.as_ref(), args, &mut std::io::stdout()).await
        }
        Catalogue::MergeCompanies(args) => {
            commands::companies::merge(store.clone(), args, &mut std::io::stdout()).await
        }
        Catalogue::CompanyAliases => {
            commands::companies::aliases(store.clone(), &mut std::io::stdout()).await
        }
        Catalogue::Users(cmd) => {
            let stdin = std::io::stdin();
            commands::users::run_users(
                store.clone(),
                cmd,
                &mut stdin.lock(),
                &mut std::io::stdout(),
            )
            .await
        }
        Catalogue::Keys(cmd) => {
            commands::users::run_keys(store.clone(), cmd, &mut std::io::stdout()).await
        }
    };
    store.close().await;
    result
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    // Every flag name unique per command, every default valid (clap's own checks).
    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
