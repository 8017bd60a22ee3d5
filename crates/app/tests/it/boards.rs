//! Board curation.

use freehire_app::boards::{add_from_url, import_csv};
use freehire_domain::BoardStatus;
use freehire_store::{BoardFilter, Store};

use crate::support::t;

// scenario: Same board twice
pub async fn add_from_url_recognises_and_folds_duplicates(s: &dyn Store) {
    let added = add_from_url(
        s,
        "https://jobs.ashbyhq.com/Cartesia",
        "Cartesia",
        BoardStatus::Active,
        t(1, 0),
    )
    .await
    .unwrap();
    assert!(added.created);
    assert_eq!(added.board.key.provider.as_str(), "ashby");
    assert_eq!(added.board.status, BoardStatus::Active);
    assert!(added.board.url.is_some());
    let again = add_from_url(
        s,
        "https://api.ashbyhq.com/posting-api/job-board/cartesia",
        "Cartesia",
        BoardStatus::Active,
        t(1, 0),
    )
    .await
    .unwrap();
    assert!(!again.created, "the API URL names the same board");
    assert_eq!(again.board.id, added.board.id);
    let err = add_from_url(s, "https://example.com/careers", "X", BoardStatus::Active, t(1, 0))
        .await
        .unwrap_err();
    assert!(!err.to_string().is_empty());
    let err = add_from_url(s, "https://jobs.lever.co/acme", "  ", BoardStatus::Active, t(1, 0))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("company"), "{err}");
    assert_eq!(s.list_boards(&BoardFilter::default()).await.unwrap().len(), 1);
}

// scenario: Import with a bad row
pub async fn import_reports_bad_lines_and_keeps_good_ones(s: &dyn Store) {
    let csv = "provider,board,company\n\
               greenhouse,acme,Acme\n\
               lever,beta,Beta\n\
               nosuch,x,X\n\
               greenhouse,ACME,Acme again\n";
    let report = import_csv(s, csv.as_bytes(), t(1, 0)).await.unwrap();
    assert_eq!(report.added, 2);
    assert_eq!(report.existing, 1);
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    assert!(report.errors[0].contains('4'), "the error names its line: {:?}", report.errors);
    let boards = s.list_boards(&BoardFilter::default()).await.unwrap();
    assert_eq!(boards.len(), 2);
    assert!(boards.iter().all(|b| b.status == BoardStatus::Active));
}
