//! Board health behaviour.

use chrono::Duration;
use freehire_domain::{BoardStatus, FailureClass, NewBoard};
use freehire_store::{ClassCount, Store};

use crate::{boards::key, fixtures::t};

// scenario: Cooldown schedule
pub async fn failures_count_and_cool_down_on_schedule(s: &dyn Store) {
    let k = key("workday", "acme.wd5/External");
    assert!(s.board_health(&k).await.unwrap().is_none());
    let h1 = s
        .record_board_failure(&k, FailureClass::HttpStatus, "500 on page 2", t(1, 0))
        .await
        .unwrap();
    assert_eq!(h1.consecutive_failures, 1);
    assert_eq!(h1.cooldown_until, None);
    assert_eq!(h1.first_seen_at, t(1, 0));
    assert_eq!(h1.last_error_class, Some(FailureClass::HttpStatus));
    let h2 = s.record_board_failure(&k, FailureClass::Other, "timeout", t(1, 1)).await.unwrap();
    assert_eq!(h2.cooldown_until, None, "no cooldown below 3 failures");
    let h3 = s.record_board_failure(&k, FailureClass::Other, "timeout", t(1, 2)).await.unwrap();
    assert_eq!(h3.cooldown_until, Some(t(1, 2) + Duration::hours(6)));
    assert!(h3.is_cooling(t(1, 3)));
    let h4 = s.record_board_failure(&k, FailureClass::Other, "timeout", t(1, 3)).await.unwrap();
    assert_eq!(h4.cooldown_until, Some(t(1, 3) + Duration::hours(12)));
    let h5 = s.record_board_failure(&k, FailureClass::Other, "gone", t(1, 4)).await.unwrap();
    assert_eq!(h5.cooldown_until, Some(t(1, 4) + Duration::hours(24)));
    let h6 = s.record_board_failure(&k, FailureClass::Other, "gone", t(1, 5)).await.unwrap();
    assert_eq!(h6.cooldown_until, Some(t(1, 5) + Duration::hours(24)), "capped at 24 h");
    let stored = s.board_health(&k).await.unwrap().unwrap();
    assert_eq!(stored, h6);
    assert_eq!(stored.last_error.as_deref(), Some("gone"));
    assert_eq!(stored.first_seen_at, t(1, 0));
}

// scenario: Healing
pub async fn success_heals_and_stamps_yield(s: &dyn Store) {
    let k = key("greenhouse", "acme");
    for h in 0..4 {
        s.record_board_failure(&k, FailureClass::Other, "boom", t(1, h)).await.unwrap();
    }
    let healed = s.record_board_success(&k, 12, t(2, 0)).await.unwrap();
    assert_eq!(healed.consecutive_failures, 0);
    assert_eq!(healed.cooldown_until, None);
    assert_eq!(healed.last_success_at, Some(t(2, 0)));
    assert_eq!(healed.last_yield_at, Some(t(2, 0)));
    assert_eq!(healed.last_ingested_count, 12);
    assert_eq!(healed.last_error.as_deref(), Some("boom"), "the last error stays for operators");
    assert_eq!(healed.last_error_class, Some(FailureClass::Other));
    let empty = s.record_board_success(&k, 0, t(3, 0)).await.unwrap();
    assert_eq!(empty.last_yield_at, Some(t(2, 0)), "an empty listing yields nothing");
    assert_eq!(empty.last_success_at, Some(t(3, 0)));
    assert_eq!(s.board_health(&k).await.unwrap().unwrap(), empty);
}

pub async fn health_is_keyed_by_board_identity(s: &dyn Store) {
    s.record_board_failure(&key("lever", "Acme"), FailureClass::Other, "x", t(1, 0)).await.unwrap();
    let h = s
        .record_board_failure(&key("lever", "ACME"), FailureClass::Other, "y", t(1, 1))
        .await
        .unwrap();
    assert_eq!(h.consecutive_failures, 2);
    assert_eq!(h.key.board, "acme");
    assert!(s.board_health(&key("lever", "other")).await.unwrap().is_none());
}

pub async fn long_errors_are_cut_on_a_char_boundary(s: &dyn Store) {
    let k = key("rippling", "acme");
    let long = "é".repeat(5000);
    let h = s.record_board_failure(&k, FailureClass::Other, &long, t(1, 0)).await.unwrap();
    let kept = h.last_error.unwrap();
    assert!(kept.len() <= 2000 && kept.len() >= 1998);
    assert!(kept.chars().all(|c| c == 'é'));
}

