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

// scenario: Import refuses what add refuses
pub async fn import_and_add_refuse_the_same_hostile_boards(s: &dyn Store) {
    let csv = "provider,board,company\n\
               ashby,..,Root\n\
               ashby,../../admin,Admin\n\
               greenhouse,https://evil.com/x,Evil\n\
               teamtailor,169.254.169.254,Metadata\n\
               workday,acme.wd1.myworkdayjobs.com/..,Acme\n\
               lever,%2e%2e,Dots\n\
               ashby,cartesia,Cartesia\n";
    let report = import_csv(s, csv.as_bytes(), t(1, 0)).await.unwrap();
    assert_eq!((report.added, report.existing), (1, 0), "{:?}", report.errors);
    assert_eq!(report.errors.len(), 6, "{:?}", report.errors);
    for (i, error) in report.errors.iter().enumerate() {
        assert!(error.starts_with(&format!("line {}, column board: invalid ", i + 2)), "{error}");
    }
    for url in
        ["https://jobs.ashbyhq.com/..", "https://jobs.ashbyhq.com/%2e%2e", "javascript:alert(1)"]
    {
        let err = add_from_url(s, url, "X", BoardStatus::Active, t(1, 0)).await.unwrap_err();
        assert!(!err.to_string().contains("port number"), "{url}: {err}");
    }
    let err = add_from_url(s, "javascript:alert(1)", "X", BoardStatus::Active, t(1, 0))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("scheme \"javascript\""), "{err}");
    let boards = s.list_boards(&BoardFilter::default()).await.unwrap();
    assert_eq!(boards.len(), 1);
    assert_eq!(boards[0].key.board, "cartesia");
}
