//! The match step over real databases: percolated matches, the unfiltered rule, `start_at`,
//! and a differential against each saved search run on the embedded index.

use std::collections::BTreeSet;

use freehire_app::search_sync::drain;
use freehire_search::{EmbeddedIndex, Endpoint, JobQuery, SearchIndex, SearchRequest};
use freehire_store::{ClaimOptions, testing::TestDb};

use crate::notify::{notifier, posting, user};
use crate::support::t;

// scenario: An unfiltered subscription is never matched
pub async fn an_unfiltered_subscription_is_never_matched(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let seed = db.seed().await;
    let all = seed.saved_search(ada.id, "everything", "", t(1, 8)).await;
    let rust = seed.saved_search(ada.id, "rust", "skills=rust", t(1, 8)).await;
    let everything =
        seed.subscription(ada.id, all, freehire_domain::Channel::Email, None, None, t(1, 8)).await;
    let narrow =
        seed.subscription(ada.id, rust, freehire_domain::Channel::Email, None, None, t(2, 8)).await;
    // One job before the narrow subscription's start, three after.
    s.upsert_jobs(&[posting("b:old", "Old Rust job", &["rust"])], t(1, 9)).await.unwrap();
    let postings = [
        posting("b:1", "Rust Engineer", &["rust"]),
        posting("b:2", "Go Engineer", &["go"]),
        posting("b:3", "Rust and Go", &["rust", "go"]),
    ];
    s.upsert_jobs(&postings, t(2, 9)).await.unwrap();
    let mail = tempfile::tempdir().unwrap();
    let n = notifier(db.store.clone(), mail.path(), "w1");
    let (read, recorded) = n.match_new_jobs(t(2, 10)).await.unwrap();
    assert_eq!((read, recorded), (4, 2));
    assert_eq!(seed.matches(narrow).await, (2, 0));
    assert_eq!(seed.matches(everything).await, (0, 0), "an unfiltered search is never matched");
    // The cursor moved: a second pass reads nothing.
    assert_eq!(n.match_new_jobs(t(2, 11)).await.unwrap(), (0, 0));
    s.upsert_jobs(&[posting("b:4", "Rust again", &["rust"])], t(3, 9)).await.unwrap();
    assert_eq!(n.match_new_jobs(t(3, 10)).await.unwrap(), (1, 1));
    assert_eq!(seed.matches(narrow).await, (3, 0));
}

// scenario: Percolated matches equal each saved search on the engine
pub async fn percolated_matches_equal_each_saved_search_on_the_engine(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada").await;
    let seed = db.seed().await;
    let mut postings = Vec::new();
    let skills = [&["rust"][..], &["go"], &["rust", "postgresql"], &["python"], &[]];
    let titles = ["Rust Engineer", "Backend Developer", "Data Engineer", "Platform Engineer"];
    for i in 0..40 {
        postings.push(posting(
            &format!("b:{i}"),
            titles[i % titles.len()],
            skills[i % skills.len()],
        ));
    }
    s.upsert_jobs(&postings, t(2, 9)).await.unwrap();
    let queries = [
        "skills=rust",
        "skills=go,python",
        "skills=rust&q=data",
        "q=engineer",
        "q=platform&countries=de",
        "skills=postgresql&q=rust",
    ];
    let mut subs = Vec::new();
    for q in queries {
        let search = seed.saved_search(ada.id, q, q, t(1, 8)).await;
        let sub = seed
            .subscription(ada.id, search, freehire_domain::Channel::Email, None, None, t(1, 8))
            .await;
        subs.push((q, sub));
    }
    let mail = tempfile::tempdir().unwrap();
    let n = notifier(db.store.clone(), mail.path(), "w1");
    n.match_new_jobs(t(2, 10)).await.unwrap();

    let dir = tempfile::tempdir().unwrap();
    let index = EmbeddedIndex::open(dir.path()).unwrap();
    drain(s, &index, ClaimOptions::default(), t(2, 10)).await.unwrap();
    let digests = n.send_digests(t(3, 10)).await.unwrap();
    assert!(digests > 0);
    for (q, sub) in subs {
        let query = JobQuery::from_query_str(&format!("{q}&limit=100"), Endpoint::Search).unwrap();
        let hits = index.search(SearchRequest::new(&query, t(2, 10))).await.unwrap().hits;
        let engine: BTreeSet<String> = hits.into_iter().map(|h| h.public_slug).collect();
        let notes = s.notifications_of(ada.id).await.unwrap();
        let percolated: BTreeSet<String> = notes
            .iter()
            .filter(|n| n.title.ends_with(&format!(" for {q}")))
            .flat_map(|n| n.jobs.iter().map(|j| j.slug.clone()))
            .collect();
        assert!(!engine.is_empty(), "{q} finds something");
        assert_eq!(percolated, engine, "{q}");
        assert_eq!(seed.matches(sub).await.0, engine.len() as u64, "{q}");
    }
}
