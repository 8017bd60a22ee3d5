//! Board catalogue behaviour.

use freehire_domain::{BoardKey, BoardStatus, NewBoard, Provider};
use freehire_store::{BoardFilter, Store};

use crate::fixtures::t;

pub fn key(provider: &str, board: &str) -> BoardKey {
    BoardKey::new(Provider::parse(provider).unwrap(), board, "").unwrap()
}

fn new_board(provider: &str, board: &str, status: BoardStatus) -> NewBoard {
    NewBoard {
        key: key(provider, board),
        company: format!("{board} Inc"),
        url: Some(format!("https://{provider}.example/{board}")),
        status,
    }
}

// scenario: Case-folded duplicate
pub async fn add_folds_identity_case_insensitively(s: &dyn Store) {
    let first =
        s.add_board(&new_board("ashby", "Windsurf", BoardStatus::Active), t(1, 9)).await.unwrap();
    assert!(first.created);
    assert_eq!(first.board.status, BoardStatus::Active);
    assert_eq!(first.board.activated_at, Some(t(1, 9)), "curated adds are active at once");
    let again =
        s.add_board(&new_board("ashby", "windsurf", BoardStatus::Pending), t(2, 9)).await.unwrap();
    assert!(!again.created);
    assert_eq!(again.board.id, first.board.id);
    assert_eq!(again.board.key.board, "Windsurf", "the first spelling stays");

    // Another provider or region is another board.
    assert!(
        s.add_board(&new_board("lever", "windsurf", BoardStatus::Pending), t(2, 9))
            .await
            .unwrap()
            .created
    );
    let eu = NewBoard {
        key: BoardKey::new(Provider::parse("lever").unwrap(), "windsurf", "eu").unwrap(),
        ..new_board("lever", "windsurf", BoardStatus::Pending)
    };
    let eu = s.add_board(&eu, t(2, 9)).await.unwrap();
    assert!(eu.created);
    assert_eq!(eu.board.key.region, "eu");
    assert_eq!(eu.board.activated_at, None);
    let found = s.board_by_key(&key("ashby", "WINDSURF")).await.unwrap().unwrap();
    assert_eq!(found.id, first.board.id);
    assert!(s.board_by_key(&key("ashby", "nobody")).await.unwrap().is_none());
}

pub async fn retired_and_rejected_do_not_block_a_new_board(s: &dyn Store) {
    let old =
        s.add_board(&new_board("greenhouse", "acme", BoardStatus::Active), t(1, 9)).await.unwrap();
    assert!(s.set_board_status(old.board.id, BoardStatus::Retired, None).await.unwrap());
    assert!(s.board_by_key(&key("greenhouse", "acme")).await.unwrap().is_none());
    let fresh =
        s.add_board(&new_board("greenhouse", "acme", BoardStatus::Pending), t(2, 9)).await.unwrap();
    assert!(fresh.created, "boards are never deleted; a retired one does not block");
    assert_ne!(fresh.board.id, old.board.id);
    let all = s.list_boards(&BoardFilter::default()).await.unwrap();
    assert_eq!(all.len(), 2);
}

pub async fn list_filters_by_provider_and_status(s: &dyn Store) {
    s.add_board(&new_board("lever", "zeta", BoardStatus::Pending), t(1, 9)).await.unwrap();
    s.add_board(&new_board("lever", "Alpha", BoardStatus::Active), t(1, 9)).await.unwrap();
    s.add_board(&new_board("ashby", "beta", BoardStatus::Active), t(1, 9)).await.unwrap();
    let lever = s
        .list_boards(&BoardFilter {
            provider: Some(Provider::parse("lever").unwrap()),
            statuses: vec![],
        })
        .await
        .unwrap();
    let names: Vec<&str> = lever.iter().map(|b| b.key.board.as_str()).collect();
    assert_eq!(names, ["Alpha", "zeta"], "ordered by provider, then board ignoring case");
    let active = s
        .list_boards(&BoardFilter { provider: None, statuses: vec![BoardStatus::Active] })
        .await
        .unwrap();
    let names: Vec<String> = active.iter().map(|b| b.key.to_string()).collect();
    assert_eq!(names, ["ashby/beta", "lever/Alpha"]);
}

