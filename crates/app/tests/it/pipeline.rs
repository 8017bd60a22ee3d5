//! The ingest pipeline end to end: replayed ATS responses in, catalogue rows and outbox rows
//! out, lifecycle closes only when a complete listing proves them.

use chrono::Duration;
use freehire_app::ingest::{
    IngestConfig, RunStats, run_provider,
    scheduler::{WorkerConfig, run_once},
};
use freehire_domain::{BoardKey, BoardStatus, ClosedReason, FailureClass, NewBoard, Provider};
use freehire_ingest::replay::{ReplayServer, Reply, Route};
use freehire_store::{BoardFilter, JobKey, ListPage, OutboxKind, ScheduleDefaults, Store};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::support::{ashby_board, ashby_server, serve, t};

fn key(provider: &str, board: &str) -> BoardKey {
    BoardKey::new(Provider::parse(provider).unwrap(), board, "").unwrap()
}

async fn add(s: &dyn Store, provider: &str, board: &str, status: BoardStatus) {
    let b = NewBoard { key: key(provider, board), company: board.to_owned(), url: None, status };
    s.add_board(&b, t(1, 0)).await.unwrap();
}

async fn run(
    s: &dyn Store,
    registry: &freehire_ingest::Sources,
    provider: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> RunStats {
    run_provider(
        s,
        registry,
        &Provider::parse(provider).unwrap(),
        &IngestConfig::default(),
        &CancellationToken::new(),
        &move || at,
    )
    .await
    .unwrap()
}

fn json(v: &Value) -> Reply {
    Reply::json(serde_json::to_vec(v).unwrap())
}

// scenario: First crawl
// scenario: Ashby board
pub async fn first_crawl_fills_the_catalogue_and_activates_the_board(s: &dyn Store) {
    add(s, "ashby", "cartesia", BoardStatus::Pending).await;
    add(s, "ashby", "anara", BoardStatus::Active).await;
    let cartesia = ashby_board("cartesia");
    let expected =
        cartesia["jobs"].as_array().unwrap().iter().filter(|j| j["isListed"] != false).count();
    let (_server, registry) =
        ashby_server(&[("cartesia", json(&cartesia)), ("anara", json(&ashby_board("anara")))])
            .await;

    let stats = run(s, &registry, "ashby", t(2, 0)).await;
    assert_eq!(stats.boards, 2);
    assert_eq!(stats.crawled, 2, "an empty board (anara) is a success, not an outage");
    assert_eq!(stats.failed, 0);
    assert_eq!(stats.inserted as usize, expected);
    let list = s.list_open_jobs(ListPage::new(100, 0)).await.unwrap();
    assert_eq!(list.total as usize, expected);
    let job = &list.jobs[0];
    assert!(job.posting.external_id.starts_with("cartesia:"), "ids are namespaced by board");
    assert_eq!(job.posting.source.as_str(), "ashby");
    assert!(!job.posting.description.is_empty());
    assert!(list.jobs.iter().any(|j| !j.posting.facets.countries.is_empty()), "facets are derived");
    assert_eq!(s.outbox_depth(OutboxKind::Index).await.unwrap() as usize, expected);

    let boards = s.list_boards(&BoardFilter::default()).await.unwrap();
    assert!(boards.iter().all(|b| b.status == BoardStatus::Active), "pending flips to active");
    let health = s.board_health(&key("ashby", "cartesia")).await.unwrap().unwrap();
    assert_eq!(health.last_ingested_count as usize, expected);
    assert_eq!(health.consecutive_failures, 0);
}

// scenario: Unchanged re-crawl
// scenario: A job disappears
pub async fn second_crawl_closes_what_the_board_no_longer_lists(s: &dyn Store) {
    add(s, "ashby", "cartesia", BoardStatus::Active).await;
    let full = ashby_board("cartesia");
    let (_a, registry) = ashby_server(&[("cartesia", json(&full))]).await;
    let first = run(s, &registry, "ashby", t(2, 0)).await;

    let mut fewer = full.clone();
    let removed = fewer["jobs"].as_array_mut().unwrap().remove(0);
    let removed_key = JobKey {
        source: Provider::parse("ashby").unwrap(),
        external_id: format!("cartesia:{}", removed["id"].as_str().unwrap()),
    };
    let (_b, registry) = ashby_server(&[("cartesia", json(&fewer))]).await;
    let second = run(s, &registry, "ashby", t(3, 0)).await;
    assert_eq!(second.inserted, 0);
    assert_eq!(second.changed, 0, "nothing else changed");
    assert_eq!(second.closed_board, 1);
    assert_eq!(second.ingested, first.ingested - 1);
    assert_eq!(
        second.touched,
        first.inserted - 1,
        "unchanged postings skip derivation: {second:?}"
    );

    let gone = s.job_by_key(&removed_key).await.unwrap().unwrap();
    assert_eq!(gone.closed_reason, Some(ClosedReason::BoardUnseen));
    assert_eq!(gone.closed_at, Some(t(3, 0)));
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, first.inserted - 1);
    assert_eq!(s.outbox_depth(OutboxKind::Delete).await.unwrap(), 1, "the close de-indexes");
    let still = s.list_open_jobs(ListPage::new(100, 0)).await.unwrap();
    assert!(still.jobs.iter().all(|j| j.last_seen_at == t(3, 0)), "the rest were seen again");

    // It comes back unchanged: the touch reopens it and queues it for search again.
    let (_c, registry) = ashby_server(&[("cartesia", json(&full))]).await;
    let third = run(s, &registry, "ashby", t(4, 0)).await;
    assert_eq!((third.inserted, third.changed, third.touched), (0, 0, first.inserted));
    let back = s.job_by_key(&removed_key).await.unwrap().unwrap();
    assert!(back.is_open());
    assert_eq!(back.last_seen_at, t(4, 0));
    assert_eq!(s.outbox_depth(OutboxKind::Delete).await.unwrap(), 0, "its removal is dropped");

    // A posting edited at the source is derived and rewritten again.
    let mut edited = full.clone();
    edited["jobs"][1]["descriptionHtml"] =
        Value::String("<p>Rewritten by the employer.</p>".into());
    let (_d, registry) = ashby_server(&[("cartesia", json(&edited))]).await;
    let fourth = run(s, &registry, "ashby", t(5, 0)).await;
    assert_eq!((fourth.changed, fourth.touched), (1, first.inserted - 1), "{fourth:?}");
}

