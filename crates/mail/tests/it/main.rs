//! The mail crate's tests: the file mailer on a temp folder, the SMTP adapter against a local
//! SMTP server the tests start (`server.rs`), and the configuration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod config;
mod file;
mod server;
mod smtp;

use std::error::Error;

use freehire_domain::Email;
use freehire_mail::{Mailbox, Message};

/// A parsed address.
pub fn email(address: &str) -> Email {
    Email::parse(address).unwrap()
}

/// The sender the tests configure.
pub fn sender() -> Mailbox {
    freehire_mail::parse_mailbox("freehire <noreply@freehire.test>").unwrap()
}

/// A verification mail with a code in its body.
pub fn code_mail(to: &str) -> Message {
    Message::new(
        email(to),
        "Verify your email",
        "Your code is 482913.\nIt expires in 15 minutes.\n",
    )
}

/// Every message of an error chain, outermost first.
pub fn chain(error: &(dyn Error + 'static)) -> Vec<String> {
    let mut messages = vec![error.to_string()];
    let mut source = error.source();
    while let Some(cause) = source {
        messages.push(cause.to_string());
        source = cause.source();
    }
    messages
}

/// Asserts no level of the chain repeats the text of the level below it.
pub fn assert_each_cause_once(error: &(dyn Error + 'static)) {
    let messages = chain(error);
    for pair in messages.windows(2) {
        assert!(!pair[0].contains(&pair[1]), "{:?} repeats its source {:?}", pair[0], pair[1]);
    }
}
