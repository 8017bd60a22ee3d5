//! The messages accounts send: the verification and password-reset codes, in plain text.

use freehire_domain::{CodePurpose, Email};
use freehire_mail::Message;

/// The message carrying `code` for `purpose` to `to`.
pub fn code_message(to: &Email, purpose: CodePurpose, code: &str, minutes: i64) -> Message {
    let (subject, opening) = match purpose {
        CodePurpose::Verify => (
            format!("{code} is your freehire verification code"),
            "Enter this code to verify your email address on freehire:",
        ),
        CodePurpose::Reset => (
            format!("{code} is your freehire password reset code"),
            "Enter this code to set a new password for your freehire account:",
        ),
    };
    let text = format!(
        "{opening}\n\n    {code}\n\nThe code works once, for {minutes} minutes. If you did not ask for \
         it, ignore this message: nothing changes without the code.\n\n-- freehire\n"
    );
    Message::new(to.clone(), subject, text)
}
