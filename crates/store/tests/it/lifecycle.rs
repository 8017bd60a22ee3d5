//! The lifecycle beyond a crawl: liveness candidates and reads, the prune of long-closed jobs.
//! Each test takes the whole test database (it drains the delete outbox and counts archive
//! rows, which no port offers).

use freehire_domain::{BoardStatus, ClosedReason, EventSource, NewBoard};
use freehire_store::{ApplyOptions, JobKey, LivenessRead, TrackingFilter, testing::TestDb};

use crate::{
    boards::key,
    fixtures::{posting, t, user},
};

fn job_key(source: &str, external_id: &str) -> JobKey {
    JobKey { source: key(source, "x").provider, external_id: external_id.to_owned() }
}

// scenario: Liveness reads of unwatched postings
pub async fn liveness_reads_postings_no_live_board_watches(db: &TestDb) {
    let s = db.store();
    // greenhouse has a live board: its jobs are the crawl's. lever's only board is retired and
    // manual has none: theirs are the probe's.
    for (provider, status) in [("greenhouse", BoardStatus::Active), ("lever", BoardStatus::Retired)]
    {
        let board =
            NewBoard { key: key(provider, "acme"), company: "Acme".into(), url: None, status };
        s.add_board(&board, t(1, 0)).await.unwrap();
    }
    let mut no_url = posting("manual", "3", "Data Engineer");
    no_url.url = String::new();
    s.upsert_jobs(
        &[
            posting("greenhouse", "acme:1", "Backend Engineer"),
            posting("lever", "acme:2", "Frontend Engineer"),
            posting("manual", "1", "Platform Engineer"),
            posting("manual", "2", "Site Reliability Engineer"),
            no_url,
        ],
        t(1, 8),
    )
    .await
    .unwrap();
    s.close_jobs(&[job_key("manual", "2")], ClosedReason::Moderated, t(1, 9)).await.unwrap();

    let found = s.liveness_candidates(t(3, 0), 10).await.unwrap();
    let keys: Vec<&str> = found.iter().map(|c| c.key.external_id.as_str()).collect();
    assert_eq!(keys, ["acme:2", "1"], "open, with a page, no live board; by id");
    assert!(found.iter().all(|c| c.strikes == 0));
    assert_eq!(found[1].url, "https://jobs.example.com/1");

    // Two expired reads make two strikes; an unknown read keeps them; an alive one clears.
    // A strike counts only if the last one is older than the window (here an hour).
    let manual = found[1].id;
    let read = |r, at: chrono::DateTime<chrono::Utc>| async move {
        s.record_liveness(manual, r, Some("HTTP 404"), at, at - chrono::Duration::hours(1)).await
    };
    assert_eq!(read(LivenessRead::Expired, t(2, 0)).await.unwrap(), 1);
    assert_eq!(read(LivenessRead::Unknown, t(2, 1)).await.unwrap(), 1);
    assert_eq!(read(LivenessRead::Expired, t(2, 2)).await.unwrap(), 2);
    // A second worker's expired read of the same hour is the same observation.
    let again = t(2, 2) + chrono::Duration::minutes(5);
    assert_eq!(read(LivenessRead::Expired, again).await.unwrap(), 2, "one strike per window");
    assert_eq!(read(LivenessRead::Alive, t(2, 3)).await.unwrap(), 0);
    assert_eq!(
        read(LivenessRead::Expired, t(2, 3) + chrono::Duration::minutes(1)).await.unwrap(),
        1,
        "cleared, then counted anew"
    );
    // Read at 03:00 on day 2: the lever job (never read) comes first; the manual one is not
    // due again before its read time.
    let found = s.liveness_candidates(t(2, 3), 10).await.unwrap();
    let keys: Vec<&str> = found.iter().map(|c| c.key.external_id.as_str()).collect();
    assert_eq!(keys, ["acme:2"]);
    let found = s.liveness_candidates(t(2, 4), 1).await.unwrap();
    assert_eq!(found[0].key.external_id, "acme:2", "never read first");
    let found = s.liveness_candidates(t(2, 4), 10).await.unwrap();
    assert_eq!(found.len(), 2);
    assert_eq!(db.scalar("SELECT count(*) FROM job_liveness").await, 1);
}

