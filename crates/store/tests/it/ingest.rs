//! Seen sets, touches and unseen closes.

use chrono::Duration;
use freehire_domain::{ClosedReason, JobPosting, Provider};
use freehire_store::{JobKey, ListPage, OutboxKind, Refreshed, Store, UnseenScope};

use crate::fixtures::{posting, t};

fn key(p: &JobPosting) -> JobKey {
    JobKey { source: p.source.clone(), external_id: p.external_id.clone() }
}

pub async fn seen_set_is_board_scoped_and_retries_hydration(s: &dyn Store) {
    let full = posting("smartrecruiters", "acme:1", "Engineer");
    let mut young_bare = posting("smartrecruiters", "acme:2", "Designer");
    young_bare.description = String::new();
    let mut old_bare = posting("smartrecruiters", "acme:3", "Writer");
    old_bare.description = String::new();
    let other_board = posting("smartrecruiters", "acme-eu:1", "Engineer");
    let wildcard = posting("smartrecruiters", "ac_e:1", "Engineer");
    let other_source = posting("lever", "acme:1", "Engineer");
    s.upsert_jobs(&[old_bare.clone()], t(1, 0)).await.unwrap();
    s.upsert_jobs(&[full.clone(), young_bare, other_board, wildcard, other_source], t(20, 0))
        .await
        .unwrap();
    s.close_jobs(&[key(&full)], ClosedReason::Unseen, t(21, 0)).await.unwrap();

    let source = Provider::parse("smartrecruiters").unwrap();
    let seen = s.board_seen_set(&source, "acme:", t(10, 0)).await.unwrap();
    let ids: Vec<(&str, bool)> =
        seen.iter().map(|j| (j.external_id.as_str(), j.needs_detail)).collect();
    assert_eq!(
        ids,
        [("acme:1", false), ("acme:2", true), ("acme:3", false)],
        "closed rows count; young empty descriptions are marked for a new detail fetch"
    );
    assert_eq!(seen[0].source_hash, full.source_hash());
    assert_eq!(seen[0].is_tech, Some(true));
    let wild = s.board_seen_set(&source, "ac_e:", t(10, 0)).await.unwrap();
    assert_eq!(wild.len(), 1, "LIKE wildcards in a board name are literal");
    assert!(s.board_seen_set(&source, "", t(10, 0)).await.is_err(), "an empty prefix is refused");
}

pub async fn touch_bumps_and_reopens_without_a_hash(s: &dyn Store) {
    let a = posting("workday", "acme:1", "Engineer");
    let b = posting("workday", "acme:2", "Analyst");
    s.upsert_jobs(&[a.clone(), b.clone()], t(2, 0)).await.unwrap();
    s.close_jobs(&[key(&b)], ClosedReason::BoardUnseen, t(3, 0)).await.unwrap();
    let missing = posting("workday", "acme:9", "Nobody");
    let out = s.touch_jobs(&[key(&a), key(&b), key(&missing)], t(4, 0)).await.unwrap();
    assert!(matches!(out[0], Refreshed::Touched(_)));
    assert!(matches!(out[1], Refreshed::Reopened(_)));
    assert_eq!(out[2], Refreshed::Missed);
    let job = s.job_by_key(&key(&b)).await.unwrap().unwrap();
    assert!(job.is_open());
    assert_eq!(job.last_seen_at, t(4, 0));
    assert_eq!(job.updated_at, t(2, 0));
}

// scenario: Board-scoped close
pub async fn close_unseen_respects_scope_and_cutoff(s: &dyn Store) {
    let seen_now = posting("greenhouse", "acme:1", "Kept");
    let stale = posting("greenhouse", "acme:2", "Gone");
    let other_board = posting("greenhouse", "beta:1", "Other board");
    let other_source = posting("lever", "acme:2", "Other source");
    s.upsert_jobs(&[stale.clone(), other_board.clone(), other_source.clone()], t(1, 0))
        .await
        .unwrap();
    s.upsert_jobs(std::slice::from_ref(&seen_now), t(5, 0)).await.unwrap();

    let scope = UnseenScope {
        source: Provider::parse("greenhouse").unwrap(),
        board_prefixes: vec!["acme:".into()],
        last_seen_before: t(5, 0),
    };
    let closed = s.close_unseen(&scope, ClosedReason::BoardUnseen, t(5, 1)).await.unwrap();
    assert_eq!(closed.len(), 1);
    let job = s.job_by_key(&key(&stale)).await.unwrap().unwrap();
    assert_eq!(job.closed_reason, Some(ClosedReason::BoardUnseen));
    assert_eq!(job.closed_at, Some(t(5, 1)));
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 3);
    assert_eq!(s.outbox_depth(OutboxKind::Delete).await.unwrap(), 1);
    assert!(s.close_unseen(&scope, ClosedReason::BoardUnseen, t(5, 2)).await.unwrap().is_empty());

    let sweep = UnseenScope {
        source: Provider::parse("greenhouse").unwrap(),
        board_prefixes: vec!["acme:".into(), "beta:".into()],
        last_seen_before: t(5, 0) - Duration::hours(48),
    };
    let swept = s.close_unseen(&sweep, ClosedReason::Unseen, t(5, 2)).await.unwrap();
    assert_eq!(swept.len(), 1, "only beta:1 is older than the grace");
    let empty = UnseenScope { board_prefixes: vec![], ..sweep };
    assert!(s.close_unseen(&empty, ClosedReason::Unseen, t(5, 3)).await.unwrap().is_empty());
    assert!(s.job_by_key(&key(&other_source)).await.unwrap().unwrap().is_open());
}

