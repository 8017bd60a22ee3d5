//! The operators' figures: `StatsRepo` on both backends. The fleet counts each provider's
//! live boards by health (healthy, failing, cooling, never crawled) beside its open jobs; the
//! catalogue's counts leave copies and closed jobs out; a day's rollup counts the jobs first
//! seen and closed that day and is rewritten in place.

use chrono::NaiveDate;
use freehire_domain::{BoardStatus, ClosedReason, FailureClass, NewBoard};
use freehire_store::{CatalogCounts, DayVerdict, JobKey, Store};

use crate::boards::key;
use crate::fixtures::{posting, t};

fn board(provider: &str, name: &str) -> NewBoard {
    NewBoard {
        key: key(provider, name),
        company: format!("{name} Inc"),
        url: None,
        status: BoardStatus::Active,
    }
}

// scenario: The fleet status counts each provider's boards by health beside its open jobs
pub async fn the_fleet_counts_boards_by_health_and_open_jobs(s: &dyn Store) {
    let empty = s.fleet_status(t(5, 9)).await.unwrap();
    assert_eq!((empty.last_job_added_at, empty.providers.len()), (None, 0));
    assert_eq!(s.catalog_counts().await.unwrap(), CatalogCounts::default());
    assert_eq!(s.outbox_backlog().await.unwrap(), Default::default());

    for (provider, name) in [
        ("greenhouse", "Acme"),
        ("greenhouse", "Globex"),
        ("greenhouse", "Initech"),
        ("lever", "Hooli"),
    ] {
        s.add_board(&board(provider, name), t(1, 9)).await.unwrap();
    }
    s.record_board_success(&key("greenhouse", "acme"), 3, t(4, 9)).await.unwrap();
    // Globex fails until it cools down.
    for _ in 0..freehire_domain::COOLDOWN_THRESHOLD {
        s.record_board_failure(
            &key("greenhouse", "globex"),
            FailureClass::HttpStatus,
            "HTTP 500",
            t(4, 10),
        )
        .await
        .unwrap();
    }
    // Initech and Hooli were never crawled.
    let written = s
        .upsert_jobs(
            &[
                posting("greenhouse", "acme:1", "Go Engineer"),
                posting("greenhouse", "acme:2", "Go Engineer"),
            ],
            t(3, 9),
        )
        .await
        .unwrap();
    s.upsert_jobs(&[posting("manual", "m1", "Designer")], t(4, 12)).await.unwrap();
    assert!(s.set_duplicate_of(written[1].id, Some(written[0].id)).await.unwrap());

    // The drain has not run: every write waits in the outboxes, the oldest from the first.
    let (upserts, deletes) = s.outbox_backlog().await.unwrap();
    assert!(upserts.rows >= 2 && deletes.rows <= 1, "{upserts:?} {deletes:?}");
    assert_eq!(upserts.oldest, Some(t(3, 9)));

    let fleet = s.fleet_status(t(4, 11)).await.unwrap();
    assert_eq!(fleet.last_job_added_at, Some(t(4, 12)));
    let names: Vec<&str> = fleet.providers.iter().map(|p| p.provider.as_str()).collect();
    assert_eq!(names, ["greenhouse", "lever", "manual"]);
    let gh = &fleet.providers[0];
    assert_eq!((gh.boards, gh.healthy, gh.failing, gh.never_crawled), (3, 1, 1, 1));
    assert_eq!(gh.cooling, 1, "the failing board cools down");
    assert_eq!(
        (gh.last_success_at, gh.open_jobs, gh.last_job_added_at),
        (Some(t(4, 9)), 1, Some(t(3, 9)))
    );
    let lever = &fleet.providers[1];
    assert_eq!((lever.boards, lever.never_crawled, lever.open_jobs), (1, 1, 0));
    let manual = &fleet.providers[2];
    assert_eq!((manual.boards, manual.open_jobs), (0, 1), "jobs without boards still show");

    assert_eq!(
        s.catalog_counts().await.unwrap(),
        CatalogCounts { open_jobs: 2, duplicates: 1, companies: 1, providers: 2, boards: 4 }
    );
}

// scenario: A day's rollup counts the jobs added and closed that day and is rewritten in place
pub async fn a_daily_rollup_counts_the_day_and_is_rewritten(s: &dyn Store) {
    s.upsert_jobs(
        &[posting("greenhouse", "a:1", "One"), posting("greenhouse", "a:2", "Two")],
        t(3, 9),
    )
    .await
    .unwrap();
    s.upsert_jobs(&[posting("greenhouse", "a:3", "Three")], t(4, 23)).await.unwrap();
    let k = |id: &str| JobKey {
        source: freehire_domain::Provider::parse("greenhouse").unwrap(),
        external_id: id.into(),
    };
    s.close_jobs(&[k("a:1")], ClosedReason::BoardUnseen, t(4, 8)).await.unwrap();

    let day = |d| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
    let ok = DayVerdict { verdict: "ok".into(), boards: 4, failing: 0 };
    s.record_daily(day(3), &ok, t(5, 1)).await.unwrap();
    s.record_daily(day(4), &ok, t(5, 1)).await.unwrap();
    let degraded = DayVerdict { verdict: "degraded".into(), boards: 4, failing: 2 };
    s.record_daily(day(4), &degraded, t(5, 2)).await.unwrap();

    let days = s.daily_stats(day(1)).await.unwrap();
    assert_eq!(days.len(), 2, "one row a day: {days:?}");
    assert_eq!((days[0].day, days[0].added, days[0].removed, days[0].open_jobs), (day(4), 1, 1, 2));
    assert_eq!((days[0].verdict.as_deref(), days[0].computed_at), (Some("degraded"), t(5, 2)));
    assert_eq!((days[1].day, days[1].added, days[1].removed), (day(3), 2, 0));
    assert_eq!(s.daily_stats(day(4)).await.unwrap().len(), 1);
}