// scenario: Pruning long-closed jobs
pub async fn pruning_archives_long_closed_jobs_and_applications_keep_their_role(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let written = s
        .upsert_jobs(
            &[
                posting("greenhouse", "acme:1", "Backend Engineer"),
                posting("greenhouse", "acme:2", "Frontend Engineer"),
                posting("greenhouse", "acme:3", "Data Engineer"),
            ],
            t(1, 8),
        )
        .await
        .unwrap();
    let jobs = s.jobs_by_ids(&written.iter().map(|w| w.id).collect::<Vec<_>>()).await.unwrap();
    let apply = ApplyOptions {
        applied_at: t(1, 9),
        explicit_date: false,
        cv_id: None,
        source: EventSource::User,
    };
    s.track_apply(ada.id, &jobs[0].public_slug, &apply, t(1, 9)).await.unwrap().unwrap();
    s.close_jobs(&[job_key("greenhouse", "acme:1")], ClosedReason::BoardUnseen, t(2, 0))
        .await
        .unwrap();
    s.close_jobs(&[job_key("greenhouse", "acme:2")], ClosedReason::Expired, t(5, 0)).await.unwrap();
    // acme:1 still waits to leave the index: not pruned until the drain took it.
    let cutoff = t(4, 0);
    assert!(s.prune_closed(cutoff, "closed_90d", 100, false, t(9, 0)).await.unwrap().is_empty());
    db.execute("DELETE FROM search_delete_outbox").await;

    let dry = s.prune_closed(cutoff, "closed_90d", 100, false, t(9, 0)).await.unwrap();
    assert_eq!(dry.iter().map(|p| p.external_id.as_str()).collect::<Vec<_>>(), ["acme:1"]);
    assert_eq!(db.scalar("SELECT count(*) FROM jobs").await, 3, "a dry run changes nothing");
    assert_eq!(db.scalar("SELECT count(*) FROM pruned_jobs").await, 0);

    let done = s.prune_closed(cutoff, "closed_90d", 100, true, t(9, 0)).await.unwrap();
    assert_eq!(done, dry);
    assert_eq!(db.scalar("SELECT count(*) FROM jobs").await, 2);
    assert_eq!(
        db.scalar("SELECT count(*) FROM pruned_jobs WHERE rule = 'closed_90d' AND title = 'Backend Engineer'")
            .await,
        1
    );
    // The application keeps its company and role; its posting is gone.
    let list = s.tracking_list(ada.id, TrackingFilter::All, 10, 0).await.unwrap();
    let card = &list.cards[0];
    assert!(card.job_closed);
    assert_eq!(
        (card.title.as_str(), card.company.as_str()),
        ("Backend Engineer", "Acme Labs, Inc.")
    );
    // Nothing more is old enough; a later cutoff takes the next one.
    assert!(s.prune_closed(cutoff, "closed_90d", 100, true, t(9, 0)).await.unwrap().is_empty());
    let later = s.prune_closed(t(6, 0), "closed_90d", 100, true, t(9, 0)).await.unwrap();
    assert_eq!(later.len(), 1);
}

