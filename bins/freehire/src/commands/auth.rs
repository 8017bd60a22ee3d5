//! `freehire auth login|status|logout`: signing the command line in to a server, kept in
//! `credentials.json` under the user's configuration directory (0600;
//! [`freehire_client::credentials`]). `login` asks for the email and password (prompted on a
//! terminal, else the first two lines of standard input), mints a `full` API key for this
//! machine and keeps only the key; `login --key` stores a key minted elsewhere (read from
//! standard input, or prompted). The environment (`FREEHIRE_API_KEY`) always wins over the file.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Context;
use clap::Subcommand;
use freehire_client::{Client, credentials};
use secrecy::SecretString;

use super::remote::{KeySource, Remote};

/// `freehire auth …`
#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Sign in: with your email and password (a key for this machine is minted and stored),
    /// or `--key` to store a key you minted on the account page.
    Login {
        /// Your email address (asked for when left out).
        #[arg(long)]
        email: Option<String>,
        /// Store an existing API key instead of signing in with a password.
        #[arg(long)]
        key: bool,
        #[command(flatten)]
        remote: Remote,
    },
    /// Who the command line is signed in as, to which server, with which key.
    Status {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        remote: Remote,
    },
    /// Forget the stored key (it stays valid on the server until revoked on the account page).
    Logout,
}

/// The first line of `input`, without its line ending.
fn line(input: &mut impl BufRead, what: &str) -> anyhow::Result<String> {
    let mut line = String::new();
    input
        .read_line(&mut line)
        .with_context(|| format!("reading the {what} from standard input"))?;
    let line = line.trim_end_matches(['\n', '\r']).to_owned();
    anyhow::ensure!(!line.trim().is_empty(), "no {what} on standard input");
    Ok(line)
}

fn ask(input: &mut impl BufRead, prompt: &str, what: &str, secret: bool) -> anyhow::Result<String> {
    if std::io::stdin().is_terminal() {
        if secret {
            return rpassword::prompt_password(prompt)
                .with_context(|| format!("reading the {what}"));
        }
        eprint!("{prompt}");
        std::io::stderr().flush().ok();
    }
    line(input, what)
}

/// This machine's name for the minted key.
fn key_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this machine".to_owned());
    format!("freehire CLI on {host}")
}

/// Runs an `auth` command.
pub async fn run(
    cmd: AuthCommand,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let path = credentials::default_path()?;
    match cmd {
        AuthCommand::Login { email, key, remote } => {
            let url = remote.api_url()?;
            let (key, email) = if key {
                let token = ask(input, "API key: ", "API key", true)?;
                let key = SecretString::from(token.trim().to_owned());
                let me = Client::new(&url, key.clone())?.me().await?;
                (key, me["data"]["email"].as_str().map(str::to_owned))
            } else {
                let email = match email {
                    Some(e) => e,
                    None => ask(input, "email: ", "email address", false)?,
                };
                let password = SecretString::from(ask(input, "password: ", "password", true)?);
                let minted = Client::sign_in_and_mint(&url, email.trim(), &password, &key_name())
                    .await
                    .context("signing in")?;
                (minted.token, Some(minted.email))
            };
            let stored =
                credentials::Credentials { api_url: url.clone(), key, email: email.clone() };
            credentials::save(&path, &stored)?;
            writeln!(
                out,
                "signed in to {url} as {}; the key is stored in {}",
                email.as_deref().unwrap_or("?"),
                path.display()
            )?;
        }
        AuthCommand::Status { json, remote } => {
            let (url, key) = remote.resolve()?;
            let Some((key, source)) = key else {
                if json {
                    writeln!(out, "{}", serde_json::json!({"api_url": url, "signed_in": false}))?;
                } else {
                    writeln!(out, "not signed in to {url}: run freehire auth login")?;
                }
                return Ok(());
            };
            let from = match source {
                KeySource::Environment => "FREEHIRE_API_KEY".to_owned(),
                KeySource::Stored => path.display().to_string(),
            };
            let me = Client::new(&url, key)?.me().await?;
            let email = me["data"]["email"].as_str().unwrap_or("?");
            if json {
                let body = serde_json::json!({"api_url": url, "signed_in": true, "key_from": from,
                    "account": me["data"]});
                writeln!(out, "{}", serde_json::to_string_pretty(&body)?)?;
            } else {
                writeln!(out, "signed in to {url} as {email} (key from {from})")?;
            }
        }
        AuthCommand::Logout => {
            if credentials::remove(&path)? {
                writeln!(out, "signed out: removed {}", path.display())?;
            } else {
                writeln!(out, "not signed in (no {})", path.display())?;
            }
        }
    }
    Ok(())
}