// scenario: One bad posting
pub async fn a_board_write_lands_whole_or_not_at_all(s: &dyn Store) {
    let board =
        freehire_domain::BoardKey::new(Provider::parse("ashby").unwrap(), "acme", "").unwrap();
    let kept = posting("ashby", "acme:1", "Kept");
    let gone = posting("ashby", "acme:2", "Gone");
    s.upsert_jobs(&[kept.clone(), gone.clone()], t(1, 0)).await.unwrap();

    let fresh = posting("ashby", "acme:3", "Fresh");
    let mut bad = posting("ashby", "acme:4", "Bad");
    bad.title = String::new();
    let failing = freehire_store::BoardWrite {
        board: &board,
        postings: &[fresh.clone(), bad],
        source_hashes: &[],
        content_hashes: &[],
        touch: &[key(&kept)],
        named: 3,
        activate: true,
        close_unseen_before: Some(t(2, 0)),
        at: t(2, 0),
    };
    assert!(s.write_board(&failing).await.is_err());
    assert!(s.job_by_key(&key(&fresh)).await.unwrap().is_none(), "nothing was written");
    assert!(s.job_by_key(&key(&gone)).await.unwrap().unwrap().is_open(), "nothing was closed");
    assert!(s.board_health(&board).await.unwrap().is_none(), "no health was recorded");

    let write = freehire_store::BoardWrite { postings: std::slice::from_ref(&fresh), ..failing };
    let done = s.write_board(&write).await.unwrap();
    assert_eq!(done.upserted.len(), 1);
    assert!(matches!(done.touched[0], Refreshed::Touched(_)));
    assert_eq!(done.closed.len(), 1, "the unlisted job closes");
    assert_eq!(done.health.last_ingested_count, 3);
    assert_eq!(
        s.job_by_key(&key(&gone)).await.unwrap().unwrap().closed_reason,
        Some(ClosedReason::BoardUnseen)
    );
    assert_eq!(s.job_by_key(&key(&kept)).await.unwrap().unwrap().last_seen_at, t(2, 0));
    assert!(s.job_by_key(&key(&fresh)).await.unwrap().unwrap().is_open());
}