// scenario: A provider's cooldowns
pub async fn cooldowns_are_read_per_provider(s: &dyn Store) {
    let cooling = key("lever", "Acme");
    let failing = key("lever", "beta");
    let healed = key("lever", "gamma");
    let other = key("greenhouse", "acme");
    for h in 0..3 {
        s.record_board_failure(&cooling, FailureClass::Other, "boom", t(1, h)).await.unwrap();
        s.record_board_failure(&healed, FailureClass::Other, "boom", t(1, h)).await.unwrap();
        s.record_board_failure(&other, FailureClass::Other, "boom", t(1, h)).await.unwrap();
    }
    s.record_board_failure(&failing, FailureClass::Other, "boom", t(1, 0)).await.unwrap();
    s.record_board_success(&healed, 1, t(1, 3)).await.unwrap();
    let rows = s.cooldowns(&cooling.provider).await.unwrap();
    assert_eq!(rows.len(), 1, "only boards with a cooldown, only the provider's");
    assert_eq!(rows[0].key.board, "acme", "keyed by board identity");
    assert_eq!(rows[0].cooldown_until, Some(t(1, 2) + Duration::hours(6)));
}

async fn board(s: &dyn Store, provider: &str, name: &str, company: &str, status: BoardStatus) {
    let new = NewBoard { key: key(provider, name), company: company.to_owned(), url: None, status };
    s.add_board(&new, t(1, 0)).await.unwrap();
}

// scenario: The failing boards of each provider
pub async fn failing_boards_are_listed_worst_first_and_counted_by_class(s: &dyn Store) {
    use BoardStatus::{Active, Pending, Retired};
    board(s, "lever", "Acme", "Acme Corp", Active).await;
    board(s, "lever", "beta", "Beta", Pending).await;
    board(s, "lever", "gamma", "Gamma", Active).await;
    board(s, "lever", "old", "Old", Retired).await;
    board(s, "greenhouse", "acme", "Acme GH", Active).await;
    for h in 0..3 {
        let dns = "GET https://api.lever.co/v0/postings/acme: network error: dns error";
        s.record_board_failure(&key("lever", "acme"), FailureClass::Dns, dns, t(1, h))
            .await
            .unwrap();
        s.record_board_failure(&key("lever", "gamma"), FailureClass::Timeout, "slow", t(1, h))
            .await
            .unwrap();
        s.record_board_failure(&key("lever", "old"), FailureClass::Gone, "gone", t(1, h))
            .await
            .unwrap();
    }
    s.record_board_failure(&key("lever", "beta"), FailureClass::HttpStatus, "HTTP 503", t(1, 5))
        .await
        .unwrap();
    s.record_board_failure(&key("greenhouse", "acme"), FailureClass::Parse, "bad", t(1, 5))
        .await
        .unwrap();
    s.record_board_success(&key("lever", "gamma"), 3, t(1, 6)).await.unwrap();

    let failing = s.failing_boards(10).await.unwrap();
    let listed: Vec<(&str, &str, &str, u32, Option<FailureClass>)> = failing
        .boards
        .iter()
        .map(|b| {
            let h = &b.health;
            (
                h.key.provider.as_str(),
                b.board.as_str(),
                b.company.as_str(),
                h.consecutive_failures,
                h.last_error_class,
            )
        })
        .collect();
    assert_eq!(
        listed,
        vec![
            ("greenhouse", "acme", "Acme GH", 1, Some(FailureClass::Parse)),
            ("lever", "Acme", "Acme Corp", 3, Some(FailureClass::Dns)),
            ("lever", "beta", "Beta", 1, Some(FailureClass::HttpStatus)),
        ],
        "worst first per provider, the curated spelling, no healed or retired board"
    );
    let lever_acme = &failing.boards[1].health;
    assert!(lever_acme.last_error.as_deref().unwrap().contains("dns error"));
    assert_eq!(lever_acme.cooldown_until, Some(t(1, 2) + Duration::hours(6)));
    let count =
        |provider: &str, class, boards| ClassCount { provider: provider.into(), class, boards };
    assert_eq!(
        failing.classes,
        vec![
            count("greenhouse", FailureClass::Parse, 1),
            count("lever", FailureClass::Dns, 1),
            count("lever", FailureClass::HttpStatus, 1),
        ]
    );

    let worst = s.failing_boards(1).await.unwrap();
    let kept: Vec<&str> = worst.boards.iter().map(|b| b.board.as_str()).collect();
    assert_eq!(kept, ["acme", "Acme"], "one per provider");
    assert_eq!(worst.classes.len(), 3, "the counts cover every failing board");

    let all = s.board_healths(None).await.unwrap();
    assert_eq!(all.len(), 5, "every health row, retired and healed too");
    let lever = s.board_healths(Some(&key("lever", "x").provider)).await.unwrap();
    let boards: Vec<&str> = lever.iter().map(|h| h.key.board.as_str()).collect();
    assert_eq!(boards, ["acme", "beta", "gamma", "old"], "sorted, folded");
}
