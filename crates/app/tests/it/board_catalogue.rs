//! The bundled board catalogue, its seed, and the offline demo's ingest.

use std::time::Instant;

use freehire_app::board_catalogue::{BUNDLED, CatalogueFile, FileCounts, seed, seed_if_empty};
use freehire_app::demo;
use freehire_domain::BoardStatus;
use freehire_store::{BoardFilter, ListPage, Store};

use crate::support::t;

/// Data rows of a CSV text (lines after the header, blank ones not counted).
fn rows(csv: &str) -> u64 {
    csv.lines().skip(1).filter(|l| !l.trim().is_empty()).count() as u64
}

// scenario: Seeding the bundled catalogue
pub async fn the_bundled_catalogue_seeds_once(s: &dyn Store) {
    let started = Instant::now();
    let first = seed(s, BUNDLED, BoardStatus::Pending, t(1, 0)).await.unwrap();
    eprintln!("seeded {:?} in {:?}", first.total(), started.elapsed());
    eprintln!("FILES {:?}", first.files);
    for r in &first.refused {
        if r.file != "gem" {
            eprintln!("REF {} {}", r.file, r.reason);
        }
    }
    assert_eq!(first.files.len(), 8);
    for (file, (name, counts)) in BUNDLED.iter().zip(&first.files) {
        assert_eq!(file.name, *name);
        assert_eq!(
            counts.added + counts.existing + counts.refused,
            rows(file.csv),
            "{name}: every row is added, present or refused"
        );
    }
    let total = first.total();
    assert!(total.added > 11_000, "{total:?}");
    let gem = first.files.iter().find(|(n, _)| *n == "gem").unwrap().1;
    assert_eq!((gem.added, gem.refused), (rows(BUNDLED[1].csv), 0), "every Gem row is a board");
    assert_eq!(first.refused.len() as u64, total.refused);
    assert!(first.refused.iter().all(|r| r.reason.starts_with("line ")), "{:?}", first.refused[0]);
    let stored = s.list_boards(&BoardFilter::default()).await.unwrap();
    assert_eq!(stored.len() as u64, total.added);
    assert!(stored.iter().all(|b| b.status == BoardStatus::Pending && b.url.is_some()));

    // Idempotent: a second run adds nothing, and says every row is present or refused.
    let started = Instant::now();
    let second = seed(s, BUNDLED, BoardStatus::Pending, t(2, 0)).await.unwrap();
    eprintln!("seeded again in {:?}", started.elapsed());
    assert_eq!(
        second.total(),
        FileCounts { added: 0, existing: total.added + total.existing, refused: total.refused }
    );
    assert!(seed_if_empty(s, BUNDLED, BoardStatus::Pending, t(2, 0)).await.unwrap().is_none());
    assert_eq!(s.list_boards(&BoardFilter::default()).await.unwrap().len(), stored.len());
}

const SMALL: &str = "name,url\n\
    Cartesia,https://jobs.ashbyhq.com/cartesia\n\
    Cartesia again,https://jobs.ashbyhq.com/Cartesia\n\
    Acme,https://jobs.example.net/acme\n\
    Nowhere,https://example.com/careers\n\
    Windsurf,https://api.ashbyhq.com/posting-api/job-board/windsurf\n\
    Acme,https://acme.wd1.myworkdayjobs.com/en-US/External\n";

// scenario: Refused catalogue rows
pub async fn refused_rows_are_counted_and_listed_never_fatal(s: &dyn Store) {
    // Windsurf is present already (another spelling): the seed leaves it.
    freehire_app::boards::add_from_url(
        s,
        "https://jobs.ashbyhq.com/Windsurf",
        "Windsurf",
        BoardStatus::Active,
        t(1, 0),
    )
    .await
    .unwrap();
    let files = [CatalogueFile { name: "small", csv: SMALL }];
    assert!(seed_if_empty(s, &files, BoardStatus::Pending, t(1, 0)).await.unwrap().is_none());
    let report = seed(s, &files, BoardStatus::Pending, t(1, 0)).await.unwrap();
    assert_eq!(report.files, [("small", FileCounts { added: 2, existing: 2, refused: 2 })]);
    let reasons: Vec<&str> = report.refused.iter().map(|r| r.reason.as_str()).collect();
    assert!(
        reasons[0].starts_with("line 4, column url") && reasons[0].contains("example.net"),
        "{reasons:?}"
    );
    assert!(reasons[1].starts_with("line 5, column url"), "{reasons:?}");
    let boards = s.list_boards(&BoardFilter::default()).await.unwrap();
    let keys: Vec<String> = boards.iter().map(|b| format!("{} {}", b.key, b.status)).collect();
    assert_eq!(
        keys,
        [
            "ashby/cartesia pending",
            "ashby/Windsurf active",
            "workday/acme.wd1.myworkdayjobs.com/External pending"
        ]
    );
    let cartesia = &boards[0];
    assert_eq!(cartesia.company, "Cartesia", "the first row of an identity wins");
    assert_eq!(cartesia.url.as_deref(), Some("https://jobs.ashbyhq.com/cartesia"));
}

/// The committed recordings' postings, counted from the files.
fn recorded_postings() -> u64 {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue/demo/ashby");
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let body: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            total += body["jobs"].as_array().unwrap().len() as u64;
        }
    }
    total
}

// scenario: The offline demo
#[tokio::test]
async fn the_demo_ingests_the_committed_recordings_into_a_store_and_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let (url, index_dir, first) = demo::ingest_into(dir.path()).await.unwrap();
    eprintln!("demo: {:?} in {:?}", first.run, started.elapsed());
    let boards = rows(demo::BOARDS[0].csv);
    assert_eq!(first.seeded.total(), FileCounts { added: boards, existing: 0, refused: 0 });
    assert_eq!((first.run.boards, first.run.crawled, first.run.failed), (boards, boards, 0));
    let postings = recorded_postings();
    assert!(postings > 150, "{postings}");
    assert_eq!(first.run.inserted + first.run.skipped, postings, "{:?}", first.run);

    let store = freehire_app::startup::open_store(&url).await.unwrap();
    let open = store.list_open_jobs(ListPage::new(1, 0)).await.unwrap().total;
    assert!(open > 100, "{open}");
    let index = freehire_search::EmbeddedIndex::open_read_only(&index_dir).unwrap();
    let query = freehire_search::JobQuery::default();
    let request = freehire_search::SearchRequest::new(&query, chrono::Utc::now());
    assert_eq!(freehire_search::SearchIndex::search(&index, request).await.unwrap().total, open);
    let activated = store.list_boards(&BoardFilter::default()).await.unwrap();
    assert!(activated.iter().all(|b| b.status == BoardStatus::Active), "a crawl proves a board");
    store.close().await;
    drop(index);

    // Again on the same folder: nothing new.
    let (_, _, second) = demo::ingest_into(dir.path()).await.unwrap();
    assert_eq!(second.seeded.total().added, 0);
    assert_eq!(second.run.inserted, 0);
}
