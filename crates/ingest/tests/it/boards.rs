//! Board validation: one rule per platform, applied the same way by import, add and
//! recognition; every accepted board is safe where its platform puts it in a URL.

use freehire_domain::{BoardKey, Provider};
use freehire_ingest::{IngestError, parse_board_csv, provider_keys, recognize, validate_board};

/// Board values that must never reach a request: dot segments, paths, URLs, IP literals,
/// percent escapes, query and fragment characters.
const HOSTILE: &[&str] = &[
    "..",
    ".",
    "../../admin",
    "a/../b",
    "%2e%2e",
    "a%2Fb",
    "https://evil.com/x",
    "evil.com/x",
    "a?b",
    "a#b",
    "a\\b",
    "127.0.0.1",
    "169.254.169.254",
    "[::1]",
    "a..b",
];

// scenario: Hostile board keys are refused on import
#[test]
fn import_refuses_every_hostile_board_with_its_line_and_reason() {
    for provider in provider_keys() {
        let mut file = String::from("provider,board,company\n");
        // An Oracle board is `host/site` where the host may be a company's custom careers
        // domain: `evil.com/x` is well formed for it (a public name; the client's guard
        // refuses one that resolves to a private address). Every other value stays hostile.
        let hostile: Vec<&str> = HOSTILE
            .iter()
            .copied()
            .filter(|b| provider != "oracle" || *b != "evil.com/x")
            .collect();
        for board in &hostile {
            file.push_str(&format!("{provider},\"{board}\",X\n"));
        }
        let rows = parse_board_csv(file.as_bytes());
        assert_eq!(rows.len(), hostile.len());
        for (i, (row, board)) in rows.iter().zip(&hostile).enumerate() {
            // Workday's board is `host/site`: a bare value is refused for its host.
            let err = match row {
                Ok(r) => panic!("{provider},{board} accepted as {:?}", r.key),
                Err(e) => e.to_string(),
            };
            let line = i + 2;
            assert!(err.starts_with(&format!("line {line}, column board: ")), "{err}");
            assert!(err.contains(provider), "the reason names the provider: {err}");
        }
    }
}

#[test]
fn add_and_import_apply_the_same_rule() {
    // What recognition gives is what validation accepts, and the import row of the same
    // board is accepted too.
    for url in [
        "https://jobs.ashbyhq.com/cartesia",
        "https://jobs.lever.co/acme",
        "https://acme.teamtailor.com/jobs",
        "https://salesforce.wd12.myworkdayjobs.com/en-US/External_Career_Site",
    ] {
        let r = recognize(url).unwrap();
        let key = r.key().unwrap();
        validate_board(&key).unwrap();
        let file = format!("provider,board,company\n{},{},X\n", r.provider, r.board);
        let rows = parse_board_csv(file.as_bytes());
        assert_eq!(rows[0].as_ref().unwrap().key, key, "{url}");
    }
    // A board recognition refuses is refused by validation too.
    for (provider, board) in
        [("ashby", ".."), ("greenhouse", "a..b"), ("workday", "acme.wd1.myworkdayjobs.com/..")]
    {
        let key = BoardKey::new(Provider::parse(provider).unwrap(), board, "").unwrap();
        assert!(validate_board(&key).is_err(), "{provider},{board}");
    }
}

#[test]
fn unknown_providers_are_refused_by_validation() {
    let key = BoardKey::new(Provider::parse("nosuch").unwrap(), "acme", "").unwrap();
    let err = validate_board(&key).unwrap_err();
    assert!(matches!(err, IngestError::UnknownProvider(_)), "{err}");
}

// scenario: A non-http URL says so
#[test]
fn non_http_schemes_are_named() {
    for url in [
        "javascript:alert(1)",
        "JavaScript:alert(document.cookie)",
        "data:text/html,x",
        "mailto:a@b.c",
        "ftp://jobs.lever.co/acme",
        "file:///etc/passwd",
    ] {
        let err = recognize(url).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, IngestError::Unrecognised { .. }), "{url}: {text}");
        assert!(text.contains("http"), "{url}: {text}");
        assert!(!text.contains("port number"), "{url}: {text}");
        let scheme = url.split(':').next().unwrap().to_ascii_lowercase();
        assert!(text.contains(&format!("scheme {scheme:?}")), "{url}: {text}");
    }
    // A host with a port and no scheme is still read as https.
    assert_eq!(recognize("jobs.lever.co:443/acme").unwrap().board, "acme");
}

mod properties {
    use freehire_domain::{BoardKey, Provider};
    use freehire_ingest::{provider_keys, validate_board};
    use proptest::prelude::*;

    /// One URL path segment that cannot change the path it is put in.
    fn safe_segment(part: &str) -> bool {
        !part.is_empty()
            && part != "."
            && !part.contains("..")
            && !part.chars().any(|c| {
                c.is_whitespace()
                    || c.is_control()
                    || matches!(c, '/' | '\\' | '%' | '?' | '#' | '@' | ':')
            })
    }

    fn board() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "acme",
            "a",
            "..",
            ".",
            "/",
            "%2e",
            "%",
            "?",
            "#",
            "\\",
            "@",
            ":",
            "-",
            "_",
            "~",
            " ",
            "\t",
            "\u{0}",
            "é",
            "127.0.0.1",
            "https://",
            "[::1]",
            ".wd1.myworkdayjobs.com",
            ".teamtailor.com",
            "Careers",
            "wd5.myworkdaysite.com",
        ]);
        prop_oneof![
            prop::collection::vec(piece, 1..6).prop_map(|v| v.concat()),
            ".{1,40}",
            "[A-Za-z0-9./%?#:@_~-]{1,40}",
        ]
    }

    /// Platforms whose board has several `/`-separated parts (`host/site`, `tenant/site`…).
    const MULTI_PART: &[&str] = &["dayforce", "taleo", "ukg", "ukgready", "workday"];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        // scenario: Every accepted board is a safe path segment
        /// For every platform, an accepted board is safe where it goes: its `/`-separated
        /// parts (only Workday's `host/site` has several) are each a safe path segment, and
        /// no platform accepts an IP literal.
        #[test]
        fn accepted_boards_are_safe_path_segments(raw in board(), i in 0usize..64) {
            let keys = provider_keys();
            let provider = keys[i % keys.len()];
            let Ok(key) = BoardKey::new(Provider::parse(provider).unwrap(), &raw, "") else {
                return Ok(());
            };
            if validate_board(&key).is_ok() {
                let parts: Vec<&str> = key.board.split('/').collect();
                prop_assert!(
                    parts.len() == 1 || MULTI_PART.contains(&provider),
                    "{provider},{raw:?}"
                );
                for part in &parts {
                    prop_assert!(safe_segment(part), "{provider},{raw:?}: part {part:?}");
                }
                let first = parts[0].trim_matches(['[', ']']);
                prop_assert!(first.parse::<std::net::IpAddr>().is_err(), "{provider},{raw:?}");
            }
        }
    }
}
