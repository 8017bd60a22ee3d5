//! [`AccountError`]: every way an account operation fails, each naming what the caller must
//! change. The API maps each to one status and error code; no variant prints a secret.

use freehire_domain::DomainError;
use freehire_store::StoreError;

/// Why a one-time code was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeProblem {
    /// The code is wrong; this many tries remain.
    Wrong {
        /// Tries left (0: the code is spent; request a new one).
        attempts_left: u32,
    },
    /// The code's 15 minutes are over.
    Expired,
    /// Too many wrong tries.
    Exhausted,
    /// No code is pending for this account and purpose.
    Missing,
}

/// An account operation that failed.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// A value failed to parse; the message names the field.
    #[error(transparent)]
    Invalid(#[from] DomainError),
    /// Registration with an address that has an account (whether verified or not is not said).
    #[error("an account with this email already exists")]
    EmailTaken,
    /// Login with an unknown email, a wrong password, or an account without a password: one
    /// message for all three.
    #[error("wrong email or password")]
    WrongCredentials,
    /// The current password given to a password change is wrong.
    #[error("the current password is wrong")]
    WrongCurrentPassword,
    /// A one-time code was not accepted.
    #[error("{}", code_message(*.0))]
    Code(CodeProblem),
    /// The account must verify its email first (minting API keys).
    #[error("verify your email address first")]
    NotVerified,
    /// The confirmation email of an account deletion is not the account's.
    #[error("the email does not match the signed-in account")]
    EmailMismatch,
    /// An expiry in the past.
    #[error("expires_at must be in the future")]
    ExpiryInPast,
    /// No such account or key (another user's is "not found" too).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// Mail could not be sent.
    #[error("cannot send mail now")]
    Mail(#[source] freehire_mail::MailError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Hashing or signing failed (an internal fault).
    #[error("credential processing failed: {0}")]
    Hashing(String),
    /// The accounts configuration is unusable (start-up).
    #[error("{0}")]
    Config(String),
}

fn code_message(problem: CodeProblem) -> String {
    match problem {
        CodeProblem::Wrong { attempts_left: 0 } => {
            "the code is wrong and has now been used up; request a new one".to_owned()
        }
        CodeProblem::Wrong { attempts_left } => {
            format!("the code is wrong; {attempts_left} attempts left")
        }
        CodeProblem::Expired => "the code has expired; request a new one".to_owned(),
        CodeProblem::Exhausted => "too many wrong attempts; request a new code".to_owned(),
        CodeProblem::Missing => "no code is pending; request one first".to_owned(),
    }
}
