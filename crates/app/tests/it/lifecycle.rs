//! The lifecycle beyond a provider run, end to end on a real store: the chronic-board close
//! and its reopening, liveness passes over pages served by a local HTTP server, an
//! operator's moderation and the prune of long-closed jobs.

use std::time::Duration as StdDuration;

use chrono::Duration;
use freehire_app::ingest::{IngestConfig, run_provider};
use freehire_app::lifecycle::{
    chronic::close_chronic_boards,
    liveness::{LivenessConfig, Prober, pass},
    moderate,
    prune::{PruneRule, prune},
};
use freehire_domain::{ClosedReason, JobPosting, Provider};
use freehire_ingest::http::{ClientConfig, HostPacing, RetryConfig};
use freehire_ingest::replay::{ReplayServer, Reply, Route};
use freehire_store::{ListPage, LivenessRead, Store};
use tokio_util::sync::CancellationToken;

use crate::support::{add_cartesia, ashby_board, ashby_server, crawl_cartesia, posting, t};

async fn open_total(s: &dyn Store) -> u64 {
    s.list_open_jobs(ListPage::new(1, 0)).await.unwrap().total
}

// scenario: A board failing for a week has its postings closed
pub async fn a_week_of_failures_closes_a_boards_postings_and_recovery_reopens_them(s: &dyn Store) {
    add_cartesia(s, t(1, 0)).await;
    let listed = crawl_cartesia(s, ashby_board("cartesia"), t(1, 0)).await.inserted;
    assert!(listed > 0);
    // The board breaks: every later run fails.
    let (_server, broken) = ashby_server(&[("cartesia", Reply::status(500))]).await;
    let ashby = Provider::parse("ashby").unwrap();
    let failed = run_provider(
        s,
        &broken,
        &ashby,
        &IngestConfig::default(),
        &CancellationToken::new(),
        &|| t(2, 0),
    )
    .await
    .unwrap();
    assert_eq!(failed.failed, 1);

    // Four days after the last success: not yet chronic.
    let early = close_chronic_boards(s, t(5, 0)).await.unwrap();
    assert_eq!((early.boards.len(), early.closed), (0, 0));
    assert_eq!(open_total(s).await, listed);

    // Past a week: every open posting of the board closes `board_failing`.
    let chronic = close_chronic_boards(s, t(8, 1)).await.unwrap();
    assert_eq!(chronic.boards.len(), 1);
    assert_eq!(chronic.boards[0].board, "cartesia");
    assert_eq!(chronic.closed, listed);
    assert_eq!(open_total(s).await, 0);
    let all = s.jobs_after(None, 1000).await.unwrap();
    assert!(all.iter().all(|j| j.closed_reason == Some(ClosedReason::BoardFailing)));
    // Nothing left to close the next hour.
    assert_eq!(close_chronic_boards(s, t(8, 2)).await.unwrap().closed, 0);

    // The board recovers: its next crawl reopens what it lists.
    let back = crawl_cartesia(s, ashby_board("cartesia"), t(9, 0)).await;
    assert_eq!(back.failed, 0);
    assert_eq!(open_total(s).await, listed);
}

fn manual(id: &str, path: &str) -> JobPosting {
    JobPosting {
        source: Provider::parse("manual").unwrap(),
        url: format!("https://jobs.example.com/{path}"),
        ..posting(id, &format!("Role {id}"), "Initech")
    }
}

const SHOWN: &str = "<html><body><h1>Platform Engineer</h1><p>We are hiring a platform \
    engineer to run our Kubernetes fleet. You will own deployments, observability and the \
    on-call rotation with a team of five. Apply below with your CV.</p></body></html>";

async fn pages() -> (ReplayServer, Prober) {
    let host = "https://jobs.example.com";
    let server = ReplayServer::builder()
        .route(Route::get(host, "/shown").reply(Reply::html(SHOWN)))
        .route(Route::get(host, "/filled").reply(Reply::html(
            "<html><body><h1>Data Engineer</h1><p>Sorry, this position has been filled. \
             Browse our other openings on the careers page.</p></body></html>",
        )))
        .route(Route::get(host, "/gone").reply(Reply::status(404)))
        .route(Route::get(host, "/moved").reply(Reply::redirect(302, "/careers/job-not-found")))
        .route(Route::get(host, "/careers/job-not-found").reply(Reply::html(SHOWN)))
        .route(Route::get(host, "/flaky").reply(Reply::status(503)))
        .start()
        .await
        .unwrap();
    let config = ClientConfig {
        host_pacing: HostPacing::Off,
        retry: RetryConfig { retries: 0, delay: StdDuration::from_millis(1) },
        ..ClientConfig::replaying(server.origin())
    };
    let prober = Prober::new(config).unwrap();
    (server, prober)
}