// scenario: Activation
pub async fn activate_flips_only_pending(s: &dyn Store) {
    let pending =
        s.add_board(&new_board("workable", "acme", BoardStatus::Pending), t(1, 9)).await.unwrap();
    assert_eq!(pending.board.status, BoardStatus::Pending);
    assert!(s.activate_board(&key("workable", "ACME"), t(2, 9)).await.unwrap());
    let b = s.board_by_key(&key("workable", "acme")).await.unwrap().unwrap();
    assert_eq!(b.status, BoardStatus::Active);
    assert_eq!(b.activated_at, Some(t(2, 9)));
    assert!(!s.activate_board(&key("workable", "acme"), t(3, 9)).await.unwrap(), "already active");
    let b = s.board_by_key(&key("workable", "acme")).await.unwrap().unwrap();
    assert_eq!(b.activated_at, Some(t(2, 9)), "the first activation is kept");
}

pub async fn status_changes_keep_reason_for_rejected(s: &dyn Store) {
    let b =
        s.add_board(&new_board("personio", "acme", BoardStatus::Pending), t(1, 9)).await.unwrap();
    assert!(s.set_board_status(b.board.id, BoardStatus::Rejected, Some("no jobs")).await.unwrap());
    let all = s.list_boards(&BoardFilter::default()).await.unwrap();
    assert_eq!(all[0].status, BoardStatus::Rejected);
    assert_eq!(all[0].rejected_reason.as_deref(), Some("no jobs"));
    assert!(s.set_board_status(b.board.id, BoardStatus::Retired, Some("ignored")).await.unwrap());
    let all = s.list_boards(&BoardFilter::default()).await.unwrap();
    assert_eq!(all[0].rejected_reason, None);
    let missing = freehire_domain::BoardId::new(987_654).unwrap();
    assert!(!s.set_board_status(missing, BoardStatus::Active, None).await.unwrap());
}

pub async fn a_bulk_add_skips_live_identities_in_one_batch(s: &dyn Store) {
    s.add_board(&new_board("ashby", "Windsurf", BoardStatus::Active), t(1, 9)).await.unwrap();
    let retired =
        s.add_board(&new_board("lever", "gone", BoardStatus::Active), t(1, 9)).await.unwrap();
    s.set_board_status(retired.board.id, BoardStatus::Retired, None).await.unwrap();
    let batch = vec![
        new_board("ashby", "windsurf", BoardStatus::Pending), // live, other case
        new_board("ashby", "cartesia", BoardStatus::Pending),
        new_board("ashby", "Cartesia", BoardStatus::Pending), // repeats a row of the batch
        new_board("lever", "gone", BoardStatus::Pending),     // only a retired one exists
        new_board("greenhouse", "acme", BoardStatus::Active),
    ];
    let created = s.add_boards(&batch, t(2, 9)).await.unwrap();
    let names: Vec<String> = created.iter().map(|b| b.key.to_string()).collect();
    assert_eq!(names, ["ashby/cartesia", "lever/gone", "greenhouse/acme"]);
    assert_eq!(created[0].status, BoardStatus::Pending);
    assert_eq!(created[0].activated_at, None);
    assert_eq!(created[0].company, "cartesia Inc");
    assert_eq!(created[2].activated_at, Some(t(2, 9)), "an active add is activated at once");
    assert_eq!(created[1].created_at, t(2, 9));

    // A second run of the same batch adds nothing; an empty batch is a no-op.
    assert!(s.add_boards(&batch, t(3, 9)).await.unwrap().is_empty());
    assert!(s.add_boards(&[], t(3, 9)).await.unwrap().is_empty());
    assert_eq!(s.list_boards(&BoardFilter::default()).await.unwrap().len(), 5);
}

pub async fn a_bulk_add_of_thousands_is_one_call(s: &dyn Store) {
    let batch: Vec<NewBoard> = (0..3000)
        .map(|i| new_board("greenhouse", &format!("co{i}"), BoardStatus::Pending))
        .collect();
    assert_eq!(s.add_boards(&batch, t(1, 9)).await.unwrap().len(), 3000);
    let live = s.list_boards(&BoardFilter::default()).await.unwrap();
    assert_eq!(live.len(), 3000);
}
