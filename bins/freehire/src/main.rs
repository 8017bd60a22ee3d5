//! `freehire`: the operator and user command line.
//!
//! Every command reads the same configuration as the API server (`FREEHIRE_DATABASE_URL`, default the
//! embedded SQLite file `./data/freehire.db`), so it works on the same data. Commands that read
//! apply pending migrations first, so a fresh data folder just works.

mod commands;

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
    /// Search the index the worker fills (the filters of `GET /api/v1/jobs/search`).
    Search(commands::search::SearchCommand),
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
    let command = match cli.command {
        // Search reads the index only: no database needed.
        Command::Search(cmd) => return commands::search::run(cmd, &mut std::io::stdout()).await,
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