// scenario: Stored descriptions are sanitised
// scenario: Source hash
pub async fn descriptions_are_sanitised_only_for_postings_written(s: &dyn Store) {
    add(s, "ashby", "cartesia", BoardStatus::Active).await;
    let mut board = ashby_board("cartesia");
    let id = board["jobs"][0]["id"].as_str().unwrap().to_owned();
    let job_key =
        JobKey { source: Provider::parse("ashby").unwrap(), external_id: format!("cartesia:{id}") };
    board["jobs"][0]["descriptionHtml"] = Value::String(
        r#"<p style="color:red" onclick="x()">Build <img src="x.png">it.</p><script>steal()</script>"#
            .into(),
    );
    let (_a, registry) = ashby_server(&[("cartesia", json(&board))]).await;
    let first = run(s, &registry, "ashby", t(2, 0)).await;
    let stored = s.job_by_key(&job_key).await.unwrap().unwrap();
    assert_eq!(stored.posting.description, "<p>Build it.</p>", "nothing unsanitised is stored");

    // Unchanged at the source: only marked seen.
    let second = run(s, &registry, "ashby", t(3, 0)).await;
    assert_eq!((second.changed, second.touched), (0, first.inserted), "{second:?}");

    // Edited at the source in what the sanitiser drops: derived again, the same content is
    // only bumped, and the new source hash is kept so the next crawl skips it again.
    board["jobs"][0]["descriptionHtml"] =
        Value::String(r#"<p style="color:blue">Build <img src="y.png">it.</p>"#.into());
    let (_b, registry) = ashby_server(&[("cartesia", json(&board))]).await;
    let third = run(s, &registry, "ashby", t(4, 0)).await;
    assert_eq!((third.changed, third.touched), (0, first.inserted - 1), "{third:?}");
    assert_eq!(third.ingested, first.inserted);
    let fourth = run(s, &registry, "ashby", t(5, 0)).await;
    assert_eq!((fourth.changed, fourth.touched), (0, first.inserted), "{fourth:?}");
    let stored = s.job_by_key(&job_key).await.unwrap().unwrap();
    assert_eq!(stored.posting.description, "<p>Build it.</p>");
    assert_eq!(stored.last_seen_at, t(5, 0));
}

// scenario: Three failures
pub async fn a_failed_crawl_closes_nothing_and_backs_off(s: &dyn Store) {
    add(s, "ashby", "cartesia", BoardStatus::Active).await;
    let (_a, registry) = ashby_server(&[("cartesia", json(&ashby_board("cartesia")))]).await;
    let first = run(s, &registry, "ashby", t(2, 0)).await;

    for (i, (reply, class)) in [
        (Reply::status(500), FailureClass::HttpStatus),
        (Reply::html("<html><body>Access denied</body></html>"), FailureClass::BlockPage),
        (Reply::status(503), FailureClass::HttpStatus),
    ]
    .into_iter()
    .enumerate()
    {
        let (_b, registry) = ashby_server(&[("cartesia", reply)]).await;
        let stats = run(s, &registry, "ashby", t(3 + i as u32, 0)).await;
        assert_eq!(
            (stats.failed, stats.crawled, stats.closed_board, stats.closed_swept),
            (1, 0, 0, 0)
        );
        // The run names the failed board, its class and its error.
        let [failed] = stats.failures.as_slice() else { panic!("{:?}", stats.failures) };
        assert_eq!(
            (failed.key.to_string(), failed.company.as_str()),
            ("ashby/cartesia".into(), "cartesia")
        );
        assert_eq!(failed.failure.class, class, "{}", failed.failure.message);
        assert!(failed.failure.message.contains("posting-api/job-board/cartesia"), "{failed:?}");
    }
    assert_eq!(
        s.list_open_jobs(ListPage::default()).await.unwrap().total,
        first.inserted,
        "nothing closed"
    );
    assert_eq!(s.outbox_depth(OutboxKind::Delete).await.unwrap(), 0);
    let health = s.board_health(&key("ashby", "cartesia")).await.unwrap().unwrap();
    assert_eq!(health.consecutive_failures, 3);
    assert_eq!(health.cooldown_until, Some(t(5, 0) + Duration::hours(6)));
    assert!(health.last_error.unwrap().contains("HTTP 503"));
    assert_eq!(health.last_error_class, Some(FailureClass::HttpStatus));
}

// scenario: Cooling board
pub async fn cooling_boards_are_skipped(s: &dyn Store) {
    add(s, "ashby", "cartesia", BoardStatus::Active).await;
    for h in 0..3 {
        s.record_board_failure(&key("ashby", "cartesia"), FailureClass::Timeout, "down", t(2, h))
            .await
            .unwrap();
    }
    let (server, registry) = ashby_server(&[("cartesia", json(&ashby_board("cartesia")))]).await;
    let stats = run(s, &registry, "ashby", t(2, 3)).await;
    assert_eq!((stats.cooled, stats.crawled), (1, 0));
    assert!(server.requests().is_empty(), "a cooling board is not fetched");
    let stats = run(s, &registry, "ashby", t(2, 9)).await;
    assert_eq!((stats.cooled, stats.crawled), (0, 1), "after the cooldown it is crawled again");
}

// scenario: A provider without complete listings
pub async fn the_sweep_closes_long_unseen_jobs_of_listed_boards(s: &dyn Store) {
    // Teamtailor does not prove complete listings: no board-scoped close, only the sweep.
    add(s, "teamtailor", "acme", BoardStatus::Active).await;
    let feed: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::support::fixtures().join("careerkit/teamtailor.json"))
            .unwrap(),
    )
    .unwrap();
    let route = |body: &Value| {
        let mut b = ReplayServer::builder();
        b = b.route(Route::get("https://acme.teamtailor.com", "/jobs.json").reply(json(body)));
        b
    };
    let (_a, registry) = serve(route(&feed)).await;
    let first = run(s, &registry, "teamtailor", t(2, 0)).await;
    assert!(first.inserted >= 2, "{first:?}");

    let mut fewer = feed.clone();
    let items = fewer["items"].as_array_mut().expect("a JSON Feed has items");
    items.remove(0);
    let (_b, registry) = serve(route(&fewer)).await;
    let within_grace = run(s, &registry, "teamtailor", t(3, 0)).await;
    assert_eq!((within_grace.closed_board, within_grace.closed_swept), (0, 0), "24 h < 48 h grace");
    let (_c, registry) = serve(route(&fewer)).await;
    let after_grace = run(s, &registry, "teamtailor", t(4, 1)).await;
    assert_eq!((after_grace.closed_board, after_grace.closed_swept), (0, 1));
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, first.inserted - 1);
}