// scenario: A group of board writes
pub async fn a_group_of_board_writes_lands_board_by_board(s: &dyn Store) {
    let ashby = Provider::parse("ashby").unwrap();
    let board = |name: &str| freehire_domain::BoardKey::new(ashby.clone(), name, "").unwrap();
    let (acme, beta, gamma) = (board("acme"), board("beta"), board("gamma"));
    let stale = posting("ashby", "acme:1", "Stale");
    s.upsert_jobs(std::slice::from_ref(&stale), t(1, 0)).await.unwrap();
    let fresh = posting("ashby", "acme:2", "Fresh");
    let doomed = posting("ashby", "beta:1", "Doomed");
    let other = posting("ashby", "gamma:1", "Other");
    let write = |board, postings| freehire_store::BoardWrite {
        board,
        postings,
        source_hashes: &[],
        content_hashes: &[],
        touch: &[],
        named: 1,
        activate: true,
        close_unseen_before: Some(t(2, 0)),
        at: t(2, 0),
    };
    // The middle board fails after its rows went up (a source hash missing): its savepoint
    // is rolled back and the boards around it land.
    let short = ["only-one".to_owned()];
    let beta_postings = [doomed.clone(), posting("ashby", "beta:2", "Doomed too")];
    let beta_write =
        freehire_store::BoardWrite { source_hashes: &short, ..write(&beta, &beta_postings) };
    let writes = [
        write(&acme, std::slice::from_ref(&fresh)),
        beta_write,
        write(&gamma, std::slice::from_ref(&other)),
    ];
    let out = s.write_boards(&writes).await.unwrap();
    assert_eq!(out.len(), 3, "one result per board, in order");
    let acme_done = out[0].as_ref().unwrap();
    assert_eq!(acme_done.upserted.len(), 1);
    assert_eq!(acme_done.closed.len(), 1, "the first board's close ran");
    assert!(out[1].is_err(), "the failing board reports its own error");
    assert_eq!(out[2].as_ref().unwrap().health.last_ingested_count, 1);

    assert!(s.job_by_key(&key(&fresh)).await.unwrap().unwrap().is_open());
    assert_eq!(
        s.job_by_key(&key(&stale)).await.unwrap().unwrap().closed_reason,
        Some(ClosedReason::BoardUnseen)
    );
    assert!(s.job_by_key(&key(&doomed)).await.unwrap().is_none(), "nothing of it was written");
    assert!(s.board_health(&beta).await.unwrap().is_none(), "no health for the failed board");
    assert!(s.job_by_key(&key(&other)).await.unwrap().unwrap().is_open());
    assert!(s.board_health(&gamma).await.unwrap().is_some());
    // Search learns of the rows that landed (the closed one leaves it) and of nothing else.
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap(), 2, "fresh and other");
    assert_eq!(s.outbox_depth(OutboxKind::Delete).await.unwrap(), 1, "stale");
    assert!(s.write_boards(&[]).await.unwrap().is_empty(), "an empty group writes nothing");
    // A group where every board succeeds lands whole.
    let (later, again) =
        (posting("ashby", "acme:3", "Later"), posting("ashby", "gamma:2", "Again"));
    let good =
        [write(&acme, std::slice::from_ref(&later)), write(&gamma, std::slice::from_ref(&again))];
    let done = s.write_boards(&good).await.unwrap();
    assert!(done.iter().all(Result::is_ok), "{done:?}");
    assert!(s.job_by_key(&key(&later)).await.unwrap().unwrap().is_open());
    assert!(s.job_by_key(&key(&again)).await.unwrap().unwrap().is_open());
}

/// What one board's write did and left, without ids or names: the same crawl written alone
/// and in a group must read the same.
async fn board_effects(
    s: &dyn Store,
    done: &freehire_store::BoardWritten,
    board: &freehire_domain::BoardKey,
    ids: &[&str],
) -> String {
    let upserted: Vec<_> = done.upserted.iter().map(|u| (u.outcome, u.reopened)).collect();
    let touched: Vec<&str> = done
        .touched
        .iter()
        .map(|r| match r {
            Refreshed::Touched(_) => "touched",
            Refreshed::Reopened(_) => "reopened",
            Refreshed::Missed => "missed",
        })
        .collect();
    let h = &done.health;
    let mut out = format!(
        "{upserted:?} {touched:?} closed {} health {} {:?} {} {:?}",
        done.closed.len(),
        h.consecutive_failures,
        h.last_success_at,
        h.last_ingested_count,
        h.last_yield_at
    );
    let status = s.board_by_key(board).await.unwrap().map(|b| b.status);
    out.push_str(&format!(" board {status:?}"));
    for id in ids {
        let key = JobKey {
            source: Provider::parse("ashby").unwrap(),
            external_id: format!("{}:{id}", board.board),
        };
        let job = s.job_by_key(&key).await.unwrap();
        let state = job.map(|j| (j.posting.title, j.closed_reason, j.last_seen_at));
        out.push_str(&format!(" | {id} {state:?}"));
    }
    out
}

/// Three boards' crawls, each board named `{tag}-…` (a company per tag, so the two tags'
/// roles are not reposts of each other), stored as before the crawl; the writes follow.
async fn three_crawls(s: &dyn Store, tag: &str) -> [freehire_domain::BoardKey; 3] {
    let ashby = Provider::parse("ashby").unwrap();
    let keys = ["first", "again", "empty"]
        .map(|b| freehire_domain::BoardKey::new(ashby.clone(), &format!("{tag}-{b}"), "").unwrap());
    for k in &keys {
        let board = freehire_domain::NewBoard {
            key: k.clone(),
            company: format!("{tag} Labs"),
            url: None,
            status: freehire_domain::BoardStatus::Pending,
        };
        s.add_board(&board, t(1, 0)).await.unwrap();
    }
    let stored = [
        (&keys[0], "stale", "Stale"),
        (&keys[1], "kept", "Kept"),
        (&keys[1], "edited", "Edited"),
        (&keys[1], "shut", "Shut"),
        (&keys[2], "gone", "Gone"),
    ];
    let mut rows = Vec::new();
    for (k, id, title) in stored {
        let mut p = posting("ashby", &format!("{}:{id}", k.board), title);
        p.company = format!("{tag} Labs");
        rows.push(p);
    }
    s.upsert_jobs(&rows, t(1, 0)).await.unwrap();
    s.close_jobs(&[key(&rows[3])], ClosedReason::Unseen, t(1, 1)).await.unwrap();
    keys
}

