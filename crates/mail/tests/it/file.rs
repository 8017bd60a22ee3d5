//! The file mailer: parseable `.eml` files with every header, unique sortable names under
//! concurrency, atomic writes, and a folder it cannot write (the log line: a unit test in
//! `src/file.rs`, where no other test's log races the capture).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use freehire_mail::{Delivery, FileMailer, MailError, Mailer, Message};
use mail_parser::MessageParser;

use crate::{assert_each_cause_once, code_mail, email, sender};

fn file_of(delivery: Delivery) -> PathBuf {
    match delivery {
        Delivery::File(path) => path,
        other => panic!("expected a file, got {other:?}"),
    }
}

/// The names of the folder's entries, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// `20261201T113000Z-0001-verify-your-email.eml`.
fn well_named(name: &str, slug: &str) -> bool {
    let bytes = name.as_bytes();
    let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
    name.len() > 22
        && digits(0..8)
        && bytes[8] == b'T'
        && digits(9..15)
        && &name[15..17] == "Z-"
        && digits(17..21)
        && name[21..] == format!("-{slug}.eml")
}

#[tokio::test]
async fn a_message_becomes_a_parseable_eml_file_in_a_folder_it_creates() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("data/mail");
    let mailer = FileMailer::new(&dir).with_from(sender());
    let message = Message::new(
        email("Ada@Example.com"),
        "Vérifiez votre adresse",
        "Bonjour,\nvotre code est 482913.\n.a line starting with a dot\n",
    );
    let before = SystemTime::now() - Duration::from_secs(1);
    let path = file_of(mailer.send(&message).await.unwrap());

    assert_eq!(path.parent(), Some(dir.as_path()));
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(well_named(name, "verifiez-votre-adresse"), "{name}");
    assert_eq!(entries(&dir), [name], "no temp file is left behind");

    let bytes = std::fs::read(&path).unwrap();
    let raw = String::from_utf8_lossy(&bytes);
    for header in ["From: ", "To: ", "Subject: ", "Date: ", "Message-ID: ", "MIME-Version: 1.0"] {
        assert!(raw.lines().any(|l| l.starts_with(header)), "no {header} in\n{raw}");
    }
    let parsed = MessageParser::default().parse(&bytes[..]).unwrap();
    let from = parsed.from().unwrap().first().unwrap();
    assert_eq!(from.name(), Some("freehire"));
    assert_eq!(from.address(), Some("noreply@freehire.test"));
    assert_eq!(parsed.to().unwrap().first().unwrap().address(), Some("ada@example.com"));
    assert_eq!(parsed.subject(), Some("Vérifiez votre adresse"));
    let id = parsed.message_id().unwrap();
    assert!(id.ends_with("@freehire.test") && id.len() > 20, "{id}");
    let date = parsed.date().unwrap().to_timestamp();
    let after = SystemTime::now() + Duration::from_secs(1);
    let unix = |t: SystemTime| t.duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs() as i64;
    assert!((unix(before)..=unix(after)).contains(&date), "Date {date} is not now");
    let body = parsed.body_text(0).unwrap().replace("\r\n", "\n");
    assert_eq!(body, message.text);
    assert!(!raw.contains("text/html") && !raw.contains("multipart"), "no HTML part was asked for");
    assert_eq!(mailer.describe(), format!("files in {}", dir.display()));
}

#[tokio::test]
async fn an_html_alternative_is_a_second_part() {
    let temp = tempfile::tempdir().unwrap();
    let mailer = FileMailer::new(temp.path());
    let message = code_mail("ada@example.com").with_html("<p>Your code is <b>482913</b>.</p>");
    let path = file_of(mailer.send(&message).await.unwrap());
    let bytes = std::fs::read(path).unwrap();
    let parsed = MessageParser::default().parse(&bytes[..]).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("multipart/alternative"));
    assert_eq!(parsed.body_text(0).unwrap().replace("\r\n", "\n"), message.text);
    assert_eq!(parsed.body_html(0).unwrap().trim(), "<p>Your code is <b>482913</b>.</p>");
    let from = parsed.from().unwrap().first().unwrap();
    assert_eq!(from.address(), Some("noreply@localhost"), "the default sender");
}