// scenario: Hydrating re-crawl
pub async fn hydrating_boards_touch_what_they_do_not_refetch(s: &dyn Store) {
    add(s, "smartrecruiters", "acme", BoardStatus::Active).await;
    let list: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::support::fixtures().join("careerkit/smartrecruiters.json"))
            .unwrap(),
    )
    .unwrap();
    let content = list["content"].as_array().expect("a SmartRecruiters page has content").clone();
    let mut builder = ReplayServer::builder().route(
        Route::get("https://api.smartrecruiters.com", "/v1/companies/acme/postings")
            .reply(json(&list)),
    );
    for posting in &content {
        let id = posting["id"].as_str().unwrap();
        let mut detail = posting.clone();
        detail["jobAd"] =
            serde_json::json!({"sections": {"jobDescription": {"text": "<p>Build things.</p>"}}});
        builder = builder.route(
            Route::get(
                "https://api.smartrecruiters.com",
                &format!("/v1/companies/acme/postings/{id}"),
            )
            .reply(json(&detail)),
        );
    }
    let (server, registry) = serve(builder).await;
    let first = run(s, &registry, "smartrecruiters", t(2, 0)).await;
    assert_eq!(first.inserted as usize, content.len(), "{first:?}");
    let details_first =
        server.requests().iter().filter(|r| r.path.matches('/').count() > 4).count();
    assert_eq!(details_first, content.len());

    let second = run(s, &registry, "smartrecruiters", t(3, 0)).await;
    let details_total =
        server.requests().iter().filter(|r| r.path.matches('/').count() > 4).count();
    assert_eq!(details_total, content.len(), "stored postings are not fetched again");
    assert_eq!(second.ingested as usize, content.len(), "they are touched instead: {second:?}");
    assert_eq!(second.closed_board, 0);
    let list = s.list_open_jobs(ListPage::new(100, 0)).await.unwrap();
    assert!(list.jobs.iter().all(|j| j.last_seen_at == t(3, 0)));
}

