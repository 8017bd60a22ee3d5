//! The SMTP adapter against the local server of `server.rs`: the envelope, authentication
//! (PLAIN and LOGIN, credentials percent-decoded from the URL), the message and its
//! dot-stuffed lines, refusals (`5xx` → `Rejected`, `4xx` → `Deferred`), a closed port, a server
//! that never answers, STARTTLS required of a server without it, TLS to a server without it,
//! and URLs it refuses without showing them.

use std::time::{Duration, Instant};

use freehire_mail::{Delivery, MailError, Mailer, Message, Security, SmtpMailer};
use mail_parser::MessageParser;
use secrecy::SecretString;

use crate::server::{Script, SmtpServer, closed_port, stalling};
use crate::{assert_each_cause_once, chain, code_mail, email, sender};

fn mailer(url: &str) -> SmtpMailer {
    SmtpMailer::from_url(&SecretString::from(url), sender()).unwrap()
}

fn login_script(mechanisms: Vec<&'static str>) -> Script {
    Script {
        mechanisms,
        login: Some(("ada@example.com".to_owned(), "p@ss:w/rd".to_owned())),
        ..Script::default()
    }
}

/// The URL's user info for the scripted login, percent-encoded.
const USERINFO: &str = "ada%40example.com:p%40ss%3Aw%2Frd@";

// scenario: Mail reaches an SMTP server
#[tokio::test]
async fn a_mail_goes_through_with_its_envelope_headers_and_dot_stuffed_body() {
    let server = SmtpServer::start(login_script(vec!["PLAIN", "LOGIN"])).await;
    let mailer = mailer(&server.url(USERINFO, "/client.freehire.test"));
    let text = "Your code is 482913.\n.a line starting with a dot\n..two dots\n.\nthe end\n";
    let message = Message::new(email("bob@example.org"), "Verify your email", text);

    let delivery = mailer.send(&message).await.unwrap();

    let Delivery::Smtp { message_id } = delivery else { panic!("{delivery:?}") };
    let received = server.received();
    assert_eq!(received.len(), 1);
    let mail = &received[0];
    assert_eq!(mail.ehlo, "client.freehire.test", "the URL's path names the client");
    let auth = ("PLAIN".to_owned(), "ada@example.com".to_owned(), "p@ss:w/rd".to_owned());
    assert_eq!(mail.auth, Some(auth));
    assert_eq!(mail.mail_from, "noreply@freehire.test");
    assert_eq!(mail.rcpt_to, ["bob@example.org"]);
    for stuffed in ["..a line starting with a dot", "...two dots", ".."] {
        assert!(mail.wire_lines.iter().any(|l| l == stuffed), "{stuffed:?} not on the wire");
    }

    let parsed = MessageParser::default().parse(mail.message.as_bytes()).unwrap();
    assert_eq!(parsed.from().unwrap().first().unwrap().address(), Some("noreply@freehire.test"));
    assert_eq!(parsed.to().unwrap().first().unwrap().address(), Some("bob@example.org"));
    assert_eq!(parsed.subject(), Some("Verify your email"));
    assert!(parsed.date().is_some());
    assert_eq!(format!("<{}>", parsed.message_id().unwrap()), message_id);
    // The line break before the final `.` is the terminator's, so the server's copy ends
    // with one more empty line than the body.
    assert_eq!(parsed.body_text(0).unwrap().replace("\r\n", "\n").trim_end(), text.trim_end());
    let commands = server.commands();
    assert_eq!(commands.last().map(String::as_str), Some("QUIT"), "{commands:?}");
}

#[tokio::test]
async fn auth_login_is_used_when_it_is_the_only_mechanism() {
    let server = SmtpServer::start(login_script(vec!["LOGIN"])).await;
    mailer(&server.url(USERINFO, "")).send(&code_mail("bob@example.org")).await.unwrap();
    let auth = server.received()[0].auth.clone().unwrap();
    assert_eq!(auth, ("LOGIN".into(), "ada@example.com".into(), "p@ss:w/rd".into()));
}

#[tokio::test]
async fn a_mail_without_credentials_goes_to_an_open_relay() {
    let server = SmtpServer::start(Script::default()).await;
    let mailer = mailer(&server.url("", ""));
    assert_eq!(mailer.security(), Security::None);
    mailer.send(&code_mail("bob@example.org")).await.unwrap();
    let received = server.received();
    assert_eq!(received[0].auth, None);
    assert!(received[0].message.contains("Your code is 482913."));
    assert!(!server.commands().iter().any(|c| c.starts_with("AUTH")));
}

#[tokio::test]
async fn wrong_credentials_are_rejected_naming_the_status() {
    let server = SmtpServer::start(login_script(vec!["PLAIN"])).await;
    let url = server.url("ada%40example.com:wrong@", "");
    let err = mailer(&url).send(&code_mail("bob@example.org")).await.unwrap_err();
    assert!(matches!(err, MailError::Rejected { code: 535, .. }), "{err:?}");
    assert!(server.received().is_empty());
}

#[tokio::test]
async fn a_refused_recipient_is_rejected_naming_the_status_and_the_reply() {
    let script = Script { rcpt_reply: Some("550 5.1.1 No such user here"), ..Script::default() };
    let server = SmtpServer::start(script).await;
    let mailer = mailer(&server.url("", ""));
    let err = mailer.send(&code_mail("nobody@example.org")).await.unwrap_err();

    let MailError::Rejected { server: name, code, .. } = &err else { panic!("{err:?}") };
    assert_eq!((name.as_str(), *code), (server.addr.to_string().as_str(), 550));
    assert!(!err.is_transient());
    let messages = chain(&err);
    assert!(messages[0].contains("550"), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("No such user here")), "{messages:?}");
    assert_each_cause_once(&err);
    assert!(server.received().is_empty(), "no DATA after a refused recipient");
}