// scenario: A group written at one instant
pub async fn a_group_at_one_instant_lands_as_its_boards_would_alone(s: &dyn Store) {
    let mut effects = Vec::new();
    for tag in ["solo", "group"] {
        let keys = three_crawls(s, tag).await;
        let company = format!("{tag} Labs");
        let job = |board: &freehire_domain::BoardKey, id: &str, title: &str| {
            let mut p = posting("ashby", &format!("{}:{id}", board.board), title);
            p.company.clone_from(&company);
            p
        };
        let first = [job(&keys[0], "new1", "New one"), job(&keys[0], "new2", "New two")];
        let hashes = ["stated-1".to_owned(), "stated-2".to_owned()];
        let edited = [job(&keys[1], "edited", "Edited again")];
        let touch = [
            key(&job(&keys[1], "kept", "Kept")),
            key(&job(&keys[1], "shut", "Shut")),
            key(&job(&keys[1], "never", "Never stored")),
        ];
        let write = |board, postings, touch, activate| freehire_store::BoardWrite {
            board,
            postings,
            source_hashes: &[],
            content_hashes: &[],
            touch,
            named: 2,
            activate,
            close_unseen_before: Some(t(2, 0)),
            at: t(2, 1),
        };
        let writes = [
            freehire_store::BoardWrite {
                source_hashes: &hashes,
                ..write(&keys[0], &first, &[], true)
            },
            freehire_store::BoardWrite {
                close_unseen_before: None,
                ..write(&keys[1], &edited, &touch, false)
            },
            freehire_store::BoardWrite { named: 0, ..write(&keys[2], &[], &[], true) },
        ];
        let index_before = s.outbox_depth(OutboxKind::Index).await.unwrap();
        let delete_before = s.outbox_depth(OutboxKind::Delete).await.unwrap();
        let done: Vec<freehire_store::BoardWritten> = if tag == "solo" {
            let mut done = Vec::new();
            for w in &writes {
                done.push(s.write_board(w).await.unwrap());
            }
            done
        } else {
            s.write_boards(&writes).await.unwrap().into_iter().map(Result::unwrap).collect()
        };
        let ids: [&[&str]; 3] =
            [&["stale", "new1", "new2"], &["kept", "edited", "shut", "never"], &["gone"]];
        let mut tagged = Vec::new();
        for ((done, k), ids) in done.iter().zip(&keys).zip(ids) {
            tagged.push(board_effects(s, done, k, ids).await);
        }
        let source = Provider::parse("ashby").unwrap();
        let seen = s.board_seen_set(&source, &keys[0].external_id_prefix(), t(1, 0)).await;
        let stored: Vec<String> = seen
            .unwrap()
            .into_iter()
            .filter(|j| j.external_id.contains(":new"))
            .map(|j| j.source_hash)
            .collect();
        tagged.push(format!("source hashes {stored:?}"));
        tagged.push(format!(
            "outbox +{} index +{} delete",
            s.outbox_depth(OutboxKind::Index).await.unwrap() - index_before,
            s.outbox_depth(OutboxKind::Delete).await.unwrap() - delete_before
        ));
        effects.push(tagged);
    }
    assert_eq!(effects[0], effects[1], "one set of statements writes what board by board did");
    let first = &effects[1][0];
    assert!(first.contains("[(Inserted, false), (Inserted, false)]"), "{first}");
    assert!(first.contains("closed 1") && first.contains("Some(Active)"), "{first}");
    let again = &effects[1][1];
    assert!(again.contains(r#"["touched", "reopened", "missed"]"#), "{again}");
    assert!(again.contains("[(Changed, false)]") && again.contains("Edited again"), "{again}");
    assert!(effects[1][2].contains("closed 1") && effects[1][2].contains("BoardUnseen"));
    assert!(effects[1][3].contains(r#""stated-1", "stated-2""#), "{}", effects[1][3]);
}

// scenario: The caller's source hashes
pub async fn a_board_write_stores_the_callers_source_hashes(s: &dyn Store) {
    let board =
        freehire_domain::BoardKey::new(Provider::parse("ashby").unwrap(), "acme", "").unwrap();
    let a = posting("ashby", "acme:1", "Engineer");
    let b = posting("ashby", "acme:2", "Analyst");
    let hashes = ["stated-1".to_owned(), "stated-2".to_owned()];
    let write = freehire_store::BoardWrite {
        board: &board,
        postings: &[a.clone(), b.clone()],
        source_hashes: &hashes[..1],
        content_hashes: &[],
        touch: &[],
        named: 2,
        activate: false,
        close_unseen_before: None,
        at: t(1, 0),
    };
    assert!(s.write_board(&write).await.is_err(), "one hash per posting");
    assert!(s.job_by_key(&key(&a)).await.unwrap().is_none(), "nothing was written");

    s.write_board(&freehire_store::BoardWrite { source_hashes: &hashes, ..write }).await.unwrap();
    let source = Provider::parse("ashby").unwrap();
    let seen = s.board_seen_set(&source, "acme:", t(1, 0)).await.unwrap();
    let stored: Vec<&str> = seen.iter().map(|j| j.source_hash.as_str()).collect();
    assert_eq!(stored, ["stated-1", "stated-2"]);

    // Without hashes the posting's own is stored; an unchanged rewrite keeps the caller's.
    s.write_board(&freehire_store::BoardWrite {
        postings: std::slice::from_ref(&b),
        source_hashes: &[],
        at: t(2, 0),
        ..write
    })
    .await
    .unwrap();
    let mut edited = a.clone();
    edited.title = "Staff Engineer".into();
    s.write_board(&freehire_store::BoardWrite {
        postings: std::slice::from_ref(&edited),
        source_hashes: &[],
        at: t(2, 0),
        ..write
    })
    .await
    .unwrap();
    let seen = s.board_seen_set(&source, "acme:", t(1, 0)).await.unwrap();
    assert_eq!(seen[0].source_hash, edited.source_hash());
    assert_eq!(seen[1].source_hash, "stated-2", "an unchanged posting is only bumped");

    // The caller's content hashes: one per posting, and the one stored decides what changed.
    let content = [edited.content_hash()];
    let short = freehire_store::BoardWrite {
        postings: std::slice::from_ref(&edited),
        source_hashes: &[],
        content_hashes: &[],
        at: t(3, 0),
        ..write
    };
    let two = [content[0].clone(), content[0].clone()];
    let err = s.write_board(&freehire_store::BoardWrite { content_hashes: &two, ..short }).await;
    assert!(err.is_err(), "one content hash per posting");
    let again = freehire_store::BoardWrite { content_hashes: &content, ..short };
    let again = s.write_board(&again).await.unwrap();
    assert_eq!(again.upserted[0].outcome, freehire_store::UpsertOutcome::Unchanged);
    let mut retitled = edited.clone();
    retitled.title = "Principal Engineer".into();
    let hashes = [retitled.content_hash()];
    let changed = freehire_store::BoardWrite {
        postings: std::slice::from_ref(&retitled),
        content_hashes: &hashes,
        ..short
    };
    let changed = s.write_board(&changed).await.unwrap();
    assert_eq!(changed.upserted[0].outcome, freehire_store::UpsertOutcome::Changed);
}

pub async fn touch_keeps_input_order_across_open_closed_and_missing(s: &dyn Store) {
    let a = posting("workday", "acme:1", "Engineer");
    let b = posting("workday", "acme:2", "Analyst");
    let c = posting("workday", "acme:3", "Writer");
    s.upsert_jobs(&[a.clone(), b.clone(), c.clone()], t(2, 0)).await.unwrap();
    s.close_jobs(&[key(&b)], ClosedReason::BoardUnseen, t(3, 0)).await.unwrap();
    let missing = posting("workday", "acme:9", "Nobody");
    let keys = [key(&b), key(&missing), key(&a), key(&c), key(&a)];
    let out = s.touch_jobs(&keys, t(4, 0)).await.unwrap();
    let id_a = s.job_by_key(&key(&a)).await.unwrap().unwrap().id;
    let id_b = s.job_by_key(&key(&b)).await.unwrap().unwrap().id;
    let id_c = s.job_by_key(&key(&c)).await.unwrap().unwrap().id;
    assert_eq!(
        out,
        [
            Refreshed::Reopened(id_b),
            Refreshed::Missed,
            Refreshed::Touched(id_a),
            Refreshed::Touched(id_c),
            Refreshed::Touched(id_a),
        ]
    );
    for k in [key(&a), key(&b), key(&c)] {
        let job = s.job_by_key(&k).await.unwrap().unwrap();
        assert!(job.is_open());
        assert_eq!(job.last_seen_at, t(4, 0));
    }
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap(), 3, "three inserts; b's reopen");
}