// scenario: Held provider
pub async fn run_once_refuses_a_held_provider(s: &dyn Store) {
    add(s, "ashby", "anara", BoardStatus::Active).await;
    let (_a, registry) = ashby_server(&[("anara", json(&ashby_board("anara")))]).await;
    let mut config = WorkerConfig::new("test");
    config.tick = std::time::Duration::from_millis(10);
    let ashby = Provider::parse("ashby").unwrap();
    assert!(
        s.claim_provider(&ashby, "other", ScheduleDefaults::default(), chrono::Utc::now())
            .await
            .unwrap()
    );
    let err = run_once(
        s,
        &registry,
        &ashby,
        &config,
        false,
        None,
        &CancellationToken::new(),
        &chrono::Utc::now,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("another worker"), "{err}");
    s.finish_provider_run(&ashby, "other", &freehire_store::RunStatus::Ok, chrono::Utc::now())
        .await
        .unwrap();
    let stats = run_once(
        s,
        &registry,
        &ashby,
        &config,
        false,
        None,
        &CancellationToken::new(),
        &chrono::Utc::now,
    )
    .await
    .unwrap();
    assert_eq!(stats.crawled, 1);
}

/// A Zoho Recruit career page (`None`: the bare URL, listed after the numbered pages) listing
/// `ids`.
fn zoho_page(page: Option<&str>, ids: std::ops::Range<usize>) -> Route {
    let jobs: Vec<Value> = ids
        .map(|i| {
            serde_json::json!({"id": format!("7643730000{i:08}"), "Posting_Title": format!("Engineer {i}"),
                               "City": "Tel Aviv", "Country": "Israel", "Remote_Job": false})
        })
        .collect();
    let value = serde_json::to_string(&jobs).unwrap().replace('&', "&amp;").replace('"', "&quot;");
    let html =
        format!("<html><body><input type=\"hidden\" id=\"jobs\" value=\"{value}\"></body></html>");
    let route = Route::get("https://acme.zohorecruit.com", "/jobs/Careers");
    match page {
        Some(p) => route.query(&format!("page={p}")),
        None => route,
    }
    .reply(Reply::html(html))
}