#[tokio::test]
async fn a_temporary_refusal_is_deferred() {
    let script =
        Script { rcpt_reply: Some("451 4.7.1 Greylisted, try again later"), ..Script::default() };
    let server = SmtpServer::start(script).await;
    let err = mailer(&server.url("", "")).send(&code_mail("bob@example.org")).await.unwrap_err();
    assert!(matches!(err, MailError::Deferred { code: 451, .. }), "{err:?}");
    assert!(err.is_transient());
    assert!(err.to_string().contains("451"), "{err}");
}

#[tokio::test]
async fn a_closed_port_is_unavailable() {
    let addr = closed_port().await;
    let mailer = mailer(&format!("smtp://{addr}"));
    let err = mailer.send(&code_mail("bob@example.org")).await.unwrap_err();
    let MailError::Unavailable { server, .. } = &err else { panic!("{err:?}") };
    assert_eq!(*server, addr.to_string());
    assert!(err.is_transient());
    assert_each_cause_once(&err);
    let messages = chain(&err);
    assert!(messages.len() >= 2, "the cause is kept: {messages:?}");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_within_the_timeout() {
    let silent = stalling().await;
    let url = SecretString::from(format!("smtp://{}", silent.addr));
    let timeout = Duration::from_millis(300);
    let mailer = SmtpMailer::with_timeout(&url, sender(), timeout).unwrap();
    let started = Instant::now();
    let err = mailer.send(&code_mail("bob@example.org")).await.unwrap_err();
    let elapsed = started.elapsed();
    assert!(matches!(err, MailError::Timeout { after, .. } if after == timeout), "{err:?}");
    assert!(elapsed >= timeout && elapsed < Duration::from_secs(3), "{elapsed:?}");
    assert!(err.is_transient());
    assert!(err.to_string().contains(&silent.addr.to_string()), "{err}");
}

#[tokio::test]
async fn starttls_required_of_a_server_without_it_sends_nothing_in_clear() {
    let server = SmtpServer::start(login_script(vec!["PLAIN"])).await;
    let mailer = mailer(&server.url(USERINFO, "?tls=required"));
    assert_eq!(mailer.security(), Security::StartTls);
    let err = mailer.send(&code_mail("bob@example.org")).await.unwrap_err();
    assert!(matches!(err, MailError::Unavailable { .. }), "{err:?}");
    let commands = server.commands();
    assert!(
        commands.iter().all(|c| !c.starts_with("AUTH") && !c.starts_with("MAIL")),
        "credentials or mail went out in clear: {commands:?}"
    );
}

#[tokio::test]
async fn smtps_to_a_server_that_speaks_no_tls_fails_the_handshake_as_unavailable() {
    let server = SmtpServer::start(login_script(vec!["PLAIN"])).await;
    let mailer = mailer(&format!("smtps://{USERINFO}{}", server.addr));
    assert_eq!(mailer.security(), Security::Tls);
    let err = mailer.send(&code_mail("bob@example.org")).await.unwrap_err();
    assert!(matches!(err, MailError::Unavailable { .. }), "{err:?}");
    let messages = chain(&err);
    assert!(messages.iter().any(|m| m.contains("corrupt message")), "{messages:?}");
    assert!(server.received().is_empty());
    assert_each_cause_once(&err);
}

#[test]
fn urls_it_cannot_use_are_refused_without_showing_them() {
    for url in [
        "http://user:hunter2secret@mail.example.com",
        "smtp://user:hunter2secret@mail.example.com?tls=maybe",
        "smtps://user:hunter2secret@mail.example.com?tls=required",
        "smtp://hunter2secret@mail.example.com",
        "smtp://user:hunter2secret@",
        "hunter2secret",
    ] {
        let err = SmtpMailer::from_url(&SecretString::from(url), sender()).unwrap_err();
        assert!(matches!(err, MailError::BadUrl { .. }), "{url}: {err:?}");
        let shown = format!("{:?} {}", err, chain(&err).join(": "));
        assert!(!shown.contains("hunter2secret"), "{url} shown as {shown}");
        assert_each_cause_once(&err);
    }
}

#[test]
fn the_url_chooses_the_protection_and_the_default_port() {
    for (url, security, server) in [
        ("smtps://u:p@mail.example.com", Security::Tls, "mail.example.com:465"),
        ("smtp://mail.example.com?tls=required", Security::StartTls, "mail.example.com:587"),
        (
            "smtp://mail.example.com?tls=opportunistic",
            Security::Opportunistic,
            "mail.example.com:587",
        ),
        ("smtp://mail.example.com", Security::None, "mail.example.com:25"),
        ("smtp://mail.example.com:2525?tls=required", Security::StartTls, "mail.example.com:2525"),
    ] {
        let mailer = mailer(url);
        assert_eq!((mailer.security(), mailer.server()), (security, server), "{url}");
        assert_eq!(mailer.timeout(), freehire_mail::DEFAULT_TIMEOUT);
    }
    let described = mailer("smtps://ada:hunter2secret@mail.example.com").describe();
    assert_eq!(described, "SMTP server mail.example.com:465 (TLS, authenticated)");
    let debugged = format!("{:?}", mailer("smtps://ada:hunter2secret@mail.example.com"));
    assert!(!debugged.contains("hunter2secret"), "{debugged}");
}