// scenario: A role's history counts its postings ever seen and open now
pub async fn role_history_counts_a_roles_postings_ever_and_open(db: &TestDb) {
    let s = db.store();
    let role = |id: &str, fp: &str| {
        let mut p = posting("greenhouse", id, "Backend Engineer");
        p.role_fingerprint = fp.to_owned();
        p
    };
    s.upsert_jobs(
        &[
            role("acme:1", "backend-engineer"),
            role("acme:2", "backend-engineer"),
            role("acme:3", "backend-engineer"),
            role("acme:4", "backend-engineer"),
            role("acme:5", "data-engineer"),
            role("acme:6", ""),
        ],
        t(1, 8),
    )
    .await
    .unwrap();
    let mut ids = std::collections::HashMap::new();
    for n in 1..=6 {
        let external = format!("acme:{n}");
        let job = s.job_by_key(&job_key("greenhouse", &external)).await.unwrap().unwrap();
        ids.insert(external, job.id);
    }
    let id = |external: &str| ids[external];
    s.close_jobs(
        &[job_key("greenhouse", "acme:1"), job_key("greenhouse", "acme:2")],
        ClosedReason::BoardUnseen,
        t(2, 0),
    )
    .await
    .unwrap();
    let unknown = freehire_domain::JobId::new(999_999).unwrap();
    let history = s
        .role_history(&[id("acme:3"), id("acme:1"), id("acme:5"), id("acme:6"), unknown])
        .await
        .unwrap();
    let got: Vec<(i64, u32, u32)> =
        history.iter().map(|h| (h.id.get(), h.postings, h.open)).collect();
    let mut want =
        vec![(id("acme:1").get(), 4, 2), (id("acme:3").get(), 4, 2), (id("acme:5").get(), 1, 1)];
    want.sort_unstable();
    assert_eq!(got, want, "no fingerprint and unknown ids are absent");
    assert!(s.role_history(&[]).await.unwrap().is_empty());
}

// scenario: Ghost reports and the signal's inputs
pub async fn ghost_reports_are_live_until_retracted_and_inputs_name_applicants(db: &TestDb) {
    let s = db.store();
    let ada = user(s, "ada@example.com").await;
    let bob = user(s, "bob@example.com").await;
    s.upsert_jobs(&[posting("greenhouse", "acme:1", "Backend Engineer")], t(1, 8)).await.unwrap();
    let job = s.job_by_key(&job_key("greenhouse", "acme:1")).await.unwrap().unwrap();
    let day = |d| chrono::NaiveDate::from_ymd_opt(2026, 11, d).unwrap();

    assert_eq!(s.ghost_inputs(job.id).await.unwrap(), freehire_store::GhostInputs::default());
    s.report_ghost(ada.id, job.id, day(1), t(2, 0)).await.unwrap();
    s.report_ghost(ada.id, job.id, day(2), t(2, 1)).await.unwrap();
    assert_eq!(s.my_ghost_report(ada.id, job.id).await.unwrap(), Some(day(2)), "one live report");
    assert_eq!(s.my_ghost_report(bob.id, job.id).await.unwrap(), None);
    let apply = ApplyOptions {
        applied_at: t(1, 9),
        explicit_date: false,
        cv_id: None,
        source: EventSource::User,
    };
    s.track_apply(bob.id, &job.public_slug, &apply, t(1, 9)).await.unwrap().unwrap();
    let inputs = s.ghost_inputs(job.id).await.unwrap();
    assert_eq!(inputs.reporters, vec![ada.id]);
    assert_eq!(inputs.applications.len(), 1);
    assert_eq!(inputs.applications[0].user, bob.id);
    assert_eq!(inputs.applications[0].applied_at, t(1, 9));

    assert!(s.retract_ghost(ada.id, job.id, t(3, 0)).await.unwrap());
    assert!(!s.retract_ghost(ada.id, job.id, t(3, 1)).await.unwrap(), "nothing left to retract");
    assert!(s.ghost_inputs(job.id).await.unwrap().reporters.is_empty());
    assert_eq!(s.my_ghost_report(ada.id, job.id).await.unwrap(), None);
    // A new report revives the row.
    s.report_ghost(ada.id, job.id, day(3), t(4, 0)).await.unwrap();
    assert_eq!(s.ghost_inputs(job.id).await.unwrap().reporters, vec![ada.id]);
    assert_eq!(db.scalar("SELECT count(*) FROM ghost_reports").await, 1);
}