#[tokio::test]
async fn concurrent_sends_write_one_file_each_under_unique_names() {
    let temp = tempfile::tempdir().unwrap();
    let mailer = Arc::new(FileMailer::new(temp.path()).with_from(sender()));
    let sends = (0..20).map(|i| {
        let mailer = mailer.clone();
        tokio::spawn(async move {
            let to = format!("user{i}@example.com");
            (to.clone(), file_of(mailer.send(&code_mail(&to)).await.unwrap()))
        })
    });
    let mut written = Vec::new();
    for send in sends.collect::<Vec<_>>() {
        written.push(send.await.unwrap());
    }

    let names = entries(temp.path());
    assert_eq!(names.len(), 20, "{names:?}");
    assert!(names.iter().all(|n| well_named(n, "verify-your-email")), "{names:?}");
    let mut recipients = Vec::new();
    for (to, path) in written {
        let bytes = std::fs::read(&path).unwrap();
        let parsed = MessageParser::default().parse(&bytes[..]).unwrap();
        assert_eq!(parsed.to().unwrap().first().unwrap().address(), Some(to.as_str()));
        recipients.push(to);
    }
    recipients.sort();
    recipients.dedup();
    assert_eq!(recipients.len(), 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn file_names_sort_in_the_order_mails_were_written() {
    let temp = tempfile::tempdir().unwrap();
    let mailer = FileMailer::new(temp.path());
    let mut paths = Vec::new();
    for i in 0..5 {
        let mail = Message::new(
            email("ada@example.com"),
            format!("Mail {}", ["zero", "one", "two", "three", "four"][i]),
            "text",
        );
        paths.push(file_of(mailer.send(&mail).await.unwrap()));
        if i == 2 {
            tokio::time::sleep(Duration::from_millis(1100)).await; // across a second
        }
    }
    let names: Vec<String> =
        paths.iter().map(|p| p.file_name().unwrap().to_str().unwrap().to_owned()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(names[0].contains("-0001-mail-zero.eml"), "{names:?}");
    assert!(names[3].contains("-0001-mail-three.eml"), "a new second starts at 0001: {names:?}");
}

#[tokio::test]
async fn a_name_taken_by_another_writer_moves_on_to_the_next_sequence() {
    let temp = tempfile::tempdir().unwrap();
    let first = FileMailer::new(temp.path());
    let second = FileMailer::new(temp.path()); // another process: its own counter
    let a = file_of(first.send(&code_mail("a@example.com")).await.unwrap());
    let b = file_of(second.send(&code_mail("b@example.com")).await.unwrap());
    assert_ne!(a, b);
    assert_eq!(entries(temp.path()).len(), 2);
    let name = |p: &Path| p.file_name().unwrap().to_str().unwrap().to_owned();
    if name(&a)[..16] == name(&b)[..16] {
        assert!(name(&b).contains("-0002-"), "the same second: {} then {}", name(&a), name(&b));
    }
    let text = |p: &Path| std::fs::read_to_string(p).unwrap();
    assert!(text(&a).contains("a@example.com") && text(&b).contains("b@example.com"));
}

#[tokio::test]
async fn a_folder_it_cannot_create_is_a_write_error_naming_it() {
    let temp = tempfile::tempdir().unwrap();
    let blocker = temp.path().join("mail");
    std::fs::write(&blocker, "a file where the folder should be").unwrap();
    let err = FileMailer::new(&blocker).send(&code_mail("ada@example.com")).await.unwrap_err();
    assert!(matches!(&err, MailError::Write { dir, .. } if *dir == blocker), "{err:?}");
    assert!(err.to_string().contains(&blocker.display().to_string()));
    assert!(!err.is_transient());
    assert_each_cause_once(&err);
}

#[test]
fn a_message_debug_hides_the_body() {
    let message = code_mail("ada@example.com").with_html("<b>482913</b>");
    let shown = format!("{message:?}");
    assert!(shown.contains("ada@example.com") && shown.contains("Verify your email"), "{shown}");
    assert!(!shown.contains("482913"), "{shown}");
}

#[tokio::test]
async fn a_keyed_message_is_one_file_per_key_and_a_resend_replaces_it() {
    let temp = tempfile::tempdir().unwrap();
    let mailer = FileMailer::new(temp.path()).with_from(sender());
    let first =
        Message::new(email("ada@example.com"), "3 new jobs", "first").with_key("delivery-7");
    let path = file_of(mailer.send(&first).await.unwrap());
    assert_eq!(path.file_name().unwrap(), "delivery-7.eml");
    let again =
        Message::new(email("ada@example.com"), "3 new jobs", "again").with_key("delivery-7");
    assert_eq!(file_of(mailer.send(&again).await.unwrap()), path);
    let other =
        Message::new(email("ada@example.com"), "3 new jobs", "other").with_key("delivery-8");
    mailer.send(&other).await.unwrap();
    assert_eq!(entries(temp.path()), ["delivery-7.eml", "delivery-8.eml"]);
    let bytes = std::fs::read(&path).unwrap();
    let parsed = MessageParser::default().parse(&bytes).unwrap();
    assert_eq!(parsed.message_id(), Some("delivery-7@freehire.test"));
    assert_eq!(parsed.body_text(0).unwrap().trim(), "again");
}
