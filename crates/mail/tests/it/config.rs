//! The configuration: defaults, an empty SMTP URL, a bad sender, and the adapter it chooses.

use std::path::PathBuf;

use freehire_mail::{DEFAULT_DIR, DEFAULT_FROM, MailConfig, MailError, mailer, parse_mailbox};
use secrecy::SecretString;

#[test]
fn unset_settings_give_the_file_mailer_in_the_default_folder() {
    let config = MailConfig::from_settings(None, None, None).unwrap();
    assert!(config.smtp_url.is_none());
    assert_eq!(config.from, parse_mailbox(DEFAULT_FROM).unwrap());
    assert_eq!(config.dir, PathBuf::from(DEFAULT_DIR));
    assert_eq!(mailer(&config).unwrap().describe(), "files in ./data/mail");
}

#[test]
fn an_empty_smtp_url_counts_as_unset() {
    let config = MailConfig::from_settings(Some(SecretString::from("  ")), None, None).unwrap();
    assert!(config.smtp_url.is_none());
    assert!(mailer(&config).unwrap().describe().starts_with("files in "));
}

#[test]
fn an_smtp_url_gives_the_smtp_mailer_with_the_configured_sender() {
    let url = SecretString::from("smtps://ada:hunter2secret@mail.example.com");
    let config =
        MailConfig::from_settings(Some(url), Some(" Jobs <jobs@freehire.test> "), None).unwrap();
    assert_eq!(config.from.email.to_string(), "jobs@freehire.test");
    assert_eq!(config.from.name.as_deref(), Some("Jobs"));
    let described = mailer(&config).unwrap().describe();
    assert_eq!(described, "SMTP server mail.example.com:465 (TLS, authenticated)");
    assert!(!format!("{config:?}").contains("hunter2secret"));
}

#[test]
fn a_bad_sender_is_refused_naming_it() {
    let err = MailConfig::from_settings(None, Some("not an address"), None).unwrap_err();
    assert!(matches!(&err, MailError::BadAddress { value, .. } if value == "not an address"));
    assert!(err.to_string().contains("not an address"), "{err}");
    crate::assert_each_cause_once(&err);
}

#[test]
fn a_bad_smtp_url_fails_the_mailer_not_the_settings() {
    let url = SecretString::from("ftp://mail.example.com");
    let config = MailConfig::from_settings(Some(url), None, Some("/tmp/mail".into())).unwrap();
    assert!(matches!(mailer(&config), Err(MailError::BadUrl { .. })));
}
