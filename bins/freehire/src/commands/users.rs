//! `freehire users create|list|set-role` and `freehire keys create`: the operator's account
//! commands, over [`Operators`] (no session secret, no mail).

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

use anyhow::Context;
use clap::Subcommand;
use comfy_table::{ContentArrangement, Table, presets::UTF8_BORDERS_ONLY};
use freehire_app::accounts::{KeyRequest, OperatorAccount, Operators, PasswordHasher};
use freehire_domain::{ApiKeyName, ApiKeyScope, Email, Password, Role};
use freehire_store::{ListPage, Store};

/// `freehire users …`
#[derive(Debug, Subcommand)]
pub enum UsersCommand {
    /// Create an account. The password is read from standard input (its first line), or asked
    /// for twice when standard input is a terminal.
    Create {
        /// The account's email address.
        email: String,
        /// Make it a moderator.
        #[arg(long)]
        moderator: bool,
        /// Count the address as verified (no code is mailed).
        #[arg(long)]
        verified: bool,
    },
    /// List accounts, oldest first.
    List {
        /// Most accounts to list.
        #[arg(long, default_value_t = 100)]
        limit: u32,
        /// Accounts to skip.
        #[arg(long, default_value_t = 0)]
        offset: u64,
    },
    /// Set an account's role (`user` or `moderator`).
    SetRole {
        /// The account's email address.
        email: String,
        /// `user` or `moderator`.
        role: Role,
    },
}

/// `freehire keys …`
#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Mint an API key for a verified account and print its token (shown once).
    Create {
        /// The account's email address.
        #[arg(long)]
        user: String,
        /// `full` or `cv`.
        #[arg(long, default_value = "full")]
        scope: ApiKeyScope,
        /// What to call the key.
        #[arg(long, default_value = "operator")]
        name: String,
    },
}

/// Runs a users command, writing to `out` and reading a password from `input`.
pub async fn run_users(
    store: Arc<dyn Store>,
    cmd: UsersCommand,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let operators = Operators::new(store, PasswordHasher::owasp());
    match cmd {
        UsersCommand::Create { email, moderator, verified } => {
            let email = Email::parse(&email)?;
            let password = read_password(input)?;
            let role = if moderator { Role::Moderator } else { Role::User };
            let account = OperatorAccount { email, password: Some(password), role, verified };
            let user = operators.create_account(&account).await?;
            writeln!(
                out,
                "created {} ({}, {})",
                user.email,
                user.role,
                if user.email_verified { "verified" } else { "unverified" }
            )?;
        }
        UsersCommand::List { limit, offset } => {
            let list = operators.list_accounts(ListPage::new(limit, offset)).await?;
            let mut table = Table::new();
            table
                .load_style(UTF8_BORDERS_ONLY)
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(160)
                .set_header(["EMAIL", "ROLE", "VERIFIED", "CREATED"]);
            for user in &list.users {
                table.add_row([
                    user.email.to_string(),
                    user.role.to_string(),
                    if user.email_verified { "yes" } else { "no" }.to_owned(),
                    user.created_at.format("%Y-%m-%d %H:%M").to_string(),
                ]);
            }
            writeln!(out, "{table}")?;
            writeln!(out, "{} of {} accounts", list.users.len(), list.total)?;
        }
        UsersCommand::SetRole { email, role } => {
            let user = operators.set_role(&Email::parse(&email)?, role).await?;
            writeln!(out, "{} is now {}", user.email, user.role)?;
        }
    }
    Ok(())
}

/// Runs a keys command, writing to `out`.
pub async fn run_keys(
    store: Arc<dyn Store>,
    cmd: KeysCommand,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let operators = Operators::new(store, PasswordHasher::owasp());
    match cmd {
        KeysCommand::Create { user, scope, name } => {
            let request = KeyRequest { name: ApiKeyName::parse(&name)?, scope, expires_at: None };
            let minted = operators.create_key(&Email::parse(&user)?, &request).await?;
            writeln!(out, "{}", minted.token)?;
            eprintln!(
                "minted key {} ({}, scope {}) for {user}: the token above is shown only once",
                minted.key.id, minted.key.prefix, minted.key.scope
            );
        }
    }
    Ok(())
}

/// The password: asked for twice on a terminal, else the first line of `input`.
fn read_password(input: &mut impl BufRead) -> anyhow::Result<Password> {
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("password: ").context("reading the password")?;
        let again = rpassword::prompt_password("again: ").context("reading the password")?;
        anyhow::ensure!(first == again, "the two passwords differ");
        return Ok(Password::parse(&first)?);
    }
    let mut line = String::new();
    input.read_line(&mut line).context("reading the password from standard input")?;
    let line = line.strip_suffix('\n').unwrap_or(&line);
    let line = line.strip_suffix('\r').unwrap_or(line);
    anyhow::ensure!(!line.is_empty(), "no password on standard input (send it as the first line)");
    Ok(Password::parse(line)?)
}