// scenario: A partial listing is written and closes nothing
pub async fn a_partial_listing_is_written_and_closes_nothing(s: &dyn Store) {
    add(s, "zohorecruit", "acme.zohorecruit.com", BoardStatus::Active).await;
    // 57 postings over two pages: complete.
    let pages =
        ReplayServer::builder().route(zoho_page(Some("2"), 50..57)).route(zoho_page(None, 0..50));
    let (_a, registry) = serve(pages).await;
    let first = run(s, &registry, "zohorecruit", t(2, 0)).await;
    assert_eq!((first.inserted, first.failed), (57, 0), "{first:?}");

    // Then page 2 repeats page 1: exactly 50, or a capped listing. Read, proving nothing gone.
    let pages =
        ReplayServer::builder().route(zoho_page(Some("2"), 0..50)).route(zoho_page(None, 0..50));
    let (_b, registry) = serve(pages).await;
    let config = IngestConfig { sweep_grace: Duration::zero(), ..IngestConfig::default() };
    let second = run_provider(
        s,
        &registry,
        &Provider::parse("zohorecruit").unwrap(),
        &config,
        &CancellationToken::new(),
        &|| t(9, 0),
    )
    .await
    .unwrap();
    assert_eq!((second.crawled, second.failed, second.ingested), (1, 0, 50), "{second:?}");
    assert_eq!(
        (second.closed_board, second.closed_swept),
        (0, 0),
        "a partial listing closes nothing"
    );
    assert_eq!(s.list_open_jobs(ListPage::default()).await.unwrap().total, 57);
    let health = s.board_healths(Some(&Provider::parse("zohorecruit").unwrap())).await.unwrap();
    assert_eq!(health[0].consecutive_failures, 0, "the board is healthy: {health:?}");
}

// scenario: A board whose write fails among boards written together
pub async fn a_board_whose_write_fails_fails_alone_in_its_group(
    db: &freehire_store::testing::TestDb,
) {
    let s = db.store();
    // The database itself refuses the rows of one company: a real failure inside the group's
    // transaction, after the boards before it in the group were written.
    match s.backend() {
        freehire_store::Backend::Sqlite => {
            db.execute(
                "CREATE TRIGGER doomed BEFORE INSERT ON jobs WHEN NEW.company = 'doomed' \
                 BEGIN SELECT RAISE(ABORT, 'doomed rows refused'); END",
            )
            .await;
        }
        freehire_store::Backend::Postgres => {
            db.execute(
                "CREATE FUNCTION doomed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 IF NEW.company = 'doomed' THEN RAISE EXCEPTION 'doomed rows refused'; END IF; \
                 RETURN NEW; END $$",
            )
            .await;
            db.execute(
                "CREATE TRIGGER doomed BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION doomed()",
            )
            .await;
        }
    }
    let names = ["cartesia", "doomed", "anara", "zeta"];
    for name in names {
        add(s, "ashby", name, BoardStatus::Pending).await;
    }
    let bodies: Vec<(&str, Reply)> = names
        .iter()
        .map(|n| (*n, json(&ashby_board(if *n == "zeta" { "reedsy" } else { "cartesia" }))))
        .collect();
    let (_server, registry) = ashby_server(&bodies).await;
    // Writes held back until every board has queued its write, so they share transactions.
    let block = db.block_writes("jobs").await;
    let crawl = run(s, &registry, "ashby", t(2, 0));
    let release = async {
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        drop(block);
    };
    let (stats, ()) = tokio::join!(crawl, release);

    assert_eq!((stats.crawled, stats.failed), (3, 1), "{:?}", stats.failures);
    let failed = &stats.failures[0];
    assert_eq!(failed.key, key("ashby", "doomed"));
    assert_eq!(failed.failure.class, FailureClass::Storage);
    assert!(failed.failure.message.contains("doomed rows refused"), "{}", failed.failure.message);
    let doomed = s.board_health(&key("ashby", "doomed")).await.unwrap().unwrap();
    assert_eq!(doomed.consecutive_failures, 1, "the failure is recorded");
    let boards = s
        .list_boards(&BoardFilter {
            provider: Some(Provider::parse("ashby").unwrap()),
            statuses: vec![],
        })
        .await
        .unwrap();
    for b in &boards {
        let expected =
            if b.key.board == "doomed" { BoardStatus::Pending } else { BoardStatus::Active };
        assert_eq!(b.status, expected, "{}", b.key);
    }
    let count = |board: &str| {
        format!("SELECT count(*) FROM jobs WHERE source = 'ashby' AND external_id LIKE '{board}:%'")
    };
    assert_eq!(db.scalar(&count("doomed")).await, 0, "nothing of the failed board");
    for name in ["cartesia", "anara", "zeta"] {
        assert!(db.scalar(&count(name)).await > 0, "{name} was written");
    }
}