// scenario: Liveness closes a posting read expired twice
pub async fn two_expired_reads_close_an_unwatched_posting(s: &dyn Store) {
    s.upsert_jobs(
        &[
            manual("1", "shown"),
            manual("2", "filled"),
            manual("3", "gone"),
            manual("4", "moved"),
            manual("5", "flaky"),
        ],
        t(1, 0),
    )
    .await
    .unwrap();
    let (_server, prober) = pages().await;
    let config = LivenessConfig { concurrency: 2, ..LivenessConfig::default() };

    let first = pass(s, &prober, &config, &|| t(2, 0)).await.unwrap();
    let mut verdicts: Vec<(String, LivenessRead, u32)> = first
        .reads
        .iter()
        .map(|r| (r.candidate.key.external_id.clone(), r.verdict, r.strikes))
        .collect();
    verdicts.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        verdicts,
        vec![
            ("1".to_owned(), LivenessRead::Alive, 0),
            ("2".to_owned(), LivenessRead::Expired, 1),
            ("3".to_owned(), LivenessRead::Expired, 1),
            ("4".to_owned(), LivenessRead::Expired, 1),
            ("5".to_owned(), LivenessRead::Unknown, 0),
        ]
    );
    let reason = |id: &str| {
        first.reads.iter().find(|r| r.candidate.key.external_id == id).unwrap().reason.clone()
    };
    assert!(reason("2").contains("filled"), "{}", reason("2"));
    assert!(reason("3").contains("404"), "{}", reason("3"));
    assert!(reason("4").contains("job-not-found"), "{}", reason("4"));
    assert_eq!(first.closed(), 0, "one expired read is a strike, not a close");
    assert_eq!(open_total(s).await, 5);

    // Read an hour later: nothing is due again yet.
    assert!(pass(s, &prober, &config, &|| t(2, 1)).await.unwrap().reads.is_empty());

    // The next day: the second expired read closes each `expired`.
    let second = pass(s, &prober, &config, &|| t(3, 0)).await.unwrap();
    assert_eq!(second.closed(), 3);
    assert_eq!(open_total(s).await, 2);
    let closed: Vec<_> = s
        .jobs_after(None, 10)
        .await
        .unwrap()
        .into_iter()
        .filter(|j| j.closed_at.is_some())
        .collect();
    assert_eq!(closed.len(), 3);
    assert!(closed.iter().all(|j| j.closed_reason == Some(ClosedReason::Expired)));

    // Closed postings are not read again; the shown one and the flaky one are.
    let third = pass(s, &prober, &config, &|| t(4, 0)).await.unwrap();
    let mut ids: Vec<&str> =
        third.reads.iter().map(|r| r.candidate.key.external_id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["1", "5"]);

    // Excluded sources are never judged by their page.
    let excluded = LivenessConfig { excluded_sources: vec!["manual".into()], ..config };
    assert!(pass(s, &prober, &excluded, &|| t(6, 0)).await.unwrap().reads.is_empty());
}

// scenario: An operator closes a job
// scenario: Pruning long-closed jobs
pub async fn moderation_closes_once_and_prune_archives_long_closed_jobs(s: &dyn Store) {
    let written =
        s.upsert_jobs(&[manual("1", "shown"), manual("2", "filled")], t(1, 0)).await.unwrap();
    let slug = s.jobs_by_ids(&[written[0].id]).await.unwrap().remove(0).public_slug;
    let closed = moderate(s, &slug, t(1, 1)).await.unwrap();
    assert_eq!(closed.map(|k| k.external_id), Some("1".to_owned()));
    assert_eq!(moderate(s, &slug, t(1, 2)).await.unwrap(), None, "already closed");
    let job = s.job_by_slug(&slug).await.unwrap().unwrap();
    assert_eq!(job.closed_reason, Some(ClosedReason::Moderated));

    // The closed job waits in the delete outbox until the index drops it.
    let rule = PruneRule { closed_for: Duration::days(30), limit: None, apply: true };
    let later = t(1, 1) + Duration::days(31);
    assert!(prune(s, &rule, later).await.unwrap().is_empty(), "still leaving the index");
    drain_deletes(s).await;
    let dry = PruneRule { apply: false, ..rule };
    let listed = prune(s, &dry, later).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(s.job_by_slug(&slug).await.unwrap().is_some(), "a dry run deletes nothing");
    assert!(prune(s, &rule, t(1, 1) + Duration::days(29)).await.unwrap().is_empty(), "too young");
    let pruned = prune(s, &rule, later).await.unwrap();
    assert_eq!(pruned.len(), 1);
    assert_eq!(pruned[0].title, "Role 1");
    assert!(s.job_by_slug(&slug).await.unwrap().is_none());
    assert_eq!(open_total(s).await, 1, "the open job stays");
}

async fn drain_deletes(s: &dyn Store) {
    use freehire_store::OutboxKind;
    loop {
        let options = freehire_store::ClaimOptions::default();
        let batch = s.claim_outbox(OutboxKind::Delete, options, t(1, 0)).await.unwrap();
        if batch.is_empty() {
            break;
        }
        s.ack_outbox(OutboxKind::Delete, &batch).await.unwrap();
    }
}
